// A schedule file of `cutline test` (testdata/harness/unrecorded-channel.json, written once by
// `cutline test ... --out`, see testdata/harness/README.md) opened from the demos card and stepped
// through in its player: the nodes, what is in flight, what each node recorded, and the judge's
// findings as the last caption, in English and Japanese, at a laptop's and a phone's size; a
// file that is not a schedule is refused in one line.
const path = require('path');
const fs = require('fs');
const { test, expect, openPage, audit } = require('./fixtures');

// The screen as it is (not the whole page): what a laptop or a phone shows of the player.
async function snap(page, testInfo, name) {
  await page.screenshot({ path: testInfo.outputPath(`${name}.png`) });
}

const FILE = path.join(__dirname, '..', '..', 'testdata', 'harness', 'unrecorded-channel.json');
const schedule = JSON.parse(fs.readFileSync(FILE, 'utf8'));

async function openSchedule(page) {
  await page.locator('#trace-file').setInputFiles(FILE);
  await expect(page.locator('#trace-player')).toBeVisible();
}

// Next step until the verdict; returns how many steps it took.
async function stepToTheEnd(page, nextName) {
  const next = page.locator('#trace-player').getByRole('button', { name: nextName, exact: true });
  let steps = 0;
  while ((await next.getAttribute('aria-disabled')) === 'false') {
    await next.click();
    steps += 1;
    expect(steps, 'the player ends').toBeLessThan(100);
  }
  return steps;
}

async function expectNoSidewaysScroll(page) {
  const overflow = await page.locator('#trace-player').evaluate((d) => d.scrollWidth - d.clientWidth);
  expect(overflow, 'the player scrolls sideways').toBeLessThanOrEqual(0);
}

test('a schedule file plays step by step in English, ending on the judge\'s findings', async ({ page }, testInfo) => {
  await page.setViewportSize({ width: 1366, height: 768 });
  await openPage(page);
  await expect(page.getByRole('button', { name: 'Open a cutline test schedule' })).toBeVisible();
  await openSchedule(page);
  const player = page.locator('#trace-player');
  await expect(player.locator('#trace-title-file')).toHaveText('unrecorded-channel.json');
  await expect(player.locator('#trace-caption')).toContainText('The tester starts n1, n2 and n3 with $100 each.');
  await expect(player.locator('.tr-node')).toHaveCount(3);
  const next = player.getByRole('button', { name: 'Next step', exact: true });
  await next.click();
  await expect(player.locator('#trace-caption')).toContainText('The tester asks n1 to start snapshot 1.');
  await expect(player.locator('#trace-nodes-body tr[data-node="n1"]')).toContainText('recorded $100');
  await next.click();
  // n3's $31 is in flight to n1, in the list and on the picture.
  await expect(player.locator('#trace-flight li[data-channel="n3->n1"]')).toHaveText('n3→n1: $31 n3-1');
  await expect(player.locator('#trace-svg [data-channel="n3->n1"] .tr-chip')).toHaveText('$31 n3-1');
  await expect(player.locator('#trace-nodes-body tr[data-node="n3"]')).toContainText('$69');
  // At a laptop's size the caption and the buttons stay in view.
  await expect(next).toBeInViewport();
  await expect(player.locator('#trace-caption')).toBeInViewport();
  await snap(page, testInfo, 'trace-step2-1366');
  const steps = await stepToTheEnd(page, 'Next step');
  // The file's steps, then the verdict (two are behind us).
  expect(steps + 2).toBe(schedule.steps.length + 1);
  await expect(player.locator('#trace-progress')).toHaveText('The verdict');
  await expect(player.locator('#trace-caption')).toContainText('The judge\'s findings');
  const findings = player.locator('#trace-findings li');
  await expect(findings).toHaveText(schedule.trace.findings.en);
  await expect(findings.last()).toContainText('$31 (message n3-1) in flight on n3→n1 is missing from the snapshot');
  await expect(player.locator('#trace-nodes-body tr[data-node="n1"]')).toContainText('n3→n1: empty');
  await snap(page, testInfo, 'trace-end-1366');
  await expectNoSidewaysScroll(page);
  // Back one step: the findings go, the last delivery's caption comes back.
  await player.getByRole('button', { name: 'Previous step', exact: true }).click();
  await expect(player.locator('#trace-findings')).toBeHidden();
  await expect(player.locator('#trace-caption')).toContainText('The tester delivers a marker from n3 to n2.');
  await player.getByRole('button', { name: 'Close', exact: true }).click();
  await expect(player).toBeHidden();
});

test('a schedule file plays in Japanese on a phone, ending on the findings in Japanese', async ({ page }, testInfo) => {
  await page.setViewportSize({ width: 390, height: 844 });
  await openPage(page);
  await page.getByRole('button', { name: '日本語' }).click();
  await expect(page.getByRole('button', { name: 'cutline test のスケジュールを開く' })).toBeVisible();
  await openSchedule(page);
  const player = page.locator('#trace-player');
  await expect(player.locator('#trace-caption')).toContainText('テスターがn1、n2とn3をそれぞれ$100で起動します。');
  await stepToTheEnd(page, '次の手順');
  await expect(player.locator('#trace-caption')).toContainText('判定の指摘（3件）');
  await expect(player.locator('#trace-findings li')).toHaveText(schedule.trace.findings.ja);
  await expect(player.locator('#trace-findings li').last()).toContainText('スナップショットにありません');
  await expect(player.getByRole('button', { name: '前の手順', exact: true })).toBeInViewport();
  await snap(page, testInfo, 'trace-end-390-ja');
  await expectNoSidewaysScroll(page);
});

test('a file that is not a schedule is refused in one line, and no player opens', async ({ page }) => {
  await openPage(page);
  await page.locator('#trace-file').setInputFiles({
    name: 'notes.json', mimeType: 'application/json', buffer: Buffer.from('{"format": "something else"}'),
  });
  const notice = page.locator('#notice');
  await expect(notice).toHaveText(
    'The schedule was refused: notes.json: not a schedule cutline test wrote ("format" is missing or wrong)');
  await expect(page.locator('#trace-player')).toBeHidden();
  // A schedule without its trace says why it cannot be shown.
  const old = { ...schedule };
  delete old.trace;
  await page.locator('#trace-file').setInputFiles({
    name: 'old.json', mimeType: 'application/json', buffer: Buffer.from(JSON.stringify(old)),
  });
  await expect(notice).toContainText('old.json: this schedule has no trace of what happened at each step');
  await expect(page.locator('#trace-player')).toBeHidden();
});

for (const size of [{ width: 1280, height: 800 }, { width: 390, height: 844 }]) {
  test(`axe: no violation in the schedule player at its verdict, ${size.width} px`, async ({ page }) => {
    await page.setViewportSize(size);
    await openPage(page);
    await openSchedule(page);
    await stepToTheEnd(page, 'Next step');
    const found = await audit(page);
    expect(found, `axe violations in the schedule player:\n${found.join('\n')}`).toEqual([]);
  });
}
