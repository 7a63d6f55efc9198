// The Japanese page: panel names, control names, captions and log lines in Japanese.
const { test, expect, openPage, settle, region, demos, playDemo, snap } = require('./fixtures');

test('the Japanese page: labels, captions, log and refusals in Japanese', async ({ page, request }, testInfo) => {
  await openPage(page);
  await page.getByRole('button', { name: '日本語' }).click();
  await settle(page);
  await expect(page.locator('html')).toHaveAttribute('lang', 'ja');
  for (const name of ['ネットワーク', 'Chandy-Lamport スナップショット', '素朴な読み取り', '時空間図', 'イベントログ']) {
    await expect(region(page, name)).toBeVisible();
  }
  await expect(page.getByRole('region', { name: 'Network', exact: true })).toHaveCount(0);
  for (const name of ['P1 でスナップショット開始', 'P2 の残高を読む', '次を配送', '元に戻す', 'リセット', '送金を送る']) {
    await expect(page.getByRole('button', { name })).toHaveCount(1);
  }
  await expect(page.getByRole('button', { name: /^デモ 3：/ })).toHaveCount(1);
  await expect(page.locator('#invariant')).toContainText('残高 $300 + 移動中 $0 = 合計 $300');
  await expect(page.locator('#log-list')).toContainText('P1');

  const [d] = (await demos(request, 'ja')).filter((x) => x.id === 1);
  await playDemo(page, d, { demoName: /^デモ 1：/, nextName: '次の手順' });
  const naive = region(page, '素朴な読み取り');
  await expect(naive.locator('.naive-total')).toContainText('$270');
  await expect(naive.locator('.why-lost')).toContainText('移動中に消えました');
  // Every log line came from the server in Japanese.
  const log = await page.locator('#log-list ul li').allTextContents();
  expect(log.length).toBeGreaterThan(3);
  for (const line of log) expect(line).toMatch(/[\u3040-\u30ff\u4e00-\u9fff]/);
  await expect(region(page, '時空間図').locator('[data-cut="cut-naive"]')).toHaveText('素朴なカット：一貫');

  // A refusal comes with the server's Japanese reason.
  await page.getByLabel('送り元', { exact: true }).selectOption('P1');
  await page.getByLabel('宛先', { exact: true }).selectOption('P3');
  await page.getByLabel('金額（$）', { exact: true }).fill('500');
  await page.getByRole('button', { name: '送金を送る' }).click();
  await settle(page);
  await expect(page.getByRole('status')).toContainText('拒否されました');
  await expect(page.getByRole('status')).toContainText('$500');
  await page.getByLabel('金額（$）', { exact: true }).fill('2.5');
  await page.getByRole('button', { name: '送金を送る' }).click();
  await expect(page.getByRole('status')).toContainText('正の整数');
  await snap(page, testInfo, 'japanese');

  // The language is part of the link: reloading keeps Japanese and the run.
  await page.reload();
  await settle(page);
  await expect(region(page, '素朴な読み取り').locator('.naive-total')).toContainText('$270');
  await expect(page.locator('h1')).toContainText('止まらないシステム');

  // And back to English.
  await page.getByRole('button', { name: 'English' }).click();
  await settle(page);
  await expect(region(page, 'Naive reading')).toBeVisible();
  await expect(page.locator('#log-list')).toContainText('The naive reader');
});

// A first visit follows the browser's language; the language chosen with the switch is kept for
// the next visit; a link's own language (#lang=) wins over both.
test('the page opens in the browser\'s language, then in the one chosen', async ({ browser, watch }) => {
  const context = await browser.newContext({ locale: 'ja-JP' });
  const page = watch(await context.newPage());
  await page.goto('/');
  await settle(page);
  await expect(page.locator('html')).toHaveAttribute('lang', 'ja');
  await expect(page.getByRole('button', { name: '日本語' })).toHaveAttribute('aria-pressed', 'true');
  await expect(region(page, 'ネットワーク')).toBeVisible();
  // Chosen: English, on this visit and the next (a fresh page in the same browser, no hash).
  await page.getByRole('button', { name: 'English' }).click();
  await settle(page);
  await expect(page.locator('html')).toHaveAttribute('lang', 'en');
  const again = watch(await context.newPage());
  await again.goto('/');
  await settle(again);
  await expect(again.locator('html')).toHaveAttribute('lang', 'en');
  await expect(region(again, 'Network')).toBeVisible();
  // A Japanese share link opens in Japanese all the same.
  await again.goto('/#lang=ja');
  await settle(again);
  await expect(again.locator('html')).toHaveAttribute('lang', 'ja');
  await context.close();
});
