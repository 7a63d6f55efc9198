// The page of `cutline serve --store FILE`: the snapshots a real cluster run
// took, as the store holds them, refreshed whenever the run commits one (the
// server's `store` event), and any one of them in the simulator's snapshot
// panel. Everything shown comes from the server (docs/api.md).
import { html } from './svg.js';
import { t, money, setLang, lang, applyStatic } from './i18n.js';
import { renderSnapshot } from './panels.js';

const statusEl = document.getElementById('store-status');
const runsEl = document.getElementById('store-runs');
const listEl = document.getElementById('store-list');
const snapshotEl = document.getElementById('store-snapshot');
// The list shows the newest snapshots; a long run has thousands.
const SHOWN = 200;

let store = null;     // the last GET /api/store
let chosen = null;    // the snapshot id shown in the panel

async function getJson(url) {
  const res = await fetch(url);
  if (!res.ok) throw new Error(`HTTP ${res.status}`);
  return res.json();
}

function latency(s) {
  if (s.status !== 'complete') return '-';
  return `${((s.completed_us - s.started_us) / 1000).toFixed(2)} ms`;
}

function renderList() {
  runsEl.textContent = '';
  listEl.textContent = '';
  if (!store.snapshots.length) {
    html('p', { class: 'muted' }, listEl, t('storeEmpty'));
    return;
  }
  for (const r of store.runs) {
    html('p', { 'data-run': r.id }, runsEl, t('storeRun', {
      id: r.id, ranks: r.ranks, total: money(r.total),
      restored: r.restored_from ? t('storeRestored', { id: r.restored_from }) : '',
    }));
  }
  const newest = store.snapshots.slice(-SHOWN).reverse();
  const table = html('table', { class: 'store-table' }, listEl);
  const head = html('tr', {}, html('thead', {}, table));
  for (const k of ['storeColSnapshot', 'storeColRun', 'storeColStatus', 'storeColInitiator', 'storeColTotal', 'storeColLatency']) {
    html('th', { scope: 'col' }, head, t(k));
  }
  const body = html('tbody', {}, table);
  for (const s of newest) {
    const tr = html('tr', { 'data-snapshot': s.id, 'data-status': s.status }, body);
    const cell = html('th', { scope: 'row' }, tr);
    const button = html('button', { type: 'button', class: 'link-button', 'aria-pressed': String(s.id === chosen) },
      cell, `#${s.id}`);
    button.addEventListener('click', () => choose(s.id));
    html('td', {}, tr, String(s.run));
    html('td', { class: `status-${s.status}` }, tr, t(`storeStatus_${s.status}`));
    html('td', {}, tr, s.initiators.join(', '));
    html('td', {}, tr, s.total === null ? '-' : money(s.total));
    html('td', {}, tr, latency(s));
  }
  if (store.snapshots.length > SHOWN) {
    html('p', { class: 'muted' }, listEl, t('storeOnlyNewest', { n: SHOWN, all: store.snapshots.length }));
  }
}

// The simulator's snapshot panel, given what a run's state would hold.
async function renderChosen() {
  if (chosen === null) {
    snapshotEl.textContent = '';
    html('p', { class: 'muted' }, snapshotEl, t('storePick'));
    return;
  }
  const snap = await getJson(`api/store/snapshot?id=${chosen}`);
  const entry = store.snapshots.find((s) => s.id === chosen);
  const run = store.runs.find((r) => entry && r.id === entry.run);
  const ranks = run ? run.ranks : snap.recorded.length;
  const branches = Array.from({ length: ranks }, (_, i) => ({ name: `N${i}` }));
  renderSnapshot(snapshotEl, { branches, channels: snap.channels, total: run ? run.total : snap.total, snapshots: [snap] }, snap, null);
}

async function choose(id) {
  chosen = id;
  renderList();
  await renderChosen();
}

async function refresh() {
  store = await getJson('api/store');
  renderList();
  if (chosen !== null && store.snapshots.some((s) => s.id === chosen)) await renderChosen();
}

function applyLang(next) {
  setLang(next);
  applyStatic();
  document.title = t('storeDocTitle');
  for (const b of document.querySelectorAll('[data-lang]')) b.setAttribute('aria-pressed', String(b.dataset.lang === lang()));
  if (store) {
    renderList();
    renderChosen();
  }
}

async function main() {
  for (const b of document.querySelectorAll('[data-lang]')) b.addEventListener('click', () => applyLang(b.dataset.lang));
  applyLang(new URLSearchParams(location.search).get('lang') || 'en');
  const health = await getJson('api/health');
  if (!health.store) {
    statusEl.textContent = t('storeNone');
    return;
  }
  await refresh();
  await renderChosen();
  // Each commit to the store is announced; fetch the list again then.
  const events = new EventSource('api/events');
  events.addEventListener('ready', () => { statusEl.textContent = t('storeLive'); });
  events.addEventListener('store', () => { refresh(); });
  events.addEventListener('error', () => { statusEl.textContent = t('storeReconnecting'); });
}

main().catch((e) => { statusEl.textContent = `${t('storeFailed')} (${e.message})`; });
