// Beyond money (issue 16, part 3; docs/spec apps.md): the Jobs and Locks presets drawn in their own
// terms, their controls and refusals, and demos 12-15 played to the end with the verdicts of the
// naive detector and of the snapshot, in English and in Japanese. Every state, verdict and refusal
// on screen comes from the server; these tests check that the page shows them where a student
// looks, in words.
const { test, expect, openPage, settle, region, demo, playDemo, audit, expectRightOf } = require('./fixtures');

const notice = (page) => page.getByRole('status');
const branchCell = (page, name) => page.locator(`#branch-rows tr[data-branch="${name}"] .bal`);
const branchBox = (page, name) => page.locator(`#network-svg .branch[data-name="${name}"]`);
const channel = (page, from, to) => page.locator(`#network-svg .channel[data-from="${from}"][data-to="${to}"]`);
const commands = (page) => page.locator('#scenario-pre');

async function preset(page, name) {
  await page.getByRole('button', { name, exact: true }).click();
  await settle(page);
}

async function between(page, from, to) {
  await page.getByLabel('From', { exact: true }).selectOption(from);
  await page.getByLabel('To', { exact: true }).selectOption(to);
}

test('the Jobs preset: job counts, busy and idle branches, jobs in the channels, Finish a job, and the live verdict', async ({ page }) => {
  await openPage(page);
  await preset(page, 'Jobs: P1, P2, P3');
  // The controls speak of jobs: no amount, no Send; a Hand out button and Finish a job per branch.
  await expect(page.getByRole('group', { name: 'Hand out a job' })).toBeVisible();
  await expect(page.getByLabel('Amount ($)', { exact: true })).toBeHidden();
  await expect(page.getByRole('button', { name: 'Send transfer' })).toBeHidden();
  await expect(page.locator('#col-state')).toHaveText('Jobs');
  await expect(branchCell(page, 'P1')).toHaveText('1 job');
  await expect(branchCell(page, 'P2')).toHaveText('idle');
  await expect(branchBox(page, 'P1')).toHaveClass(/\bbusy\b/);
  await expect(branchBox(page, 'P2')).toHaveClass(/\bidle\b/);
  await expect(page.locator('#invariant')).toContainText('not terminated: P1 busy');

  await between(page, 'P1', 'P3');
  await page.getByRole('button', { name: /^Hand out/ }).click();
  await settle(page);
  await expect(channel(page, 'P1', 'P3').locator('.nmsg-job')).toHaveCount(1);
  await expect(channel(page, 'P1', 'P3')).toHaveAttribute('aria-label', /job/);
  await page.getByRole('button', { name: 'Finish a job at P1' }).click();
  await settle(page);
  await expect(branchCell(page, 'P1')).toHaveText('idle');
  // Every branch idle, and still not terminated: the job is in flight, and the page says where.
  await expect(page.locator('#invariant')).toContainText('not terminated: a job on P1→P3');
  await channel(page, 'P1', 'P3').click();
  await settle(page);
  await expect(branchCell(page, 'P3')).toHaveText('1 job');
  await page.getByRole('button', { name: 'Finish a job at P3' }).click();
  await settle(page);
  await expect(page.locator('#invariant')).toContainText('terminated');
  await expect(page.locator('#invariant')).not.toContainText('not terminated');

  // The legend shows jobs, not transfers.
  await expect(page.locator('#network-legend li:visible')).toContainText(['job', 'busy branch (holds a job)']);
  await expect(page.locator('#network-legend li:visible', { hasText: /^transfer$/ })).toHaveCount(0);
});

test('jobs: a refused command shows the server\'s reason and changes nothing', async ({ page }) => {
  await openPage(page);
  await preset(page, 'Jobs: P1, P2, P3');
  const before = await commands(page).textContent();
  await page.getByRole('button', { name: 'Finish a job at P2' }).click();
  await expect(notice(page)).toHaveText('Refused: P2 holds no job to finish');
  await between(page, 'P2', 'P1');
  await page.getByRole('button', { name: /^Hand out/ }).click();
  await expect(notice(page)).toHaveText('Refused: P2 is idle: only a busy branch hands out work');
  await expect(commands(page)).toHaveText(before);
  await expect(branchCell(page, 'P1')).toHaveText('1 job');
  await expect(branchCell(page, 'P2')).toHaveText('idle');
});

test('the Locks preset: waits-for arrows, requests and grants in the channels, and a refused grant', async ({ page }) => {
  await openPage(page);
  await preset(page, 'Locks: P1, P2, P3');
  await expect(page.getByRole('group', { name: 'Request or grant' })).toBeVisible();
  await expect(page.locator('#col-state')).toHaveText('Waits for');
  await expect(branchCell(page, 'P1')).toHaveText('active');
  await expect(page.locator('#network-svg .wait-edge')).toHaveCount(0);

  await between(page, 'P1', 'P2');
  await page.getByRole('button', { name: /^Request/ }).click();
  await settle(page);
  await expect(branchCell(page, 'P1')).toHaveText('waits for P2');
  await expect(branchBox(page, 'P1')).toHaveClass(/\bwaiting\b/);
  await expect(page.locator('#network-svg .wait-edge[data-from="P1"][data-to="P2"]')).toHaveCount(1);
  await expect(channel(page, 'P1', 'P2').locator('.nmsg-request')).toHaveCount(1);

  // P1 waits: it grants nothing. Refused with the server's words; nothing changes.
  const before = await commands(page).textContent();
  await page.getByRole('button', { name: /^Grant/ }).click();
  await expect(notice(page)).toHaveText('Refused: P1 is waiting for P2, and a waiting branch grants nothing');
  await expect(commands(page)).toHaveText(before);

  await channel(page, 'P1', 'P2').click();
  await settle(page);
  await between(page, 'P2', 'P1');
  await page.getByRole('button', { name: /^Grant/ }).click();
  await settle(page);
  await expect(channel(page, 'P2', 'P1').locator('.nmsg-grant')).toHaveCount(1);
  await channel(page, 'P2', 'P1').click();
  await settle(page);
  await expect(branchCell(page, 'P1')).toHaveText('active');
  await expect(page.locator('#network-svg .wait-edge')).toHaveCount(0);
  await expect(page.locator('#invariant')).toContainText('not deadlocked');
});

test('Demo 12: the naive detector declares a false termination, and the page says what was in flight', async ({ page, request }) => {
  await openPage(page);
  const d = await demo(request, 12);
  await playDemo(page, d, {
    atStep: async (k) => {
      // After P2's read (step 5) every read says idle: the verdict, and why it is wrong.
      if (k !== 5) return;
      const naive = region(page, 'Naive reading');
      await expect(naive.locator('.naive-property')).toHaveText('The naive detector says: terminated');
      await expect(naive.locator('.naive-wrong')).toContainText('Wrong: a false termination.');
      await expect(naive.locator('.naive-wrong')).toContainText('At its last read, the truth was: not terminated: a job on P1→P3.');
      await expect(page.locator('#invariant')).toContainText('not terminated: a job on P1→P3');
    },
  });
  // The job arrived: P3 busy again, which no idle branch could have caused.
  await expect(branchCell(page, 'P3')).toHaveText('1 job');
  await expect(page.locator('#invariant')).toContainText('not terminated: P3 busy');
  await expect(page.locator('#st-svg .st-job')).toHaveCount(1);
});

test('Demo 13: the snapshot records the job in its channel and says not terminated; the second one says terminated', async ({ page, request }) => {
  await openPage(page);
  const d = await demo(request, 13);
  const cl = region(page, 'Chandy-Lamport snapshot');
  await playDemo(page, d, {
    atStep: async (k) => {
      if (k !== 5) return; // drained: snapshot 1 complete
      await expect(cl.locator('.snap-property')).toHaveText('The snapshot says: not terminated: a job on P1→P3');
      await expect(cl.locator('.snap-property')).toHaveAttribute('data-holds', 'false');
      await expect(cl.locator('tr[data-channel="P1->P3"]')).toContainText('closed: state job');
      await expect(cl.locator('.cl-verdict')).toHaveAttribute('data-consistent', 'true');
    },
  });
  await expect(cl.locator('.snap-property')).toHaveText('The snapshot says: terminated');
  await expect(cl.locator('.snap-head')).toContainText('Snapshot 2');
  await expect(cl.locator('.cl-earlier')).toContainText('#1 Chandy-Lamport not terminated: a job on P1→P3');
  await expect(page.locator('#invariant')).toContainText('terminated');
});

test('Demo 14: reads taken at different moments make a phantom deadlock', async ({ page, request }) => {
  await openPage(page);
  const d = await demo(request, 14);
  await playDemo(page, d);
  const naive = region(page, 'Naive reading');
  await expect(naive.locator('tr[data-branch="P1"] td')).toHaveText('waits for P2');
  await expect(naive.locator('tr[data-branch="P2"] td')).toHaveText('waits for P1');
  await expect(naive.locator('.naive-property')).toHaveText('The naive detector says: deadlocked: P1 → P2 → P1');
  await expect(naive.locator('.naive-wrong')).toContainText('Wrong: a phantom deadlock.');
  await expect(naive.locator('.naive-wrong')).toContainText('not deadlocked: no cycle of waiting branches');
  // Seen from above: only P2 waits; its one arrow is no cycle.
  await expect(page.locator('#network-svg .wait-edge')).toHaveCount(1);
  await expect(page.locator('#network-svg .wait-edge.deadlocked')).toHaveCount(0);
  await expect(page.locator('#invariant')).toContainText('not deadlocked');
});

test('Demo 15: a grant in flight keeps the first snapshot from a deadlock; the second names the cycle', async ({ page, request }) => {
  await openPage(page);
  const d = await demo(request, 15);
  const cl = region(page, 'Chandy-Lamport snapshot');
  await playDemo(page, d, {
    atStep: async (k) => {
      if (k !== 6) return; // snapshot 1, drained
      await expect(cl.locator('.snap-property')).toHaveAttribute('data-holds', 'false');
      await expect(cl.locator('.snap-property')).toContainText('not deadlocked');
    },
  });
  await expect(cl.locator('.snap-property')).toHaveText('The snapshot says: deadlocked: P1 → P2 → P3 → P1');
  await expect(cl.locator('.snap-property')).toHaveAttribute('data-holds', 'true');
  for (const [b, w] of [['P1', 'waits for P2'], ['P2', 'waits for P3'], ['P3', 'waits for P1']]) {
    await expect(cl.locator(`.cl-branches tr[data-branch="${b}"] td`).first()).toHaveText(w);
  }
  // The live state has the cycle too: its three arrows drawn as a deadlock.
  await expect(page.locator('#network-svg .wait-edge.deadlocked')).toHaveCount(3);
  await expect(page.locator('#invariant')).toContainText('deadlocked: P1 → P2 → P3 → P1');
});

test('Demos 12 and 15 in Japanese: captions, states and verdicts in Japanese', async ({ page, request }) => {
  await openPage(page);
  await page.getByRole('button', { name: '日本語' }).click();
  await settle(page);
  await playDemo(page, await demo(request, 12, 'ja'), { demoName: /^デモ 12：/, nextName: '次の手順' });
  const naive = region(page, '素朴な読み取り');
  await expect(naive.locator('.naive-property')).toHaveText('素朴な検出の判定：終了');
  await expect(naive.locator('.naive-wrong')).toContainText('誤り：偽の終了。');
  await expect(branchCell(page, 'P3')).toHaveText('仕事 1 件');
  await playDemo(page, await demo(request, 15, 'ja'), { demoName: /^デモ 15：/, nextName: '次の手順' });
  const cl = region(page, 'Chandy-Lamport スナップショット');
  await expect(cl.locator('.snap-property')).toHaveText('スナップショットの判定：デッドロック：P1 → P2 → P3 → P1');
  await expect(page.locator('#col-state')).toHaveText('待っている相手');
});

test('the Jobs and Locks presets pass the accessibility audit, with messages in flight and a deadlock drawn', async ({ page, request }) => {
  await openPage(page);
  await preset(page, 'Jobs: P1, P2, P3');
  await between(page, 'P1', 'P2');
  await page.getByRole('button', { name: /^Hand out/ }).click();
  await settle(page);
  expect(await audit(page)).toEqual([]);
  await playDemo(page, await demo(request, 15));
  expect(await audit(page)).toEqual([]);
});

test('predict mode asks what the naive detector and the snapshot will declare, and explains the answer', async ({ page, request }) => {
  await openPage(page, '?predict=1');
  await page.getByRole('button', { name: /^Demo 12:/ }).click();
  await settle(page);
  const next = page.getByRole('button', { name: 'Next step', exact: true });
  for (let k = 0; k < 4; k++) {
    await next.click();
    await settle(page);
  }
  // Step 5 reads P2: the question comes before the step plays.
  await next.click();
  await expect(page.locator('#predict-question')).toHaveText('The naive detector reads P2 now. Will it declare the computation terminated?');
  await page.locator('#predict-answers').getByRole('button', { name: 'No', exact: true }).click();
  await settle(page);
  const feedback = page.locator('#predict-feedback');
  await expect(feedback).toContainText('Not quite: the answer is');
  await expect(feedback).toContainText('Its reads say terminated, but when it read, the truth was not terminated: a job on P1→P3');
});

test('a cut drawn on a jobs run is judged for consistency, names the job crossing it, says what holds at it, and adds up no money', async ({ page, request }) => {
  await openPage(page);
  await playDemo(page, await demo(request, 12));
  await page.getByRole('button', { name: 'Draw a cut' }).click();
  const verdict = page.locator('#cut-verdict');
  const property = page.locator('#cut-property');
  // At the lines' ends: the run now, with the job arrived at P3.
  await expect(verdict).toHaveAttribute('data-consistent', 'true');
  await expect(property).toHaveAttribute('data-holds', 'false');
  await expect(property).toHaveText('At this cut: not terminated: P3 busy. A consistent cut is a state the run could '
    + 'have been in, so a snapshot recording here tells the truth.');
  await expect(page.locator('#cut-sum')).toHaveCount(0);
  await expect(verdict.locator('.cut-forward-head')).toHaveText('No job crosses the cut forwards: a snapshot at it '
    + 'records every channel empty.');
  // P1 finishing its job is drawn on its line (a tick), and the handle in that gap stands after
  // it: the finish is inside the cut, so P1 is idle there.
  const finish = page.locator('#st-svg [data-kind="finish"]');
  await expect(finish).toHaveCount(1);
  await expect(finish.locator('title')).toHaveText('P1 finishes a job');
  await expectRightOf(page.getByRole('slider', { name: 'Cut point on P1' }), finish);
  await expect(page.locator('#st-legend li[data-show="jobs"]').filter({ hasText: 'finishes a job' })).toBeVisible();

  // P3 back to before the job arrived: where the naive detector read each branch. The cut is
  // consistent, and it holds what the detector's reads missed: the job on its way.
  const p3 = page.getByRole('slider', { name: 'Cut point on P3' });
  await p3.focus();
  await page.keyboard.press('Home');
  await expect(verdict.locator('.cut-forward li')).toHaveText(['job on P1→P3: sent before the cut, received after it']);
  await expect(verdict).toHaveAttribute('data-consistent', 'true');
  await expect(property.locator('strong')).toHaveText('At this cut: not terminated: a job on P1→P3.');

  // Back on P1 to before it handed out the job, P3 left after it received it: the job crosses
  // the cut backwards, named by its kind, and the verdict is flagged as one no state had.
  await page.keyboard.press('End');
  const p1 = page.getByRole('slider', { name: 'Cut point on P1' });
  await p1.focus();
  await page.keyboard.press('Home');
  await expect(verdict).toHaveAttribute('data-consistent', 'false');
  await expect(verdict.locator('.cut-backward li')).toHaveText(['✗ job (P1→P3): received before the cut, sent after it']);
  await expect(property).toHaveText('At this cut: not terminated: P1, P3 busy. But this cut is no moment of the run: '
    + 'a verdict read from an inconsistent cut can be a phantom.');
  await expect(property).toHaveClass(/\bbad\b/);
  await expect(page.locator('#cut-sum')).toHaveCount(0);
  expect(await audit(page)).toEqual([]);
});

// A finish between two deliveries: P2 receives a job, finishes it, and receives another. The
// handle in the gap between the deliveries stands after the finish's tick (the checker puts the
// finish inside that cut), and the cut there has P2 idle.
test('a handle stands after the finishes in its gap, as the checker counts them', async ({ page }) => {
  await openPage(page);
  await preset(page, 'Jobs: P1, P2, P3');
  const handOut = async (from, to) => {
    await between(page, from, to);
    await page.getByRole('button', { name: /^Hand out/ }).click();
    await settle(page);
  };
  await handOut('P1', 'P2');
  await channel(page, 'P1', 'P2').click();
  await settle(page);
  await handOut('P1', 'P3');
  await page.getByRole('button', { name: 'Finish a job at P2' }).click();
  await settle(page);
  await handOut('P1', 'P2');
  await channel(page, 'P1', 'P2').click();
  await settle(page);
  await page.getByRole('button', { name: 'Draw a cut' }).click();
  const p2 = page.getByRole('slider', { name: 'Cut point on P2' });
  await p2.focus();
  await page.keyboard.press('ArrowLeft');
  await expect(p2).toHaveAttribute('aria-valuetext', 'after 1 of 2 events');
  // The diagram is drawn again when the cut opens: wait for the tick itself.
  const finish = page.locator('#st-svg [data-kind="finish"]');
  await expect(finish).toBeVisible();
  await expectRightOf(p2, finish);
  const verdict = page.locator('#cut-verdict');
  await expect(verdict).toHaveAttribute('data-consistent', 'true');
  await expect(page.locator('#cut-property strong')).toHaveText('At this cut: not terminated: P1 busy; a job on P1→P2; a job on P1→P3.');
});

// Demo 14's phantom deadlock, drawn: the cut through the naive detector's reads (P1 after its
// request, P2 at its end) is consistent, and it holds what the reads missed: the grant on its way,
// which dissolves the cycle the detector declared.
test('a cut drawn on a locks run through the naive reads shows the grant that makes the deadlock a phantom', async ({ page, request }) => {
  await openPage(page);
  await playDemo(page, await demo(request, 14));
  await page.getByRole('button', { name: 'Draw a cut' }).click();
  const verdict = page.locator('#cut-verdict');
  const property = page.locator('#cut-property');
  await expect(verdict).toHaveAttribute('data-consistent', 'true');
  await expect(property.locator('strong')).toHaveText('At this cut: not deadlocked: no cycle of waiting branches.');
  const p1 = page.getByRole('slider', { name: 'Cut point on P1' });
  await p1.focus();
  await page.keyboard.press('ArrowLeft');
  // (P2's request is still on its way too, at the ends as here.)
  await expect(verdict.locator('.cut-forward li')).toHaveText(['grant on P2→P1: sent before the cut, received after it',
    'request on P2→P1: sent before the cut, received after it']);
  await expect(verdict).toHaveAttribute('data-consistent', 'true');
  await expect(property).toHaveAttribute('data-holds', 'false');
  await expect(property.locator('strong')).toHaveText('At this cut: not deadlocked: the cycle P1 → P2 → P1 is '
    + 'dissolving, a grant is on its way (P2→P1).');
  // In Japanese too.
  await page.getByRole('button', { name: '日本語' }).click();
  await expect(property.locator('strong')).toHaveText('このカットでは：デッドロックではない：循環 P1 → P2 → P1 は許可が'
    + '届く途中で解ける（P2→P1）。');
});
