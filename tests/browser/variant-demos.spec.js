// Demos 6-10 (docs/spec variants.md, "Demos") played to the end with Next step: the figures of the
// spec's table must be on the page, in the snapshot panel's words. The snapshot region is named
// after the run's algorithm, so each test looks it up by that name.
const {
  test, expect, openPage, settle, region, demos, demo, playDemo, snap, channelRow, recordedCell,
} = require('./fixtures');

test('Demo 6: Chandy-Lamport without FIFO: $330, inconsistent, the $30 counted twice', async ({ page, request }, testInfo) => {
  const d = await demo(request, 6);
  await openPage(page);
  await playDemo(page, d);
  // Still Chandy-Lamport (over channels that reorder): the region keeps its name.
  const cl = region(page, 'Chandy-Lamport snapshot');
  await expect(cl.locator('.badge')).toHaveText('complete');
  await expect(cl.locator('.snap-algo')).toHaveText('Algorithm: Chandy-Lamport (markers), over channels that may reorder (not FIFO)');
  await expect(recordedCell(cl, 'P3')).toHaveText('$130');
  await expect(cl.locator('.cl-total')).toContainText('P1 $100 + P2 $60 + P3 $130 + P2→P1 $40 = $330');
  // The total line must not claim to match.
  await expect(cl.locator('.cl-total')).toContainText('It is not the bank\'s $300: off by +$30.');
  await expect(cl.locator('.cl-total')).not.toContainText('equals');
  const verdict = cl.locator('.cl-verdict');
  await expect(verdict).toHaveAttribute('data-consistent', 'false');
  await expect(verdict).toContainText('✗ Inconsistent');
  await expect(verdict.locator('li')).toHaveCount(1);
  await expect(verdict.locator('li')).toHaveText('$30 counted twice: P3 received it before recording, P1 sent it after recording (message #4, P1→P3).');
  // Not by colour alone: the wrong verdict has a visible border as well as its mark and words.
  expect(await verdict.evaluate((el) => getComputedStyle(el).borderTopStyle)).toBe('solid');
  await snap(page, testInfo, 'demo6-end');
});

test('Demo 7: Lai-Yang on the same schedule: P3 records $100 before the $30 of epoch 1, $300 consistent', async ({ page, request }, testInfo) => {
  const d = await demo(request, 7);
  await openPage(page);
  await playDemo(page, d, {
    atStep: async (k) => {
      if (k !== 4) return;
      // The $30 has just overtaken the control message: P3 recorded $100 first, then applied it.
      const ly = region(page, 'Lai-Yang snapshot');
      await expect(recordedCell(ly, 'P3')).toHaveText('$100');
      await expect(ly.locator('.cl-epoch')).toHaveText('P3 recorded $100 before applying #4 ($30 from P1), which carries epoch 1: it was sent after P1 recorded.');
      await expect(page.locator('#network-svg .branch[data-name="P3"] .branch-balance')).toHaveText('$130');
    },
  });
  const ly = region(page, 'Lai-Yang snapshot');
  await expect(region(page, 'Chandy-Lamport snapshot')).toHaveCount(0);
  await expect(ly.locator('.snap-algo')).toContainText('Lai-Yang');
  await expect(ly.locator('.badge')).toHaveText('complete');
  await expect(recordedCell(ly, 'P3')).toHaveText('$100');
  await expect(ly.locator('.cl-epoch')).toContainText('epoch 1');
  await expect(ly.locator('.cl-markers')).toHaveText('Control messages sent: 6 of 6 (one per channel, each with a count of transfers)');
  await expect(ly.locator('.cl-total')).toContainText('P1 $100 + P2 $60 + P3 $100 + P2→P1 $40 = $300');
  await expect(ly.locator('.cl-total')).toContainText('It equals the bank\'s $300.');
  await expect(ly.locator('.cl-verdict')).toHaveAttribute('data-consistent', 'true');
  await expect(ly.locator('.cl-verdict')).toHaveText('✓ Consistent: every transfer is counted exactly once.');
  await expect(page.locator('#log-list')).toContainText('message #4 carries epoch 1');
  await snap(page, testInfo, 'demo7-end');
});

test('Demo 8: aligned barriers: P4 holds back P2->P4 until P3\'s barrier, every channel empty, $400', async ({ page, request }, testInfo) => {
  const d = await demo(request, 8);
  await openPage(page);
  let sawHeld = 0;
  await playDemo(page, d, {
    atStep: async (k) => {
      const al = region(page, 'Aligned-barrier snapshot');
      const p24 = channelRow(al, 'P2', 'P4');
      // Steps 4 to 7: P4 has P2's barrier but not P3's (step 8 delivers it).
      if (k < 4) return;
      if (k <= 7) {
        await expect(p24).toHaveAttribute('data-state', 'held back');
        await expect(p24).toContainText('held back: P4 delivers nothing more on it until a barrier has come on each of its inputs');
        await expect(channelRow(al, 'P3', 'P4')).toHaveAttribute('data-state', 'not recorded');
        await expect(recordedCell(al, 'P4')).toHaveText('not yet');
        sawHeld += 1;
      } else {
        await expect(p24).toHaveAttribute('data-state', 'closed');
      }
    },
  });
  expect(sawHeld).toBe(4);
  const al = region(page, 'Aligned-barrier snapshot');
  await expect(page.locator('#network-svg .branch')).toHaveCount(4);
  await expect(al.locator('.badge')).toHaveText('complete');
  const rows = al.locator('tr[data-channel]');
  await expect(rows).toHaveCount(4);
  for (let i = 0; i < 4; i++) {
    await expect(rows.nth(i)).toHaveAttribute('data-state', 'closed');
    await expect(rows.nth(i)).toContainText('closed: state empty');
  }
  await expect(al.locator('.cl-aligned')).toBeVisible();
  await expect(al.locator('.cl-markers')).toHaveText('Barriers sent: 4 of 4 (one per channel)');
  await expect(al.locator('.cl-total')).toContainText('P1 $90 + P2 $100 + P3 $110 + P4 $100 = $400');
  await expect(al.locator('.cl-verdict')).toHaveAttribute('data-consistent', 'true');
  await snap(page, testInfo, 'demo8-end');
});

test('Demo 9: unaligned barriers: complete while the $20 and $15 still wait on P1->P2, recorded as overtaken, $300', async ({ page, request }, testInfo) => {
  const d = await demo(request, 9);
  await openPage(page);
  let checked = false;
  await playDemo(page, d, {
    atStep: async (k) => {
      if (k !== d.steps.length - 1) return;
      // The last barrier is in, the backlog is not: the snapshot did not wait for it.
      const un = region(page, 'Unaligned-barrier snapshot');
      await expect(un.locator('.badge')).toHaveText('complete');
      await expect(page.locator('#invariant')).toContainText('Balances $265 + in flight $35 = total $300');
      await expect(channelRow(un, 'P1', 'P2')).toContainText('closed: state $20, $15 (overtaken by the barrier)');
      await expect(un.locator('.cl-total')).toContainText('P1 $65 + P2 $100 + P3 $100 + P1→P2 $20 + $15 = $300');
      checked = true;
    },
  });
  expect(checked).toBe(true);
  const un = region(page, 'Unaligned-barrier snapshot');
  await expect(page.locator('#invariant')).toContainText('in flight $0 = total $300');
  await expect(channelRow(un, 'P1', 'P2')).toContainText('$20, $15 (overtaken by the barrier)');
  await expect(channelRow(un, 'P1', 'P3')).toContainText('closed: state empty');
  await expect(channelRow(un, 'P1', 'P3')).not.toContainText('overtaken');
  await expect(un.locator('.cl-markers')).toHaveText('Barriers sent: 6 of 6 (one per channel)');
  await expect(un.locator('.cl-total')).toContainText('= $300');
  await expect(un.locator('.cl-verdict')).toHaveAttribute('data-consistent', 'true');
  await snap(page, testInfo, 'demo9-end');
});

test('Demo 10: naive $270, Chandy-Lamport $300 without stopping, stop-the-world $300 after 2 stopped deliveries', async ({ page, request }, testInfo) => {
  const d = await demo(request, 10);
  await openPage(page);
  let sawCl = false;
  await playDemo(page, d, {
    atStep: async (k) => {
      if (d.steps[k - 1].command !== 'drain') return;
      const cl = region(page, 'Chandy-Lamport snapshot');
      await expect(cl.locator('.snap-head')).toContainText('Snapshot 1, started by P1');
      await expect(cl.locator('.snap-algo')).toHaveText('Algorithm: Chandy-Lamport (markers)');
      await expect(cl.locator('.cl-total')).toContainText('P1 $70 + P2 $110 + P3 $100 + P2→P3 $20 = $300');
      await expect(cl.locator('.cl-markers')).toContainText('6 of 6');
      await expect(cl.locator('.cl-stopped')).toHaveCount(0);
      sawCl = true;
    },
  });
  expect(sawCl).toBe(true);
  const naive = region(page, 'Naive reading');
  await expect(naive.locator('.naive-total')).toContainText('$270');
  await expect(naive.locator('.why-lost')).toContainText('$30 from P1 to P2');
  // The run's algorithm is still Chandy-Lamport; the snapshot on show is the stop-the-world one.
  const cl = region(page, 'Chandy-Lamport snapshot');
  await expect(cl.locator('.snap-head')).toContainText('Snapshot 2');
  await expect(cl.locator('.snap-head')).not.toContainText('started by');
  await expect(cl.locator('.snap-algo')).toContainText('stop the world');
  await expect(cl.locator('.cl-stopped')).toContainText('The bank could not take a transfer during 2 deliveries');
  await expect(cl.locator('.cl-markers')).toHaveCount(0);
  await expect(cl.locator('.cl-total')).toContainText('P1 $85 + P2 $105 + P3 $110 = $300');
  await expect(cl.locator('.cl-verdict')).toHaveAttribute('data-consistent', 'true');
  await expect(cl.locator('.cl-earlier')).toHaveText('Earlier snapshots: #1 Chandy-Lamport $300');
  await snap(page, testInfo, 'demo10-end');
});

test('the snapshot region is named after the run\'s algorithm, in both languages', async ({ page, request }) => {
  await openPage(page);
  await expect(region(page, 'Chandy-Lamport snapshot')).toBeVisible();
  const names = { 7: 'Lai-Yang snapshot', 8: 'Aligned-barrier snapshot', 9: 'Unaligned-barrier snapshot', 6: 'Chandy-Lamport snapshot' };
  for (const [id, name] of Object.entries(names)) {
    await page.getByRole('button', { name: new RegExp(`^Demo ${id}:`) }).click();
    await settle(page);
    await expect(region(page, name)).toBeVisible();
    await expect(page.getByRole('region', { name: /snapshot$/ })).toHaveCount(1);
  }
  // Back to the plain bank: Chandy-Lamport again.
  await page.getByRole('button', { name: /^Demo 1:/ }).click();
  await settle(page);
  await expect(region(page, 'Chandy-Lamport snapshot')).toBeVisible();
  await page.getByRole('button', { name: /^Demo 9:/ }).click();
  await settle(page);
  await page.getByRole('button', { name: '日本語' }).click();
  await settle(page);
  await expect(region(page, '非整列バリアのスナップショット')).toBeVisible();
  await page.getByRole('button', { name: /^デモ 7：/ }).click();
  await settle(page);
  await expect(region(page, 'Lai-Yang スナップショット')).toBeVisible();
  await page.getByRole('button', { name: /^デモ 3：/ }).click();
  await settle(page);
  await expect(region(page, 'Chandy-Lamport スナップショット')).toBeVisible();
  expect(await demos(request)).toHaveLength(18);
});

test('the demo buttons come in five named groups, each button named by its visible text', async ({ page }) => {
  await openPage(page);
  const groups = [
    ['Chandy-Lamport on the bank', ['Demo 1', 'Demo 2', 'Demo 3', 'Demo 4', 'Demo 5']],
    ['Beyond FIFO: other algorithms', ['Demo 6', 'Demo 7', 'Demo 8', 'Demo 9', 'Demo 10']],
    ['Beyond money: termination and deadlock', ['Demo 12', 'Demo 13', 'Demo 14', 'Demo 15']],
    ['Rules broken on purpose: watch the checker catch them', ['Demo 16', 'Demo 17', 'Demo 18']],
    ['The study note', ['Lab demo']],
  ];
  // In that order on the page, and nothing else.
  await expect(page.locator('#demo-buttons .demo-group-h')).toHaveText(groups.map(([name]) => name));
  for (const [name, labels] of groups) {
    const g = page.getByRole('group', { name, exact: true });
    await expect(g.getByRole('heading', { name, exact: true })).toBeVisible();
    await expect(g.locator('.demo-num')).toHaveText(labels.map((l) => `${l}:`));
    // Each button's accessible name starts with the number shown on it (WCAG 2.5.3).
    for (const label of labels) {
      await expect(g.getByRole('button', { name: new RegExp(`^${label}: \\S`) })).toHaveCount(1);
    }
  }
  await expect(page.locator('.demo-button[aria-label]')).toHaveCount(0);
});

test('Demo 6 in Japanese: captions and the verdict in Japanese', async ({ page, request }, testInfo) => {
  await openPage(page);
  await page.getByRole('button', { name: '日本語' }).click();
  await settle(page);
  const d = await demo(request, 6, 'ja');
  // playDemo checks each step's Japanese caption from the server.
  await playDemo(page, d, { demoName: /^デモ 6：/, nextName: '次の手順' });
  const cl = region(page, 'Chandy-Lamport スナップショット');
  await expect(cl.locator('.snap-algo')).toContainText('FIFO でない');
  await expect(cl.locator('.cl-total')).toContainText('= $330');
  await expect(cl.locator('.cl-total')).toContainText('銀行の $300 と一致しません');
  await expect(cl.locator('.cl-verdict')).toContainText('✗ 非一貫');
  await expect(cl.locator('.cl-verdict li')).toHaveText('$30 が二重に数えられました：P3 は記録する前に受け取り、P1 は記録した後に送りました（メッセージ #4、P1→P3）。');
  await expect(page.getByRole('group', { name: 'FIFO の先へ：ほかのアルゴリズム' })).toBeVisible();
  await snap(page, testInfo, 'demo6-ja');
});
