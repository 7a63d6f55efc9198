// The store's page (`cutline serve --store FILE`) as an operator uses it: real
// cluster runs write the store while the page is open; the page follows them
// without a reload, says whether the newest run is live or over, sums each
// run up, and opens a snapshot below its own row, with focus on it, showing
// its critical path. At a laptop's 1366x768 and a phone's 390x844, in both
// languages, and with no axe violation at either width.
const { spawn } = require('child_process');
const { AxeBuilder } = require('@axe-core/playwright');
const base = require('@playwright/test');
const { BIN, ports, storeFile, serverFixtures } = require('./servers');

const { expect } = base;
// This worker's store server (servers.js), over a store that no run has created yet.
const STORE = `http://127.0.0.1:${ports().store}`;
const FILE = storeFile();
// The servers of fixtures.js (the page's server is the baseURL of the last test), with the store
// server started for every test here. Not fixtures.js's watched page: some tests here make the
// page log a failed request on purpose, so each test watches its page itself (watch below).
const test = base.test.extend(serverFixtures).extend({
  storeStarted: [async ({ storeServer }, use) => use(storeServer), { scope: 'worker', auto: true }],
});
const LAPTOP = { width: 1366, height: 768 };
const PHONE = { width: 390, height: 844 };

// The tests below share the store one server watches: run 1 (ended), then
// run 2 (killed). They run in this order.
test.describe.configure({ mode: 'serial' });

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

async function noSidewaysScroll(page) {
  const { scroll, client } = await page.evaluate(() => ({
    scroll: document.documentElement.scrollWidth, client: document.documentElement.clientWidth,
  }));
  expect(scroll, 'the page is wider than the screen').toBeLessThanOrEqual(client);
}

// Opens snapshot `id` from its row and checks what the brief asks of it: it
// opens right below its row, focus is on it, and both are on screen.
async function openSnapshot(page, id) {
  const row = page.locator(`#store-list tr[data-snapshot="${id}"]`);
  await row.getByRole('button', { name: `#${id}`, exact: true }).click();
  const detail = page.locator('#store-detail');
  await expect(detail).toBeVisible();
  await expect(detail).toBeFocused();
  await expect(row.getByRole('button')).toHaveAttribute('aria-expanded', 'true');
  // Beside its row: the next row of the table holds it, and it starts where the row ends.
  expect(await row.evaluate((tr) => tr.nextElementSibling.contains(document.getElementById('store-detail')))).toBe(true);
  // A refresh may be drawing the list again at the moment of measuring (the element measured is
  // then gone, and its box null): measure again until both are there.
  let rowBox = null;
  let detailBox = null;
  await expect.poll(async () => {
    [rowBox, detailBox] = [await row.boundingBox(), await detail.boundingBox()];
    return rowBox !== null && detailBox !== null;
  }, { message: 'the row and the open snapshot have boxes' }).toBe(true);
  expect(Math.abs(detailBox.y - (rowBox.y + rowBox.height))).toBeLessThan(24);
  const viewport = page.viewportSize();
  expect(rowBox.y).toBeGreaterThan(-1);  // scrolled to the top, to a fraction of a pixel
  expect(detailBox.y).toBeLessThan(viewport.height);
  return detail;
}

// The critical path on the page is the one the store holds: every channel's
// marker, in time order, and the last one named as such.
async function expectCriticalPath(page, request, id, ranks) {
  const snap = await (await request.get(`${STORE}/api/store/snapshot?id=${id}`)).json();
  const path = snap.critical_path;
  expect(path.markers).toHaveLength(ranks * (ranks - 1));
  expect(path.last).toEqual(path.markers[path.markers.length - 1]);
  const detail = page.locator('#store-detail');
  await expect(detail.getByRole('heading', { name: 'Critical path' })).toBeVisible();
  const markers = detail.locator('.path-table tr[data-kind="marker"]');
  await expect(markers).toHaveCount(ranks * (ranks - 1));
  await expect(detail.locator('.path-table tr[data-kind="record"]')).toHaveCount(ranks);
  const last = detail.locator('.path-table tr.path-last');
  await expect(last).toHaveCount(1);
  await expect(last).toHaveAttribute('data-channel', `${path.last.from}->${path.last.to}`);
  // Said in words, not only by its colour.
  await expect(last).toContainText('last: completed it');
  await expect(last).toContainText(`marker ${path.last.from} → ${path.last.to} arrives`);
  await expect(last.locator('.path-when')).toHaveText(`${(path.last.at_us / 1000).toFixed(2)} ms`);
  await expect(detail.locator('.path-summary')).toContainText(`Completed by the marker on ${path.last.from} → ${path.last.to}`);
  // The rows go forward in time.
  const times = (await detail.locator('.path-when').allTextContents()).map((s) => parseFloat(s));
  expect([...times].sort((a, b) => a - b)).toEqual(times);
}

// `within`: selectors to check instead of the whole page (each whole-page audit of a long list
// takes seconds).
async function audit(page, within = []) {
  let builder = new AxeBuilder({ page });
  for (const selector of within) builder = builder.include(selector);
  const results = await builder
    .withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice'])
    .options({ rules: { 'label-content-name-mismatch': { enabled: true }, 'td-has-header': { enabled: true } } })
    .analyze();
  expect(results.passes.length, 'axe checked no rule at all').toBeGreaterThan(10);
  return results.violations.flatMap((v) => v.nodes.map((n) => `${v.id} (${v.impact}) at ${n.target.join(' ')}: ${v.help}`));
}

test('a run is followed live, then summed up as ended; a snapshot opens beside its row with its critical path', async ({ page, request }) => {
  test.setTimeout(120_000);
  const problems = watch(page);
  await page.setViewportSize(LAPTOP);
  await page.goto(`${STORE}/store.html`);
  await expect(page.getByText('No snapshots yet')).toBeVisible();
  await expect(page.locator('#store-status')).toHaveText('Waiting for a run to write the store.');

  // On a loaded machine the server answers more slowly than the run commits
  // (every 200 ms or so). CI caught the page drawing nothing while the run was
  // live, because each answer was dropped for a newer request still on its
  // way. Here every list request is held 600 ms, so that is not left to timing.
  const slowList = async (route) => { await new Promise((r) => setTimeout(r, 600)); await route.continue(); };
  await page.route('**/api/store', slowList);
  const run = runCluster(['--ranks', '3', '--duration', '4s', '--snapshot-every', '200ms',
    '--rate', '2000', '--store', FILE]);
  // While it runs: rows arrive with no reload, and the run is live.
  const complete = page.locator('#store-list tr[data-status="complete"]');
  await expect(complete.first()).toBeVisible({ timeout: 60_000 });
  await expect(page.locator('#store-status')).toHaveText(/^Run 1 is live/);
  await expect(page.locator('.run-card[data-run="1"] .run-state')).toHaveText('Live');
  await page.unrouteAll({ behavior: 'wait' });  // lets a held request finish first
  const { code, out } = await run;
  expect(code, out).toBe(0);

  // Once it is over, the page says so (not "Live"), and the figures are the store's.
  await expect(page.locator('#store-status')).toHaveText(/^Run 1 ended at \d{4}-\d\d-\d\d \d\d:\d\d:\d\d UTC\./);
  const card = page.locator('.run-card[data-run="1"]');
  await expect(card.locator('.run-state')).toHaveText('Ended');
  const stored = Number(/snapshots: (\d+) complete/.exec(out)[1]);
  const transfers = Number(/(\d+) transfers/.exec(out)[1]);
  await expect(complete).toHaveCount(stored);
  await expect(card.locator('[data-figure="complete"] dd')).toHaveText(String(stored));
  await expect(card.locator('[data-figure="failed"] dd')).toHaveText('0');
  await expect(card.locator('[data-figure="transfers"] dd')).toHaveText(transfers.toLocaleString('en-US'));
  const list = await (await request.get(`${STORE}/api/store`)).json();
  const summary = list.summaries[0];
  expect(summary.state).toBe('ended');
  expect(summary.transfers).toBe(transfers);
  await expect(card.locator('[data-figure="rate"] dd')).toHaveText(Math.round(summary.transfers_per_s).toLocaleString('en-US'));
  expect(summary.transfers_per_s).toBeGreaterThan(0);
  for (const [figure, key] of [['p50', 'latency_p50_us'], ['p99', 'latency_p99_us'], ['max', 'latency_max_us']]) {
    await expect(card.locator(`[data-figure="${figure}"] dd`)).toHaveText(`${(summary[key] / 1000).toFixed(2)} ms`);
  }
  expect(summary.latency_p50_us).toBeLessThanOrEqual(summary.latency_p99_us);
  expect(summary.latency_p99_us).toBeLessThanOrEqual(summary.latency_max_us);
  for (const total of await complete.locator('td:nth-child(5)').allTextContents()) {
    expect(total).toBe('$3000');
  }
  await expect(page.locator('#store-runs')).toContainText('Run 1: 3 branches, total $3000');

  // The first snapshot, opened beside its row, deep in a long list.
  const detail = await openSnapshot(page, 1);
  await expect(detail.getByRole('heading', { name: 'Snapshot 1', exact: true })).toBeVisible();
  await expectCriticalPath(page, request, 1, 3);
  // What it recorded, in the simulator's snapshot panel.
  await expect(detail).toContainText('Snapshot 1, started by N0');
  await expect(detail.locator('.cl-branches tbody tr')).toHaveCount(3);
  await expect(detail.locator('.cl-channels tbody tr[data-state="closed"]')).toHaveCount(6);
  await expect(detail.locator('.cl-total')).toContainText('$3000');

  // Close gives focus back to the row's button; choosing another moves the detail there.
  await detail.getByRole('button', { name: 'Close' }).click();
  await expect(page.locator('#store-detail')).toHaveCount(0);
  await expect(page.locator('#store-list tr[data-snapshot="1"] button')).toBeFocused();
  await openSnapshot(page, 2);
  await expect(page.locator('#store-detail')).toHaveCount(1);

  // In Japanese: the status line, the cards and the open snapshot too.
  await page.getByRole('button', { name: '日本語' }).click();
  await expect(page.locator('#store-status')).toHaveText(/^実行 1 は .* に終了しました。/);
  await expect(card.locator('.run-state')).toHaveText('終了');
  await expect(card.locator('[data-figure="rate"] dt')).toHaveText('送金/秒');
  await expect(page.locator('#store-runs')).toContainText('実行 1: 支店 3 個、総額 $3000');
  await expect(page.locator('#store-detail').getByRole('heading', { name: 'クリティカルパス' })).toBeVisible();
  await expect(page.locator('#store-detail .path-last')).toContainText('最後:これで完了');
  await page.getByRole('button', { name: 'English' }).click();

  // The bank page of this server links here.
  await page.goto(`${STORE}/`);
  await expect(page.getByRole('link', { name: 'Snapshots of the running cluster' })).toBeVisible();
  expect(problems).toEqual([]);
});

test('at 390 px the page fits the screen: every column of a row, and an open snapshot', async ({ page, request }) => {
  const problems = watch(page);
  await page.setViewportSize(PHONE);
  await page.goto(`${STORE}/store.html`);
  const row = page.locator('#store-list tr[data-snapshot="3"]');
  await expect(row).toBeVisible();
  await noSidewaysScroll(page);
  // Each cell of the row is on the screen and says which column it is.
  for (const cell of await row.locator('th, td').all()) {
    const box = await cell.boundingBox();
    expect(box.x).toBeGreaterThanOrEqual(0);
    expect(box.x + box.width).toBeLessThanOrEqual(PHONE.width);
  }
  await expect(row.locator('td').last()).toHaveText(/ms$/);
  expect(await row.locator('td').last().evaluate((td) => getComputedStyle(td, '::before').content)).toBe('"Latency"');
  await openSnapshot(page, 3);
  await expectCriticalPath(page, request, 3, 3);
  await noSidewaysScroll(page);
  const detailBox = await page.locator('#store-detail').boundingBox();
  expect(detailBox.x + detailBox.width).toBeLessThanOrEqual(PHONE.width);
  // The run's card fits too.
  const card = await page.locator('.run-card[data-run="1"]').boundingBox();
  expect(card.x + card.width).toBeLessThanOrEqual(PHONE.width);
  expect(problems).toEqual([]);
});

test('a snapshot closed while the page refreshes stays closed', async ({ page }) => {
  // CI caught the page re-opening a snapshot the reader had just closed: a
  // refresh that had asked for the open snapshot before the click put it back.
  // Here the refresh's request is held until after the click, so the race is
  // not left to timing.
  const problems = watch(page);
  await page.setViewportSize(LAPTOP);
  await page.goto(`${STORE}/store.html`);
  await expect(page.locator('#store-status')).toHaveText(/^Run 1 ended/);
  await openSnapshot(page, 1);
  let release;
  const held = new Promise((resolve) => { release = resolve; });
  let asked;
  const refreshAsked = new Promise((resolve) => { asked = resolve; });
  await page.route('**/api/store/snapshot?id=1', async (route) => {
    asked();
    await held;
    await route.continue();
  });
  // The page refreshes on its own every 5 s; its refresh asks for the open snapshot.
  await refreshAsked;
  await page.locator('#store-detail').getByRole('button', { name: 'Close' }).click();
  await expect(page.locator('#store-detail')).toHaveCount(0);
  const before = Number(await page.locator('body').getAttribute('data-refreshes'));
  release();
  // Once the held refresh has drawn (the page counts its finished refreshes), it must not have
  // re-opened #1.
  await expect.poll(async () => Number(await page.locator('body').getAttribute('data-refreshes')),
    { message: 'the held refresh finishes drawing (body[data-refreshes] goes up)' }).toBeGreaterThan(before);
  await expect(page.locator('#store-detail')).toHaveCount(0);
  await expect(page.locator('#store-list tr[data-snapshot="1"] button')).toHaveAttribute('aria-expanded', 'false');
  await page.unroute('**/api/store/snapshot?id=1');
  expect(problems).toEqual([]);
});

test('a refresh that fails says so on the status line, and the next one puts the page back', async ({ page }) => {
  const problems = watch(page);
  await page.setViewportSize(LAPTOP);
  await page.goto(`${STORE}/store.html`);
  const status = page.locator('#store-status');
  await expect(status).toHaveText(/^Run 1 ended/);
  const rows = await page.locator('#store-list tr[data-snapshot]').count();
  // The page asks again every 5 s; the server fails that once.
  await page.route('**/api/store', (route) => route.fulfill({ status: 500, body: 'no' }), { times: 1 });
  await expect(status).toHaveText('The store could not be read (HTTP 500)', { timeout: 15_000 });
  await expect(status).toHaveAttribute('data-state', 'failed');
  // What was drawn stays; the next refresh finds the store again.
  await expect(page.locator('#store-list tr[data-snapshot]')).toHaveCount(rows);
  await expect(status).toHaveText(/^Run 1 ended/, { timeout: 15_000 });
  // The browser logs the failed request itself; nothing else went wrong.
  expect(problems.filter((p) => !p.includes('500'))).toEqual([]);
});

test('a run whose rank is killed is shown as died, its snapshots failed', async ({ page, request }) => {
  test.setTimeout(120_000);
  const problems = watch(page);
  await page.setViewportSize(LAPTOP);
  await page.goto(`${STORE}/store.html`);
  await expect(page.locator('.run-card[data-run="1"]')).toBeVisible();
  // Snapshot ids go on from run 1's. The 15th snapshot of this run comes about 1.5 s into its 5 s,
  // so a loaded machine that starts fewer still reaches it, and the run then dies.
  const { snapshots } = await (await request.get(`${STORE}/api/store`)).json();
  const kill = Math.max(0, ...snapshots.map((s) => s.id)) + 15;
  const { code, out } = await runCluster(['--ranks', '3', '--duration', '5s', '--snapshot-every', '100ms',
    '--rate', '2000', '--store', FILE, '--kill', `1@snapshot:${kill}`]);
  expect(code, out).toBe(1);
  const card = page.locator('.run-card[data-run="2"]');
  await expect(card.locator('.run-state')).toHaveText('Died');
  await expect(page.locator('#store-status')).toHaveText(/^Run 2 died at .* \(a rank was killed\)/);
  expect(Number(await card.locator('[data-figure="failed"] dd').textContent())).toBeGreaterThan(0);
  await expect(page.locator('#store-list tr[data-status="running"]')).toHaveCount(0);
  // The newest run comes first.
  await expect(page.locator('.run-card').first()).toHaveAttribute('data-run', '2');
  // A failed snapshot opens too, and says why it has no critical path.
  const failed = await page.locator('#store-list tr[data-status="failed"]').first().getAttribute('data-snapshot');
  const detail = await openSnapshot(page, failed);
  await expect(detail).toContainText('has no parts in the store, so it has no critical path');
  expect(problems).toEqual([]);
});

for (const size of [LAPTOP, PHONE]) {
  test(`axe: no violation on the store page with a snapshot open, ${size.width} px`, async ({ page }) => {
    const problems = watch(page);
    await page.setViewportSize(size);
    await page.goto(`${STORE}/store.html`);
    await expect(page.locator('.run-card')).toHaveCount(2);
    await openSnapshot(page, 1);
    await expect(page.locator('#store-detail .path-table')).toBeVisible();
    let found = await audit(page);
    expect(found, `axe violations at ${size.width} px:\n${found.join('\n')}`).toEqual([]);
    await page.getByRole('button', { name: '日本語' }).click();
    await expect(page.locator('#store-detail h4').first()).toHaveText('クリティカルパス');
    found = await audit(page);
    expect(found, `axe violations in Japanese at ${size.width} px:\n${found.join('\n')}`).toEqual([]);
    expect(problems).toEqual([]);
  });
}

// A locks run (the third in the store): its card says which application ran, its snapshots list
// their verdicts instead of a total, and the one that found the deadlock opens in its words.
test('a locks run: the card names the application, each snapshot its verdict, the deadlock opens in words', async ({ page }) => {
  test.setTimeout(120_000);
  const problems = watch(page);
  await page.setViewportSize(LAPTOP);
  await page.goto(`${STORE}/store.html`);
  await expect(page.locator('.run-card')).toHaveCount(2);
  const { code, out } = await runCluster(['--app', 'locks', '--ranks', '3', '--snapshot-every', '10ms',
    '--duration', '20s', '--store', FILE, '--json']);
  expect(code, out).toBe(0);
  const summary = JSON.parse(out);
  const id = summary.property.detected_by;
  const cycle = summary.property.cycle;
  const card = page.locator('.run-card[data-run="3"]');
  await expect(card.locator('h3')).toContainText('Run 3: 3 branches, locks (deadlock)');
  const row = page.locator(`#store-list tr[data-snapshot="${id}"]`);
  await expect(row).toContainText(`deadlocked: ${[...cycle, cycle[0]].join(' → ')}`);
  await expect(row).not.toContainText('$');
  const detail = await openSnapshot(page, id);
  await expect(detail.locator('.snap-property')).toHaveText(`The snapshot says: deadlocked: ${[...cycle, cycle[0]].join(' → ')}`);
  await expect(detail.locator('.cl-branches tbody tr').first().locator('td').first()).toContainText(/^(waits for N\d|active)$/);
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

// A dataflow run (the fourth in the store), after Flink's per-channel checkpoint view: its card
// names its topology and barriers, each row says what its snapshot cost in records (not $), and a
// snapshot opens on its channels in the server's order (the slowest first), each aligned or
// switched to unaligned by the alignment timeout in words, and its vertices' counts. In English
// and Japanese, at 1366 and 390 px, with no axe violation (audited in English at 1366 px and in
// Japanese at 390 px: each audit of this long page takes seconds). The 1 ms timeout switches some
// channels of a snapshot and not others: the test picks a snapshot with both from /api/store.
test('a dataflow run: topology and barriers, each snapshot\'s cost, its channels slowest first, aligned and switched', async ({ page, request }) => {
  test.setTimeout(120_000);
  const problems = watch(page);
  await page.setViewportSize(LAPTOP);
  const { code, out } = await runCluster(['--app', 'dataflow', '--topology', '2-2-1', '--slow', '2:4',
    '--buffers', '4', '--rate', '1000', '--duration', '1500ms', '--snapshot-every', '50ms',
    '--algorithm', 'aligned', '--alignment-timeout', '1ms', '--store', FILE]);
  expect(code, out).toBe(0);
  const list = await (await request.get(`${STORE}/api/store`)).json();
  const run = list.runs[list.runs.length - 1];
  expect(run.dataflow).toEqual({ topology: '2-2-1', algorithm: 'aligned', buffers: 4, alignment_timeout_us: 1000 });
  // A snapshot some of whose channels the timeout switched and some it did not.
  const mixed = list.snapshots.filter((s) => s.run === run.id && s.status === 'complete'
    && s.cost.unaligned > 0 && s.cost.unaligned < s.cost.channels);
  expect(mixed.length, 'a snapshot with aligned and switched channels').toBeGreaterThan(0);
  const entry = mixed[mixed.length - 1];
  const { cost } = entry;
  expect(cost.switched).toBe(true);
  const snap = await (await request.get(`${STORE}/api/store/snapshot?id=${entry.id}`)).json();

  await page.goto(`${STORE}/store.html`);
  const card = page.locator(`.run-card[data-run="${run.id}"]`);
  await expect(card.locator('h3')).toContainText(`Run ${run.id}: dataflow 2-2-1, aligned barriers, unaligned after 1 ms`);
  await expect(card.locator('[data-figure="rate"] dt')).toHaveText('Records/s');
  const row = page.locator(`#store-list tr[data-snapshot="${entry.id}"]`);
  await expect(row.locator('td[data-col="total"]')).toHaveText(`${entry.total} records`);
  const held = cost.held_back > 0 ? `, ${cost.held_back} held back` : '';
  await expect(row.locator('td[data-col="cost"]')).toHaveText(
    `switched by the timeout: ${cost.unaligned} of ${cost.channels} channels unaligned, ${cost.persisted} kept in flight${held}`);
  await expect(row).not.toContainText('$');

  const detail = await openSnapshot(page, entry.id);
  await expect(detail.locator('.df-summary')).toContainText(
    `${cost.unaligned} of ${cost.channels} channels unaligned (switched by the alignment timeout)`);
  await expect(detail.locator('.df-summary')).toContainText(`The sources had emitted ${snap.total} records by the cut.`);
  // The store keeps no marker times for a dataflow: no empty critical path.
  await expect(detail.getByRole('heading', { name: 'Critical path' })).toHaveCount(0);
  await expect(detail.getByRole('heading', { name: 'Channels, slowest first' })).toBeVisible();
  // The channels in the server's order, each as the JSON says.
  const rows = detail.locator('.df-channels tbody tr');
  const barrier = (c) => (c.aligned ? 'aligned' : c.switched ? 'switched' : 'unaligned');
  expect(await rows.evaluateAll((trs) => trs.map((tr) => tr.dataset.channel)))
    .toEqual(snap.channels.map((c) => `${c.from}->${c.to}`));
  expect(await rows.evaluateAll((trs) => trs.map((tr) => tr.dataset.barrier))).toEqual(snap.channels.map(barrier));
  const cells = async (tr) => tr.locator('th, td').allInnerTexts();
  const words = { aligned: 'aligned', switched: 'unaligned: switched by the timeout' };
  for (const [i, c] of snap.channels.entries()) {
    expect(await cells(rows.nth(i))).toEqual([`${c.from} → ${c.to}`, words[barrier(c)],
      `${(c.waited_us / 1000).toFixed(2)} ms`, String(c.held_back), String(c.persisted)]);
  }
  expect(snap.channels.filter((c) => c.aligned).length).toBeGreaterThan(0);
  expect(snap.channels.filter((c) => c.switched).length).toBeGreaterThan(0);
  // Each vertex's role and counts.
  const vertices = detail.locator('.df-vertices tbody tr');
  expect(await vertices.evaluateAll((trs) => trs.map((tr) => tr.dataset.role)))
    .toEqual(['source', 'source', 'operator', 'operator', 'sink']);
  for (const [i, v] of snap.recorded.entries()) {
    expect((await cells(vertices.nth(i))).slice(0, 4)).toEqual([v.name, v.role, String(v.received), String(v.emitted)]);
  }
  // The keyboard: from the open snapshot to Close, then into the channels' box.
  await page.keyboard.press('Tab');
  await expect(detail.getByRole('button', { name: 'Close' })).toBeFocused();
  await page.keyboard.press('Tab');
  await expect(detail.getByRole('region', { name: 'Channels, slowest first' })).toBeFocused();
  // What this run adds to the page (the whole page is audited above, with a bank snapshot open).
  const added = [`.run-card[data-run="${run.id}"]`, '#store-list thead', `#store-list tr[data-snapshot="${entry.id}"]`, '#store-detail'];
  let found = await audit(page, added);
  expect(found, `axe violations at ${LAPTOP.width} px:\n${found.join('\n')}`).toEqual([]);

  // In Japanese.
  await page.getByRole('button', { name: '日本語' }).click();
  await expect(card.locator('h3')).toContainText(`実行 ${run.id}: データフロー 2-2-1、整列バリア（1 ミリ秒で非整列に切替）`);
  const heldJa = cost.held_back > 0 ? `、保留 ${cost.held_back} 件` : '';
  await expect(row.locator('td[data-col="cost"]')).toHaveText(
    `タイムアウトで切替:${cost.channels} チャネル中 ${cost.unaligned} が非整列、移動中を ${cost.persisted} 件保存${heldJa}`);
  await expect(detail.getByRole('heading', { name: 'チャネル（遅い順）' })).toBeVisible();
  const switched = snap.channels.findIndex((c) => c.switched);
  const aligned = snap.channels.findIndex((c) => c.aligned);
  await expect(rows.nth(switched).locator('td').first()).toHaveText('非整列:タイムアウトで切替');
  await expect(rows.nth(aligned).locator('td').first()).toHaveText('整列');
  await expect(vertices.last().locator('td').first()).toHaveText('シンク');
  await expect(detail.locator('.df-summary')).toContainText(`カットまでにソースが送出したレコードは ${snap.total} 件です。`);

  // On a phone: nothing wider than the screen, each channel a card, and still no violation.
  await page.setViewportSize(PHONE);
  await noSidewaysScroll(page);
  for (const tr of await rows.all()) {
    const box = await tr.boundingBox();
    expect(box.x).toBeGreaterThanOrEqual(0);
    expect(box.x + box.width).toBeLessThanOrEqual(PHONE.width);
  }
  expect(await rows.nth(switched).locator('td').last().evaluate((td) => getComputedStyle(td, '::before').content)).toBe('"移動中を保存"');
  found = await audit(page, added);
  expect(found, `axe violations in Japanese at ${PHONE.width} px:\n${found.join('\n')}`).toEqual([]);
  await page.getByRole('button', { name: 'English' }).click();
  await expect(rows.nth(switched).locator('td').first()).toHaveText('unaligned: switched by the timeout');
  await noSidewaysScroll(page);
  expect(problems).toEqual([]);
});
