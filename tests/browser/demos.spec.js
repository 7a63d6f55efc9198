// Each demo played to the end with Next step; the figures the spec names must be on the page.
const { test, expect, openPage, region, demos, playDemo, snap } = require('./fixtures');

function channelRow(page, from, to) {
  return region(page, 'Chandy-Lamport snapshot').locator(`tr[data-channel="${from}->${to}"]`);
}

test('Demo 1: money in flight is lost ($270, the $30 named)', async ({ page, request }, testInfo) => {
  const [d] = (await demos(request)).filter((x) => x.id === 1);
  await openPage(page);
  await playDemo(page, d);
  const naive = region(page, 'Naive reading');
  await expect(naive.locator('tr[data-branch="P1"]')).toContainText('$70');
  await expect(naive.locator('tr[data-branch="P2"]')).toContainText('$100');
  await expect(naive.locator('tr[data-branch="P3"]')).toContainText('$100');
  await expect(naive.locator('.naive-total')).toContainText('$270');
  await expect(naive.locator('.verdict')).toContainText('$300');
  await expect(naive.locator('.why-lost')).toHaveCount(1);
  await expect(naive.locator('.why-lost')).toContainText('$30 from P1 to P2');
  await expect(naive.locator('.why-lost')).toContainText('lost in flight');
  await expect(naive.locator('.why-twice')).toHaveCount(0);
  await expect(region(page, 'Space-time diagram').locator('[data-cut="cut-naive"]')).toHaveText('naive cut: consistent');
  await expect(page.locator('#invariant')).toContainText('Balances $300 + in flight $0 = total $300');
  await snap(page, testInfo, 'demo1-end');
});

test('Demo 2: money counted twice ($330, the $30 named, cut inconsistent)', async ({ page, request }, testInfo) => {
  const [d] = (await demos(request)).filter((x) => x.id === 2);
  await openPage(page);
  await playDemo(page, d);
  const naive = region(page, 'Naive reading');
  await expect(naive.locator('tr[data-branch="P1"]')).toContainText('$100');
  await expect(naive.locator('tr[data-branch="P2"]')).toContainText('$130');
  await expect(naive.locator('.naive-total')).toContainText('$330');
  await expect(naive.locator('.why-twice')).toContainText('$30 from P1 to P2');
  await expect(naive.locator('.why-twice')).toContainText('counted twice');
  await expect(naive.locator('.naive-cut')).toContainText('inconsistent');
  const st = region(page, 'Space-time diagram');
  await expect(st.locator('[data-cut="cut-naive"]')).toHaveText('naive cut: inconsistent');
  // The $30 is received inside the naive cut but sent outside it: its arrow is highlighted.
  await expect(st.locator('.st-msg.backward')).toHaveCount(1);
  await expect(st.locator('.st-msg.backward .st-amount')).toHaveText('$30');
  await expect(st.locator('#st-note')).toContainText('#1 ($30, P1→P2)');
  await snap(page, testInfo, 'demo2-end');
});

test('Demo 3: $40 recorded on P2->P1, the $30 not in the snapshot, $300', async ({ page, request }, testInfo) => {
  const [d] = (await demos(request)).filter((x) => x.id === 3);
  await openPage(page);
  await playDemo(page, d);
  const cl = region(page, 'Chandy-Lamport snapshot');
  await expect(cl.locator('.badge')).toHaveText('complete');
  await expect(cl.locator('tr[data-branch="P1"]')).toContainText('$100');
  await expect(cl.locator('tr[data-branch="P2"]')).toContainText('$60');
  await expect(cl.locator('tr[data-branch="P3"]')).toContainText('$100');
  await expect(channelRow(page, 'P2', 'P1')).toHaveAttribute('data-state', 'closed');
  await expect(channelRow(page, 'P2', 'P1')).toContainText('$40');
  // The $30 travelled behind P1's marker: P1->P3 was recorded empty, and no channel holds $30.
  await expect(channelRow(page, 'P1', 'P3')).toContainText('closed: state empty');
  await expect(cl.locator('.cl-channels')).not.toContainText('$30');
  await expect(cl.locator('.cl-total')).toContainText('P1 $100 + P2 $60 + P3 $100 + P2→P1 $40 = $300');
  await expect(cl.locator('.cl-markers')).toContainText('6 of 6');
  await expect(cl.locator('.cl-parts')).toContainText('P1, P2, P3');
  await expect(region(page, 'Space-time diagram').locator('[data-cut="cut-snapshot"]')).toHaveText('snapshot cut: consistent');
  await expect(region(page, 'Space-time diagram').locator('.st-marker')).toHaveCount(6);
  await snap(page, testInfo, 'demo3-end');
});

test('Demo 4: two initiators, one snapshot $100 + $75 + $100 + $25', async ({ page, request }, testInfo) => {
  const [d] = (await demos(request)).filter((x) => x.id === 4);
  await openPage(page);
  await playDemo(page, d);
  const cl = region(page, 'Chandy-Lamport snapshot');
  await expect(cl.locator('.snap-head')).toContainText('Snapshot 1, started by P1, P3');
  await expect(cl.locator('.badge')).toHaveText('complete');
  await expect(channelRow(page, 'P2', 'P3')).toContainText('$25');
  await expect(cl.locator('.cl-total')).toContainText('P1 $100 + P2 $75 + P3 $100 + P2→P3 $25 = $300');
  await expect(page.locator('#network-svg .branch.recorded')).toHaveCount(3);
  await snap(page, testInfo, 'demo4-end');
});

test('Demo 5: nothing in flight, every channel empty, $300 both ways', async ({ page, request }, testInfo) => {
  const [d] = (await demos(request)).filter((x) => x.id === 5);
  await openPage(page);
  await playDemo(page, d);
  const cl = region(page, 'Chandy-Lamport snapshot');
  const rows = cl.locator('tr[data-channel]');
  await expect(rows).toHaveCount(6);
  for (let i = 0; i < 6; i++) {
    await expect(rows.nth(i)).toHaveAttribute('data-state', 'closed');
    await expect(rows.nth(i)).toContainText('state empty');
  }
  await expect(cl.locator('.cl-total')).toContainText('P1 $100 + P2 $100 + P3 $100 = $300');
  const naive = region(page, 'Naive reading');
  await expect(naive.locator('.naive-total')).toContainText('$300');
  await expect(naive.locator('.verdict.ok')).toContainText('no way to know');
  await expect(page.locator('#network-svg .ch-line.ch-closed')).toHaveCount(6);
  await snap(page, testInfo, 'demo5-end');
});

test('Lab demo: the study note run, A $100 + B $60 + $40 on B->A = $200', async ({ page, request }, testInfo) => {
  const [d] = (await demos(request)).filter((x) => x.preset === 'lab');
  await openPage(page);
  await playDemo(page, d);
  await expect(page.locator('#network-svg .branch')).toHaveCount(2);
  const cl = region(page, 'Chandy-Lamport snapshot');
  await expect(channelRow(page, 'A', 'B')).toContainText('closed: state empty');
  await expect(channelRow(page, 'B', 'A')).toContainText('$40');
  await expect(cl.locator('.cl-total')).toContainText('A $100 + B $60 + B→A $40 = $200');
  await cl.locator('details.lab summary').click();
  // The study note's figures: process states 160 + in flight 40 = 200.
  await expect(cl.locator('details.lab pre')).toContainText('160');
  await expect(cl.locator('details.lab pre')).toContainText('= 160 + 40 = 200');
  await expect(page.locator('#invariant')).toContainText('= total $200');
  await snap(page, testInfo, 'lab-end');
});

test('Play steps a demo on its own to the end', async ({ page, request }) => {
  const [d] = (await demos(request)).filter((x) => x.id === 1);
  await openPage(page);
  await page.getByRole('button', { name: /^Demo 1:/ }).click();
  await page.getByRole('button', { name: 'Play', exact: true }).click();
  await expect(page.locator('#demo-progress')).toContainText(`step ${d.steps.length} of ${d.steps.length}`, { timeout: 20_000 });
  await expect(page.getByRole('button', { name: 'Play', exact: true })).toHaveAttribute('aria-disabled', 'true');
  await expect(page.locator('#demo-caption')).toContainText(d.steps[d.steps.length - 1].caption);
  await expect(region(page, 'Naive reading').locator('.naive-total')).toContainText('$270');
});
