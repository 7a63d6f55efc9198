// The stage (issue 13, points 1-3): while a demo runs, the network, the step bar (Previous, Next,
// Play, progress, caption) and the snapshot panel's headline are on screen together, and nothing
// covers them, after every step of every demo, at the four sizes of a laptop, a wide screen and a
// phone (the space-time diagram too at 1920x1080, also in presentation mode); Previous step and Undo lead back into a demo;
// the keys of a keyboard or a presenter remote step the demo, never while typing in a field.
const { test, expect, settle, openPage, demos, send } = require('./fixtures');

const SIZES = [
  { width: 1366, height: 768 }, { width: 1280, height: 800 }, { width: 1920, height: 1080 }, { width: 390, height: 844 },
  // A projector in presentation mode: lecture-hall type, and still the diagram on the stage.
  { width: 1920, height: 1080, present: true },
];
const sizeName = (s) => `${s.width}x${s.height}${s.present ? ' in presentation mode' : ''}`;
const STEP_CONTROLS = ['demo-prev', 'demo-next', 'demo-play', 'demo-progress', 'demo-caption'];

// Every box on screen, the drawing and the headline above the step bar and not covered by
// anything (the element on top at their corners is inside them). Returns the problems found.
async function stageProblems(page, withDiagram, withHeadline = true) {
  return page.evaluate(({ controls, withDiagram: wd, withHeadline: wh }) => {
    const problems = [];
    const H = window.innerHeight;
    const W = document.documentElement.clientWidth;
    const bar = document.getElementById('demo-stepbar').getBoundingClientRect();
    if (getComputedStyle(document.getElementById('demo-stepbar')).position !== 'fixed') problems.push('the step bar is not fixed');
    // The headline: the snapshot's line, its total and the verdict's line (not the list under it).
    const headline = () => {
      const rs = [...document.querySelectorAll('#cl-headline > :not(.cl-verdict), #cl-headline > .cl-verdict > p')].map((e) => e.getBoundingClientRect());
      const t = Math.min(...rs.map((r) => r.top));
      const b = Math.max(...rs.map((r) => r.bottom));
      const whole = document.getElementById('cl-headline').getBoundingClientRect();
      return { top: t, bottom: b, left: whole.left + 1, right: whole.right - 1, height: b - t };
    };
    const onScreen = (id, limit) => {
      const r = id === 'cl-headline' ? headline() : document.getElementById(id).getBoundingClientRect();
      if (r.height === 0) problems.push(`${id} is not drawn`);
      if (r.top < -0.5 || r.bottom > limit + 0.5 || r.left < -0.5 || r.right > W + 0.5) {
        problems.push(`${id} at ${Math.round(r.top)}..${Math.round(r.bottom)} is not within 0..${Math.round(limit)}`);
      }
      return r;
    };
    for (const id of controls) onScreen(id, H);
    const stage = ['network-svg', 'invariant'];
    if (wh) stage.push('cl-headline');
    if (wd) stage.push('st-scroll');
    for (const id of stage) {
      const el = document.getElementById(id);
      const r = onScreen(id, bar.top);
      const pts = [[r.left + 3, r.top + 3], [r.right - 3, r.top + 3], [r.left + 3, r.bottom - 3], [r.right - 3, r.bottom - 3]];
      const covered = pts.filter(([x, y]) => { const top = document.elementFromPoint(x, y); return top && !el.contains(top); });
      if (covered.length) problems.push(`${id} is covered at ${covered.length} corners`);
    }
    return problems;
  }, { controls: STEP_CONTROLS, withDiagram, withHeadline });
}

async function expectStage(page, size, what) {
  const problems = await stageProblems(page, size.width === 1920);
  expect(problems, `the stage at ${sizeName(size)}, ${what}`).toEqual([]);
}

// make test walks the laptop and the phone; the two other desktop sizes sit between them, and
// the projector in presentation mode is walked step by step by cues.spec.js's presentation test
// in make test as well, so these three are make test-long's (tagged @long).
const LONG_SIZES = ['1280x800', '1920x1080', '1920x1080 in presentation mode'];
for (const size of SIZES) {
  const tag = LONG_SIZES.includes(sizeName(size)) ? { tag: '@long' } : {};
  test(`the stage at ${sizeName(size)}: network, step bar and snapshot headline in view after every step of every demo`, tag, async ({ page, request }) => {
    test.setTimeout(240_000);
    await page.setViewportSize({ width: size.width, height: size.height });
    await openPage(page, size.present ? '?present=1' : '');
    if (size.present) await expect(page.locator('body')).toHaveClass(/present/);
    const list = await demos(request);
    expect(list.length).toBe(18);
    const next = page.locator('#demo-next');
    for (const d of list) {
      // Chosen from the list, wherever it has been scrolled to.
      await page.locator(`.demo-button[data-demo="${d.id}"]`).click();
      await settle(page);
      await expect(next).toBeFocused();
      await expectStage(page, size, `demo ${d.id} at its start`);
      for (let k = 0; k < d.steps.length; k++) {
        await next.click();
        await settle(page);
        await expect(page.locator('#demo-caption')).toContainText(d.steps[k].caption);
        await expectStage(page, size, `demo ${d.id} after step ${k + 1}`);
      }
      // Back one step, then a free action (it leaves the script): still on the stage.
      await page.locator('#demo-prev').click();
      await settle(page);
      await expectStage(page, size, `demo ${d.id} after Previous step`);
      // Read Balance on the bank, Read State under jobs and locks.
      await page.getByRole('button', { name: new RegExp(`^Read (Balance|State) of ${d.preset === 'lab' ? 'A' : 'P1'}$`) }).click();
      await settle(page);
      await expectStage(page, size, `demo ${d.id} after a free action`);
    }
  });
}

test('Previous step goes back one step; Undo of a free action returns into the demo', async ({ page, request }) => {
  const [d] = (await demos(request)).filter((x) => x.id === 3);
  await openPage(page);
  await page.getByRole('button', { name: /^Demo 3:/ }).click();
  await settle(page);
  const prev = page.getByRole('button', { name: 'Previous step', exact: true });
  const next = page.getByRole('button', { name: 'Next step', exact: true });
  const progress = page.locator('#demo-progress');
  const caption = page.locator('#demo-caption');
  await expect(prev).toHaveAttribute('aria-disabled', 'true');
  for (let k = 0; k < 3; k++) {
    await next.click();
    await settle(page);
  }
  await expect(progress).toContainText('step 3 of');
  await prev.click();
  await settle(page);
  await expect(progress).toContainText('step 2 of');
  await expect(caption).toHaveText(d.steps[1].caption);
  await expect(page.locator('#log-list > li')).toHaveCount(3);

  // A free action leaves the script: Next step is off, the caption says how to come back.
  await send(page, 'P3', 'P1', 5);
  await expect(caption).toContainText('You left the demo');
  await expect(next).toHaveAttribute('aria-disabled', 'true');
  await expect(prev).toHaveAttribute('aria-disabled', 'false');
  // Undo of that action is back in the demo, where it was.
  await page.getByRole('button', { name: /^Undo/ }).click();
  await settle(page);
  await expect(caption).toHaveText(d.steps[1].caption);
  await expect(progress).toContainText('step 2 of');
  await expect(next).toHaveAttribute('aria-disabled', 'false');
  await next.click();
  await settle(page);
  await expect(caption).toHaveText(d.steps[2].caption);

  // Two free actions, then Previous step: straight back to where the run left the script.
  await send(page, 'P3', 'P1', 5);
  await send(page, 'P3', 'P2', 5);
  await prev.click();
  await settle(page);
  await expect(caption).toHaveText(d.steps[2].caption);
  await expect(page.locator('#log-list > li')).toHaveCount(4);
  // A changed setting leaves it too; Previous step comes back to the demo's own network.
  await page.getByLabel('FIFO channels').uncheck();
  await settle(page);
  await expect(caption).toContainText('You left the demo');
  await prev.click();
  await settle(page);
  await expect(page.getByLabel('FIFO channels')).toBeChecked();
  await expect(caption).toHaveText(d.steps[2].caption);
  // Ending the demo puts the bar back and the focus on the demo's button.
  await page.getByRole('button', { name: 'End the demo' }).click();
  await settle(page);
  await expect(page.locator('body')).not.toHaveClass(/demo-on/);
  await expect(page.getByRole('button', { name: /^Demo 3:/ })).toBeFocused();
});

test('keys: Right, PageDown, Space forward; Left, PageUp back; Home restarts; not while typing; listed on the page', async ({ page }) => {
  await page.setViewportSize({ width: 1366, height: 768 });
  await openPage(page);
  await expect(page.locator('#keys-hint')).toContainText('Page Down');
  await expect(page.locator('#keys-hint')).toContainText('Home');
  await page.getByRole('button', { name: /^Demo 3:/ }).click();
  await settle(page);
  const progress = page.locator('#demo-progress');
  const at = async (k) => expect(progress).toContainText(`step ${k} of`);
  // The focus leaves the step buttons: the keys still step (a presenter remote has no focus).
  await page.locator('#h-network').click();
  const scroll0 = await page.evaluate(() => window.scrollY);
  for (const [key, k] of [['ArrowRight', 1], ['PageDown', 2], [' ', 3], ['ArrowLeft', 2], ['PageUp', 1], ['PageDown', 2], ['Home', 0]]) {
    await page.keyboard.press(key === ' ' ? 'Space' : key);
    await settle(page);
    await at(k);
  }
  // None of them scrolled the page.
  expect(await page.evaluate(() => window.scrollY)).toBe(scroll0);
  // Typing in a field: the keys are the field's.
  const amount = page.getByLabel('Amount ($)', { exact: true });
  await amount.fill('30');
  await amount.press('ArrowLeft');
  await amount.press('Home');
  await amount.press('Space');
  await settle(page);
  await at(0);
  await expect(amount).toHaveValue(' 30');
  // After the demo ends (End the demo), the keys are the page's again.
  await page.getByRole('button', { name: 'End the demo' }).click();
  await settle(page);
  await page.locator('#h-network').click();
  await page.keyboard.press('ArrowRight');
  await settle(page);
  await expect(page.locator('#log-list > li')).toHaveCount(1);
});

// The README's pictures: what a student sees mid-demo at 1366x768, and what a lecture hall sees in
// presentation mode at 1920x1080. Written when missing, or when UPDATE_SCREENSHOT=1, so that a
// test run does not change committed files; the stage is checked in both before the picture.
test('README screenshots: Demo 3 mid-step at 1366x768, and in presentation mode', async ({ page }) => {
  const fs = require('fs');
  const path = require('path');
  const docs = path.join(__dirname, '..', '..', 'docs');
  for (const [size, url, file] of [
    [{ width: 1366, height: 768 }, '/', 'screenshot-stage.png'],
    [{ width: 1920, height: 1080 }, '/?present=1', 'screenshot-present.png'],
  ]) {
    await page.setViewportSize(size);
    await page.goto(url);
    await settle(page);
    await expect(page.locator('#demo-buttons .demo-button')).toHaveCount(18);
    await page.locator('.demo-button[data-demo="3"]').click();
    await settle(page);
    for (let k = 0; k < 5; k++) {
      await page.keyboard.press('ArrowRight');
      await settle(page);
    }
    await expect(page.locator('#demo-progress')).toContainText('step 5 of');
    // In presentation mode the space-time diagram is on the stage too (style.css, body.present.demo-on).
    const problems = await stageProblems(page, url.includes('present'));
    expect(problems, file).toEqual([]);
    const out = path.join(docs, file);
    if (process.env.UPDATE_SCREENSHOT === '1' || !fs.existsSync(out)) await page.screenshot({ path: out });
  }
});

// A 1280x720 screen at 150 % zoom: 853x480 CSS px at 1.5 device pixels per px. The stage cannot
// fit (docs/page.md), but the bar takes one row, the network drawing and the step controls stay
// in view after every step, the control just pressed is never left under the bar, and a refusal
// never covers the control it refuses.
test('150 % zoom (853x480 at 1.5): a one-row bar, the pressed control never under it, a refusal beside its control', async ({ browser, baseURL, watch, request }) => {
  test.setTimeout(240_000);
  const ctx = await browser.newContext({ baseURL, viewport: { width: 853, height: 480 }, deviceScaleFactor: 1.5 });
  const page = watch(await ctx.newPage());
  await openPage(page);
  const box = (sel) => page.locator(sel).evaluate((el) => { const r = el.getBoundingClientRect(); return { top: r.top, bottom: r.bottom, left: r.left, right: r.right }; });
  // Scrolls the page so that `sel` ends just above the step bar (where a visitor who scrolled
  // down to it would find it), then presses it.
  const pressJustAboveBar = async (sel) => {
    await page.evaluate((q) => {
      const r = document.querySelector(q).getBoundingClientRect();
      const bar = document.getElementById('demo-stepbar').getBoundingClientRect();
      window.scrollBy({ top: r.bottom - (bar.top - 4), behavior: 'instant' });
    }, sel);
    await page.locator(sel).click();
    await settle(page);
  };
  const uncovered = (sel) => page.locator(sel).evaluate((el) => {
    const r = el.getBoundingClientRect();
    const top = document.elementFromPoint((r.left + r.right) / 2, (r.top + r.bottom) / 2);
    return !!top && el.contains(top);
  });

  for (const d of await demos(request)) {
    await page.locator(`.demo-button[data-demo="${d.id}"]`).click();
    await settle(page);
    const bar = await box('#demo-stepbar');
    expect(bar.bottom - bar.top, `demo ${d.id}: the bar is one row of buttons beside the caption`).toBeLessThanOrEqual(480 * 0.22);
    for (let k = 0; k < d.steps.length; k++) {
      await page.keyboard.press('PageDown');
      await settle(page);
      expect(await stageProblems(page, false, false), `demo ${d.id} after step ${k + 1} at 150 %`).toEqual([]);
    }
  }

  // Demo 1, one step. Read Balance of P2, pressed just above the bar (the visitor scrolled down
  // to it), leaves the script; the page scrolls back towards the network, but not so far that the
  // button just pressed slides under the bar.
  await page.locator('.demo-button[data-demo="1"]').click();
  await settle(page);
  await page.keyboard.press('PageDown');
  await settle(page);
  const read = '[data-focus-key="read-P2"]';
  await pressJustAboveBar(read);
  await expect(page.locator('#demo-caption')).toContainText('You left the demo');
  await expect(page.locator(read)).toBeFocused();
  const pressed = await box(read);
  const bar = await box('#demo-stepbar');
  expect(pressed.bottom, 'Read Balance is above the step bar').toBeLessThanOrEqual(bar.top);
  expect(pressed.top, 'Read Balance is on screen').toBeGreaterThanOrEqual(0);
  expect(await uncovered(read), 'nothing covers Read Balance').toBe(true);

  // Send $500, pressed just above the bar: the refusal is in view and does not cover Send.
  await page.getByLabel('Amount ($)', { exact: true }).fill('500');
  await pressJustAboveBar('#tr-send');
  await expect(page.getByRole('status')).toContainText('Refused');
  const sendBox = await box('#tr-send');
  const noticeBox = await box('#notice-box');
  const overlap = sendBox.top < noticeBox.bottom && noticeBox.top < sendBox.bottom && sendBox.left < noticeBox.right && noticeBox.left < sendBox.right;
  expect(overlap, `the refusal ${JSON.stringify(noticeBox)} covers Send ${JSON.stringify(sendBox)}`).toBe(false);
  expect(noticeBox.top).toBeGreaterThanOrEqual(0);
  expect(noticeBox.bottom).toBeLessThanOrEqual(480);
  expect(await uncovered('#tr-send'), 'nothing covers Send').toBe(true);
  expect(await uncovered('#notice'), 'nothing covers the refusal').toBe(true);
  // The next good action clears it, and a later refusal starts at the bottom again.
  await page.getByLabel('Amount ($)', { exact: true }).fill('5');
  await page.locator('#tr-send').click();
  await settle(page);
  await expect(page.getByRole('status')).toHaveText('');
  await ctx.close();
});

// The keys where a teacher looks: beside the step buttons while a demo runs, on a laptop and on a
// projector, in both languages; a phone has them under the demo list only (no room in its bar).
test('the keys are listed in the step bar while a demo runs (laptop, projector, both languages)', async ({ page }) => {
  for (const [size, url, words] of [
    [{ width: 1366, height: 768 }, '/', ['Page Down', 'Page Up', 'Home']],
    [{ width: 1920, height: 1080 }, '/?present=1', ['Page Down', 'Page Up', 'Home']],
    [{ width: 1366, height: 768 }, '/#lang=ja', ['Page Down', 'スペース', '戻る']],
  ]) {
    await page.setViewportSize(size);
    await page.goto(url);
    await settle(page);
    await expect(page.locator('#demo-buttons .demo-button')).toHaveCount(18);
    const keys = page.locator('#stepbar-keys');
    await expect(keys).toBeHidden();
    await page.locator('.demo-button[data-demo="2"]').click();
    await settle(page);
    await expect(keys).toBeVisible();
    for (const w of words) await expect(keys).toContainText(w);
    // Inside the bar, on one row with the buttons, so the bar does not grow for it.
    const [k, next] = [await keys.boundingBox(), await page.locator('#demo-next').boundingBox()];
    expect(Math.abs((k.y + k.height / 2) - (next.y + next.height / 2)), `${url}: beside Next step`).toBeLessThan(next.height / 2);
    expect(await stageProblems(page, size.width === 1920), url).toEqual([]);
    await page.getByRole('button', { name: /^(End the demo|デモを終える)$/ }).click();
    await settle(page);
    await expect(keys).toBeHidden();
  }
  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto('/');
  await settle(page);
  await page.locator('.demo-button[data-demo="2"]').click();
  await settle(page);
  await expect(page.locator('#stepbar-keys')).toBeHidden();
  await expect(page.locator('#keys-hint')).toContainText('Page Down');
});
