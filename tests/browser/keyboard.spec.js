// Keyboard only: reach Demo 3 with Tab, run it to the end with Enter and Space.
const { test, expect, settle, openPage, region, demos, snap } = require('./fixtures');

async function tabTo(page, pattern, limit = 120) {
  for (let i = 0; i < limit; i++) {
    await page.keyboard.press('Tab');
    const name = await page.evaluate(() => {
      const el = document.activeElement;
      return el ? (el.getAttribute('aria-label') || el.textContent || '').trim() : '';
    });
    if (pattern.test(name)) return;
  }
  throw new Error(`no focusable element matching ${pattern} within ${limit} Tab presses`);
}

test('Demo 3 from the keyboard alone', async ({ page, request }, testInfo) => {
  const [d] = (await demos(request)).filter((x) => x.id === 3);
  await openPage(page);
  await page.locator('body').focus();
  await tabTo(page, /^Demo 3:/);
  await page.keyboard.press('Enter');
  await settle(page);
  // Choosing a demo puts the focus on Next step.
  const next = page.getByRole('button', { name: 'Next step', exact: true });
  await expect(next).toBeFocused();
  for (let k = 0; k < d.steps.length; k++) {
    await page.keyboard.press(k % 2 ? 'Space' : 'Enter');
    await settle(page);
    await expect(page.locator('#demo-caption')).toContainText(d.steps[k].caption);
    await expect(next).toBeFocused();
  }
  await expect(next).toHaveAttribute('aria-disabled', 'true');
  const cl = region(page, 'Chandy-Lamport snapshot');
  await expect(cl.locator('.cl-total')).toContainText('= $300');
  await expect(cl.locator('tr[data-channel="P2->P1"]')).toContainText('$40');

  // Undo and Reset from the keyboard too.
  await tabTo(page, /^Undo/);
  await page.keyboard.press('Enter');
  await settle(page);
  await expect(page.locator('#demo-progress')).toContainText(`step ${d.steps.length - 1} of ${d.steps.length}`);
  await tabTo(page, /^Reset/);
  await page.keyboard.press('Enter');
  await settle(page);
  await expect(page.locator('#log-list > li')).toHaveCount(1);
  await snap(page, testInfo, 'keyboard-reset');
});

test('every control has an accessible name with the words of the spec', async ({ page }) => {
  await openPage(page);
  for (const b of ['P1', 'P2', 'P3']) {
    await expect(page.getByRole('button', { name: `Start Snapshot at ${b}` })).toHaveCount(1);
    await expect(page.getByRole('button', { name: `Read Balance of ${b}` })).toHaveCount(1);
  }
  for (const name of [/Deliver Next/, /^Undo/, /^Reset/, /^Demo 1:/, /^Demo 2:/, /^Demo 3:/, /^Demo 4:/, /^Demo 5:/,
    /^Demo 6:/, /^Demo 7:/, /^Demo 8:/, /^Demo 9:/, /^Demo 10:/, /^Lab demo:/,
    'Send transfer', 'Next step', 'Play', /Export scenario/, /Import scenario/, 'Copy share link']) {
    await expect(page.getByRole('button', { name })).toHaveCount(1);
  }
  await expect(page.getByRole('button', { name: /Deliver on channel/ })).toHaveCount(6);
  for (const name of ['From', 'To', 'Amount ($)', 'Share link']) {
    await expect(page.getByLabel(name, { exact: true })).toHaveCount(1);
  }
  // Every button and form field has a non-empty accessible name.
  const unnamed = await page.evaluate(() => [...document.querySelectorAll('button, select, input:not([type=file]), [role=button]')]
    .filter((el) => !el.hidden && !(el.getAttribute('aria-label') || el.textContent.trim() || (el.labels && el.labels.length)))
    .map((el) => el.outerHTML.slice(0, 80)));
  expect(unnamed).toEqual([]);
});
