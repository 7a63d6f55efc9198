// The run as a scenario: Undo, Reset, export then import, and a share link reopened elsewhere.
const fs = require('fs');
const { test, expect, openPage, settle, region, snap, send } = require('./fixtures');

async function press(page, name) {
  await page.getByRole('button', { name }).click();
  await settle(page);
}
const balance = (page, name) => page.locator(`#network-svg .branch[data-name="${name}"] .branch-balance`);
const logItems = (page) => page.locator('#log-list > li');

// A run with a bit of everything: transfers, a read, a snapshot half done.
async function someRun(page) {
  await send(page, 'P2', 'P1', 40);
  await press(page, 'Read Balance of P1');
  await press(page, 'Start Snapshot at P1');
  await send(page, 'P1', 'P3', 30);
  await press(page, /Deliver Next/);
}

async function expectSomeRun(page) {
  await expect(balance(page, 'P1')).toHaveText('$110');
  await expect(balance(page, 'P2')).toHaveText('$60');
  await expect(logItems(page)).toHaveCount(6);
  await expect(region(page, 'Chandy-Lamport snapshot').locator('tr[data-channel="P2->P1"]')).toContainText('recording: so far $40');
  await expect(region(page, 'Naive reading').locator('tr[data-branch="P1"]')).toContainText('$100');
  await expect(page.locator('#network-svg .branch.recorded')).toHaveCount(1);
}

test('Undo steps back one command at a time', async ({ page }) => {
  await openPage(page);
  await send(page, 'P1', 'P2', 30);
  await press(page, 'Read Balance of P1');
  await expect(region(page, 'Naive reading').locator('tr[data-branch="P1"]')).toContainText('$70');
  await press(page, /^Undo/);
  await expect(region(page, 'Naive reading')).toContainText('Nothing read yet');
  await expect(balance(page, 'P1')).toHaveText('$70');
  await press(page, /^Undo/);
  await expect(balance(page, 'P1')).toHaveText('$100');
  await expect(page.locator('#network-svg .nmsg')).toHaveCount(0);
  await expect(logItems(page)).toHaveCount(1);
  await press(page, /^Undo/);
  await expect(page.getByRole('status')).toContainText('Nothing to undo');
});

test('Undo inside a demo steps the demo back too', async ({ page }) => {
  await openPage(page);
  await page.getByRole('button', { name: /^Demo 1:/ }).click();
  await settle(page);
  await press(page, 'Next step');
  await press(page, 'Next step');
  await expect(page.locator('#demo-progress')).toContainText('step 2 of');
  await press(page, /^Undo/);
  await expect(page.locator('#demo-progress')).toContainText('step 1 of');
  await press(page, 'Next step');
  await expect(page.locator('#demo-progress')).toContainText('step 2 of');
  await expect(region(page, 'Naive reading').locator('tr[data-branch="P1"]')).toContainText('$70');
});

test('Reset goes back to the start of the preset', async ({ page }) => {
  await openPage(page);
  await someRun(page);
  await press(page, /^Reset/);
  for (const n of ['P1', 'P2', 'P3']) await expect(balance(page, n)).toHaveText('$100');
  await expect(logItems(page)).toHaveCount(1);
  await expect(region(page, 'Chandy-Lamport snapshot')).toContainText('No snapshot yet');
  await expect(region(page, 'Naive reading')).toContainText('Nothing read yet');
  await expect(page.locator('#network-svg .nmsg')).toHaveCount(0);
});

test('export then import restores the run', async ({ page }, testInfo) => {
  await openPage(page);
  await someRun(page);
  const downloading = page.waitForEvent('download');
  await page.getByRole('button', { name: /Export scenario/ }).click();
  const download = await downloading;
  expect(download.suggestedFilename()).toMatch(/\.txt$/);
  const file = testInfo.outputPath('exported.txt');
  await download.saveAs(file);
  const text = fs.readFileSync(file, 'utf8');
  expect(text).toContain('network P1=100 P2=100 P3=100 capacity=2 snapshots=one');
  expect(text).toContain('transfer P2 P1 40');
  expect(text).toContain('snapshot P1');

  await press(page, /^Reset/);
  await expect(logItems(page)).toHaveCount(1);
  await page.locator('#import-file').setInputFiles(file);
  await settle(page);
  await expect(page.getByRole('status')).toContainText('Imported 6 commands');
  await expectSomeRun(page);

  // A file with a bad line is refused with the line and the reason; the run stays as it was.
  const bad = testInfo.outputPath('bad.txt');
  // Comments and blank lines count: the error names the file's own line 4.
  fs.writeFileSync(bad, '# a run\nnetwork P1=100 P2=100\n\ntransfer P1 P2 500\n');
  await page.locator('#import-file').setInputFiles(bad);
  await settle(page);
  await expect(page.getByRole('status')).toContainText('The file was refused: line 4');
  await expectSomeRun(page);
  await snap(page, testInfo, 'imported');
});

test('a share link reopens the same state in a new page', async ({ page, context, watch }, testInfo) => {
  await openPage(page);
  await someRun(page);
  await page.getByRole('button', { name: 'Copy share link' }).click();
  const url = await page.getByLabel('Share link', { exact: true }).inputValue();
  expect(url).toMatch(/#s=[A-Za-z0-9_-]+/);
  const other = watch(await context.newPage());
  await other.goto(url);
  await settle(other);
  await expectSomeRun(other);
  await expect(other.getByRole('status')).toContainText('Opened the shared run (6 commands)');
  await snap(other, testInfo, 'share-reopened');
  // A broken link is reported, and the page falls back to the Bank preset.
  const broken = watch(await context.newPage());
  await broken.goto('/#s=bm90IGEgc2NlbmFyaW8');
  await settle(broken);
  await expect(broken.getByRole('status')).toContainText('could not be opened');
  await expect(broken.locator('#network-svg .branch')).toHaveCount(3);
});
