// Layout: no horizontal scrolling at 390 px, readable at 1280x800, nothing loaded from outside.
const { test, expect, openPage, region, demos, playDemo, snap } = require('./fixtures');

async function noHorizontalScroll(page) {
  const [scroll, client] = await page.evaluate(() => [document.documentElement.scrollWidth, document.documentElement.clientWidth]);
  expect(scroll).toBeLessThanOrEqual(client);
  // No panel sticks out of the viewport either.
  const wide = await page.evaluate(() => [...document.querySelectorAll('.card, header, .notice')]
    .filter((el) => el.getBoundingClientRect().right > document.documentElement.clientWidth + 0.5)
    .map((el) => el.id || el.className));
  expect(wide).toEqual([]);
}

test('390 px wide: no horizontal scroll, before and after a demo, in both languages', async ({ page, request }, testInfo) => {
  await page.setViewportSize({ width: 390, height: 844 });
  await openPage(page);
  await noHorizontalScroll(page);
  const [d] = (await demos(request)).filter((x) => x.id === 3);
  await playDemo(page, d);
  await noHorizontalScroll(page);
  for (const name of ['Network', 'Chandy-Lamport snapshot', 'Naive reading', 'Space-time diagram', 'Event log']) {
    const bounds = await region(page, name).boundingBox();
    expect(bounds.width).toBeLessThanOrEqual(390);
  }
  await snap(page, testInfo, 'phone-demo3');
  await page.getByRole('button', { name: '日本語' }).click();
  await expect(region(page, 'ネットワーク')).toBeVisible();
  await noHorizontalScroll(page);
  await snap(page, testInfo, 'phone-japanese');
});

test('1280x800: the main panels sit side by side', async ({ page }, testInfo) => {
  await openPage(page);
  const net = await region(page, 'Network').boundingBox();
  const cl = await region(page, 'Chandy-Lamport snapshot').boundingBox();
  const controls = await page.locator('#controls').boundingBox();
  expect(controls.x + controls.width).toBeLessThanOrEqual(net.x);
  expect(net.x + net.width).toBeLessThanOrEqual(cl.x);
  expect(Math.abs(net.y - cl.y)).toBeLessThan(2);
  await noHorizontalScroll(page);
  await page.screenshot({ path: testInfo.outputPath('bank-1280.png') });
});
