// Layout: no horizontal scrolling at 390 px, readable at 1280x800, nothing loaded from outside.
const { test, expect, settle, openPage, region, demos, playDemo, snap } = require('./fixtures');

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

// On a phone, stepping a demo must show what the step changed without scrolling: Next step, the
// step's caption and the network are all on screen at once, before and after every step, and the
// network is not hidden behind anything drawn over it (the step bar).
test('390 px wide: Next step, the caption and the network stay in view together through a demo', async ({ page, request }, testInfo) => {
  const size = { width: 390, height: 844 };
  await page.setViewportSize(size);
  const [d] = (await demos(request)).filter((x) => x.id === 3);
  await openPage(page);
  // Pick the demo as a visitor would: its button is scrolled to first, far above the network.
  await page.getByRole('button', { name: /^Demo 3:/ }).click();
  await settle(page);
  const next = page.getByRole('button', { name: 'Next step', exact: true });
  const caption = page.locator('#demo-caption');
  const network = region(page, 'Network');

  async function inView(what) {
    const box = async (loc) => {
      const b = await loc.boundingBox();
      expect(b, 'element is laid out').not.toBeNull();
      return b;
    };
    const n = await box(next);
    const c = await box(caption);
    const drawing = await box(network.locator('#network-svg'));
    const inv = await box(page.locator('#invariant'));
    for (const [name, b] of [['Next step', n], ['caption', c], ['network drawing', drawing], ['invariant line', inv]]) {
      expect(b.y, `${name} starts on screen ${what}`).toBeGreaterThanOrEqual(0);
      expect(b.y + b.height, `${name} ends on screen ${what}`).toBeLessThanOrEqual(size.height);
    }
    // Nothing covers the network: the element on top at its corners and centre is inside it.
    const covered = await page.evaluate(() => {
      const svgEl = document.getElementById('network-svg');
      const r = svgEl.getBoundingClientRect();
      const points = [[r.left + 4, r.top + 4], [r.right - 4, r.top + 4], [r.left + 4, r.bottom - 4],
        [r.right - 4, r.bottom - 4], [(r.left + r.right) / 2, (r.top + r.bottom) / 2]];
      return points.filter(([x, y]) => !svgEl.contains(document.elementFromPoint(x, y))).length;
    });
    expect(covered, `points of the network covered by something else ${what}`).toBe(0);
  }

  await inView('when the demo starts');
  for (let k = 0; k < d.steps.length; k++) {
    const scrollBefore = await page.evaluate(() => window.scrollY);
    await next.click();
    await settle(page);
    await expect(caption).toContainText(d.steps[k].caption);
    await inView(`after step ${k + 1}`);
    // Pressing Next step did not move the page either: the visitor's view stays put.
    expect(await page.evaluate(() => window.scrollY)).toBe(scrollBefore);
  }
  // What the visitor sees (the screen, not the whole page).
  await page.screenshot({ path: testInfo.outputPath('phone-demo-stepping.png') });
});
