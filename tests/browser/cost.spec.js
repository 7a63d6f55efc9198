// Cost beside the bound: the snapshot panel's cost rows at the end of demos 3 and 8 (figures
// worked out by hand, as in src/check/cost_test.cc), "Compare algorithms" and its table, in
// English and Japanese, on a laptop, a phone and in presentation mode, with the axe audit.
const { AxeBuilder } = require('@axe-core/playwright');
const { test, expect, openPage, demos, playDemo, settle } = require('./fixtures');

const TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice'];

async function playDemoId(page, request, id) {
  const [d] = (await demos(request)).filter((x) => x.id === id);
  expect(d, `demo ${id} is in /api/demos`).toBeTruthy();
  await playDemo(page, d);
}

const row = (page, key) => page.locator(`#cl-body [data-cost-row="${key}"]`);
const cell = (page, algorithm, col) =>
  page.locator(`.cost-table tr[data-algorithm="${algorithm}"] td[data-col="${col}"]`);

test('demo 3: markers one per channel, a chain of 2 hops against eccentricity 1, the $40 recorded', async ({ page, request }) => {
  await openPage(page);
  await playDemoId(page, request, 3);
  // P1 sends 2 markers, P2 and P3 2 each: 6, one per channel of the triangle. P2's and P3's
  // markers go one hop further than P1's, though every branch is one hop from P1.
  await expect(row(page, 'control')).toHaveText('Markers: 6 of 6 (the least: one per channel)');
  await expect(row(page, 'chain')).toHaveText(
    'Longest marker chain: 2 hops; eccentricity from the initiator 1 (no run needs fewer than 2)');
  await expect(row(page, 'recorded')).toHaveText('Recorded as channel state: 1 transfer ($40)');
  // Chandy-Lamport neither holds nor duplicates: those rows belong to the barriers.
  await expect(row(page, 'held')).toHaveCount(0);
  await expect(row(page, 'twice')).toHaveCount(0);

  await page.getByRole('button', { name: 'Compare algorithms' }).click();
  const table = page.locator('.cost-table');
  await expect(table.locator('caption')).toHaveText('The same schedule under each algorithm: snapshot #1');
  // The triangle has cycles: the server says aligned barriers do not apply, and why.
  await expect(page.locator('.cost-table tr[data-algorithm="aligned"] td')).toContainText('Does not apply');
  await expect(page.locator('.cost-table tr[data-algorithm="aligned"] td')).toContainText('cycle');
  for (const a of ['chandy-lamport', 'lai-yang', 'unaligned']) {
    await expect(cell(page, a, 'control')).toHaveText('6 / 6');
    await expect(cell(page, a, 'chain')).toHaveText('2 / 1');
    await expect(cell(page, a, 'total')).toHaveText('$300');
  }
  await expect(cell(page, 'chandy-lamport', 'recorded')).toHaveText('1 ($40)');
});

test('demo 8: aligned barriers hold one transfer back; compared, unaligned ones carry it twice', async ({ page, request }) => {
  await openPage(page);
  await playDemoId(page, request, 8);
  await expect(row(page, 'control')).toHaveText('Barriers: 4 of 4 (the least: one per channel)');
  await expect(row(page, 'chain')).toHaveText(
    'Longest marker chain: 2 hops; eccentricity from the initiator 2 (no run needs fewer than 2)');
  await expect(row(page, 'held')).toHaveText('Held back behind a barrier: 1 (the least: 0)');
  await expect(row(page, 'recorded')).toHaveText('Recorded as channel state: none');

  await page.getByRole('button', { name: 'Compare algorithms' }).click();
  await expect(page.locator('.cost-table tbody tr')).toHaveCount(4);
  await expect(page.locator('.cost-table tr.is-current')).toHaveAttribute('data-algorithm', 'aligned');
  await expect(cell(page, 'aligned', 'held')).toHaveText('1');
  await expect(cell(page, 'aligned', 'twice')).toHaveText('0');
  await expect(cell(page, 'unaligned', 'held')).toHaveText('0');
  await expect(cell(page, 'unaligned', 'twice')).toHaveText('1');
  await expect(cell(page, 'chandy-lamport', 'held')).toHaveText('0');
  await expect(cell(page, 'chandy-lamport', 'twice')).toHaveText('0');
  for (const a of ['aligned', 'unaligned', 'chandy-lamport', 'lai-yang']) {
    await expect(cell(page, a, 'total')).toHaveText('$400');
  }

  // A change to the run drops the comparison: it was of another schedule.
  await page.getByRole('button', { name: 'Undo' }).click();
  await settle(page);
  await expect(page.locator('.cost-table')).toHaveCount(0);
});

test('the cost rows and the comparison in Japanese', async ({ page, request }) => {
  await openPage(page);
  await playDemoId(page, request, 3);
  await page.getByRole('button', { name: '日本語' }).click();
  await settle(page);
  await expect(row(page, 'control')).toHaveText('マーカー：6 / 6（下限：チャネルごとに1個）');
  await page.getByRole('button', { name: 'アルゴリズムを比較' }).click();
  await expect(page.locator('.cost-table caption')).toHaveText('同じ手順を各アルゴリズムで：スナップショット #1');
  await expect(page.locator('.cost-table tr[data-algorithm="aligned"] td')).toContainText('適用できません');
});

for (const [size, hash] of [
  [{ width: 1366, height: 768 }, ''], [{ width: 390, height: 844 }, ''], [{ width: 1366, height: 768 }, '?present=1'],
]) {
  test(`the comparison fits and passes axe at ${size.width}x${size.height}${hash}`, async ({ page, request }) => {
    await page.setViewportSize(size);
    await openPage(page, hash);
    await playDemoId(page, request, 8);
    await page.getByRole('button', { name: 'Compare algorithms' }).click();
    const table = page.locator('.cost-scroll');
    await expect(table).toBeVisible();
    await table.scrollIntoViewIfNeeded();
    // The table scrolls inside its own box; it never widens the page.
    const box = await table.boundingBox();
    expect(box.x).toBeGreaterThanOrEqual(0);
    expect(box.x + box.width).toBeLessThanOrEqual(size.width + 1);
    const pageWidth = await page.evaluate(() => document.documentElement.scrollWidth);
    expect(pageWidth).toBeLessThanOrEqual(size.width);
    const results = await new AxeBuilder({ page }).withTags(TAGS).analyze();
    expect(results.passes.length).toBeGreaterThan(10);
    const found = results.violations.flatMap((v) => v.nodes.map((n) => `${v.id} at ${n.target.join(' ')}: ${v.help}`));
    expect(found, found.join('\n')).toEqual([]);
  });
}
