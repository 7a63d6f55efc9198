// A snapshot taken by clicking: channel and box colours follow the running snapshot.
const fs = require('fs');
const path = require('path');
const { test, expect, openPage, settle, region, snap, send } = require('./fixtures');

const GREY = 'rgb(151, 158, 167)';
const ORANGE = 'rgb(209, 127, 42)';
const GREEN = 'rgb(59, 143, 88)';
const BOX_PLAIN = 'rgb(241, 240, 236)';
const BOX_BLUE = 'rgb(211, 228, 248)';
const TRANSFER_FILL = 'rgb(220, 240, 226)';
const MARKER_FILL = 'rgb(251, 230, 207)';

const line = (page, from, to) => page.locator(`#network-svg .channel[data-from="${from}"][data-to="${to}"] .ch-line`);
const box = (page, name) => page.locator(`#network-svg .branch[data-name="${name}"]`);
const stroke = (loc) => loc.evaluate((el) => getComputedStyle(el).stroke);
const fill = (loc) => loc.evaluate((el) => getComputedStyle(el).fill);

async function expectColours(page, expected) {
  for (const [ch, colour] of Object.entries(expected)) {
    const [from, to] = ch.split('>');
    await expect.poll(() => stroke(line(page, from, to)), { message: ch }).toBe(colour);
  }
}

// Clicks the middle of a channel's line, as a visitor would (a horizontal line has no height,
// so Playwright's element click would wait for it to become "visible").
async function clickLine(page, from, to) {
  const r = await line(page, from, to).evaluate((el) => {
    const b = el.getBoundingClientRect();
    return { x: b.x + b.width / 2, y: b.y + b.height / 2 };
  });
  await page.mouse.click(r.x, r.y);
}


test('a snapshot by clicking: colours of channels and boxes change as it runs', async ({ page }, testInfo) => {
  await openPage(page);
  await expectColours(page, { 'P1>P2': GREY, 'P1>P3': GREY, 'P2>P1': GREY, 'P2>P3': GREY, 'P3>P1': GREY, 'P3>P2': GREY });
  expect(await fill(box(page, 'P1').locator('rect.branch-box'))).toBe(BOX_PLAIN);

  await send(page, 'P2', 'P1', 40);
  const p2p1 = page.locator('#network-svg .channel[data-from="P2"][data-to="P1"]');
  await expect(p2p1.locator('.nmsg-transfer text')).toHaveText('$40');
  expect(await fill(p2p1.locator('.nmsg-transfer rect'))).toBe(TRANSFER_FILL);

  await page.getByRole('button', { name: 'Start Snapshot at P1' }).click();
  await settle(page);
  // P1 recorded: blue with its recorded amount; it records its incoming channels.
  await expect(box(page, 'P1')).toHaveClass(/recorded/);
  expect(await fill(box(page, 'P1').locator('rect.branch-box'))).toBe(BOX_BLUE);
  await expect(box(page, 'P1').locator('.rec-tag')).toHaveText('recorded $100');
  await expect(box(page, 'P2')).not.toHaveClass(/recorded/);
  await expectColours(page, { 'P2>P1': ORANGE, 'P3>P1': ORANGE, 'P1>P2': GREY, 'P2>P3': GREY });
  const p1p2 = page.locator('#network-svg .channel[data-from="P1"][data-to="P2"]');
  await expect(p1p2.locator('.nmsg-marker text')).toHaveText('marker');
  expect(await fill(p1p2.locator('.nmsg-marker rect'))).toBe(MARKER_FILL);
  // A transfer sent right after recording travels behind P1's marker to P3.
  await send(page, 'P1', 'P3', 30);
  const p1p3 = page.locator('#network-svg .channel[data-from="P1"][data-to="P3"]');
  await expect(p1p3.locator('.nmsg text')).toHaveText(['marker', '$30']);
  // The $40 sent before the marker is the head of P2->P1: clicking it delivers it into the record.
  await p2p1.locator('.nmsg.head rect').click();
  await settle(page);
  await expect(box(page, 'P1').locator('.branch-balance')).toHaveText('$110');
  const cl = region(page, 'Chandy-Lamport snapshot');
  await expect(cl.locator('tr[data-channel="P2->P1"]')).toContainText('recording: so far $40');

  // Clicking the channel line P1->P2 delivers P1's marker: P2 records $60, P1->P2 closes empty.
  await clickLine(page, 'P1', 'P2');
  await settle(page);
  await expect(box(page, 'P2')).toHaveClass(/recorded/);
  await expect(box(page, 'P2').locator('.rec-tag')).toHaveText('recorded $60');
  await expectColours(page, { 'P1>P2': GREEN, 'P3>P2': ORANGE, 'P2>P1': ORANGE, 'P1>P3': GREY });
  await expect(cl.locator('.cl-markers')).toContainText('4 of 6');
  await expect(page.locator('#invariant')).toContainText('Balances $270 + in flight $30 = total $300');
  await expect(cl.locator('.badge')).toHaveText('running');
  await snap(page, testInfo, 'bank-mid-snapshot');
  // The README's picture: the Bank page mid-snapshot at 1280x800. Written when missing, or
  // when UPDATE_SCREENSHOT=1, so that a test run does not change a committed file.
  const readmeShot = path.join(__dirname, '..', '..', 'docs', 'screenshot.png');
  if (process.env.UPDATE_SCREENSHOT === '1' || !fs.existsSync(readmeShot)) {
    await page.evaluate(() => document.querySelector('.workspace').scrollIntoView({ block: 'start' }));
    await page.evaluate(() => window.scrollBy(0, -8));
    await page.screenshot({ path: readmeShot });
  }

  // Deliver Next until nothing is in flight: every branch records, every channel closes.
  const deliverNext = page.getByRole('button', { name: /Deliver Next/ });
  for (let i = 0; i < 10; i++) {
    if (await page.locator('#network-svg .nmsg').count() === 0) break;
    await deliverNext.click();
    await settle(page);
  }
  await expect(page.locator('#network-svg .nmsg')).toHaveCount(0);
  await expectColours(page, { 'P1>P2': GREEN, 'P1>P3': GREEN, 'P2>P1': GREEN, 'P2>P3': GREEN, 'P3>P1': GREEN, 'P3>P2': GREEN });
  for (const name of ['P1', 'P2', 'P3']) expect(await fill(box(page, name).locator('rect.branch-box'))).toBe(BOX_BLUE);
  await expect(cl.locator('.badge')).toHaveText('complete');
  await expect(cl.locator('.cl-total')).toContainText('P1 $100 + P2 $60 + P3 $100 + P2→P1 $40 = $300');
  await expect(cl.locator('tr[data-channel="P1->P3"]')).toContainText('closed: state empty');
  await snap(page, testInfo, 'bank-snapshot-complete');
});

test('a second Start Snapshot before recording joins the running snapshot', async ({ page }) => {
  await openPage(page);
  await page.getByRole('button', { name: 'Start Snapshot at P1' }).click();
  await settle(page);
  await page.getByRole('button', { name: 'Start Snapshot at P3' }).click();
  await settle(page);
  const cl = region(page, 'Chandy-Lamport snapshot');
  await expect(cl.locator('.snap-head')).toContainText('Snapshot 1, started by P1, P3');
  await expect(page.locator('#log-list > li').last()).toContainText('snapshot P3 id=1');
  // P1 has recorded already: pressing again is refused with the reason, and nothing changes.
  await page.getByRole('button', { name: 'Start Snapshot at P1' }).click();
  await settle(page);
  await expect(page.getByRole('status')).toContainText('Refused: P1 has already recorded for snapshot 1');
  await expect(page.locator('#log-list > li')).toHaveCount(3);
});

test('deliver on a chosen channel from the keyboard', async ({ page }) => {
  await openPage(page);
  await send(page, 'P1', 'P2', 30);
  await send(page, 'P3', 'P2', 20);
  // Deliver Next would take P1's $30 (older); choosing P3->P2 delivers the $20 first.
  const ch = page.getByRole('button', { name: /Deliver on channel P3→P2/ });
  await ch.focus();
  await page.keyboard.press('Enter');
  await settle(page);
  await expect(box(page, 'P2').locator('.branch-balance')).toHaveText('$120');
  await expect(page.locator('#network-svg .channel[data-from="P1"][data-to="P2"] .nmsg text')).toHaveText('$30');
  await expect(page.locator('#invariant')).toContainText('Balances $270 + in flight $30 = total $300');
  // Focus stays on the channel after the redraw, so it can be pressed again.
  await expect(page.locator('#network-svg .channel[data-from="P3"][data-to="P2"]')).toBeFocused();
});
