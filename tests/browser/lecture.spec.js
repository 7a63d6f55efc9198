// Lecture mode: one teacher's page and several students' pages, each in a browser context of its
// own (its own localStorage, as on separate devices), against the real server. The students
// follow every step of a demo, each in their own language; a late joiner catches up at once; a
// question goes through peer instruction (vote, discussion, vote, reveal with both votes); a
// student cannot drive; the join screen's QR code scans to the join link.
const jsQR = require('jsqr');
const { test, expect, settle, openPage, demo, audit, send } = require('./fixtures');

// A page in a fresh context (a device of its own), watched like every page of the suite.
async function device(browser, watch, { viewport = { width: 1280, height: 800 } } = {}) {
  const context = await browser.newContext({ viewport });
  return watch(await context.newPage());
}

async function startLecture(page) {
  await openPage(page);
  await page.getByRole('button', { name: 'Teach a lecture' }).click();
  const join = page.getByRole('dialog', { name: 'Join the lecture' });
  await expect(join).toBeVisible();
  const code = (await page.locator('#lecture-join-code').textContent()).trim();
  expect(code).toMatch(/^[A-Z0-9]{6}$/);
  return { code, join };
}

// A student who opens the join link (what the QR code holds).
async function joinByLink(page, code, hash = '') {
  await page.goto(`/?room=${code}${hash}`);
  await settle(page);
  await expect(page.locator('#lecture')).toBeVisible();
  await expect(page.locator('#lecture-code')).toHaveText(code);
}

// The teacher turns Predict on and plays demo 3 to its second step, whose question (does P1's
// recorded balance include the $40 in flight? docs/page.md) goes to the class.
async function askTheClass(teacher) {
  await teacher.getByRole('button', { name: 'Predict', exact: true }).click();
  await teacher.getByRole('button', { name: /^Demo 3:/ }).click();
  await settle(teacher);
  const next = teacher.getByRole('button', { name: 'Next step', exact: true });
  await next.click();
  await settle(teacher);
  await next.click();
}

const caption = (page) => page.locator('#demo-caption');
const scenario = (page) => page.locator('#scenario-pre');

test('students follow every step of a demo in their own language, and a late joiner catches up', async ({ browser, watch, request }) => {
  test.setTimeout(120_000);
  const teacher = await device(browser, watch);
  const { code, join } = await startLecture(teacher);
  await teacher.getByRole('button', { name: 'Close' }).click();
  await expect(join).toBeHidden();
  await expect(teacher.locator('#lecture-status')).toContainText('You are teaching');

  const alice = await device(browser, watch);
  await joinByLink(alice, code);
  // A Japanese student types the code into the Lecture card, as a phone user would.
  const kenji = await device(browser, watch, { viewport: { width: 390, height: 844 } });
  await openPage(kenji, '#lang=ja');
  await kenji.getByLabel('コードで講義に参加').fill(code.toLowerCase());
  await kenji.getByRole('button', { name: '参加', exact: true }).click();
  await expect(kenji.locator('#lecture-code')).toHaveText(code);
  await expect(kenji.locator('#lecture-status')).toContainText('先生の操作に従っています');

  const d = await demo(request, 3);
  const ja = await demo(request, 3, 'ja');
  await teacher.getByRole('button', { name: /^Demo 3:/ }).click();
  await settle(teacher);
  const next = teacher.getByRole('button', { name: 'Next step', exact: true });
  for (const [i, step] of d.steps.entries()) {
    await next.click();
    await settle(teacher);
    await expect(caption(teacher)).toContainText(step.caption);
    const text = await scenario(teacher).textContent();
    // The same run on every page, narrated in each student's own language.
    await expect(scenario(alice)).toHaveText(text);
    await expect(caption(alice)).toContainText(step.caption);
    await expect(scenario(kenji)).toHaveText(text);
    await expect(caption(kenji)).toContainText(ja.steps[i].caption);
    if (i === 3) {
      // A late joiner sees the room as it is now, at once.
      const late = await device(browser, watch);
      await joinByLink(late, code);
      await expect(scenario(late)).toHaveText(text);
      await expect(caption(late)).toContainText(step.caption);
      await late.context().close();
    }
  }
  // The same numbers on every page: the snapshot's total as the teacher sees it.
  const total = await teacher.locator('.cl-total').first().textContent();
  await expect(alice.locator('.cl-total').first()).toHaveText(total);
  // The teacher ends the demo: so does every page (the run stays).
  await expect(alice.locator('body')).toHaveClass(/demo-on/);
  await teacher.getByRole('button', { name: 'End the demo' }).click();
  await expect(alice.locator('body')).not.toHaveClass(/demo-on/);
  await expect(kenji.locator('body')).not.toHaveClass(/demo-on/);
  await expect(scenario(alice)).toHaveText(await scenario(teacher).textContent());

  // A step of a student's own leaves the lecture (the room is untouched); Rejoin brings it back.
  await alice.getByRole('button', { name: 'Undo the last step' }).click();
  await settle(alice);
  await expect(alice.locator('#lecture-status')).toContainText('playing on your own');
  const view = await (await request.get(`/api/rooms/${code}`)).json();
  expect(view.state.scenario).toBe(`${(await scenario(teacher).textContent()).trim()}\n`);
  await alice.getByRole('button', { name: 'Rejoin the lecture' }).click();
  await expect(scenario(alice)).toHaveText(await scenario(teacher).textContent());
  await expect(alice.locator('#lecture-status')).toContainText('Following');

  // The teacher's page reloads: it is still the teacher of the same room, at the same step.
  await teacher.reload();
  await settle(teacher);
  await expect(teacher.locator('#lecture-code')).toHaveText(code);
  await expect(teacher.locator('#lecture-status')).toContainText('You are teaching: 3 students');
  await expect(scenario(teacher)).toHaveText(await scenario(alice).textContent());
  await teacher.getByRole('button', { name: 'Reset to the start of the preset' }).click();
  await settle(teacher);
  await expect(scenario(alice)).toHaveText(await scenario(teacher).textContent());
});

// A presenter's remote pressed in a burst: the teacher's steps reach the room in their order, and a
// student whose page receives them faster than it can draw them lands on the last one, still
// following (an older state committed late once read as the student playing alone).
test('a burst of steps from the teacher: every student ends on the teacher\'s last step, still following', async ({ browser, watch }) => {
  const teacher = await device(browser, watch);
  const { code } = await startLecture(teacher);
  await teacher.getByRole('button', { name: 'Close' }).click();
  const alice = await device(browser, watch);
  await joinByLink(alice, code);
  await teacher.getByRole('button', { name: /^Demo 3:/ }).click();
  await settle(teacher);
  for (let i = 0; i < 5; i += 1) await teacher.keyboard.press('ArrowRight');
  await settle(teacher);
  await expect(caption(teacher)).not.toBeEmpty();
  const text = await scenario(teacher).textContent();
  expect(text.trim().split('\n').length, 'the teacher\'s page played the five steps').toBeGreaterThan(4);
  await expect(scenario(alice)).toHaveText(text);
  await expect(caption(alice)).toHaveText(await caption(teacher).textContent());
  await expect(alice.locator('#lecture-status')).toContainText('Following');
});

// Peer instruction as a lecture hall runs it: vote 1 alone with the tally hidden, a discussion,
// vote 2, then the reveal with both votes side by side; a countdown on every page; a student
// answers once per vote; only counts reach the teacher. A teacher and three students: one on a
// laptop, one on a phone, one whose browser is set to Japanese. axe on every new screen.
test('vote, discuss, vote again, reveal: a teacher and three students, one on a phone, one in Japanese', async ({ browser, watch, request }) => {
  test.setTimeout(180_000);
  const laptop = { width: 1366, height: 768 };
  const teacher = await device(browser, watch, { viewport: laptop });
  const { code } = await startLecture(teacher);
  await teacher.getByRole('button', { name: 'Close' }).click();
  await teacher.getByLabel('Countdown per vote').selectOption('60');
  const alice = await device(browser, watch, { viewport: laptop });
  await joinByLink(alice, code);
  const phone = await device(browser, watch, { viewport: { width: 390, height: 844 } });
  await joinByLink(phone, code);
  // The Japanese student's browser speaks Japanese: the page does too, unasked. Its clock is
  // Playwright's, to run its countdown out without waiting for it.
  const yukiContext = await browser.newContext({ viewport: laptop, locale: 'ja-JP' });
  const yuki = watch(await yukiContext.newPage());
  await yuki.clock.install();
  await joinByLink(yuki, code);
  await expect(yuki.locator('html')).toHaveAttribute('lang', 'ja');
  const students = [alice, phone, yuki];
  const everyone = [teacher, ...students];
  await expect(teacher.locator('#lecture-status')).toContainText('3 students', { timeout: 15_000 });

  // Vote 1: the question on every page with its countdown; only students get buttons.
  await askTheClass(teacher);
  await expect(teacher.locator('#lecture-question')).toHaveText("Will P1's recorded balance include the $40 P2→P1?");
  await expect(yuki.locator('#lecture-question')).toHaveText('P1 の記録される残高に $40（P2→P1） は含まれますか？');
  for (const p of [teacher, alice, phone]) await expect(p.locator('#lecture-phase')).toHaveText('Vote 1: answer on your own.');
  await expect(yuki.locator('#lecture-phase')).toHaveText('投票1：ひとりで答えてください。');
  for (const p of [teacher, alice, phone]) await expect(p.locator('#lecture-countdown')).toHaveText(/^(60|59|58|57|56|55) s left$/);
  await expect(yuki.locator('#lecture-countdown')).toHaveText(/^残り\d+秒$/);
  await expect(teacher.locator('#lecture-choices button')).toHaveCount(0);

  // The phone holds the whole step on one screen: the network drawing above the step bar, the
  // question and both choices in it; stepping alone is not a button there.
  const onOneScreen = await phone.evaluate(() => {
    const r = (s) => document.querySelector(s).getBoundingClientRect();
    const bar = r('#demo-stepbar');
    const choices = [...document.querySelectorAll('#lecture-choices button')].map((b) => b.getBoundingClientRect());
    return {
      network: r('#network-svg').top >= 0 && r('#network-svg').bottom <= bar.top,
      question: r('#lecture-question').top >= bar.top && choices.length === 2 && choices.every((c) => c.bottom <= innerHeight),
    };
  });
  expect(onOneScreen).toEqual({ network: true, question: true });
  await expect(phone.getByRole('button', { name: 'Next step', exact: true })).toBeHidden();
  await expect(phone.getByRole('button', { name: 'Explore on my own' })).toBeVisible();
  let found = await audit(phone);
  expect(found, `axe, phone, vote 1:\n${found.join('\n')}`).toEqual([]);

  await alice.locator('#lecture-choices').getByRole('button', { name: 'No' }).click();
  await phone.locator('#lecture-choices').getByRole('button', { name: 'Yes' }).click();
  await yuki.locator('#lecture-choices').getByRole('button', { name: 'はい' }).click();
  await expect(teacher.locator('#lecture-tally')).toHaveText('3 of 3 students have answered vote 1.');
  // The tally is hidden from the projector, and no student's page has a count.
  await expect(teacher.locator('#lecture-table')).toBeHidden();
  for (const p of students) await expect(p.locator('.lecture-count')).toHaveCount(0);
  await expect(alice.locator('#lecture-after')).toHaveText('Your vote 1: No.');
  const asStudent = (await (await request.get(`/api/rooms/${code}`)).json()).question;
  expect(asStudent.votes).toEqual([{ answered: 3, seconds: 60 }]);
  // The teacher may peek, and stop peeking.
  await teacher.getByRole('button', { name: 'Peek at the answers' }).click();
  await expect(teacher.locator('#lecture-table tbody tr[data-choice="yes"] .lecture-count')).toHaveText(['2']);
  await expect(teacher.locator('#lecture-table tbody tr[data-choice="no"] .lecture-count')).toHaveText(['1']);
  found = await audit(teacher);
  expect(found, `axe, teacher, vote 1 with a peek:\n${found.join('\n')}`).toEqual([]);
  await teacher.getByRole('button', { name: 'Peek at the answers' }).click();
  await expect(teacher.locator('#lecture-table')).toBeHidden();

  // The discussion: every page says so, with the question and the student's own vote.
  await teacher.getByRole('button', { name: 'Start the discussion' }).click();
  for (const p of [teacher, alice, phone]) await expect(p.locator('#lecture-phase')).toHaveText('Talk to your neighbour: explain your answer, then vote again.');
  await expect(yuki.locator('#lecture-phase')).toContainText('隣の人と話し合ってください');
  await expect(phone.locator('#lecture-after')).toHaveText('In vote 1 you answered Yes.');
  for (const p of students) await expect(p.locator('#lecture-choices button')).toHaveCount(0);
  for (const p of everyone) await expect(p.locator('#lecture-countdown')).toBeHidden();
  found = await audit(phone);
  expect(found, `axe, phone, discussion:\n${found.join('\n')}`).toEqual([]);

  // Vote 2: the phone changes its mind; Yuki's countdown runs out before Yuki answers.
  await teacher.getByRole('button', { name: 'Open vote 2' }).click();
  for (const p of [teacher, alice, phone]) await expect(p.locator('#lecture-phase')).toHaveText('Vote 2: answer again, after the discussion.');
  await alice.locator('#lecture-choices').getByRole('button', { name: 'No' }).click();
  await phone.locator('#lecture-choices').getByRole('button', { name: 'No' }).click();
  await expect(teacher.locator('#lecture-tally')).toHaveText('2 of 3 students have answered vote 2.');
  await yuki.clock.fastForward('01:05');
  await expect(yuki.locator('#lecture-phase')).toHaveText('投票2は締め切られました。');
  await expect(yuki.locator('#lecture-choices button')).toHaveCount(0);
  await expect(yuki.locator('#lecture-after')).toHaveText('答える前にこの投票は締め切られました。');
  // Once per vote, and a vote-1 answer is not counted in vote 2.
  const room = (await (await request.get(`/api/rooms/${code}`)).json()).question;
  const tokenOf = (p) => p.evaluate((c) => localStorage.getItem(`cutline.lecture.student.${c}`), code);
  const twice = await request.post(`/api/rooms/${code}/answer`, { data: { student: await tokenOf(alice), question: room.id, choice: 'yes', vote: 2 } });
  expect([twice.status(), (await twice.json()).code]).toEqual([409, 'answered_already']);
  const late = await request.post(`/api/rooms/${code}/answer`, { data: { student: await tokenOf(yuki), question: room.id, choice: 'yes', vote: 1 } });
  expect([late.status(), (await late.json()).code]).toEqual([409, 'vote_closed']);

  // The presenter's step key reveals: both votes side by side on every page, the right answer
  // marked, each student scored on the last vote they gave.
  await teacher.keyboard.press('PageDown');
  for (const p of [teacher, alice, phone]) {
    await expect(p.locator('#lecture-phase')).toHaveText('The answer, with both votes.');
    await expect(p.locator('#lecture-table thead th')).toHaveText(['Answer', 'Vote 1', 'Vote 2']);
    await expect(p.locator('#lecture-table tr[data-choice="yes"] .lecture-count')).toHaveText(['2', '0']);
    await expect(p.locator('#lecture-table tr[data-choice="no"] .lecture-count')).toHaveText(['1', '2']);
    await expect(p.locator('#lecture-table tr[data-choice="no"] th')).toContainText('right answer');
  }
  await expect(yuki.locator('#lecture-table thead th')).toHaveText(['答え', '投票1', '投票2']);
  await expect(alice.locator('#lecture-after')).toContainText('Right.');
  await expect(phone.locator('#lecture-after')).toContainText('Right.');
  await expect(yuki.locator('#lecture-after')).toContainText('今回は不正解。');
  // "you" marks the phone's own answer in each vote: Yes in vote 1, No in vote 2.
  await expect(phone.locator('#lecture-table tr[data-choice="yes"] td').nth(0).locator('.lecture-yours')).toHaveCount(1);
  await expect(phone.locator('#lecture-table tr[data-choice="no"] td').nth(1).locator('.lecture-yours')).toHaveCount(1);
  // The Japanese table lays out as the English one: every bar of a vote starts at one x.
  const starts = await yuki.locator('#lecture-table td:nth-of-type(1) .lecture-bar-fill').evaluateAll((bars) => bars.map((b) => Math.round(b.getBoundingClientRect().left)));
  expect(new Set(starts).size).toBe(1);
  for (const [who, p] of [['teacher', teacher], ['phone', phone], ['Japanese student', yuki]]) {
    found = await audit(p);
    expect(found, `axe, ${who}, revealed:\n${found.join('\n')}`).toEqual([]);
  }
  const scores = await phone.evaluate(() => JSON.parse(localStorage.getItem('cutline.predict.v1')));
  expect(Object.values(scores[`lecture-${code}`])).toEqual([true]);

  // With the reveal the step plays, on every page.
  await settle(teacher);
  const d = await demo(request, 3);
  for (const p of [teacher, alice, phone]) await expect(caption(p)).toContainText(d.steps[1].caption);

  // On the phone, exploring alone is a choice: asked first, and Stay keeps the lecture.
  await phone.getByRole('button', { name: 'Explore on my own' }).click();
  const ask = phone.getByRole('dialog', { name: 'Leave the lecture to explore?' });
  await expect(ask).toBeVisible();
  found = await audit(phone);
  expect(found, `axe, phone, leave the lecture?:\n${found.join('\n')}`).toEqual([]);
  await ask.getByRole('button', { name: 'Stay in the lecture' }).click();
  await expect(ask).toBeHidden();
  await expect(phone.locator('#lecture-status')).toContainText('Following');
  // A step key asks too; leaving then takes that step on the student's own page only.
  await phone.keyboard.press('ArrowRight');
  await expect(ask).toBeVisible();
  await ask.getByRole('button', { name: 'Leave and explore' }).click();
  await expect(phone.locator('#lecture-status')).toContainText('playing on your own');
  await expect(caption(phone)).toContainText(d.steps[2].caption);
  await expect(phone.getByRole('button', { name: 'Next step', exact: true })).toBeVisible();
  const view = await (await request.get(`/api/rooms/${code}`)).json();
  expect(view.state.scenario).toBe(`${(await scenario(teacher).textContent()).trim()}\n`);
  await yukiContext.close();
});

test('a student cannot drive: forged requests are refused with 403 and nothing changes', async ({ browser, watch, request }) => {
  const teacher = await device(browser, watch);
  const { code } = await startLecture(teacher);
  await teacher.getByRole('button', { name: 'Close' }).click();
  const alice = await device(browser, watch);
  await joinByLink(alice, code);
  const before = await (await request.get(`/api/rooms/${code}`)).json();
  const student = await alice.evaluate((c) => localStorage.getItem(`cutline.lecture.student.${c}`), code);
  for (const token of ['', student, code, 'f'.repeat(32)]) {
    const headers = token ? { 'X-Cutline-Teacher': token } : {};
    for (const [path, data] of [['state', { scenario: 'network X=1\n' }], ['question', { id: 'q', choices: ['a'] }], ['reveal', {}]]) {
      const res = await request.post(`/api/rooms/${code}/${path}`, { headers, data });
      expect(res.status(), `${path} with ${token || 'no token'}`).toBe(403);
      expect((await res.json()).code).toBe('not_teacher');
    }
  }
  const after = await (await request.get(`/api/rooms/${code}`)).json();
  expect(after).toEqual(before);
  await expect(scenario(alice)).toHaveText(await scenario(teacher).textContent());
});

test('a bad code is refused in words; an ended lecture says so', async ({ browser, watch, page }) => {
  await openPage(page);
  await page.getByLabel('Join a lecture with its code').fill('12');
  await page.getByRole('button', { name: 'Join', exact: true }).click();
  await expect(page.locator('#notice')).toHaveText('“12” is not a lecture code: it has six letters and digits, like K7TM3Q.');
  await expect(page.locator('#lecture')).toBeHidden();
  // A link to a lecture that is no more: the server's 404 is an answer, so this page is not
  // watched for console errors (the browser logs every 404).
  const context = await browser.newContext();
  const gone = await context.newPage();
  await gone.goto('/?room=QQQQQQ');
  await expect(gone.locator('#notice')).toHaveText('No lecture has this code (it may have ended).');
  await expect(gone.locator('#lecture')).toBeHidden();
  await context.close();
  void watch;
});

test('past its limits the server refuses, and the page says so in words', async ({ browser, limitsServer }) => {
  test.setTimeout(120_000);  // four devices
  // A server with room for one lecture of one student (fixtures.js). Its 503s are answers, which
  // the browser logs as failed loads: these pages are not watched for console errors.
  const base = limitsServer.url;
  const open = async () => {
    const context = await browser.newContext();
    const p = await context.newPage();
    await p.goto(`${base}/`);
    await settle(p);
    return p;
  };
  const teacher = await open();
  await teacher.getByRole('button', { name: 'Teach a lecture' }).click();
  await teacher.getByRole('button', { name: 'Close' }).click();
  const code = (await teacher.locator('#lecture-code').textContent()).trim();
  const second = await open();
  await second.getByRole('button', { name: 'Teach a lecture' }).click();
  await expect(second.locator('#notice')).toHaveText('The server holds as many lectures as it can; try again when one ends.');
  await expect(second.locator('#lecture')).toBeHidden();
  const first = await open();
  await first.goto(`${base}/?room=${code}`);
  await expect(first.locator('#lecture-status')).toContainText('Following');
  const late = await open();
  await late.goto(`${base}/?room=${code}`);
  await expect(late.locator('#notice')).toHaveText('This lecture is full.');
  await expect(late.locator('#lecture')).toBeHidden();
  // The room is as it was: one student, and the teacher still drives it.
  const view = await (await teacher.request.get(`${base}/api/rooms/${code}`)).json();
  expect(view.students).toBe(1);
  await send(teacher, 'P1', 'P2', 30);
  await expect(first.locator('#scenario-pre')).toHaveText(await teacher.locator('#scenario-pre').textContent());
  await expect(first.locator('#scenario-pre')).toContainText('transfer P1 P2 30');
});

test('the join screen: a QR code that scans to the join link, and the code to read out', async ({ browser, watch }) => {
  const teacher = await device(browser, watch, { viewport: { width: 1920, height: 1080 } });
  const { code, join } = await startLecture(teacher);
  const link = await teacher.locator('#lecture-join-link').textContent();
  expect(link).toBe(`http://127.0.0.1:${new URL(teacher.url()).port}/?room=${code}`);
  // Large enough to scan from the back of a room: most of the projector's height.
  const box = await teacher.locator('#lecture-qr').boundingBox();
  expect(box.height).toBeGreaterThan(500);
  // On 127.0.0.1 the page warns that students' devices cannot reach it.
  await expect(join.locator('#lecture-join-local')).toBeVisible();
  // The page's own pixels, scanned here (jsQR): what a phone's camera would read.
  const size = 300;
  const pixels = await teacher.evaluate(async (side) => {
    const img = document.getElementById('lecture-qr');
    await img.decode();
    const canvas = document.createElement('canvas');
    canvas.width = side;
    canvas.height = side;
    const ctx = canvas.getContext('2d');
    ctx.drawImage(img, 0, 0, side, side);
    return Array.from(ctx.getImageData(0, 0, side, side).data);
  }, size);
  const found = jsQR(Uint8ClampedArray.from(pixels), size, size);
  const decoded = found && found.data;
  expect(decoded).toBe(link);
  const violations = await audit(teacher);
  expect(violations, `axe violations on the join screen:\n${violations.join('\n')}`).toEqual([]);
});
