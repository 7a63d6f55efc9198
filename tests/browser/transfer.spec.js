// Refused transfers: each refusal is shown with its reason (an aria-live status), and changes nothing.
const { test, expect, openPage, settle, snap, send } = require('./fixtures');

const balance = (page, name) => page.locator(`#network-svg .branch[data-name="${name}"] .branch-balance`);
const logItems = (page) => page.locator('#log-list > li');

test('an amount that is not a positive whole number is refused with the reason', async ({ page }, testInfo) => {
  await openPage(page);
  const status = page.getByRole('status');
  for (const bad of ['0', '-5', '3.5', 'abc', '', '1e3']) {
    await send(page, 'P1', 'P2', bad);
    await expect(status).toContainText('Refused');
    await expect(status).toContainText('positive whole number');
    await expect(balance(page, 'P1')).toHaveText('$100');
    await expect(logItems(page)).toHaveCount(1);
  }
  await snap(page, testInfo, 'refused-amount');
  // A good transfer clears the notice.
  await send(page, 'P1', 'P2', '30');
  await expect(status).toHaveText('');
  await expect(balance(page, 'P1')).toHaveText('$70');
});

test('a transfer over the sender\'s balance is refused with the reason', async ({ page }, testInfo) => {
  await openPage(page);
  await send(page, 'P1', 'P2', 30);
  await send(page, 'P1', 'P3', 80);
  await expect(page.getByRole('status')).toContainText('Refused: P1 has only $70, cannot send $80');
  await expect(balance(page, 'P1')).toHaveText('$70');
  await expect(logItems(page)).toHaveCount(2);
  await snap(page, testInfo, 'refused-balance');
});

test('a third transfer into a channel holding 2 is refused with the reason', async ({ page }, testInfo) => {
  await openPage(page);
  await send(page, 'P2', 'P3', 10);
  await send(page, 'P2', 'P3', 10);
  await expect(page.locator('#network-svg .channel[data-from="P2"][data-to="P3"] .nmsg-transfer')).toHaveCount(2);
  await send(page, 'P2', 'P3', 10);
  const status = page.getByRole('status');
  await expect(status).toContainText('Refused');
  await expect(status).toContainText('P2→P3');
  await expect(status).toContainText('2 transfers');
  await expect(balance(page, 'P2')).toHaveText('$80');
  await expect(page.locator('#network-svg .channel[data-from="P2"][data-to="P3"] .nmsg-transfer')).toHaveCount(2);
  await snap(page, testInfo, 'refused-full');
});

test('Deliver Next with nothing in flight, and a transfer to oneself, are refused visibly', async ({ page }) => {
  await openPage(page);
  await page.getByRole('button', { name: /Deliver Next/ }).click();
  await settle(page);
  await expect(page.getByRole('status')).toContainText('Refused: nothing is in flight');
  await send(page, 'P1', 'P1', 5);
  await expect(page.getByRole('status')).toContainText('Refused');
  await expect(page.getByRole('status')).toContainText('itself');
  await expect(logItems(page)).toHaveCount(1);
});
