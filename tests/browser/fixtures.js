// Shared fixtures for the page's browser tests: every page a test opens is watched for console
// errors, uncaught exceptions and requests that leave the local server; the test fails on any.
const base = require('@playwright/test');
const { AxeBuilder } = require('@axe-core/playwright');
const { serverFixtures } = require('./servers');

const { expect } = base;

// Every test gets this worker's own servers (servers.js) and a watched page.
const test = base.test.extend(serverFixtures).extend({
  // watch(page): start collecting problems on a page (the default `page` is watched already).
  watch: async ({ baseURL }, use) => {
    const problems = [];
    const watch = (page) => {
      page.on('console', (m) => {
        if (m.type() === 'error') problems.push(`console error: ${m.text()}`);
      });
      page.on('pageerror', (e) => problems.push(`page error: ${e.message}`));
      page.on('request', (r) => {
        const url = r.url();
        if (!url.startsWith(baseURL) && !url.startsWith('data:') && !url.startsWith('blob:')) {
          problems.push(`external request: ${url}`);
        }
      });
      return page;
    };
    await use(watch);
    expect(problems, 'console errors, page errors or external requests').toEqual([]);
  },
  page: async ({ page, watch }, use) => {
    watch(page);
    await use(page);
  },
});

// Waits until the page has no request to the server in progress and has drawn a run. A named
// step, so that a test that times out here says what it was waiting for.
async function settle(page) {
  await test.step('wait until the page is idle (no request in flight) and has drawn a run', async () => {
    await page.waitForFunction(() => !document.body.dataset.busy && document.querySelector('#network-svg .branch'));
  }, { box: true });
}

// The demos the server lists: 1-5 (Chandy-Lamport), 6-10 (the variants), the lab run (11), 12-15
// (termination and deadlock), 16-18 (rules broken on purpose).
const DEMO_COUNT = 18;

// Opens the page (optionally with a hash) and waits for the first run and the demo list.
async function openPage(page, hash = '') {
  await test.step(`open the page at /${hash} and wait for its first run and the ${DEMO_COUNT} demos`, async () => {
    await page.goto(`/${hash}`);
    await settle(page);
    await expect(page.locator('#demo-buttons .demo-button')).toHaveCount(DEMO_COUNT);
  }, { box: true });
}

function region(page, name) {
  return page.getByRole('region', { name, exact: true });
}

// Every demo the server lists (the page shows them all).
async function demos(request, lang = 'en') {
  const res = await request.get(`/api/demos?lang=${lang}`);
  expect(res.ok()).toBeTruthy();
  return (await res.json()).demos;
}

// Clicks a demo, then Next step until the script ends, checking each step's caption;
// atStep(k), if given, runs after step k (1 = the first) to check that step's state.
async function playDemo(page, demo, { demoName, nextName = 'Next step', atStep } = {}) {
  const name = demoName || (demo.preset === 'lab' ? /^Lab demo:/ : new RegExp(`^Demo ${demo.id}:`));
  await test.step(`start demo ${demo.id}`, async () => {
    await page.getByRole('button', { name }).click();
    await settle(page);
  });
  const next = page.getByRole('button', { name: nextName, exact: true });
  for (const [i, step] of demo.steps.entries()) {
    await test.step(`demo ${demo.id}, step ${i + 1} of ${demo.steps.length}: "${step.caption.slice(0, 60)}"`, async () => {
      await expect(next, `${nextName} is enabled`).toHaveAttribute('aria-disabled', 'false');
      await next.click();
      await settle(page);
      await expect(page.locator('#demo-caption')).toContainText(step.caption);
      if (atStep) await atStep(i + 1);
    });
  }
  await expect(next, `${nextName} is disabled at the end of demo ${demo.id}`).toHaveAttribute('aria-disabled', 'true');
}

async function snap(page, testInfo, name) {
  await page.screenshot({ path: testInfo.outputPath(`${name}.png`), fullPage: true });
}

// Fills the Transfer form and presses Send, as a visitor would.
async function send(page, from, to, amount) {
  await test.step(`send $${amount} from ${from} to ${to}`, async () => {
    await page.getByLabel('From', { exact: true }).selectOption(from);
    await page.getByLabel('To', { exact: true }).selectOption(to);
    await page.getByLabel('Amount ($)', { exact: true }).fill(String(amount));
    await page.getByRole('button', { name: 'Send transfer' }).click();
    await settle(page);
  }, { box: true });
}

// One demo of /api/demos by id, checked to be there.
async function demo(request, id, lang = 'en') {
  const [d] = (await demos(request, lang)).filter((x) => x.id === id);
  expect(d, `demo ${id} is in /api/demos`).toBeTruthy();
  return d;
}

// The snapshot panel's row of a channel, and the recorded-balance cell of a branch.
const channelRow = (panel, from, to) => panel.locator(`tr[data-channel="${from}->${to}"]`);
const recordedCell = (panel, name) => panel.locator(`.cl-branches tr[data-branch="${name}"] td`).first();

// ---- The accessibility audit (axe-core), the same wherever a spec asks for it.
const TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice'];
// axe leaves out the rules it calls experimental even when their tags are asked for. These carry
// one of the tags above, and label-content-name-mismatch is WCAG 2.5.3 (label in name), which the
// page failed on its demo buttons: switch them on. (hidden-content only ever asks for a review.)
const EXPERIMENTAL = ['label-content-name-mismatch', 'css-orientation-lock', 'focus-order-semantics',
  'p-as-heading', 'table-fake-caption', 'td-has-header'];

// One line per violation and element, so that a failing run says what to fix and where.
function describe(violations) {
  return violations.flatMap((v) => v.nodes.map((n) => `${v.id} (${v.impact}) at ${n.target.join(' ')}: ${v.help}`));
}

async function audit(page) {
  const rules = Object.fromEntries(EXPERIMENTAL.map((id) => [id, { enabled: true }]));
  // options() replaces every option, so it goes before withTags().
  const results = await new AxeBuilder({ page }).options({ rules }).withTags(TAGS).analyze();
  // Guard against an audit that looked at nothing (e.g. run before the page was drawn): the
  // page's own regions must be among what axe checked and passed.
  expect(results.passes.length, 'axe checked no rule at all').toBeGreaterThan(10);
  return describe(results.violations);
}

// How far the middle of a cut's handle stands right of an element's right edge (negative: left
// of it). Polled, because the space-time diagram is drawn again when a cut opens or a step lands,
// and an element measured in between has no box.
async function expectRightOf(handle, element) {
  await expect.poll(async () => {
    const [h, e] = [await handle.boundingBox(), await element.boundingBox()];
    return h && e ? h.x + h.width / 2 - (e.x + e.width) : Number.NaN;
  }, { message: 'the handle stands right of the element' }).toBeGreaterThan(0);
}

module.exports = {
  expectRightOf, audit, test, expect, settle, openPage, region, demos, demo, playDemo, snap, send, channelRow, recordedCell,
};
