// Refusals where the eye is (issue 13, point 6): the notice is fixed in view wherever the refused
// control is, announced (role=status, aria-live), cleared by the next good action; a broken share
// link gets one translated line and a fresh bank, and no notice outlives a later good link.
const { test, expect, settle, openPage, send } = require('./fixtures');

const notice = (page) => page.getByRole('status');

async function expectInView(page, what) {
  const r = await page.locator('#notice-box').boundingBox();
  const h = page.viewportSize().height;
  expect(r, `${what}: the notice is drawn`).not.toBeNull();
  expect(r.y, `${what}: the notice starts on screen`).toBeGreaterThanOrEqual(0);
  expect(r.y + r.height, `${what}: the notice ends on screen`).toBeLessThanOrEqual(h);
  // On top: nothing covers its text.
  const onTop = await page.evaluate(() => {
    const b = document.getElementById('notice').getBoundingClientRect();
    const el = document.elementFromPoint(b.left + 10, (b.top + b.bottom) / 2);
    return !!el && document.getElementById('notice-box').contains(el);
  });
  expect(onTop, `${what}: the notice is not covered`).toBe(true);
}

for (const size of [{ width: 1366, height: 768 }, { width: 390, height: 844 }]) {
  test(`refusals are shown in view at ${size.width} px and cleared by the next good action`, async ({ page }) => {
    await page.setViewportSize(size);
    await openPage(page);
    await expect(notice(page)).toHaveAttribute('aria-live', 'polite');
    // Send $500: more than P1 holds.
    await send(page, 'P1', 'P2', 500);
    await expect(notice(page)).toContainText('Refused');
    await expectInView(page, 'Send $500');
    // A good action clears it.
    await send(page, 'P1', 'P2', 30);
    await expect(notice(page)).toHaveText('');
    await expect(page.locator('#notice-box')).toHaveClass(/empty/);
    // A third transfer on a full channel, in a demo (the step bar is at the bottom then).
    await send(page, 'P1', 'P2', 10);
    await send(page, 'P1', 'P2', 10);
    await expect(notice(page)).toContainText('Refused');
    await expectInView(page, 'a third transfer');
    // Deliver Next with nothing in flight, while a demo runs and the page is scrolled to its stage.
    await page.locator('.demo-button[data-demo="1"]').click();
    await settle(page);
    await page.getByRole('button', { name: /Deliver Next/ }).click();
    await settle(page);
    await expect(notice(page)).toContainText('Refused');
    await expectInView(page, 'Deliver Next with nothing in flight');
    const bar = await page.locator('#demo-stepbar').boundingBox();
    const box = await page.locator('#notice-box').boundingBox();
    expect(box.y + box.height, 'the notice sits above the step bar').toBeLessThanOrEqual(bar.y);
    await page.locator('#demo-next').click();
    await settle(page);
    await expect(notice(page)).toHaveText('');
  });
}

test('a broken share link: one translated line and a fresh bank; a later good link clears it', async ({ page }) => {
  await page.goto('/#s=garbage!!!');
  await settle(page);
  await expect(notice(page)).toHaveText(/share link is damaged or cut short/);
  expect((await notice(page).textContent()).includes('\n')).toBe(false);
  await expect(page.locator('body')).not.toContainText('atob');
  await expect(page.locator('#network-svg .branch')).toHaveCount(3);
  for (const b of ['P1', 'P2', 'P3']) {
    await expect(page.locator(`#network-svg .branch[data-name="${b}"] .branch-balance`)).toHaveText('$100');
  }
  // A good link afterwards (a run of one transfer): no stale notice.
  const good = await page.evaluate(() => {
    const text = 'network P1=100 P2=100 P3=100 capacity=2 snapshots=one\ntransfer P1 P2 30\n';
    return btoa(text).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
  });
  await page.evaluate((s) => { location.hash = `#s=${s}`; }, good);
  await settle(page);
  await expect(page.locator('#network-svg .branch[data-name="P1"] .branch-balance')).toHaveText('$70');
  await expect(notice(page)).not.toContainText('damaged');
  // A link cut short in the middle of its text, in Japanese.
  // Opened as a new document: a hash change on this page would be handled
  // (and the hash rewritten to the state it opens) racing a reload.
  await page.goto('about:blank');
  await page.goto(`/#s=${good.slice(0, 9)}&lang=ja`);
  await settle(page);
  await expect(notice(page)).toContainText('共有リンク');
  await expect(notice(page)).not.toContainText('Failed');
  await expect(page.locator('#network-svg .branch[data-name="P1"] .branch-balance')).toHaveText('$100');
});
