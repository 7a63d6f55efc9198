// The page of `cutline serve --store FILE`, for whoever runs the cluster:
// each run's figures (live or over, transfers/s, snapshots complete and
// failed, latency), and every snapshot, which opens below its own row with
// its critical path (when each branch recorded, when each channel's marker
// arrived, which one came last) and what it recorded, in the simulator's
// snapshot panel. It follows the store: the server's `store` event says a
// run committed, and the page asks again. Everything shown is computed by
// the server from what the store holds (docs/api.md, docs/store.md).
//
// A dataflow run (cluster --app dataflow) keeps records, not money: its
// heading names its topology and barriers, each snapshot's row says what it
// cost (aligning, records held back, records kept in flight, channels
// switched to unaligned by the alignment timeout), and an opened one lists
// its channels in the server's order, the slowest first, each aligned or
// not, and its vertices' counts. A failed snapshot says why, and which
// ranks' parts never came.
import { html } from './svg.js';
import { t, money, setLang, lang, applyStatic } from './i18n.js';
import { renderSnapshot } from './panels.js';
import { propertyText } from './appwords.js';

const statusEl = document.getElementById('store-status');
const runsEl = document.getElementById('store-runs');
const listEl = document.getElementById('store-list');
// The list shows the newest snapshots; a long run has thousands.
const SHOWN = 200;

let store = null;     // the last GET /api/store
let chosen = null;    // { id, snap }: the open snapshot, as GET /api/store/snapshot gave it
let connection = 'ok';  // 'ok' | 'lost' (the event stream's state)
let failure = '';     // why the latest refresh failed; '' once one succeeds

// A request the server never answers gives up after 30 s: refreshes run one at a time, and one
// stuck for good would hold back every later one.
async function getJson(url) {
  const res = await fetch(url, { signal: AbortSignal.timeout(30_000) });
  if (!res.ok) throw new Error(`HTTP ${res.status}`);
  return res.json();
}

const ms = (us) => t('storeMs', { v: (us / 1000).toFixed(2) });
const utc = (us) => `${new Date(us / 1000).toISOString().replace('T', ' ').slice(0, 19)} UTC`;

function latency(s) {
  return s.status === 'complete' ? ms(s.completed_us - s.started_us) : '-';
}

// --- dataflow runs: words for their barriers and costs ----------------------------------

const runOf = (id) => store.runs.find((r) => r.id === id);
const isDataflow = (run) => Boolean(run && run.app === 'dataflow' && run.dataflow);
// A duration in ms without trailing zeros, for settings ("1 ms", "0.5 ms").
const msShort = (us) => t('storeMs', { v: String(Number((us / 1000).toFixed(2))) });

// The run's barriers: aligned, unaligned, or aligned until the alignment timeout.
function modeText(df) {
  if (df.algorithm === 'unaligned') return t('storeMode_unaligned');
  if (df.alignment_timeout_us !== null && df.alignment_timeout_us !== undefined) {
    return t('storeMode_alignedTimeout', { t: msShort(df.alignment_timeout_us) });
  }
  return t('storeMode_aligned');
}

// A snapshot's cost in a few words, for its row: "aligned, 44.63 ms aligning, 15 held back";
// "4 of 6 channels unaligned, 16 kept in flight"; "switched by the timeout: ...".
function costText(cost) {
  if (cost.unaligned === 0) {
    return t('storeCostAligned', { align: ms(cost.alignment_us), held: cost.held_back });
  }
  let text = t('storeCostUnaligned', { u: cost.unaligned, n: cost.channels, kept: cost.persisted });
  if (cost.held_back > 0) text += t('storeCostHeldToo', { held: cost.held_back });
  return cost.switched ? t('storeCostSwitched', { what: text }) : text;
}

// Why a snapshot failed, and whose parts never came (the root cause): "timed out: no part
// from N2, N4". '' when the store does not say (a store older than schema 3).
function failureText(s) {
  if (!s.failure) return '';
  const key = `storeFailure_${s.failure}`;
  const why = t(key) === key ? s.failure : t(key);
  return s.missing && s.missing.length ? t('storeNoPart', { why, ranks: s.missing.join(', ') }) : why;
}

// --- the status line: the newest run, in words ---------------------------------

function renderStatus() {
  if (connection === 'lost') {
    statusEl.textContent = t('storeReconnecting');
    statusEl.dataset.state = 'lost';
    return;
  }
  if (failure) {
    statusEl.textContent = `${t('storeFailed')} (${failure})`;
    statusEl.dataset.state = 'failed';
    return;
  }
  // Nothing read yet: the page's first words stay until the first list arrives.
  if (store === null) return;
  const last = store.summaries.length ? store.summaries[store.summaries.length - 1] : null;
  if (!last) {
    statusEl.textContent = t('storeWaiting');
    statusEl.dataset.state = 'waiting';
    return;
  }
  const at = last.ended_us ?? last.updated_us;
  statusEl.textContent = t(`storeStatusLine_${last.state}`, {
    id: last.run,
    time: at ? utc(at) : '-',
    s: last.updated_us ? Math.round((store.now_us - last.updated_us) / 1e6) : '-',
  });
  statusEl.dataset.state = last.state;
}

// --- runs: one card each, newest first ----------------------------------------------

function renderRuns() {
  runsEl.textContent = '';
  if (!store.runs.length) {
    html('p', { class: 'muted' }, runsEl, t('storeNoRuns'));
    return;
  }
  const bySummary = new Map(store.summaries.map((s) => [s.run, s]));
  for (const r of [...store.runs].reverse()) {
    const sum = bySummary.get(r.id);
    const card = html('article', { class: 'run-card', 'data-run': r.id, 'data-state': sum.state,
      'aria-labelledby': `run-${r.id}-title` }, runsEl);
    // Jobs and locks keep no money: the run says which application ran instead of a total.
    // A dataflow: its topology and its barriers.
    const app = r.app || 'bank';
    const dataflow = isDataflow(r);
    const head = html('h3', { id: `run-${r.id}-title` }, card, app === 'bank' ? t('storeRun', {
      id: r.id, ranks: r.ranks, total: money(r.total),
      restored: r.restored_from ? t('storeRestored', { id: r.restored_from }) : '',
    }) : dataflow ? t('storeRunDataflow', {
      id: r.id, topology: r.dataflow.topology, mode: modeText(r.dataflow),
      restored: r.restored_from ? t('storeRestored', { id: r.restored_from }) : '',
    }) : t('storeRunApp', { id: r.id, ranks: r.ranks, app: t(`storeApp_${app}`) }));
    head.append(' ');
    // The state is a word on a badge, never only its colour.
    html('span', { class: `run-state run-state-${sum.state}` }, head, t(`storeState_${sum.state}`));
    const dl = html('dl', { class: 'run-figures' }, card);
    const unknown = t('storeNotRecorded');
    const figure = (key, value, name) => {
      const item = html('div', { 'data-figure': name }, dl);
      html('dt', {}, item, t(key));
      html('dd', {}, item, value);
    };
    // A dataflow's sources emit records, not transfers.
    figure(dataflow ? 'storeSumRecordRate' : 'storeSumRate', sum.transfers_per_s === null ? unknown : Math.round(sum.transfers_per_s).toLocaleString('en-US'), 'rate');
    figure(dataflow ? 'storeSumRecords' : 'storeSumTransfers', sum.transfers === null ? unknown : sum.transfers.toLocaleString('en-US'), 'transfers');
    figure('storeSumDuration', sum.duration_us === null ? unknown : t('storeSeconds', { v: (sum.duration_us / 1e6).toFixed(1) }), 'duration');
    figure('storeSumComplete', String(sum.complete), 'complete');
    figure('storeSumFailed', String(sum.failed), 'failed');
    figure('storeSumRunning', String(sum.running), 'running');
    const none = t('storeNothing');
    figure('storeSumP50', sum.latency_p50_us === null ? none : ms(sum.latency_p50_us), 'p50');
    figure('storeSumP99', sum.latency_p99_us === null ? none : ms(sum.latency_p99_us), 'p99');
    figure('storeSumMax', sum.latency_max_us === null ? none : ms(sum.latency_max_us), 'max');
  }
}

// --- snapshots: a table; the open one below its row ------------------------------------

const COLUMNS = ['storeColSnapshot', 'storeColRun', 'storeColStatus', 'storeColInitiator', 'storeColTotal', 'storeColLatency'];
// A store with a dataflow run has one more column: what each snapshot cost.
const COST_COLUMN = 'storeColCost';

// The total's cell: dollars, a jobs or locks verdict, or the records a dataflow's sources had
// emitted by the cut.
function totalText(s, run) {
  if (s.property) return propertyText(s.property);
  if (s.total === null) return '-';
  return isDataflow(run) ? t('storeRecords', { n: s.total }) : money(s.total);
}

function renderList() {
  listEl.textContent = '';
  if (!store.snapshots.length) {
    html('p', { class: 'muted' }, listEl, t('storeEmpty'));
    return;
  }
  const newest = store.snapshots.slice(-SHOWN).reverse();
  const columns = store.runs.some(isDataflow) ? [...COLUMNS, COST_COLUMN] : COLUMNS;
  const table = html('table', { class: 'store-table' }, listEl);
  const head = html('tr', {}, html('thead', {}, table));
  for (const k of columns) html('th', { scope: 'col' }, head, t(k));
  const body = html('tbody', {}, table);
  for (const s of newest) {
    const open = chosen !== null && chosen.id === s.id;
    const tr = html('tr', { 'data-snapshot': s.id, 'data-status': s.status }, body);
    // At phone widths the rows stack, and each cell says what it is (data-label).
    const cell = html('th', { scope: 'row', 'data-label': t(COLUMNS[0]) }, tr);
    const button = html('button', {
      type: 'button', class: 'link-button', 'aria-expanded': String(open),
      'aria-controls': open ? 'store-detail' : null,
    }, cell, `#${s.id}`);
    button.addEventListener('click', () => (open ? close(true) : choose(s.id)));
    const run = runOf(s.run);
    const values = [String(s.run), t(`storeStatus_${s.status}`), s.initiators.join(', '),
      // A jobs or locks snapshot: its verdict in the total's column.
      totalText(s, run), latency(s)];
    if (columns.length > COLUMNS.length) values.push(s.cost && s.status === 'complete' ? costText(s.cost) : '-');
    values.forEach((v, i) => {
      const td = html('td', {
        'data-label': t(columns[i + 1]), 'data-col': columns[i + 1].slice('storeCol'.length).toLowerCase(),
        class: i === 1 ? `status-${s.status}` : i === 3 && isDataflow(run) ? 'records' : null,
      }, tr, v);
      // A failed snapshot: why, under its status.
      const why = i === 1 && s.status === 'failed' ? failureText(s) : '';
      if (why) {
        td.append(' ');
        html('span', { class: 'status-why' }, td, why);
      }
    });
    if (open) renderDetail(html('td', { colspan: columns.length }, html('tr', { class: 'store-detail-row' }, body)));
  }
  if (store.snapshots.length > SHOWN) {
    html('p', { class: 'muted' }, listEl, t('storeOnlyNewest', { n: SHOWN, all: store.snapshots.length }));
  }
}

// The critical path: every moment, in time order, each with a bar as long as
// its share of the time to collection; the last marker says so in words.
function renderPath(section, snap) {
  html('h4', {}, section, t('storePathHeading'));
  const path = snap.critical_path;
  if (!path) {
    html('p', { class: 'muted' }, section, t('storePathNone', { status: t(`storeStatus_${snap.complete ? 'complete' : 'failed'}`) }));
    return;
  }
  if (!path.markers.length) {
    html('p', { class: 'muted', 'data-path': 'unknown' }, section, t('storePathUnknown'));
    return;
  }
  html('p', {}, section, t('storePathIntro'));
  if (path.last) {
    html('p', { class: 'path-summary' }, section, t('storePathLast', {
      from: path.last.from, to: path.last.to, at: ms(path.last.at_us), collected: ms(path.collected_us),
    }));
  }
  const moments = [
    ...path.recorded.map((r) => ({ at: r.at_us, what: t('storePathRecorded', { b: r.name }), kind: 'record' })),
    ...path.markers.map((m) => ({
      at: m.at_us, what: t('storePathMarker', { from: m.from, to: m.to }), kind: 'marker',
      last: path.last && m.from === path.last.from && m.to === path.last.to, channel: `${m.from}->${m.to}`,
    })),
    { at: path.collected_us, what: t('storePathCollected'), kind: 'collected' },
  ].sort((a, b) => a.at - b.at);
  const table = html('table', { class: 'path-table' }, section);
  const head = html('tr', {}, html('thead', {}, table));
  html('th', { scope: 'col' }, head, t('storePathWhen'));
  html('th', { scope: 'col' }, head, t('storePathWhat'));
  const body = html('tbody', {}, table);
  const span = Math.max(path.collected_us, 1);
  for (const m of moments) {
    const tr = html('tr', { 'data-kind': m.kind, 'data-channel': m.channel || null, class: m.last ? 'path-last' : null }, body);
    html('td', { class: 'path-when' }, tr, ms(m.at));
    const what = html('td', {}, tr);
    const bar = html('span', { class: 'path-bar', 'aria-hidden': 'true' }, what);
    html('span', { class: 'path-fill' }, bar).style.setProperty('--share', `${Math.max(0, Math.min(1, m.at / span)) * 100}%`);
    html('span', {}, what, m.what);
    if (m.last) html('strong', { class: 'path-last-mark' }, what, ` — ${t('storePathLastMark')}`);
  }
}

// One table in a box of its own that scrolls sideways when the table is wider than the
// screen (the page never does); the box takes focus, so a keyboard can scroll it too.
function scrollingTable(section, headingId, cls) {
  const box = html('div', { class: 'table-box', role: 'region', tabindex: '0', 'aria-labelledby': headingId }, section);
  return html('table', { class: cls }, box);
}

// A dataflow's snapshot: what it cost, its channels (in the server's order: the slowest
// first, which the page never re-sorts), each aligned or not, and its vertices' counts.
function renderDataflow(section, snap) {
  if (!snap.complete) {
    const entry = store.snapshots.find((s) => s.id === snap.id);
    const p = html('p', { class: 'df-failed' }, section, t('storeDfNoParts', { status: t(`storeStatus_${entry ? entry.status : 'failed'}`) }));
    // The root cause, where the store knows it: the ranks whose parts never came.
    const why = failureText(snap);
    if (why) p.append(t('storeDfWhy', { why }));
    return;
  }
  const cost = snap.cost;
  const p = html('p', { class: 'df-summary' }, section);
  // A sentence that follows another brings its own space (English) or none (Japanese).
  html('span', { class: 'df-mode' }, p, t('storeDfMode', { mode: modeText(snap.dataflow) }));
  if (cost) {
    p.append(t('storeDfSummary', {
      u: cost.unaligned, n: cost.channels, align: ms(cost.alignment_us), held: cost.held_back, kept: cost.persisted,
      switched: cost.switched ? t('storeDfSwitched') : '',
    }));
  }
  p.append(t('storeDfTotal', { n: snap.total }));

  html('h4', { id: 'h-df-channels' }, section, t('storeDfChannelsHeading'));
  html('p', { class: 'muted' }, section, t('storeDfChannelsIntro'));
  const table = scrollingTable(section, 'h-df-channels', 'df-table df-channels');
  const head = html('tr', {}, html('thead', {}, table));
  ['storeDfColChannel', 'storeDfColBarrier', 'storeDfColWaited', 'storeDfColHeld', 'storeDfColKept'].forEach((k, i) => {
    html('th', { scope: 'col', class: i > 1 ? 'num' : null }, head, t(k));
  });
  const body = html('tbody', {}, table);
  for (const c of snap.channels) {
    const known = c.aligned !== undefined;
    const barrier = !known ? 'unknown' : c.aligned ? 'aligned' : c.switched ? 'switched' : 'unaligned';
    const tr = html('tr', { 'data-channel': `${c.from}->${c.to}`, 'data-barrier': barrier }, body);
    html('th', { scope: 'row' }, tr, `${c.from} → ${c.to}`);
    // In words, with a mark whose shape differs too: never the colour alone.
    const cell = html('td', {}, tr);
    html('span', { class: `df-barrier df-barrier-${barrier}` }, cell, t(`storeDfBarrier_${barrier}`));
    // At phone widths the rows stack, and each number says what it is (data-label).
    html('td', { class: 'num', 'data-label': t('storeDfColWaited') }, tr, known ? ms(c.waited_us) : '-');
    html('td', { class: 'num', 'data-label': t('storeDfColHeld') }, tr, known ? String(c.held_back) : '-');
    html('td', { class: 'num', 'data-label': t('storeDfColKept') }, tr, known ? String(c.persisted) : String(c.records.length));
  }

  html('h4', { id: 'h-df-vertices' }, section, t('storeDfVerticesHeading'));
  const vt = scrollingTable(section, 'h-df-vertices', 'df-table df-vertices');
  const vhead = html('tr', {}, html('thead', {}, vt));
  ['storeDfColVertex', 'storeDfColRole', 'storeDfColReceived', 'storeDfColEmitted', 'storeDfColAligning'].forEach((k, i) => {
    html('th', { scope: 'col', class: i > 1 ? 'num' : null }, vhead, t(k));
  });
  const vbody = html('tbody', {}, vt);
  for (const v of snap.recorded) {
    const tr = html('tr', { 'data-vertex': v.name, 'data-role': v.role }, vbody);
    html('th', { scope: 'row' }, tr, v.name);
    const roleKey = `storeRole_${v.role}`;
    html('td', {}, tr, t(roleKey) === roleKey ? v.role : t(roleKey));
    html('td', { class: 'num', 'data-label': t('storeDfColReceived') }, tr, String(v.received));
    html('td', { class: 'num', 'data-label': t('storeDfColEmitted') }, tr, String(v.emitted));
    // A source has no inputs to align.
    html('td', { class: 'num', 'data-label': t('storeDfColAligning') }, tr, v.role === 'source' ? '-' : ms(v.alignment_us));
  }
}

function renderDetail(cell) {
  const { id, snap } = chosen;
  const section = html('section', { id: 'store-detail', class: 'store-detail', tabindex: '-1', 'aria-labelledby': 'h-store-detail' }, cell);
  const bar = html('div', { class: 'detail-head' }, section);
  html('h3', { id: 'h-store-detail' }, bar, t('storeDetailHeading', { id }));
  html('button', { type: 'button', class: 'detail-close' }, bar, t('storeClose')).addEventListener('click', () => close(true));
  // A dataflow's channels and vertices take the place of the critical path and the bank's
  // panel: the store keeps no marker times for it.
  if (snap.dataflow) {
    renderDataflow(section, snap);
    return;
  }
  renderPath(section, snap);
  html('h4', {}, section, t('storeRecordedHeading'));
  const panel = html('div', { class: 'store-snapshot' }, section);
  const entry = store.snapshots.find((s) => s.id === id);
  const run = store.runs.find((r) => entry && r.id === entry.run);
  const ranks = run ? run.ranks : snap.recorded.length;
  const branches = Array.from({ length: ranks }, (_, i) => ({ name: `N${i}` }));
  renderSnapshot(panel, {
    branches, channels: snap.channels, total: run ? run.total : snap.total, snapshots: [snap],
    app: run ? run.app : undefined, property: snap.property,
  }, snap, null);
}

// Focus moves into the open snapshot, and its row comes to the top of the
// screen with the snapshot right below it.
function focusDetail(scroll = true) {
  const detail = document.getElementById('store-detail');
  if (!detail) return;
  detail.focus({ preventScroll: true });
  if (scroll) detail.closest('tr').previousElementSibling.scrollIntoView({ block: 'start' });
}

async function choose(id) {
  const snap = await getJson(`api/store/snapshot?id=${id}`);
  chosen = { id, snap };
  renderList();
  focusDetail();
}

function close(returnFocus) {
  const id = chosen && chosen.id;
  chosen = null;
  renderList();
  if (returnFocus && id !== null) {
    const button = listEl.querySelector(`tr[data-snapshot="${id}"] button`);
    if (button) button.focus();
  }
}

// Re-drawing replaces the list's elements: whatever had focus in it gets it
// back, so that a commit never throws the reader's place away.
function redraw() {
  const active = document.activeElement;
  const inDetail = active && active.closest && active.closest('#store-detail');
  const row = active && active.closest && active.closest('tr[data-snapshot]');
  renderStatus();
  renderRuns();
  renderList();
  if (inDetail) {
    focusDetail(false);
  } else if (row) {
    const again = listEl.querySelector(`tr[data-snapshot="${row.dataset.snapshot}"] button`);
    if (again) again.focus({ preventScroll: true });
  }
}

// Refreshes are asked for by each commit's event and by the heartbeat timer,
// and a running store commits about every 200 ms: faster than a loaded server
// may answer. So one refresh runs at a time, and asks that come while it
// waits make one more run after it. (Dropping an answer that a newer request
// outran starved the page: nothing was drawn until the run stopped writing.)
// A refresh that finds the reader opened or closed a snapshot while it waited
// keeps the reader's choice instead of bringing back its own.
async function refreshOnce() {
  const wanted = chosen;
  const fresh = await getJson('api/store');
  let next = null;
  if (wanted !== null && fresh.snapshots.some((s) => s.id === wanted.id)) {
    next = { id: wanted.id, snap: await getJson(`api/store/snapshot?id=${wanted.id}`) };
  }
  store = fresh;
  failure = '';
  if (chosen === wanted) chosen = next;
  redraw();
}

let refreshing = null;
let askedAgain = false;
// How many refreshes have finished drawing (or failed), on the body as
// data-refreshes: what a test waits on to know a refresh is over.
let refreshes = 0;
function refresh() {
  if (refreshing) {
    askedAgain = true;
    return refreshing;
  }
  refreshing = (async () => {
    do {
      askedAgain = false;
      try {
        await refreshOnce();
      } catch (e) {
        // Said on the status line, over what the page last drew; the next commit's event or
        // the timer asks again.
        failure = e.message || String(e);
        renderStatus();
      }
      document.body.dataset.refreshes = String(++refreshes);
    } while (askedAgain);
  })().finally(() => { refreshing = null; });
  return refreshing;
}

function applyLang(next) {
  setLang(next);
  applyStatic();
  document.title = t('storeDocTitle');
  for (const b of document.querySelectorAll('[data-lang]')) b.setAttribute('aria-pressed', String(b.dataset.lang === lang()));
  if (store) redraw();
}

async function main() {
  for (const b of document.querySelectorAll('[data-lang]')) b.addEventListener('click', () => applyLang(b.dataset.lang));
  applyLang(new URLSearchParams(location.search).get('lang') || 'en');
  const health = await getJson('api/health');
  if (!health.store) {
    statusEl.textContent = t('storeNone');
    statusEl.dataset.state = 'none';
    runsEl.textContent = '';
    return;
  }
  // Each commit to the store is announced; fetch the list again then.
  const events = new EventSource('api/events');
  events.addEventListener('ready', () => {
    const was = connection;
    connection = 'ok';
    if (was === 'lost') refresh(); else renderStatus();
  });
  events.addEventListener('store', () => { refresh(); });
  events.addEventListener('error', () => { connection = 'lost'; renderStatus(); });
  // A live run's heartbeat stopping changes nothing in the file: ask now and then.
  setInterval(() => { if (connection === 'ok') refresh(); }, 5000);
  // Set up first, so that a first load that fails is asked again like any other.
  await refresh();
}

main().catch((e) => { statusEl.textContent = `${t('storeFailed')} (${e.message})`; });
