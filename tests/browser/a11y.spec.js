// Accessibility audit: axe-core (WCAG 2.1 A and AA plus best practices) on the page as it stands at
// the end of every demo, on a wide screen and on a phone. The page must have no violation at all;
// no rule is switched off, so a finding is fixed in the page, not here.
const { test, expect, openPage, region, demos, playDemo, audit } = require('./fixtures');

const WIDTHS = [{ width: 1280, height: 800 }, { width: 390, height: 844 }];

// The demo list comes from the server; the test names are fixed so that a missing demo fails
// (expect below) instead of silently producing fewer tests.
const DEMOS = [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 'lab', 12, 13, 14, 15, 16, 17, 18];

// Every demo at every layout is 54 audits of about 3 s of CPU each: `make test` audits three
// demos per layout, so that each family (Chandy-Lamport, the variants, the applications, the
// broken rules) is audited at two layouts and the lab at one, and `make test-long` the rest
// (tagged @long).
const SAMPLED = {
  1280: [1, 'lab', 16],
  390: [8, 14, 17],
  present: [3, 9, 13],
};
const tagFor = (layout, which) => (SAMPLED[layout].includes(which) ? {} : { tag: '@long' });

for (const size of WIDTHS) {
  for (const which of DEMOS) {
    const label = which === 'lab' ? 'Lab demo' : `Demo ${which}`;
    test(`axe: no violation at the end of ${label}, ${size.width} px`, tagFor(size.width, which), async ({ page, request }) => {
      const [d] = (await demos(request)).filter((x) => (which === 'lab' ? x.preset === 'lab' : x.id === which));
      expect(d, `${label} is in /api/demos`).toBeTruthy();
      await page.setViewportSize(size);
      await openPage(page);
      await playDemo(page, d);
      await expect(region(page, 'Space-time diagram')).toBeVisible();
      const found = await audit(page);
      expect(found, `axe violations at the end of ${label}, ${size.width} px:\n${found.join('\n')}`).toEqual([]);
    });
  }
}

// Presentation mode (?present=1) at 1920x1080: its palette and its type sizes are audited too.
for (const which of DEMOS) {
  const label = which === 'lab' ? 'Lab demo' : `Demo ${which}`;
  test(`axe: no violation at the end of ${label}, presentation mode, 1920 px`, tagFor('present', which), async ({ page, request }) => {
    const [d] = (await demos(request)).filter((x) => (which === 'lab' ? x.preset === 'lab' : x.id === which));
    expect(d, `${label} is in /api/demos`).toBeTruthy();
    await page.setViewportSize({ width: 1920, height: 1080 });
    await page.goto('/?present=1');
    await expect(page.locator('body')).toHaveClass(/present/);
    await expect(page.locator('#demo-buttons .demo-button')).toHaveCount(18);
    await playDemo(page, d);
    const found = await audit(page);
    expect(found, `axe violations at the end of ${label} in presentation mode:\n${found.join('\n')}`).toEqual([]);
  });
}

// The audit itself must be able to fail: a page with a known fault (an image button with no name)
// added to the real page is reported, by id and element.
test('axe: the audit reports a fault put into the page', async ({ page }) => {
  await openPage(page);
  await page.evaluate(() => {
    const b = document.createElement('button');
    b.id = 'nameless';
    document.querySelector('#controls').append(b);
  });
  const found = await audit(page);
  expect(found.some((line) => line.startsWith('button-name') && line.includes('#nameless'))).toBe(true);
});
