// Lecture mode: one teacher's page and several students' pages, each in a browser context of its
// own (its own localStorage, as on separate devices), against the real server. The students
// follow every step of a demo, each in their own language; a late joiner catches up at once; a
// question put to the class collects the answers and the teacher's bars count them; the reveal
// reaches every page; a student cannot drive; the join screen's QR code scans to the join link.
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

test('a question put to the class: answers come in as counts, the reveal reaches every page', async ({ browser, watch, request }) => {
  test.setTimeout(120_000);
  const teacher = await device(browser, watch);
  const { code } = await startLecture(teacher);
  await teacher.getByRole('button', { name: 'Close' }).click();
  const students = [];
  for (let i = 0; i < 3; i += 1) {
    const s = await device(browser, watch);
    await joinByLink(s, code, i === 2 ? '#lang=ja' : '');
    students.push(s);
  }
  await expect(teacher.locator('#lecture-status')).toContainText('3 students', { timeout: 15_000 });
  await askTheClass(teacher);
  const reveal = teacher.getByRole('button', { name: 'Reveal the answers' });
  await expect(reveal).toBeVisible();
  await expect(teacher.locator('#lecture-question')).toHaveText("Will P1's recorded balance include the $40 P2→P1?");
  await expect(students[2].locator('#lecture-question')).toHaveText('P1 の記録される残高に $40（P2→P1） は含まれますか？');
  // Two say no (right), one says yes; the teacher sees the counts, the students do not.
  await students[0].locator('#lecture-choices').getByRole('button', { name: 'No' }).click();
  await students[1].locator('#lecture-choices').getByRole('button', { name: 'Yes' }).click();
  await students[2].locator('#lecture-choices').getByRole('button', { name: 'いいえ' }).click();
  await expect(teacher.locator('#lecture-tally')).toHaveText('3 of 3 students have answered.');
  await expect(teacher.locator('#lecture-choices li[data-choice="yes"] .lecture-count')).toHaveText('1');
  await expect(teacher.locator('#lecture-choices li[data-choice="no"] .lecture-count')).toHaveText('2');
  await expect(students[0].locator('.lecture-count')).toHaveCount(0);
  await expect(students[0].locator('#lecture-after')).toHaveText('Your answer is in. Wait for the teacher to reveal the answers.');
  // A second answer from the same student is refused by the server, and the tally stays.
  const student = await students[1].evaluate((c) => localStorage.getItem(`cutline.lecture.student.${c}`), code);
  const again = await request.post(`/api/rooms/${code}/answer`, { data: { student, question: (await (await request.get(`/api/rooms/${code}`)).json()).question.id, choice: 'no' } });
  expect(again.status()).toBe(409);

  // The step waits for the reveal; the presenter's step key reveals.
  await teacher.keyboard.press('PageDown');
  await expect(students[0].locator('#lecture-choices li[data-choice="no"]')).toContainText('right answer');
  await expect(students[0].locator('#lecture-after')).toContainText('Right.');
  await expect(students[1].locator('#lecture-after')).toContainText('Not this time.');
  await expect(students[1].locator('#lecture-choices li[data-choice="no"] .lecture-count')).toHaveText('2');
  await expect(students[2].locator('#lecture-after')).toContainText('正解。');
  // Then the step plays on every page.
  await settle(teacher);
  const d = await demo(request, 3);
  await expect(caption(teacher)).toContainText(d.steps[1].caption);
  for (const s of students.slice(0, 2)) await expect(caption(s)).toContainText(d.steps[1].caption);
  // Each student's score stays in that student's browser.
  const scores = await students[0].evaluate(() => JSON.parse(localStorage.getItem('cutline.predict.v1')));
  expect(Object.values(scores[`lecture-${code}`])).toEqual([true]);
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

// The phone is make test's; the desktop width is make test-long's (tagged @long).
for (const size of [{ width: 1280, height: 800 }, { width: 390, height: 844 }]) {
  const tag = size.width === 390 ? {} : { tag: '@long' };
  test(`axe: the teacher's and a student's pages with a question open, ${size.width} px`, tag, async ({ browser, watch }) => {
    test.setTimeout(90_000);
    const teacher = await device(browser, watch, { viewport: size });
    const { code } = await startLecture(teacher);
    await teacher.getByRole('button', { name: 'Close' }).click();
    const student = await device(browser, watch, { viewport: size });
    await joinByLink(student, code);
    await askTheClass(teacher);
    await expect(student.locator('#lecture-choices button')).toHaveCount(2);
    let found = await audit(student);
    expect(found, `axe violations, student, question open, ${size.width} px:\n${found.join('\n')}`).toEqual([]);
    await student.locator('#lecture-choices').getByRole('button', { name: 'No' }).click();
    await expect(teacher.locator('#lecture-tally')).toHaveText('1 of 1 students have answered.');
    found = await audit(teacher);
    expect(found, `axe violations, teacher, answers in, ${size.width} px:\n${found.join('\n')}`).toEqual([]);
    await teacher.getByRole('button', { name: 'Reveal the answers' }).click();
    await expect(student.locator('#lecture-after')).toContainText('Right.');
    found = await audit(student);
    expect(found, `axe violations, student, revealed, ${size.width} px:\n${found.join('\n')}`).toEqual([]);
  });
}
