// Drawing the run: the panels, the branch table and its buttons, the demo controls, the scenario.
import { t, lang } from './i18n.js';
import { toText } from './scenario.js';
import { renderNetwork, renderNetworkLegend } from './network.js';
import { renderSpacetime, renderSpacetimeLegend } from './spacetime.js';
import { renderSnapshot, renderSnapshotHeading, renderNaive, renderLog } from './panels.js';
import { html, byId as $ } from './svg.js';
import { app } from './run.js';
import { act, deliverOn, startSnapshot, finishJob } from './actions.js';
import { appOf, stateText } from './appwords.js';
import { demoById, startDemo, canGoBack } from './demos.js';
import { renderExplore } from './explore.js';

export function displayedSnapshot(state) {
  if (!state.snapshots || !state.snapshots.length) return null;
  if (state.running !== null && state.running !== undefined) {
    const s = state.snapshots.find((x) => x.id === state.running);
    if (s) return s;
  }
  return state.snapshots[state.snapshots.length - 1];
}

// What the controls say and offer under each application: the column of a branch's state, the
// read button, and the form that sends the application's messages.
const APP_CONTROLS = {
  bank: { col: 'colBalance', read: 'readBalance', readAria: 'readBalanceAria', legend: 'transferLegend' },
  jobs: { col: 'colJobs', read: 'readState', readAria: 'readStateAria', legend: 'jobsLegend' },
  locks: { col: 'colWaits', read: 'readState', readAria: 'readStateAria', legend: 'locksLegend' },
};

function renderAppForm(application) {
  const c = APP_CONTROLS[application] || APP_CONTROLS.bank;
  for (const el of $('transfer-form').querySelectorAll('[data-app]')) el.hidden = el.dataset.app !== application;
  for (const [id, key] of [['tr-legend', c.legend], ['col-state', c.col]]) {
    $(id).dataset.i18n = key;
    $(id).textContent = t(key);
  }
}

export function renderBranchControls(state) {
  const names = state.branches.map((b) => b.name);
  const application = appOf(state);
  const c = APP_CONTROLS[application] || APP_CONTROLS.bank;
  const key = `${lang()}|${application}|${names.join(',')}`;
  const rows = $('branch-rows');
  if (key !== app.branchKey) {
    app.branchKey = key;
    renderAppForm(application);
    rows.textContent = '';
    for (const name of names) {
      const tr = html('tr', { 'data-branch': name }, rows);
      html('th', { scope: 'row' }, tr, name);
      html('td', { class: 'bal' }, tr);
      const td = html('td', { class: 'actions' }, tr);
      const read = html('button', { type: 'button', 'aria-label': t(c.readAria, { b: name }), 'data-focus-key': `read-${name}` }, td, t(c.read));
      read.addEventListener('click', () => act(() => `read ${name}`));
      const snap = html('button', { type: 'button', 'aria-label': t('startSnapshotAria', { b: name }), 'data-focus-key': `snap-${name}` }, td, t('startSnapshot'));
      snap.addEventListener('click', () => startSnapshot(name));
      if (application === 'jobs') {
        const finish = html('button', { type: 'button', 'aria-label': t('finishJobAria', { b: name }), 'data-focus-key': `finish-${name}` }, td, t('finishJob'));
        finish.addEventListener('click', () => finishJob(name));
      }
    }
    for (const id of ['tr-from', 'tr-to']) {
      const sel = $(id);
      const keep = sel.value;
      sel.textContent = '';
      for (const n of names) html('option', { value: n }, sel, n);
      if (names.includes(keep)) sel.value = keep;
    }
    if ($('tr-from').value === $('tr-to').value && names.length > 1) $('tr-to').value = names[1];
  }
  for (const b of state.branches) {
    rows.querySelector(`tr[data-branch="${CSS.escape(b.name)}"] .bal`).textContent = stateText(b);
  }
}

// The demo groups, in the order shown: the Chandy-Lamport demos on the bank (1-5), the ones
// beyond FIFO channels and Chandy-Lamport (6-10: the variants and stop-the-world), what a
// snapshot is for beyond money (12-15: termination and deadlock), the rules broken on purpose
// (16-18), the lab run. The server says which group a demo is in.
const demoGroup = (d) => d.group;
const DEMO_GROUPS = [
  ['cl', 'demoGroupCl'],
  ['beyond', 'demoGroupBeyond'],
  ['apps', 'demoGroupApps'],
  ['broken', 'demoGroupBroken'],
  ['lab', 'demoGroupLab'],
];

export function renderDemoButtons() {
  const box = $('demo-buttons');
  box.textContent = '';
  if (!app.demos.length) {
    html('p', { class: 'muted' }, box, t('demosLoading'));
    return;
  }
  for (const [group, headingKey] of DEMO_GROUPS) {
    const list = app.demos.filter((d) => demoGroup(d) === group);
    if (!list.length) continue;
    // A heading per group (reachable by heading navigation) and a named group around its
    // buttons; neither changes a button's own name.
    const wrap = html('div', { class: 'demo-group', role: 'group', 'aria-labelledby': `demo-group-${group}` }, box);
    html('h3', { class: 'demo-group-h', id: `demo-group-${group}` }, wrap, t(headingKey));
    const grid = html('div', { class: 'demo-group-buttons' }, wrap);
    for (const d of list) demoButton(grid, d);
  }
  renderDemoUi();
}

function demoButton(parent, d) {
  const lab = d.preset === 'lab';
  const label = lab ? t('labDemoButton') : t('demoButton', { n: d.id });
  // The name comes from the visible text itself ("Demo 3: <title>"), not from an aria-label
  // that could drift from it, so that a visitor who says what they see ("click Demo 3") names
  // the button (WCAG 2.5.3). The colon is for the name only: on screen the title has its own
  // line. The space between the spans is what a reader of the DOM text sees between the lines.
  const b = html('button', {
    type: 'button', class: 'demo-button', 'data-demo': d.id, 'data-focus-key': `demo-${d.id}`,
    'aria-pressed': 'false',
  }, parent);
  const num = html('span', { class: 'demo-num' }, b, label);
  html('span', { class: 'name-sep' }, num, t('demoSep'));
  b.append(' ');
  html('span', { class: 'demo-title' }, b, d.title);
  b.addEventListener('click', () => startDemo(d.id));
}

// On a phone the step bar is fixed over the bottom of the page while a demo runs (style.css); the
// page is padded by its height, which changes with the caption, so it is measured, not guessed.
let stepbarWatch = null;
function watchStepbar() {
  if (stepbarWatch || typeof ResizeObserver === 'undefined') return;
  const bar = $('demo-stepbar');
  stepbarWatch = new ResizeObserver(() => {
    document.documentElement.style.setProperty('--stepbar-h', `${Math.ceil(bar.getBoundingClientRect().height)}px`);
  });
  stepbarWatch.observe(bar);
}

export function renderDemoUi() {
  watchStepbar();
  document.body.classList.toggle('demo-on', !!app.demo);
  for (const b of document.querySelectorAll('.demo-button')) {
    b.setAttribute('aria-pressed', String(!!app.demo && Number(b.dataset.demo) === app.demo.id));
  }
  const d = app.demo && demoById(app.demo.id);
  const canStep = !!d && !app.demo.off && app.demo.pos < d.steps.length;
  $('demo-next').setAttribute('aria-disabled', String(!canStep));
  $('demo-prev').setAttribute('aria-disabled', String(!canGoBack()));
  $('demo-end').hidden = !d;
  $('demo-play').setAttribute('aria-disabled', String(!canStep && !app.timer));
  $('demo-play').textContent = app.timer ? t('pause') : t('play');
  // The demo's title, then where it stands; a phone shows only the latter (style.css).
  const progress = $('demo-progress');
  progress.textContent = '';
  if (d) {
    html('span', { class: 'progress-title' }, progress, t('demoProgress', { title: d.title }));
    progress.append(t('demoProgressStep', { k: app.demo.pos, n: d.steps.length }));
  }
  $('demo-caption').textContent = app.caption || (d ? '' : t('demoIdle'));
}

export function renderScenario() {
  $('scenario-summary').textContent = t('scenarioDetails', { n: app.commands.length });
  $('scenario-pre').textContent = toText(app.commands);
}

// `keepScroll`: a redraw that did not change the run (a cut handle moved) leaves the diagram
// where the visitor scrolled it, or a drag would jump to the right end under the pointer.
export function renderSpacetimeOnly({ keepScroll = false } = {}) {
  const r = app.result;
  if (!r) return;
  const box = $('st-scroll');
  const left = box.scrollLeft;
  renderSpacetime($('st-svg'), box, $('st-note'), r.state, r.history, displayedSnapshot(r.state), r.naive);
  renderSpacetimeLegend($('st-legend'), r.state);
  scrollableByKeyboard(box, t('stScrollAria'));
  // Time flows right: when the diagram is wider than its box, the latest steps are what to show.
  box.scrollLeft = keepScroll ? left : box.scrollWidth;
}

// A box that scrolls sideways must be reachable with Tab, or a keyboard user cannot see its hidden
// part (WCAG 2.1.1). It becomes a named, focusable region only while it actually overflows, so
// that on a wide screen it adds no empty Tab stop.
function scrollableByKeyboard(el, name) {
  if (el.scrollWidth > el.clientWidth + 1) {
    el.setAttribute('tabindex', '0');
    el.setAttribute('role', 'region');
    el.setAttribute('aria-label', name);
  } else {
    for (const a of ['tabindex', 'role', 'aria-label']) el.removeAttribute(a);
  }
}

// The algorithm selector and the FIFO switch show what the server says the run is (after a demo,
// a share link, an import or a refused change alike).
export function renderVariantControls(state) {
  const algorithm = state.algorithm || 'chandy-lamport';
  $('algorithm').value = algorithm;
  $('fifo').checked = state.fifo !== false;
  // A rule broken on purpose is named in full under the selector (its short name in the list
  // fits the column), with the group it belongs to, for the eye and for a screen reader alike.
  const note = $('algorithm-note');
  const broken = $('algorithm').selectedOptions[0]?.parentElement.tagName === 'OPTGROUP';
  note.hidden = !broken;
  note.textContent = broken ? t(`algo_${algorithm}`) : '';
}

export function render() {
  const r = app.result;
  if (!r) return;
  const active = document.activeElement;
  const focusKey = active && active.dataset ? active.dataset.focusKey : undefined;
  const st = r.state;
  const snap = displayedSnapshot(st);
  renderNetwork($('network-svg'), $('invariant'), st, snap, deliverOn);
  renderNetworkLegend($('network-legend'), $('network-hint'), st);
  renderVariantControls(st);
  renderExplore();
  renderSnapshotHeading($('h-cl'), st);
  renderSnapshot($('cl-body'), st, snap, r.lab, r.history || []);
  renderNaive($('naive-body'), st, r.naive);
  renderSpacetimeOnly();
  renderLog($('log-list'), $('log-scroll'), r.steps || []);
  renderBranchControls(st);
  renderScenario();
  renderDemoUi();
  if (focusKey && (!document.activeElement || document.activeElement === document.body)) {
    const again = document.querySelector(`[data-focus-key="${CSS.escape(focusKey)}"]`);
    if (again) again.focus();
  }
}
