// What the snapshot on display cost beside the least it could (the server's snapshot.cost,
// docs/api.md), and "Compare algorithms": the run's schedule under each algorithm the server
// says applies (POST /api/compare), as a small table. Nothing is counted here.
import { html } from './svg.js';
import { t, lang, money } from './i18n.js';
import { Refusal } from './api.js';
import { appOf, propertyText } from './appwords.js';
import { toText } from './scenario.js';
import { app } from './run.js';
import { showFailure } from './notice.js';

// The last comparison: kept while the run's scenario is the one it compared.
let compared = null; // {text, lang, result} or {text, lang, refusal}

const CONTROL = { marker: 'costControl_marker', barrier: 'costControl_barrier', control: 'costControl_control' };

// POST /api/compare (docs/api.md); rejects with Refusal when the server refuses the scenario.
async function compareAlgorithms(text, language) {
  const res = await fetch('api/compare', {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ scenario: text, lang: language }),
  });
  const body = await res.json().catch(() => null);
  if (res.ok && body) return body;
  if (body && body.message) throw new Refusal(body.message, body.error, body.line);
  throw new Error(`HTTP ${res.status}`);
}

function chainText(chain) {
  return t(chain.longest === 1 ? 'costChainOne' : 'costChain',
    { n: chain.longest, e: chain.eccentricity, l: chain.least });
}

// Jobs and locks record messages, not money: their count alone.
function recordedText(r, bank) {
  if (r.transfers === 0) return t('costRecordedNone');
  if (!bank) return t(r.transfers === 1 ? 'costRecordedMsgOne' : 'costRecordedMsgs', { n: r.transfers });
  return t(r.transfers === 1 ? 'costRecordedOne' : 'costRecorded', { n: r.transfers, a: money(r.amount) });
}

// The cost rows under the snapshot's tables; `markers` is what the run calls them (the state's
// "markers"). Held back and carried twice are shown for the algorithms that can do them.
export function renderCost(body, state, snap) {
  if (!snap || !snap.cost) return;
  const c = snap.cost;
  const algorithm = snap.algorithm || state.algorithm;
  const box = html('div', { class: 'cost', 'data-cost': '' }, body);
  html('p', { class: 'cost-heading' }, box, t('costHeading'));
  const list = html('ul', { class: 'cost-rows' }, box);
  const row = (key, text) => html('li', { 'data-cost-row': key }, list, text);
  if (algorithm !== 'stop-the-world') {
    row('control', t(CONTROL[state.markers] || CONTROL.marker, { s: c.control.sent, l: c.control.least }));
  }
  if (c.chain) row('chain', chainText(c.chain));
  row('recorded', recordedText(c.recorded, appOf(state) === 'bank'));
  if (algorithm === 'aligned') row('held', t('costHeld', { n: c.held_back }));
  if (algorithm === 'unaligned') row('twice', t('costTwice', { n: c.carried_twice }));

  const text = toText(app.commands);
  const button = html('button', { type: 'button', class: 'cost-compare', 'data-focus-key': 'compare-algorithms' },
    box, t('compareButton'));
  const out = html('div', { class: 'cost-table-wrap' }, box);
  if (compared && compared.text === text && compared.lang === lang()) {
    renderComparison(out, compared, snap.id);
  }
  button.addEventListener('click', async () => {
    button.disabled = true;
    const asked = { text, lang: lang() };
    try {
      asked.result = await compareAlgorithms(text, asked.lang);
    } catch (e) {
      if (!(e instanceof Refusal)) {
        button.disabled = false;
        showFailure(e);
        return;
      }
      asked.refusal = e.reason;
    }
    compared = asked;
    button.disabled = false;
    out.textContent = '';
    renderComparison(out, compared, snap.id);
  });
}

function algorithmName(name) {
  const key = `algoShort_${name}`;
  const s = t(key);
  return s === key ? name : s;
}

function renderComparison(out, { result, refusal }, id) {
  if (refusal) {
    html('p', { class: 'cost-refused', role: 'status' }, out, refusal);
    return;
  }
  // Scrolls sideways on a phone: a focusable region, so that the keyboard can scroll it too.
  const wrap = html('div', { class: 'cost-scroll', role: 'region', tabindex: '0', 'aria-labelledby': 'cost-caption' }, out);
  const tb = html('table', { class: 'cost-table' }, wrap);
  html('caption', { id: 'cost-caption' }, tb, t('compareCaption', { id }));
  const head = html('tr', {}, html('thead', {}, tb));
  const last = appOf(app.result && app.result.state) === 'bank' ? 'colSnapTotal' : 'colSnapVerdict';
  for (const k of ['colAlgorithm', 'colControl', 'colChain', 'colChanState', 'colHeld', 'colTwice', last]) {
    html('th', { scope: 'col' }, head, t(k));
  }
  const rows = html('tbody', {}, tb);
  for (const run of result.runs) {
    const tr = html('tr', { 'data-algorithm': run.algorithm }, rows);
    if (run.algorithm === result.algorithm) tr.classList.add('is-current');
    html('th', { scope: 'row' }, tr, algorithmName(run.algorithm));
    const s = run.applies ? run.snapshots.find((x) => x.id === id) : null;
    if (!s) {
      const why = run.applies ? t('compareNoSnapshot', { id }) : t('compareRefused', { why: run.refusal });
      html('td', { colspan: '6', class: 'muted' }, tr, why);
      continue;
    }
    const c = s.cost;
    html('td', { 'data-col': 'control' }, tr, `${c.control.sent} / ${c.control.least}`);
    html('td', { 'data-col': 'chain' }, tr, c.chain ? `${c.chain.longest} / ${c.chain.eccentricity}` : '—');
    html('td', { 'data-col': 'recorded' }, tr, s.property ? String(c.recorded.transfers) : `${c.recorded.transfers} (${money(c.recorded.amount)})`);
    html('td', { 'data-col': 'held' }, tr, String(c.held_back));
    html('td', { 'data-col': 'twice' }, tr, String(c.carried_twice));
    // Jobs and locks: the snapshot's verdict in place of its total.
    let total = !s.complete ? t('running') : s.property ? propertyText(s.property) : money(s.total);
    if (s.consistent === false) total += ` (${t('inconsistent')})`;
    html('td', { 'data-col': 'total' }, tr, total);
  }
}
