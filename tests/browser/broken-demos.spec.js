// Rules broken on purpose (docs/design.md, "Broken on purpose"; demos 16-18): each demo played to
// its end with Next step, its verdict checked in the snapshot panel's words (the total, the
// inconsistent verdict and the one transfer it names), the log line that tells the broken rule,
// the demo group and its buttons, in English and in Japanese; then each broken option of the
// algorithm selector chosen on a small run that Chandy-Lamport gets right, and caught.
const {
  test, expect, openPage, settle, region, demos, demo, playDemo, snap, channelRow, recordedCell,
} = require('./fixtures');

const svgChannel = (page, from, to) => page.locator(`#network-svg .channel[data-from="${from}"][data-to="${to}"]`);
const log = (page) => page.locator('#log-list');

// What each demo's end shows, in English and Japanese.
const BROKEN = {
  16: {
    algorithm: 'broken-unrecorded-channel',
    recorded: { P1: '$100', P2: '$60', P3: '$100' },
    en: {
      algo: 'Algorithm: Chandy-Lamport with a rule broken on purpose: no branch records its first incoming channel',
      total: 'P1 $100 + P2 $60 + P3 $100 = $260',
      off: 'It is not the bank\'s $300: off by −$40.',
      guilty: '$40 in flight on P2→P1 is missing from the snapshot: the cut is right, but the channel\'s recorded state leaves it out (message #1).',
      rule: 'P2\'s marker has not come yet, but by the rule broken on purpose P2→P1 is not being recorded for snapshot 1, so the $40 is missing from it',
    },
    ja: {
      algo: 'アルゴリズム：わざと規則を破った Chandy-Lamport：どの支店も最初の入力チャネルを記録しない',
      total: 'P1 $100 + P2 $60 + P3 $100 = $260',
      off: '銀行の $300 と一致しません：−$40 ずれています。',
      guilty: 'P2→P1 を移動中の $40 がスナップショットから抜けています：カットは正しいのに、チャネルの記録された状態に入っていません（メッセージ #1）。',
      rule: 'わざと破った規則のためP2→P1はスナップショット1で記録されていないので、$40はそこから漏れる',
    },
  },
  17: {
    algorithm: 'broken-late-markers',
    recorded: { P1: '$100', P2: '$100', P3: '$130' },
    en: {
      algo: 'Algorithm: Chandy-Lamport with a rule broken on purpose: markers sent after the next transfer instead of before anything else',
      total: 'P1 $100 + P2 $100 + P3 $130 = $330',
      off: 'It is not the bank\'s $300: off by +$30.',
      guilty: '$30 counted twice: P3 received it before recording, P1 sent it after recording (message #1, P1→P3).',
      rule: 'P1 starts snapshot 1: records $100 and keeps its markers until after its next transfer (the rule broken on purpose)',
    },
    ja: {
      algo: 'アルゴリズム：わざと規則を破った Chandy-Lamport：マーカーを何よりも先ではなく、次の送金の後に送る',
      total: 'P1 $100 + P2 $100 + P3 $130 = $330',
      off: '銀行の $300 と一致しません：+$30 ずれています。',
      guilty: '$30 が二重に数えられました：P3 は記録する前に受け取り、P1 は記録した後に送りました（メッセージ #1、P1→P3）。',
      rule: 'P1がスナップショット1を開始: $100を記録し、わざと破った規則のため、次の送金の後までマーカーを送らない',
    },
  },
  18: {
    algorithm: 'broken-stop-at-first',
    recorded: { P1: '$100', P2: '$40', P3: '$100' },
    en: {
      algo: 'Algorithm: Chandy-Lamport with a rule broken on purpose: a channel\'s recording stops at its first message instead of at its marker',
      total: 'P1 $100 + P2 $40 + P3 $100 + P2→P1 $40 = $280',
      off: 'It is not the bank\'s $300: off by −$20.',
      guilty: '$20 lost: P2 sent it before recording, but P1 neither received it before recording nor recorded it in the channel (message #2, P2→P1).',
      rule: 'by the rule broken on purpose, P1 stops recording P2→P1 for snapshot 1 at this first message, without waiting for P2\'s marker',
    },
    ja: {
      algo: 'アルゴリズム：わざと規則を破った Chandy-Lamport：チャネルの記録をマーカーではなく最初のメッセージで止める',
      total: 'P1 $100 + P2 $40 + P3 $100 + P2→P1 $40 = $280',
      off: '銀行の $300 と一致しません：−$20 ずれています。',
      guilty: '$20 が失われました：P2 は記録する前に送りましたが、P1 は記録する前に受け取っておらず、チャネルの状態にも記録していません（メッセージ #2、P2→P1）。',
      rule: 'わざと破った規則のため、P1はP2のマーカーを待たずに、この最初のメッセージでスナップショット1のP2→P1の記録を止める',
    },
  },
};

// The snapshot panel at a broken demo's end: complete, the wrong total, the verdict naming exactly
// the one guilty transfer, the broken algorithm named, and the rule in the log.
async function expectCaught(page, id, lang) {
  const b = BROKEN[id];
  const w = b[lang];
  const cl = region(page, lang === 'ja' ? 'Chandy-Lamport スナップショット' : 'Chandy-Lamport snapshot');
  await expect(cl.locator('.badge')).toHaveText(lang === 'ja' ? '完了' : 'complete');
  await expect(cl.locator('.snap-algo')).toHaveText(w.algo);
  for (const [name, v] of Object.entries(b.recorded)) await expect(recordedCell(cl, name)).toHaveText(v);
  await expect(cl.locator('.cl-total')).toContainText(w.total);
  await expect(cl.locator('.cl-total')).toContainText(w.off);
  await expect(cl.locator('.cl-total')).not.toContainText(lang === 'ja' ? '一致します' : 'equals');
  const verdict = cl.locator('.cl-verdict');
  await expect(verdict).toHaveAttribute('data-consistent', 'false');
  await expect(verdict.locator('p').first()).toHaveText(lang === 'ja'
    ? '✗ 非一貫：銀行が一度もなったことのない状態で、合計も誤りです。'
    : '✗ Inconsistent: this snapshot is a state the bank was never in, and its total is wrong.');
  await expect(verdict.locator('li')).toHaveText([w.guilty]);
  // Not by colour alone: the wrong verdict has a visible border as well as its mark and words.
  expect(await verdict.evaluate((el) => getComputedStyle(el).borderTopStyle)).toBe('solid');
  await expect(log(page)).toContainText(w.rule);
  await expect(page.locator('#invariant')).toContainText('$300');
  await expect(page.getByLabel(lang === 'ja' ? 'スナップショットのアルゴリズム' : 'Snapshot algorithm', { exact: true })).toHaveValue(b.algorithm);
}

test('Demo 16: a channel never recorded: $260, inconsistent, the $40 in flight on P2->P1 missing', async ({ page, request }, testInfo) => {
  const d = await demo(request, 16);
  await openPage(page);
  let checked = false;
  await playDemo(page, d, {
    atStep: async (k) => {
      if (k !== 3) return;
      // The $40 has reached P1 after it recorded: by the rule it is P2->P1's; here it is in no
      // channel state, and the snapshot is still running.
      const cl = region(page, 'Chandy-Lamport snapshot');
      await expect(cl.locator('.badge')).toHaveText('running');
      await expect(channelRow(cl, 'P2', 'P1')).not.toContainText('$40');
      await expect(page.locator('#network-svg .branch[data-name="P1"] .branch-balance')).toHaveText('$140');
      checked = true;
    },
  });
  expect(checked).toBe(true);
  await expectCaught(page, 16, 'en');
  const cl = region(page, 'Chandy-Lamport snapshot');
  await expect(channelRow(cl, 'P2', 'P1')).toContainText('closed: state empty');
  await expect(page.locator('#demo-caption')).toContainText('the $40 in flight on P2→P1 is missing from the snapshot');
  await snap(page, testInfo, 'demo16-end');
});

test('Demo 17: markers sent too late: $330, inconsistent, the $30 counted twice', async ({ page, request }, testInfo) => {
  const d = await demo(request, 17);
  await openPage(page);
  const seen = [];
  await playDemo(page, d, {
    atStep: async (k) => {
      if (k === 1) {
        // P1 has recorded but keeps its markers: none is on any channel.
        await expect(region(page, 'Chandy-Lamport snapshot').locator('.badge')).toHaveText('running');
        await expect(page.locator('#network-svg .nmsg-marker')).toHaveCount(0);
        seen.push(k);
      } else if (k === 2) {
        // Only after the transfer: on P1->P3 the $30 travels ahead of the marker.
        await expect(svgChannel(page, 'P1', 'P3').locator('.nmsg text')).toHaveText(['$30', 'marker']);
        await expect(svgChannel(page, 'P1', 'P2').locator('.nmsg text')).toHaveText(['marker']);
        await expect(log(page)).toContainText('only now, after that transfer, does P1 send its markers of snapshot 1 to P2 and P3');
        seen.push(k);
      } else if (k === 4) {
        // P3 records $130: the $30 it already holds is counted a second time.
        await expect(recordedCell(region(page, 'Chandy-Lamport snapshot'), 'P3')).toHaveText('$130');
        seen.push(k);
      }
    },
  });
  expect(seen).toEqual([1, 2, 4]);
  await expectCaught(page, 17, 'en');
  await snap(page, testInfo, 'demo17-end');
});

test('Demo 18: recording stopped at the first message: $280, inconsistent, the $20 lost', async ({ page, request }, testInfo) => {
  const d = await demo(request, 18);
  await openPage(page);
  const seen = [];
  await playDemo(page, d, {
    atStep: async (k) => {
      if (k !== 4 && k !== 5) return;
      // At the $40, P1 stops recording P2->P1 before P2's marker: closed with the $40 alone,
      // and the $20 after it is left out.
      const cl = region(page, 'Chandy-Lamport snapshot');
      await expect(channelRow(cl, 'P2', 'P1')).toHaveAttribute('data-state', 'closed');
      await expect(channelRow(cl, 'P2', 'P1')).toContainText('closed: state $40');
      await expect(cl.locator('.badge')).toHaveText('running');
      await expect(svgChannel(page, 'P2', 'P1').locator('.nmsg text')).toHaveText(k === 4 ? ['$20'] : []);
      seen.push(k);
    },
  });
  expect(seen).toEqual([4, 5]);
  await expectCaught(page, 18, 'en');
  await expect(channelRow(region(page, 'Chandy-Lamport snapshot'), 'P2', 'P1')).toContainText('closed: state $40');
  await expect(log(page)).toContainText('by the rule broken on purpose P2→P1 is not being recorded for snapshot 1, so the $20 is missing from it');
  await snap(page, testInfo, 'demo18-end');
});

test('the fourth demo group: rules broken on purpose, its heading and three buttons, in both languages', async ({ page, request }) => {
  await openPage(page);
  const en = await demos(request);
  expect(en.filter((d) => d.group === 'broken').map((d) => d.id)).toEqual([16, 17, 18]);
  const name = 'Rules broken on purpose: watch the checker catch them';
  const g = page.getByRole('group', { name, exact: true });
  await expect(g.getByRole('heading', { name, exact: true })).toBeVisible();
  await expect(g.locator('.demo-button')).toHaveCount(3);
  for (const d of en.filter((x) => x.group === 'broken')) {
    // Named by its visible text, number first (WCAG 2.5.3).
    await expect(g.getByRole('button', { name: `Demo ${d.id}: ${d.title}`, exact: true })).toBeVisible();
  }
  await expect(g.locator('.demo-title')).toHaveText(['Broken: a channel never recorded', 'Broken: markers sent too late',
    'Broken: recording stopped at the first message']);
  // Pressed while its demo runs, like every demo button.
  await g.getByRole('button', { name: /^Demo 17:/ }).click();
  await settle(page);
  await expect(g.getByRole('button', { name: /^Demo 17:/ })).toHaveAttribute('aria-pressed', 'true');
  await expect(page.locator('.demo-button[aria-pressed="true"]')).toHaveCount(1);

  await page.getByRole('button', { name: '日本語' }).click();
  await settle(page);
  const ja = await demos(request, 'ja');
  const nameJa = 'わざと破った規則：検査器が見抜くところを見る';
  const gJa = page.getByRole('group', { name: nameJa, exact: true });
  await expect(gJa.getByRole('heading', { name: nameJa, exact: true })).toBeVisible();
  await expect(gJa.locator('.demo-title')).toHaveText(['破れた規則: 記録されないチャネル', '破れた規則: 遅すぎるマーカー',
    '破れた規則: 最初のメッセージで記録を止める']);
  for (const d of ja.filter((x) => x.group === 'broken')) {
    await expect(gJa.getByRole('button', { name: new RegExp(`^デモ ${d.id}：`) })).toContainText(d.title);
  }
  await expect(page.getByRole('group', { name, exact: true })).toHaveCount(0);
});

test('demos 16-18 in Japanese: captions, the verdict naming the guilty transfer, and the broken rule in Japanese', async ({ page, request }, testInfo) => {
  test.setTimeout(90_000);
  await openPage(page);
  await page.getByRole('button', { name: '日本語' }).click();
  await settle(page);
  for (const id of [16, 17, 18]) {
    const d = await demo(request, id, 'ja');
    // playDemo checks each step's Japanese caption from the server.
    await playDemo(page, d, { demoName: new RegExp(`^デモ ${id}：`), nextName: '次の手順' });
    await expectCaught(page, id, 'ja');
    await snap(page, testInfo, `demo${id}-ja`);
  }
});

// --- The broken options of the algorithm selector, on small runs --------------------------------

// Opens the page on a run given as scenario lines and waits for it to be drawn.
async function openRun(page, lines) {
  await page.goto(`/#s=${Buffer.from(`${lines.join('\n')}\n`).toString('base64url')}`);
  await settle(page);
}
const algorithm = (page) => page.getByLabel('Snapshot algorithm', { exact: true });
const scenarioLines = async (page) => (await page.locator('#scenario-pre').textContent()).trim().split('\n');

async function chooseCaught(page, lines, value, words) {
  await openRun(page, lines);
  const verdict = page.locator('#cl-headline .cl-verdict');
  // Chandy-Lamport gets this run right ...
  await expect(algorithm(page)).toHaveValue('chandy-lamport');
  await expect(verdict).toHaveAttribute('data-consistent', 'true');
  await expect(page.locator('#cl-headline .cl-total')).toContainText('= $200');
  // ... the broken rule, chosen from its group, replays it wrong, and the checker says where.
  await expect(algorithm(page).locator(`optgroup[label="Broken on purpose"] option[value="${value}"]`)).toHaveText(words.option);
  await algorithm(page).selectOption(value);
  await settle(page);
  expect(await scenarioLines(page)).toEqual([`${lines[0]} algorithm=${value}`, ...lines.slice(1)]);
  await expect(algorithm(page)).toHaveValue(value);
  await expect(verdict).toHaveAttribute('data-consistent', 'false');
  await expect(verdict).toContainText('✗ Inconsistent');
  await expect(verdict.locator('li')).toHaveText([words.en]);
  await expect(page.locator('#cl-headline .cl-total')).toContainText(words.total);
  await page.getByRole('button', { name: '日本語' }).click();
  await settle(page);
  // (the selector's label is Japanese now: found by its id)
  await expect(page.locator('#algorithm')).toHaveValue(value);
  await expect(page.locator(`#algorithm optgroup[label="わざと壊したもの"] option[value="${value}"]`)).toHaveText(words.optionJa);
  await expect(verdict).toContainText('✗ 非一貫');
  await expect(verdict.locator('li')).toHaveText([words.ja]);
}

test('broken on purpose from the selector: markers after the next transfer count the $30 twice', async ({ page }) => {
  // A records, then sends $30 to B; under Chandy-Lamport its marker goes first, here the $30 does.
  await chooseCaught(page, ['network A=100 B=100', 'snapshot A', 'transfer A B 30', 'deliver A B', 'deliver A B', 'deliver B A'],
    'broken-late-markers', {
      option: 'Broken: late markers',
      optionJa: '破れ：遅すぎるマーカー',
      total: 'A $100 + B $130 = $230',
      en: '$30 counted twice: B received it before recording, A sent it after recording (message #1, A→B).',
      ja: '$30 が二重に数えられました：B は記録する前に受け取り、A は記録した後に送りました（メッセージ #1、A→B）。',
    });
});

test('broken on purpose from the selector: recording stopped at the first message loses the $20', async ({ page }) => {
  // Two transfers in flight on B->A when A records: Chandy-Lamport records both in B->A's state.
  await chooseCaught(page, ['network A=100 B=100', 'transfer B A 40', 'transfer B A 20', 'snapshot A', 'deliver B A', 'deliver B A',
    'deliver A B', 'deliver B A'], 'broken-stop-at-first', {
    option: 'Broken: stops too early',
    optionJa: '破れ：記録が早く止まる',
    total: 'A $100 + B $40 + B→A $40 = $180',
    en: '$20 lost: B sent it before recording, but A neither received it before recording nor recorded it in the channel (message #2, B→A).',
    ja: '$20 が失われました：B は記録する前に送りましたが、A は記録する前に受け取っておらず、チャネルの状態にも記録していません（メッセージ #2、B→A）。',
  });
});
