// The store's page (`cutline serve --store FILE`): a real cluster run writes
// the store while the page is open; the list follows it without a reload,
// and a chosen snapshot shows in the simulator's snapshot panel.
const { spawn } = require('child_process');
const { test, expect } = require('@playwright/test');

const STORE = `http://127.0.0.1:${process.env.CUTLINE_STORE_PORT}`;
const FILE = process.env.CUTLINE_STORE_FILE;
const BIN = process.env.CUTLINE_BIN || './build/cutline';

// Console errors and page errors fail the test, as in fixtures.js (whose
// watcher assumes the main server's address).
function watch(page) {
  const problems = [];
  page.on('console', (m) => { if (m.type() === 'error') problems.push(`console error: ${m.text()}`); });
  page.on('pageerror', (e) => problems.push(`page error: ${e.message}`));
  return problems;
}

function runCluster(args) {
  return new Promise((resolve) => {
    const child = spawn(BIN, ['cluster', ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    child.stdout.on('data', (d) => { out += d; });
    child.stderr.on('data', (d) => { out += d; });
    child.on('close', (code) => resolve({ code, out }));
  });
}

test('the list follows a running cluster, and a snapshot shows what it recorded', async ({ page }) => {
  test.setTimeout(120_000);
  const problems = watch(page);
  await page.goto(`${STORE}/store.html`);
  await expect(page.getByText('No snapshots yet')).toBeVisible();
  await expect(page.locator('#store-status')).toHaveText(/Live/);

  const run = runCluster(['--ranks', '3', '--duration', '3s', '--snapshot-every', '200ms',
    '--rate', '2000', '--store', FILE]);
  // Rows arrive while the run goes on, with no reload.
  const complete = page.locator('#store-list tr[data-status="complete"]');
  await expect(complete.first()).toBeVisible({ timeout: 60_000 });
  const { code, out } = await run;
  expect(code, out).toBe(0);
  const stored = Number(/snapshots: (\d+) complete/.exec(out)[1]);
  await expect(complete).toHaveCount(stored);
  for (const total of await complete.locator('td:nth-child(5)').allTextContents()) {
    expect(total).toBe('$3000');
  }
  await expect(page.locator('#store-runs')).toContainText('Run 1: 3 branches, total $3000');

  // The first snapshot, in the simulator's snapshot panel.
  await page.getByRole('button', { name: '#1', exact: true }).click();
  const panel = page.getByRole('region', { name: 'What a snapshot recorded' });
  await expect(panel).toContainText('Snapshot 1, started by N0');
  await expect(panel.locator('.cl-branches tbody tr')).toHaveCount(3);
  await expect(panel.locator('.cl-channels tbody tr')).toHaveCount(6);
  await expect(panel.locator('.cl-total')).toContainText('$3000');
  await expect(panel.locator('.cl-channels tbody tr[data-state="closed"]')).toHaveCount(6);

  // In Japanese too.
  await page.getByRole('button', { name: '日本語' }).click();
  await expect(page.locator('#store-runs')).toContainText('実行 1: 支店 3 個、総額 $3000');

  // The bank page of this server links here.
  await page.goto(`${STORE}/`);
  await expect(page.getByRole('link', { name: 'Snapshots of the running cluster' })).toBeVisible();
  expect(problems).toEqual([]);
});

test('a server without a store says so, and the bank page has no link', async ({ page }) => {
  const problems = watch(page);
  await page.goto('/store.html');
  await expect(page.locator('#store-status')).toHaveText(/no store/);
  await page.goto('/');
  await expect(page.locator('#store-link')).toBeHidden();
  expect(problems).toEqual([]);
});
