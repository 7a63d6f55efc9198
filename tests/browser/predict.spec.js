// Predict mode (?predict=1, web/predict.js): every question of every demo answered right, then
// wrong, by mouse and keyboard, with the feedback and the score checked; the step keys cannot skip
// a question; free play asks too, and there (not in a demo) before a delivery a snapshot may record
// (right, wrong, scored, in Japanese); a variant broken on purpose is asked what it really records;
// the axe audit with a question on screen and at a demo's end.
const { AxeBuilder } = require('@axe-core/playwright');
const { test, expect, settle, openPage, demos, send } = require('./fixtures');


const DEMOS = [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 'lab', 12, 13, 14, 15, 16, 17, 18];

// The engine's questions for a script.
async function allQuestionsOf(request, lines) {
  const res = await request.post('/api/run', { data: { scenario: lines.join('\n') } });
  expect(res.ok()).toBeTruthy();
  return (await res.json()).questions;
}
// Kinds the page asks in free play only (predict.js): a demo keeps its curated questions.
const FREE_PLAY_ONLY = ['delivery_recorded'];
// The questions the page asks during a demo: the engine's for its whole script, less those.
async function questionsOf(request, d) {
  const qs = await allQuestionsOf(request, [d.network, ...d.steps.map((s) => s.command)]);
  return qs.filter((q) => !FREE_PLAY_ONLY.includes(q.kind));
}

const msg = (m) => `$${m.amount} ${m.from}→${m.to}`;
const choiceLabel = (c) => (c.transfers.length ? c.transfers.map(msg).join(' and ') : 'empty');

const box = (page) => page.locator('#predict-box');
const answers = (page) => page.locator('#predict-answers');

// Answers q on the page, right or wrong, as a visitor would (the number by keyboard).
async function answer(page, q, right) {
  const button = (name) => answers(page).getByRole('button', { name, exact: true });
  switch (q.kind) {
    case 'naive_total': {
      const field = page.getByRole('textbox', { name: /naive reader have once/ });
      await field.fill(String(right ? q.answer : q.answer + 10));
      await field.press('Enter');
      break;
    }
    case 'balance_includes':
    case 'delivery_recorded':
    case 'property_declared':
      await button(q.answer === right ? 'Yes' : 'No').click();
      break;
    case 'channel_state': {
      const c = q.choices.find((x) => (right ? x.id === q.answer : x.id !== q.answer));
      await button(choiceLabel(c)).click();
      break;
    }
    case 'cut_consistent':
      if (q.answer === right) {
        await button('Yes').click();
      } else {
        await button('No').click();
        if (right) {
          await expect(page.locator('#predict-question')).toHaveText('Which message crosses the cut backwards?');
          await button(msg(q.backward[0])).click();
        }
      }
      break;
    default:
      throw new Error(`unknown kind ${q.kind}`);
  }
}

// No answer before the answer (web/waits.js): while q waits, nothing the page shows says its
// answer or the fact that gives it away. What each kind's answer looks like on the page: the
// naive total anywhere (the invariant line's sum of balances was it); the channel's recorded
// contents in the snapshot panel; a cut's verdict in the naive panel and the diagram; a declared
// property; a recorded balance. The stage is looked at (the controls, the step bar with its
// caption, every panel), all but the question itself.
async function expectNothingGivesAway(page, q) {
  const visible = await page.evaluate(() => {
    const hidden = document.querySelector('#predict-box');
    const saved = hidden.style.display;
    hidden.style.display = 'none';
    const text = ['#controls', '#demo-stepbar', '#network', '#cl', '#naive', '#spacetime', '#log']
      .map((s) => document.querySelector(s).innerText).join('\n');
    hidden.style.display = saved;
    return text;
  });
  const what = `while "${q.kind}" (step ${q.step}) waits`;
  switch (q.kind) {
    case 'naive_total': {
      // A right naive total is the bank's, which the page says everywhere: then the naive panel
      // and the invariant line are looked at.
      const where = q.answer === q.why.bank_total ? await page.locator('#naive, #invariant').allInnerTexts() : [visible];
      expect(where.join('\n'), `${what}: the naive total $${q.answer}`).not.toMatch(new RegExp(`\\$${q.answer}(?!\\d)`));
      await expect(page.locator('#naive-body .naive-why, #naive-body .verdict'), what).toHaveCount(0);
      break;
    }
    case 'channel_state': {
      const row = page.locator(`#cl-body tr[data-channel="${q.from}->${q.to}"] td`);
      const right = q.choices.find((c) => c.id === q.answer);
      for (const m of right.transfers) await expect(row, `${what}: $${m.amount} recorded`).not.toContainText(`$${m.amount}`);
      await expect(row, what).not.toContainText(/nothing yet|empty/);
      break;
    }
    case 'cut_consistent':
      expect(visible, `${what}: a cut's verdict`).not.toMatch(/consistent/);
      await expect(page.locator('#st-note'), what).not.toContainText('backwards');
      await expect(page.locator('#st-svg .cut-label.bad, #st-svg .st-msg.backward, #naive-body .naive-cut'), what).toHaveCount(0);
      break;
    case 'property_declared':
      await expect(page.locator('#naive-body .naive-property, #cl-body .snap-property'), `${what}: a declared verdict`).toHaveCount(0);
      break;
    case 'balance_includes':
      // Only the question's own snapshot says it (an earlier one on display does not).
      if (!(await page.locator('#cl-headline').innerText()).includes(`Snapshot ${q.snapshot}`)) break;
      await expect(page.locator(`#cl-body tr[data-branch="${q.branch}"] td.is-recorded`), `${what}: ${q.branch}'s recorded state`).toHaveCount(0);
      break;
    default:
      throw new Error(`no give-away check for ${q.kind}`);
  }
}

// Plays demo d in predict mode, answering each question right or wrong; returns the count.
async function playPredicting(page, d, qs, right) {
  const name = d.preset === 'lab' ? /^Lab demo:/ : new RegExp(`^Demo ${d.id}:`);
  await page.getByRole('button', { name }).click();
  await settle(page);
  const next = page.getByRole('button', { name: 'Next step', exact: true });
  for (const [i, step] of d.steps.entries()) {
    const asked = qs.filter((q) => q.step === i + 1);
    await next.click();
    for (const [j, q] of asked.entries()) {
      await expect(box(page)).toBeVisible();
      await expect(page.locator('#predict-question')).not.toBeEmpty();
      // The last question's ✓ or ✗ is gone: only this question is on the panel.
      await expect(page.locator('#predict-feedback p')).toHaveCount(0);
      await expectNothingGivesAway(page, q);
      if (j === 0) {
        // The stage keys do not skip the question: the step has not played, and the focus goes
        // back to the question.
        await next.focus();
        await page.keyboard.press('ArrowRight');
        await expect(page.getByRole('status')).toContainText('Answer the question first');
        await expect(page.locator('#predict-answers :focus')).toHaveCount(1);
        await page.keyboard.press('PageDown');
        await expect(page.locator('#demo-caption')).not.toContainText(step.caption);
      }
      await answer(page, q, right);
    }
    await settle(page);
    await expect(page.locator('#demo-caption')).toContainText(step.caption);
    // What waited comes back with the step.
    await expect(page.locator('.waits-answer')).toHaveCount(0);
    if (asked.length) {
      const lines = page.locator('#predict-feedback p');
      await expect(lines).toHaveCount(asked.length);
      await expect(page.locator(right ? '#predict-feedback .pq-right' : '#predict-feedback .pq-wrong')).toHaveCount(asked.length);
      if (right) await expect(lines.first()).toContainText('Right.');
      else await expect(lines.first()).toContainText('Not quite: the answer is');
      await expect(page.getByRole('status')).toContainText(right ? 'Right.' : 'Not quite');
    }
  }
  return qs.length;
}

for (const which of DEMOS) {
  const label = which === 'lab' ? 'the lab demo' : `demo ${which}`;
  test(`predict: every question of ${label} answered right, then wrong`, async ({ page, request }) => {
    test.setTimeout(120_000);
    const [d] = (await demos(request)).filter((x) => (which === 'lab' ? x.preset === 'lab' : x.id === which));
    expect(d).toBeTruthy();
    const qs = await questionsOf(request, d);
    // Jobs and locks (12-15) ask about their verdicts, once at least; the bank's demos twice.
    const least = d.group === 'apps' ? 1 : 2;
    expect(qs.length, `${label} asks at least ${least} questions`).toBeGreaterThanOrEqual(least);
    await openPage(page, '?predict=1');
    await expect(page.getByRole('button', { name: 'Predict' })).toHaveAttribute('aria-pressed', 'true');
    const n = await playPredicting(page, d, qs, true);
    await expect(page.locator('#predict-score')).toHaveText(`Predictions in this demo: ${n} of ${n} right. Overall: ${n} of ${n}.`);
    // Home starts the demo over: a new pass, its score starts afresh.
    await page.getByRole('button', { name: 'Next step', exact: true }).focus();
    await page.keyboard.press('Home');
    await settle(page);
    await playPredicting(page, d, qs, false);
    await expect(page.locator('#predict-score')).toHaveText(`Predictions in this demo: 0 of ${n} right. Overall: 0 of ${n}.`);
  });
}

test('predict: the engine\'s answers for demos 1 and 2 are the ones the study note gives', async ({ request }) => {
  const all = await demos(request);
  const q1 = await questionsOf(request, all.find((d) => d.id === 1));
  expect(q1.find((q) => q.kind === 'naive_total').answer).toBe(270);
  const q2 = await questionsOf(request, all.find((d) => d.id === 2));
  expect(q2.find((q) => q.kind === 'naive_total').answer).toBe(330);
  const cut = q2.find((q) => q.kind === 'cut_consistent');
  expect(cut.answer).toBe(false);
  expect(cut.backward.map((m) => [m.amount, m.from, m.to])).toEqual([[30, 'P1', 'P2']]);
});

test('predict: the overall score adds the demos up, survives a reload, and resets', async ({ page, request }) => {
  test.setTimeout(120_000);
  const all = await demos(request);
  const d1 = all.find((d) => d.id === 1);
  const d2 = all.find((d) => d.id === 2);
  const q1 = await questionsOf(request, d1);
  const q2 = await questionsOf(request, d2);
  await page.goto('/?predict=1');
  await settle(page);
  await playPredicting(page, d1, q1, true);
  await playPredicting(page, d2, q2, false);
  const n = q1.length + q2.length;
  await expect(page.locator('#predict-score')).toHaveText(`Predictions in this demo: 0 of ${q2.length} right. Overall: ${q1.length} of ${n}.`);
  await page.reload();
  await settle(page);
  await playPredicting(page, d1, q1, true);
  await expect(page.locator('#predict-score')).toHaveText(`Predictions in this demo: ${q1.length} of ${q1.length} right. Overall: ${q1.length} of ${n}.`);
  await page.getByRole('button', { name: 'Reset the scores' }).click();
  await expect(page.getByRole('status')).toHaveText('The prediction scores are reset.');
  expect(await page.evaluate(() => localStorage.getItem('cutline.predict.v1'))).toBe('{}');
});

test('predict is off by default, and the switch turns it on and writes ?predict=1', async ({ page, request }) => {
  const d1 = (await demos(request)).find((d) => d.id === 1);
  await openPage(page);
  const sw = page.getByRole('button', { name: 'Predict' });
  await expect(sw).toHaveAttribute('aria-pressed', 'false');
  // Off: demo 1 plays through without a question.
  await page.getByRole('button', { name: /^Demo 1:/ }).click();
  await settle(page);
  for (const step of d1.steps) {
    await page.getByRole('button', { name: 'Next step', exact: true }).click();
    await settle(page);
    await expect(page.locator('#demo-caption')).toContainText(step.caption);
    await expect(box(page)).toBeHidden();
  }
  await sw.click();
  await expect(sw).toHaveAttribute('aria-pressed', 'true');
  expect(new URL(page.url()).searchParams.get('predict')).toBe('1');
});

test('predict in free play: a snapshot with money in flight asks before the step', async ({ page }) => {
  await page.goto('/?predict=1');
  await settle(page);
  await send(page, 'P2', 'P1', 40);
  await expect(page.locator('#scenario-summary')).toHaveText('Scenario text (2 commands)');
  await page.getByRole('button', { name: 'Start Snapshot at P1' }).click();
  await expect(box(page)).toBeVisible();
  await expect(page.locator('#predict-question')).toHaveText('Will P1\'s recorded balance include the $40 P2→P1?');
  // The snapshot has not started yet: the question comes first.
  await expect(page.locator('#scenario-summary')).toHaveText('Scenario text (2 commands)');
  await answers(page).getByRole('button', { name: 'No', exact: true }).click();
  await settle(page);
  await expect(page.locator('#predict-feedback .pq-right')).toContainText('was still travelling when P1 recorded $100');
  // The marker delivery that closes P2->P1 with the $40 recorded: the channel question.
  await page.getByRole('button', { name: /^Deliver Next/ }).click(); // the $40
  // P1 has recorded and P2->P1 is still open: will snapshot 1 record the $40? The engine says yes.
  await expect(page.locator('#predict-question')).toHaveText('Will snapshot 1 record the $40 (#1) arriving on P2→P1 in that channel\'s state?');
  await expect(page.locator('#scenario-summary')).toHaveText('Scenario text (3 commands)');
  await answers(page).getByRole('button', { name: 'Yes', exact: true }).click();
  await settle(page);
  await expect(page.locator('#predict-feedback .pq-right')).toContainText('the channel is being recorded, so the $40 joins its state');
  // Then the markers, oldest first, until one asks (a question holds the run, so wait for either).
  const asking = () => page.locator('#predict-answers button').count();
  for (let i = 0; i < 6 && !(await asking()); i += 1) {
    await page.getByRole('button', { name: /^Deliver Next/ }).click();
    await page.waitForFunction(() => !document.body.dataset.busy || document.querySelector('#predict-answers button'));
  }
  await expect(page.locator('#predict-question')).toHaveText('What will channel P2→P1 be recorded as holding when its marker arrives?');
  // Free play keeps the answer back too: what P2->P1 has recorded so far waits with the step.
  const row = page.locator('#cl-body tr[data-channel="P2->P1"] td');
  await expect(row).toHaveText('recording: shown after the answer');
  await answers(page).getByRole('button', { name: '$40 P2→P1', exact: true }).click();
  await settle(page);
  await expect(page.locator('#predict-feedback .pq-right')).toContainText('$40 P2→P1 arrived after P1 recorded');
  await expect(row).toHaveText('closed: state $40');
});

// Free play on a run loaded from a share link (no question is asked for the lines it loads).
async function openRun(page, lines) {
  await page.goto(`/?predict=1#s=${Buffer.from(`${lines.join('\n')}\n`).toString('base64url')}`);
  await settle(page);
}
const deliverOnChannel = (page, from, to) => page.getByRole('button', { name: new RegExp(`^Deliver on channel ${from}→${to}`) }).click();
const question = (page) => page.locator('#predict-question');

test('predict in free play: a delivery behind the marker, answered wrong, then one recorded, right; both scored', async ({ page, request }) => {
  const lines = ['network P1=100 P2=100 P3=100 capacity=2 snapshots=one', 'transfer P2 P1 40', 'snapshot P1',
    'transfer P1 P3 30', 'deliver P1 P3'];
  await openRun(page, lines);
  // P3 has recorded (the marker came first), so P1->P3 is closed: the $30 behind it is not recorded.
  await deliverOnChannel(page, 'P1', 'P3');
  await expect(question(page)).toHaveText('Will snapshot 1 record the $30 (#4) arriving on P1→P3 in that channel\'s state?');
  await answers(page).getByRole('button', { name: 'Yes', exact: true }).click();
  await settle(page);
  const wrong = page.locator('#predict-feedback .pq-wrong');
  await expect(wrong).toContainText('Not quite: the answer is No.');
  await expect(wrong).toContainText('P1→P3 is already closed for snapshot 1: the $30 arrives after the close');
  await expect(page.locator('#scenario-summary')).toHaveText('Scenario text (6 commands)');
  // The $40 on P2->P1: P1 recorded, its marker from P2 has not come. The engine agrees: yes.
  const engine = (await allQuestionsOf(request, [...lines, 'deliver P1 P3', 'deliver P2 P1']))
    .filter((q) => q.kind === 'delivery_recorded');
  expect(engine.map((q) => [q.step, q.transfer.amount, q.answer, q.why.code]))
    .toEqual([[5, 30, false, 'channel_closed'], [6, 40, true, 'channel_recording']]);
  await deliverOnChannel(page, 'P2', 'P1');
  await expect(question(page)).toHaveText('Will snapshot 1 record the $40 (#1) arriving on P2→P1 in that channel\'s state?');
  await answers(page).getByRole('button', { name: 'Yes', exact: true }).click();
  await settle(page);
  await expect(page.locator('#predict-feedback .pq-right')).toContainText('Right. P1 recorded snapshot 1 before the $40 arrives');
  await expect(page.getByRole('status')).toContainText('Right.');
  // Both answers went to free play's score.
  const scores = JSON.parse(await page.evaluate(() => localStorage.getItem('cutline.predict.v1')));
  expect(scores).toEqual({ free: { '5:0': false, '6:0': true } });
});

test('predict in a demo: the delivery questions of free play are not asked', async ({ page, request }) => {
  const d = (await demos(request)).find((x) => x.id === 3);
  const all = await allQuestionsOf(request, [d.network, ...d.steps.map((x) => x.command)]);
  // The engine does ask before demo 3's step 4 (the $40 reaches P1 after it recorded) ...
  const step4 = all.filter((q) => q.step === 4);
  expect(step4.map((q) => q.kind)).toEqual(['delivery_recorded']);
  await openPage(page, '?predict=1');
  await page.getByRole('button', { name: /^Demo 3:/ }).click();
  await settle(page);
  const next = page.getByRole('button', { name: 'Next step', exact: true });
  for (let i = 1; i <= 4; i += 1) {
    await next.click();
    if (i === 2) await answer(page, all.find((q) => q.step === 2), true);
    // A question left waiting would hold the step back: its caption would not come.
    await expect(page.locator('#demo-caption')).toContainText(d.steps[i - 1].caption);
    await settle(page);
  }
  // ... but the page, in a demo, does not: step 4 played without a question.
  await expect(page.locator('#predict-answers button')).toHaveCount(0);
  await expect(page.locator('#predict-feedback p')).toHaveCount(0);
  expect(Object.keys(JSON.parse(await page.evaluate(() => localStorage.getItem('cutline.predict.v1'))))).toEqual(['demo-3']);
});

test('predict with a rule broken on purpose: asked what the variant really records, and why', async ({ page }) => {
  // broken-unrecorded-channel: P1 never records its first incoming channel, P2->P1.
  await openRun(page, ['network P1=100 P2=100 P3=100 capacity=2 algorithm=broken-unrecorded-channel', 'transfer P2 P1 40', 'snapshot P1']);
  await deliverOnChannel(page, 'P2', 'P1'); // the $40
  await expect(question(page)).toHaveText('Will snapshot 1 record the $40 (#1) arriving on P2→P1 in that channel\'s state?');
  await answers(page).getByRole('button', { name: 'No', exact: true }).click();
  await settle(page);
  const because = 'By Chandy-Lamport\'s rule $40 P2→P1 belongs in the state of P2→P1, but this variant breaks a rule on purpose and does not record it; the checker flags it.';
  await expect(page.locator('#predict-feedback .pq-right')).toHaveText(`Right. ${because}`);
  await deliverOnChannel(page, 'P1', 'P2'); // P1's marker: P2 records, sends its markers
  await settle(page);
  await deliverOnChannel(page, 'P2', 'P1'); // P2's marker closes P2->P1
  await expect(question(page)).toHaveText('What will channel P2→P1 be recorded as holding when its marker arrives?');
  // Chandy-Lamport's rule would record the $40; the answer is what this variant records: nothing.
  await answers(page).getByRole('button', { name: '$40 P2→P1', exact: true }).click();
  await settle(page);
  await expect(page.locator('#predict-feedback .pq-wrong')).toHaveText(`Not quite: the answer is empty. ${because}`);
});

test('predict in Japanese: the question and the feedback in Japanese', async ({ page, request }) => {
  const [d] = (await demos(request, 'ja')).filter((x) => x.id === 1);
  await page.goto('/?predict=1');
  await settle(page);
  await page.getByRole('button', { name: '日本語' }).click();
  await settle(page);
  await page.getByRole('button', { name: /^デモ 1：/ }).click();
  await settle(page);
  const next = page.getByRole('button', { name: '次の手順', exact: true });
  for (let i = 0; i < 2; i += 1) {
    await next.click();
    await settle(page);
  }
  await next.click();
  await expect(page.locator('#predict-question')).toContainText('一貫していますか');
  await answers(page).getByRole('button', { name: 'はい', exact: true }).click();
  await settle(page);
  await expect(page.locator('#predict-feedback .pq-right')).toContainText('正解');
  await expect(page.locator('#demo-caption')).toContainText(d.steps[2].caption);
});

test('predict in Japanese, free play: the delivery question and its reason in Japanese', async ({ page }) => {
  await openRun(page, ['network P1=100 P2=100 P3=100 capacity=2 snapshots=one', 'transfer P2 P1 40', 'snapshot P1']);
  await page.getByRole('button', { name: '日本語' }).click();
  await settle(page);
  await page.getByRole('button', { name: /^次を配送/ }).click(); // the $40
  await expect(question(page)).toHaveText('P2→P1 に届く $40（#1）は、スナップショット 1 でそのチャネルの状態に記録されますか？');
  await answers(page).getByRole('button', { name: 'はい', exact: true }).click();
  await settle(page);
  await expect(page.locator('#predict-feedback .pq-right')).toHaveText('正解。 P1 は $40 が届く前にスナップショット 1 を記録し、P2→P1 はそのスナップショットでまだ閉じていない：チャネルは記録中なので、$40 はその状態に入る。');
});

// Where it is read: the question and Next step on screen together at each size and in
// presentation mode; and axe finds nothing with a question on screen and at the end.
const SIZES = [{ width: 1366, height: 768 }, { width: 390, height: 844 }, { width: 1920, height: 1080, present: true }];
for (const size of SIZES) {
  test(`predict at ${size.width}x${size.height}${size.present ? ', presentation mode' : ''}: in view, and axe finds nothing`, async ({ page, request }) => {
    test.setTimeout(90_000);
    const d = (await demos(request)).find((x) => x.id === 3);
    const qs = await questionsOf(request, d);
    await page.setViewportSize(size);
    await page.goto(size.present ? '/?predict=1&present=1' : '/?predict=1');
    await settle(page);
    await page.getByRole('button', { name: /^Demo 3:/ }).click();
    await settle(page);
    await page.getByRole('button', { name: 'Next step', exact: true }).click();
    await settle(page);
    await page.getByRole('button', { name: 'Next step', exact: true }).click();
    await expect(box(page)).toBeVisible();
    for (const el of [box(page), answers(page).getByRole('button').first()]) await expect(el).toBeInViewport({ ratio: 1 });
    const audit = async () => {
      // As a11y.spec.js: the tags, plus the experimental rules that carry them.
      const rules = Object.fromEntries(['label-content-name-mismatch', 'css-orientation-lock', 'focus-order-semantics',
        'p-as-heading', 'table-fake-caption', 'td-has-header'].map((id) => [id, { enabled: true }]));
      const r = await new AxeBuilder({ page }).options({ rules })
        .withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice']).analyze();
      expect(r.passes.length).toBeGreaterThan(10);
      return r.violations.flatMap((v) => v.nodes.map((n) => `${v.id} at ${n.target.join(' ')}: ${v.help}`));
    };
    expect(await audit()).toEqual([]);
    // The rest of the demo, answered right; then the score at the end, audited too.
    await answer(page, qs[0], true);
    await settle(page);
    const rest = { ...d, steps: d.steps.slice(2) };
    for (const [i] of rest.steps.entries()) {
      const asked = qs.filter((q) => q.step === i + 3);
      await page.getByRole('button', { name: 'Next step', exact: true }).click();
      for (const q of asked) {
        await expect(box(page)).toBeInViewport();
        await answer(page, q, true);
      }
      await settle(page);
    }
    await expect(page.locator('#predict-score')).toContainText(`${qs.length} of ${qs.length} right`);
    await expect(page.locator('#predict-score')).toBeInViewport();
    expect(await audit()).toEqual([]);
  });
}

test('predict: a total that is not a whole number is refused in one line, and the question stays', async ({ page, request }) => {
  const d = (await demos(request)).find((x) => x.id === 1);
  await openPage(page, '?predict=1');
  await page.getByRole('button', { name: /^Demo 1:/ }).click();
  await settle(page);
  const next = page.getByRole('button', { name: 'Next step', exact: true });
  for (let i = 0; i < 3; i += 1) {
    await next.click();
    if (i === 2) await answers(page).getByRole('button', { name: 'Yes', exact: true }).click();
    await settle(page);
  }
  await next.click();
  const field = page.getByRole('textbox', { name: /naive reader have once/ });
  for (const bad of ['abc', '2.5', '']) {
    await field.fill(bad);
    await field.press('Enter');
    await expect(page.getByRole('status')).toHaveText(`Type the total as a whole number of dollars, not “${bad}”.`);
    await expect(field).toBeVisible();
    await expect(page.locator('#demo-caption')).toContainText(d.steps[2].caption);
  }
  await field.fill('$270');
  await field.press('Enter');
  await settle(page);
  await expect(page.locator('#predict-feedback .pq-right')).toContainText('$30 P1→P2 was in flight');
  await expect(page.locator('#demo-caption')).toContainText(d.steps[3].caption);
});
