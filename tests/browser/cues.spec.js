// Issue 13, points 4, 5, 7, 8: presentation mode, colour never the only cue (rendered under
// Chromium's colour-vision-deficiency emulation), the two dictionaries, and targets on a phone.
const { test, expect, settle, openPage, demos, playDemo } = require('./fixtures');

// --- Colour is never the only cue -------------------------------------------------------------

// The ink of a legend swatch as a black-and-white mask, from a screenshot taken under the
// emulation: two swatches whose masks are the same would differ by colour alone.
async function inkMask(page, locator) {
  const png = await locator.screenshot();
  return page.evaluate(async (b64) => {
    const img = new Image();
    img.src = `data:image/png;base64,${b64}`;
    await img.decode();
    const c = document.createElement('canvas');
    c.width = img.width;
    c.height = img.height;
    const g = c.getContext('2d');
    g.drawImage(img, 0, 0);
    const d = g.getImageData(0, 0, c.width, c.height).data;
    const mask = [];
    for (let i = 0; i < d.length; i += 4) mask.push((0.299 * d[i] + 0.587 * d[i + 1] + 0.114 * d[i + 2]) < 200 ? 1 : 0);
    return mask;
  }, png.toString('base64'));
}

function differ(a, b) {
  let n = 0;
  for (let i = 0; i < Math.min(a.length, b.length); i++) n += a[i] !== b[i] ? 1 : 0;
  return n;
}

for (const deficiency of ['deuteranopia', 'protanopia', 'achromatopsia']) {
  test(`under ${deficiency}: channel states, records, cuts and backward arrows differ by more than colour`, async ({ page, request }) => {
    const cdp = await page.context().newCDPSession(page);
    await cdp.send('Emulation.setEmulatedVisionDeficiency', { type: deficiency });
    await openPage(page);
    // Demo 3 stopped while one channel is closed, others being recorded, others not yet.
    const [d3] = (await demos(request)).filter((x) => x.id === 3);
    await page.locator('.demo-button[data-demo="3"]').click();
    await settle(page);
    // Step until the three states are all on screen at once (the test fails if they never are).
    const states = () => page.evaluate(() => new Set([...document.querySelectorAll('#network-svg .channel')].map((g) => g.dataset.state)).size);
    for (let k = 0; k < d3.steps.length && (await states()) < 3; k++) {
      await page.locator('#demo-next').click();
      await settle(page);
    }
    const lines = await page.evaluate(() => [...document.querySelectorAll('#network-svg .channel')].map((g) => {
      const cs = getComputedStyle(g.querySelector('.ch-line'));
      return { state: g.dataset.state, pattern: `${cs.strokeDasharray}|${parseFloat(cs.strokeWidth)}` };
    }));
    const byState = new Map(lines.map((l) => [l.state, l.pattern]));
    expect([...byState.keys()].sort()).toEqual(['closed', 'not recorded', 'recording']);
    expect(new Set(byState.values()).size, `line patterns ${JSON.stringify([...byState])}`).toBe(3);
    // Each state's line in the drawing carries its legend swatch's pattern.
    for (const [state, cls] of [['not recorded', 'not'], ['recording', 'rec'], ['closed', 'closed']]) {
      const sw = await page.evaluate((c) => {
        const cs = getComputedStyle(document.querySelector(`#network-legend [data-legend-state="${c}"] line`));
        return `${cs.strokeDasharray}|${parseFloat(cs.strokeWidth)}`;
      }, cls);
      expect(sw, `the legend's ${state} swatch`).toBe(byState.get(state));
    }
    // Rendered under the emulation, the three swatches still look different in black and white.
    const masks = [];
    for (const c of ['not', 'rec', 'closed']) masks.push(await inkMask(page, page.locator(`#network-legend [data-legend-state="${c}"] svg`)));
    for (const [i, j] of [[0, 1], [1, 2], [0, 2]]) expect(differ(masks[i], masks[j]), `swatches ${i} and ${j}`).toBeGreaterThan(8);
    // A recorded branch has a word; the snapshot table says each state in words.
    await expect(page.locator('#network-svg .branch.recorded .rec-tag').first()).toContainText('recorded');
    await expect(page.locator('#cl tr[data-state="recording"]').first()).toContainText('recording');
    await expect(page.locator('#cl tr[data-state="closed"]').first()).toContainText('closed');

    // Demo 2 ends with a naive cut crossed backwards: the arrow is dash-dotted and marked ✗.
    const [d2] = (await demos(request)).filter((x) => x.id === 2);
    await playDemo(page, d2);
    const back = page.locator('#st-svg .st-msg.backward');
    await expect(back).toHaveCount(1);
    await expect(back.locator('.st-cross-mark')).toHaveText('✗');
    const dash = await page.evaluate(() => [
      getComputedStyle(document.querySelector('#st-svg .st-msg.backward .msg-backward')).strokeDasharray,
      getComputedStyle(document.querySelector('#st-legend line.msg-transfer')).strokeDasharray,
    ]);
    expect(dash[0]).not.toBe(dash[1]);
    await expect(page.locator('#st-legend [data-legend="backward"]')).toContainText('✗');
    // The cuts: a band against a dashed line, each labelled with a word.
    const cuts = await page.evaluate(() => ['cut-snapshot', 'cut-naive'].map((c) => {
      const cs = getComputedStyle(document.querySelector(`#st-legend [data-legend="${c}"] line`));
      return `${cs.strokeDasharray}|${cs.strokeWidth}`;
    }));
    expect(cuts[0]).not.toBe(cuts[1]);
    await expect(page.locator('#st-svg [data-cut="cut-naive"]')).toContainText('inconsistent');
    await page.screenshot({ path: test.info().outputPath(`${deficiency}.png`) });
  });
}

// --- Presentation mode --------------------------------------------------------------------------

// Every text in both drawings, in CSS px on the screen (its font size times the drawing's scale).
async function drawingTextPx(page) {
  return page.evaluate(() => [...document.querySelectorAll('#network-svg text, #st-svg text')]
    .filter((el) => el.getBBox().width > 0)
    .map((el) => {
      const m = el.getScreenCTM();
      return { text: el.textContent, px: parseFloat(getComputedStyle(el).fontSize) * Math.hypot(m.a, m.b) };
    }));
}

// WCAG contrast of a computed colour against white.
function contrastOnWhite(rgb) {
  const [r, g, b] = rgb.match(/\d+(\.\d+)?/g).slice(0, 3).map(Number).map((v) => {
    const c = v / 255;
    return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
  });
  return 1.05 / (0.2126 * r + 0.7152 * g + 0.0722 * b + 0.05);
}

test('presentation mode at 1920x1080: large type, intro folded, projector palette, the stage holds', async ({ page, request }, testInfo) => {
  test.setTimeout(240_000);
  await page.setViewportSize({ width: 1920, height: 1080 });
  await page.goto('/?present=1');
  await settle(page);
  await expect(page.getByRole('button', { name: 'Presentation mode' })).toHaveAttribute('aria-pressed', 'true');
  await expect(page.locator('#intro-body')).toBeHidden();
  await expect(page.getByRole('button', { name: 'Show the introduction' })).toHaveAttribute('aria-expanded', 'false');
  // The lines of the three channel states stand out on white (3:1, WCAG 1.4.11), as the normal
  // palette's grey does not.
  const colours = await page.evaluate(() => ['not', 'rec', 'closed'].map((c) => getComputedStyle(document.querySelector(`#network-legend [data-legend-state="${c}"] line`)).stroke));
  for (const c of colours) expect(contrastOnWhite(c), `line colour ${c}`).toBeGreaterThanOrEqual(3);

  for (const d of await demos(request)) {
    await page.locator(`.demo-button[data-demo="${d.id}"]`).click();
    await settle(page);
    for (let k = 0; k < d.steps.length; k++) {
      await page.keyboard.press('PageDown');
      await settle(page);
      // The caption and the line above it (the demo and its step), and the tables' captions.
      const sizes = await page.evaluate(() => ['#demo-caption', '#demo-progress', 'caption']
        .flatMap((sel) => [...document.querySelectorAll(sel)]).filter((el) => el.getClientRects().length)
        .map((el) => [el.id || el.textContent.slice(0, 20), parseFloat(getComputedStyle(el).fontSize)]));
      expect(sizes.length).toBeGreaterThanOrEqual(3);
      expect(sizes.filter(([, px]) => px < 24), `captions under 24 px, demo ${d.id} step ${k + 1}`).toEqual([]);
      const small = (await drawingTextPx(page)).filter((x) => x.px < 20);
      expect(small, `text under 20 px in the drawings, demo ${d.id} step ${k + 1}`).toEqual([]);
      const problems = await page.evaluate(() => {
        const bar = document.getElementById('demo-stepbar').getBoundingClientRect();
        return ['network-svg', 'invariant', 'cl-headline', 'demo-next', 'demo-caption'].filter((id) => {
          const r = document.getElementById(id).getBoundingClientRect();
          const limit = id.startsWith('demo-') ? window.innerHeight : bar.top;
          return r.top < 0 || (id === 'cl-headline' ? r.top + 40 : r.bottom) > limit;
        });
      });
      expect(problems, `off the stage in presentation mode, demo ${d.id} step ${k + 1}`).toEqual([]);
    }
    if (d.id === 3) await page.screenshot({ path: testInfo.outputPath('present-demo3.png') });
  }
  // The switch turns it off again, and the address follows.
  await page.getByRole('button', { name: 'Presentation mode' }).click();
  await expect(page.locator('body')).not.toHaveClass(/present/);
  expect(new URL(page.url()).searchParams.get('present')).toBeNull();
  await expect(page.locator('#intro-body')).toBeVisible();
});

// --- Japanese -------------------------------------------------------------------------------

test('the English and Japanese dictionaries have the same keys and placeholders', async ({ page }) => {
  await openPage(page);
  const diff = await page.evaluate(async () => {
    const { DICT } = await import('/i18n.js');
    const holes = (s) => [...String(s).matchAll(/\{(\w+)\}/g)].map((m) => m[1]).sort().join(',');
    const out = [];
    for (const k of Object.keys(DICT.en)) if (!(k in DICT.ja)) out.push(`no Japanese for ${k}`);
    for (const k of Object.keys(DICT.ja)) if (!(k in DICT.en)) out.push(`no English for ${k}`);
    for (const k of Object.keys(DICT.en)) {
      if (k in DICT.ja && holes(DICT.en[k]) !== holes(DICT.ja[k])) out.push(`placeholders differ in ${k}`);
      if (k in DICT.ja && !String(DICT.ja[k]).trim()) out.push(`empty Japanese ${k}`);
    }
    return { out, n: Object.keys(DICT.en).length };
  });
  expect(diff.n).toBeGreaterThan(200);
  expect(diff.out).toEqual([]);
});

// Latin words that are names, not English: branch names, algorithm and tool names, units.
const NAMES = new Set(['cutline', 'Chandy', 'Lamport', 'Lai', 'Yang', 'FIFO', 'ShiViz', 'Mattern', 'Apache', 'Flink',
  'Home', 'Page', 'Up', 'Down', 'Tab', 'Enter', 'txt', 'log', 'ctl', 'e0', 'e1', 'n', 'id', 'at', 'API', 'MPI', 'cluster', 'store', 'FILE',
  // `cutline test` and its --out, named by the schedule player's note.
  'test', 'out',
  // The language's own words, quoted by the Japanese log's network line ("（app=jobs）").
  'app', 'jobs', 'locks']);

test('a Japanese page shows no untranslated English label', async ({ page, request }) => {
  test.setTimeout(120_000);
  await page.goto('/#lang=ja');
  await settle(page);
  await expect(page.locator('#demo-buttons .demo-button')).toHaveCount(18);
  const check = async (where) => {
    const words = await page.evaluate(() => {
      const seen = [];
      const visible = (el) => el && el.getClientRects().length > 0 && getComputedStyle(el).visibility !== 'hidden';
      const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
      for (let n = walker.nextNode(); n; n = walker.nextNode()) {
        const el = n.parentElement;
        if (!visible(el) || el.closest('code, pre, kbd, [lang="en"], #share-url, .log-list code')) continue;
        seen.push(n.textContent);
      }
      for (const el of document.querySelectorAll('[aria-label], [title]')) {
        if (el.closest('[lang="en"]')) continue;
        seen.push(el.getAttribute('aria-label') || '', el.getAttribute('title') || '');
      }
      return seen.join(' ').match(/[A-Za-z][A-Za-z'-]{1,}/g) || [];
    });
    const english = [...new Set(words)].filter((w) => !NAMES.has(w) && !/^[PAB]\d*$/.test(w) && !w.split('-').every((x) => NAMES.has(x)));
    expect(english, `English words on the Japanese page (${where})`).toEqual([]);
  };
  await check('at the start');
  for (const d of (await demos(request, 'ja')).filter((x) => [3, 6, 7, 8, 10, 12, 13, 14, 15, 16, 17, 18].includes(x.id))) {
    await playDemo(page, d, { demoName: new RegExp(`^デモ ${d.id}：`), nextName: '次の手順' });
    await check(`at the end of demo ${d.id}`);
  }
  await page.locator('#tr-amount').fill('-5');
  await page.locator('#tr-send').click();
  await check('after a refusal');
});

// --- Phones ---------------------------------------------------------------------------------

test('390 px: every target is at least 24x24 px, and the two directions of a channel are apart', async ({ page, request }, testInfo) => {
  await page.setViewportSize({ width: 390, height: 844 });
  await openPage(page);
  const problems = async (where) => page.evaluate((w) => {
    const out = [];
    const sel = 'button, a[href], input:not([type="hidden"]), select, summary, [role="button"], [tabindex="0"]';
    for (const el of document.querySelectorAll(sel)) {
      if (!el.getClientRects().length || el.closest('[hidden]')) continue;
      if (el.classList.contains('channel')) {
        // A channel is pressed on its band: the band's own size, in px, along and across.
        const hit = el.querySelector('.hit');
        const m = hit.getScreenCTM();
        const s = Math.hypot(m.a, m.b);
        const b = hit.getBBox();
        if (b.width * s < 24 || b.height * s < 24) out.push(`${w}: channel ${el.dataset.from}->${el.dataset.to} band ${Math.round(b.width * s)}x${Math.round(b.height * s)}`);
        continue;
      }
      const r = el.getBoundingClientRect();
      if (r.width < 24 || r.height < 24) out.push(`${w}: ${el.id || el.getAttribute('aria-label') || el.textContent.trim().slice(0, 30)} ${Math.round(r.width)}x${Math.round(r.height)}`);
    }
    // The two directions of each pair: a point in the middle of one's band is that channel's.
    for (const g of document.querySelectorAll('#network-svg .channel')) {
      const hit = g.querySelector('.hit');
      const b = hit.getBBox();
      const m = hit.getScreenCTM();
      for (const f of [0.35, 0.5, 0.65]) {
        const p = new DOMPoint(b.x + b.width * f, b.y + Math.min(b.height / 2, 10)).matrixTransform(m);
        const top = document.elementFromPoint(p.x, p.y);
        const owner = top && top.closest('.channel');
        if (owner && owner !== g) out.push(`${w}: ${g.dataset.from}->${g.dataset.to} is pressed as ${owner.dataset.from}->${owner.dataset.to}`);
      }
    }
    return out;
  }, where);
  expect(await problems('the bank')).toEqual([]);
  // Mid-demo, with messages waiting, and on channels that reorder (each message a button).
  for (const [id, steps] of [[3, 4], [6, 2], [9, 3], [13, 1], [15, 4]]) {
    await page.locator(`.demo-button[data-demo="${id}"]`).click();
    await settle(page);
    for (let k = 0; k < steps; k++) {
      await page.locator('#demo-next').click();
      await settle(page);
    }
    await page.evaluate(() => document.getElementById('network').scrollIntoView());
    expect(await problems(`demo ${id} step ${steps}`)).toEqual([]);
  }
  await page.screenshot({ path: testInfo.outputPath('phone-targets.png') });
  expect((await demos(request)).length).toBe(18);
});
