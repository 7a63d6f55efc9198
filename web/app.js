// The page's controller. The run is a list of scenario commands; every action appends one (or
// Undo/Reset cut some off), the whole scenario goes to the server, and the panels render the
// JSON it returns. No simulation happens here.
import { t, setLang, lang, applyStatic } from './i18n.js';
import { runScenario, fetchDemos, Refusal } from './api.js';
import { toCommands, toText, PRESETS_FALLBACK, parseHash, makeHash, decodeScenario } from './scenario.js';
import { renderNetwork } from './network.js';
import { renderSpacetime } from './spacetime.js';
import { renderSnapshot, renderNaive, renderLog } from './panels.js';
import { html } from './svg.js';

const $ = (id) => document.getElementById(id);

const app = {
  commands: [PRESETS_FALLBACK.bank],
  result: null,
  presets: { ...PRESETS_FALLBACK },
  demos: [],
  demo: null, // {id, pos}: playing demo `id`, `pos` of its steps applied
  caption: '',
  timer: null,
  branchKey: '',
  writtenHash: '',
};

// Actions run one at a time, in the order they were asked for.
let queue = Promise.resolve();
let pending = 0;
function enqueue(fn) {
  pending += 1;
  document.body.dataset.busy = 'true';
  queue = queue.then(fn).catch(showFailure).finally(() => {
    pending -= 1;
    if (pending === 0) delete document.body.dataset.busy;
  });
  return queue;
}

// ---- notices (an aria-live region) ----
function notify(text, kind = 'info') {
  const el = $('notice');
  el.textContent = text;
  el.className = `notice ${kind}`;
}
function clearNotice() {
  notify('', 'empty');
}
function showRefusal(reason, key = 'refused') {
  notify(t(key, { reason }), 'refusal');
}
function showFailure(err) {
  if (err instanceof Refusal) showRefusal(err.reason);
  else notify(t('networkError', { e: err && err.message ? err.message : String(err) }), 'refusal');
}

// ---- running and committing ----
async function run(commands) {
  return runScenario(toText(commands), lang());
}

function commit(commands, result) {
  app.commands = commands;
  app.result = result;
  writeHash();
  render();
}

function writeHash() {
  const hash = makeHash(app.commands, lang());
  app.writtenHash = hash;
  if (location.hash !== hash) history.replaceState(null, '', hash);
  $('share-url').value = location.href;
}

// Appends the command made by makeCommand() (evaluated when its turn comes, so that it sees the
// latest state). A refusal is shown and changes nothing.
function act(makeCommand) {
  stopPlay();
  enqueue(async () => {
    const cmd = makeCommand();
    if (!cmd) return;
    const next = [...app.commands, cmd];
    try {
      const result = await run(next);
      clearNotice();
      if (app.demo) leaveDemo();
      commit(next, result);
    } catch (e) {
      if (e instanceof Refusal) showRefusal(e.reason);
      else throw e;
    }
  });
}

function displayedSnapshot(state) {
  if (!state.snapshots || !state.snapshots.length) return null;
  if (state.running !== null && state.running !== undefined) {
    const s = state.snapshots.find((x) => x.id === state.running);
    if (s) return s;
  }
  return state.snapshots[state.snapshots.length - 1];
}

// ---- the actions ----
function deliverOn(from, to) {
  act(() => `deliver ${from} ${to}`);
}

function startSnapshot(name) {
  act(() => {
    const st = app.result.state;
    if (st.running !== null && st.running !== undefined) {
      const s = st.snapshots.find((x) => x.id === st.running);
      // Not recorded yet: join the running snapshot as another initiator. Already recorded,
      // one snapshot at a time: ask anyway, so the server's refusal says why.
      if (s && (!s.recorded.some((r) => r.name === name) || st.snapshots_mode === 'one')) {
        return `snapshot ${name} id=${st.running}`;
      }
    }
    return `snapshot ${name}`;
  });
}

function sendTransfer() {
  const from = $('tr-from').value;
  const to = $('tr-to').value;
  const raw = $('tr-amount').value.trim();
  if (!/^[0-9]+$/.test(raw) || !/[1-9]/.test(raw)) {
    stopPlay();
    showRefusal(t('amountNotWhole', { v: raw }));
    return;
  }
  act(() => `transfer ${from} ${to} ${raw.replace(/^0+/, '')}`);
}

function undo() {
  stopPlay();
  enqueue(async () => {
    if (app.commands.length <= 1) {
      notify(t('nothingToUndo'), 'refusal');
      return;
    }
    const next = app.commands.slice(0, -1);
    const result = await run(next);
    clearNotice();
    if (app.demo && app.demo.pos > 0) {
      app.demo.pos -= 1;
      app.caption = captionFor(app.demo);
    }
    commit(next, result);
  });
}

function reset() {
  stopPlay();
  enqueue(async () => {
    const next = [app.commands[0]];
    const result = await run(next);
    clearNotice();
    if (app.demo) {
      app.demo.pos = 0;
      app.caption = captionFor(app.demo);
    }
    commit(next, result);
  });
}

function loadPreset(name) {
  stopPlay();
  enqueue(async () => {
    const next = [app.presets[name]];
    const result = await run(next);
    clearNotice();
    app.demo = null;
    app.caption = '';
    commit(next, result);
  });
}

// ---- demos ----
function demoById(id) {
  return app.demos.find((d) => d.id === id);
}

function captionFor(state) {
  const d = demoById(state.id);
  if (!d) return '';
  if (state.pos === 0) return t('demoStart');
  const cap = d.steps[state.pos - 1].caption;
  return state.pos === d.steps.length ? `${cap} ${t('demoEnd')}` : cap;
}

function leaveDemo() {
  app.demo = null;
  app.caption = t('demoLeft');
}

function startDemo(id) {
  stopPlay();
  enqueue(async () => {
    const d = demoById(id);
    const next = [app.presets[d.preset] || PRESETS_FALLBACK[d.preset]];
    const result = await run(next);
    clearNotice();
    app.demo = { id, pos: 0 };
    app.caption = captionFor(app.demo);
    commit(next, result);
    $('demo-next').focus();
  });
}

function demoAtEnd() {
  const d = app.demo && demoById(app.demo.id);
  return !d || app.demo.pos >= d.steps.length;
}

function nextStep() {
  return enqueue(async () => {
    if (demoAtEnd()) {
      stopPlay();
      return;
    }
    const d = demoById(app.demo.id);
    const next = [...app.commands, d.steps[app.demo.pos].command];
    try {
      const result = await run(next);
      clearNotice();
      app.demo.pos += 1;
      app.caption = captionFor(app.demo);
      commit(next, result);
    } catch (e) {
      stopPlay();
      if (e instanceof Refusal) showRefusal(e.reason, 'demoRefused');
      else throw e;
    }
    if (demoAtEnd()) stopPlay();
  });
}

function stopPlay() {
  if (app.timer) {
    clearInterval(app.timer);
    app.timer = null;
    renderDemoUi();
  }
}

function togglePlay() {
  if (app.timer) {
    stopPlay();
    return;
  }
  if (!app.demo || demoAtEnd()) return;
  app.timer = setInterval(() => {
    if (pending === 0) nextStep();
  }, 1100);
  renderDemoUi();
  nextStep();
}

// ---- export, import, share ----
function exportScenario() {
  const text = `# cutline scenario, exported from the page\n${toText(app.commands)}`;
  const url = URL.createObjectURL(new Blob([text], { type: 'text/plain' }));
  const a = html('a', { href: url, download: 'cutline-scenario.txt' });
  document.body.appendChild(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10000);
}

function importFile(file) {
  stopPlay();
  enqueue(async () => {
    const text = await file.text();
    const next = toCommands(text);
    try {
      // The file as it is first, so that a refusal names the file's own line
      // (the page's tidied copy drops comments and blank lines).
      await runScenario(text, lang());
      const result = await run(next);
      app.demo = null;
      app.caption = '';
      commit(next, result);
      notify(t('imported', { n: next.length, file: file.name }), 'info');
    } catch (e) {
      if (e instanceof Refusal) showRefusal(e.full, 'importRefused');
      else throw e;
    }
  });
}

async function shareLink() {
  const url = location.href;
  $('share-url').value = url;
  try {
    await navigator.clipboard.writeText(url);
    notify(t('shareCopied'), 'info');
  } catch {
    notify(t('shareReady'), 'info');
  }
  $('share-url').select();
}

// Opens the run held in the URL's hash, if any; otherwise the Bank preset.
function openFromHash() {
  const { s } = parseHash(location.hash);
  enqueue(async () => {
    let next = null;
    let result = null;
    if (s) {
      try {
        next = toCommands(decodeScenario(s));
        result = await run(next);
      } catch (e) {
        result = null;
        showRefusal(e instanceof Refusal ? e.full : (e.message || String(e)), 'linkRefused');
      }
    }
    const opened = result !== null;
    if (!opened) {
      next = [app.presets.bank];
      result = await run(next);
    }
    app.demo = null;
    app.caption = '';
    commit(next, result);
    if (opened && next.length > 1) notify(t('linkOpened', { n: next.length }), 'info');
  });
}

// ---- language ----
async function loadDemos() {
  try {
    const data = await fetchDemos(lang());
    app.demos = data.demos || [];
    if (data.presets) app.presets = { ...app.presets, ...data.presets };
  } catch (e) {
    showFailure(e);
  }
}

// Sets the language of the page's own texts and of the switch's pressed state.
function applyLang(next) {
  setLang(next);
  applyStatic();
  for (const o of document.querySelectorAll('.lang-switch button')) o.setAttribute('aria-pressed', String(o.dataset.lang === lang()));
  app.branchKey = '';
}

function switchLang(next) {
  stopPlay();
  applyLang(next);
  clearNotice();
  enqueue(async () => {
    await loadDemos();
    if (app.demo) app.caption = captionFor(app.demo);
    else if (app.caption) app.caption = '';
    const result = await run(app.commands);
    commit(app.commands, result);
    renderDemoButtons();
  });
}

// ---- rendering ----
function renderBranchControls(state) {
  const names = state.branches.map((b) => b.name);
  const key = `${lang()}|${names.join(',')}`;
  const rows = $('branch-rows');
  if (key !== app.branchKey) {
    app.branchKey = key;
    rows.textContent = '';
    for (const name of names) {
      const tr = html('tr', { 'data-branch': name }, rows);
      html('th', { scope: 'row' }, tr, name);
      html('td', { class: 'bal' }, tr);
      const td = html('td', { class: 'actions' }, tr);
      const read = html('button', { type: 'button', 'aria-label': t('readBalanceAria', { b: name }), 'data-focus-key': `read-${name}` }, td, t('readBalance'));
      read.addEventListener('click', () => act(() => `read ${name}`));
      const snap = html('button', { type: 'button', 'aria-label': t('startSnapshotAria', { b: name }), 'data-focus-key': `snap-${name}` }, td, t('startSnapshot'));
      snap.addEventListener('click', () => startSnapshot(name));
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
    rows.querySelector(`tr[data-branch="${CSS.escape(b.name)}"] .bal`).textContent = `$${b.balance}`;
  }
}

function renderDemoButtons() {
  const box = $('demo-buttons');
  box.textContent = '';
  if (!app.demos.length) {
    html('p', { class: 'muted' }, box, t('demosLoading'));
    return;
  }
  for (const d of app.demos) {
    const lab = d.preset === 'lab';
    const label = lab ? t('labDemoButton') : t('demoButton', { n: d.id });
    const b = html('button', {
      type: 'button', class: 'demo-button', 'data-demo': d.id, 'data-focus-key': `demo-${d.id}`,
      'aria-label': lab ? t('labDemoAria', { title: d.title }) : t('demoAria', { n: d.id, title: d.title }),
      'aria-pressed': 'false',
    }, box);
    html('span', { class: 'demo-num' }, b, label);
    html('span', { class: 'demo-title' }, b, d.title);
    b.addEventListener('click', () => startDemo(d.id));
  }
  renderDemoUi();
}

function renderDemoUi() {
  for (const b of document.querySelectorAll('.demo-button')) {
    b.setAttribute('aria-pressed', String(!!app.demo && Number(b.dataset.demo) === app.demo.id));
  }
  const d = app.demo && demoById(app.demo.id);
  const canStep = !!d && app.demo.pos < d.steps.length;
  $('demo-next').setAttribute('aria-disabled', String(!canStep));
  $('demo-play').setAttribute('aria-disabled', String(!canStep && !app.timer));
  $('demo-play').textContent = app.timer ? t('pause') : t('play');
  $('demo-progress').textContent = d ? t('demoProgress', { title: d.title, k: app.demo.pos, n: d.steps.length }) : '';
  $('demo-caption').textContent = app.caption || (d ? '' : t('demoIdle'));
}

function renderScenario() {
  $('scenario-summary').textContent = t('scenarioDetails', { n: app.commands.length });
  $('scenario-pre').textContent = toText(app.commands);
}

function renderSpacetimeOnly() {
  const r = app.result;
  if (!r) return;
  renderSpacetime($('st-svg'), $('st-scroll'), $('st-note'), r.state, r.history, displayedSnapshot(r.state), r.naive);
}

function render() {
  const r = app.result;
  if (!r) return;
  const active = document.activeElement;
  const focusKey = active && active.dataset ? active.dataset.focusKey : undefined;
  const st = r.state;
  const snap = displayedSnapshot(st);
  renderNetwork($('network-svg'), $('invariant'), st, snap, deliverOn);
  renderSnapshot($('cl-body'), st, snap, r.lab);
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

// ---- wiring ----
function wire() {
  for (const b of document.querySelectorAll('.lang-switch button')) {
    b.addEventListener('click', () => switchLang(b.dataset.lang));
  }
  $('preset-bank').addEventListener('click', () => loadPreset('bank'));
  $('preset-lab').addEventListener('click', () => loadPreset('lab'));
  $('transfer-form').addEventListener('submit', (e) => {
    e.preventDefault();
    sendTransfer();
  });
  $('deliver-next').addEventListener('click', () => act(() => 'deliver'));
  $('undo').addEventListener('click', undo);
  $('reset').addEventListener('click', reset);
  $('demo-next').addEventListener('click', () => {
    if ($('demo-next').getAttribute('aria-disabled') === 'true') return;
    stopPlay();
    nextStep();
  });
  $('demo-play').addEventListener('click', () => {
    if ($('demo-play').getAttribute('aria-disabled') === 'true') return;
    togglePlay();
  });
  $('export').addEventListener('click', exportScenario);
  $('import').addEventListener('click', () => $('import-file').click());
  $('import-file').addEventListener('change', (e) => {
    const f = e.target.files && e.target.files[0];
    if (f) importFile(f);
    e.target.value = '';
  });
  $('share').addEventListener('click', shareLink);
  window.addEventListener('hashchange', () => {
    if (location.hash !== app.writtenHash) {
      const l = parseHash(location.hash).lang || 'en';
      if (l !== lang()) {
        applyLang(l);
        enqueue(async () => {
          await loadDemos();
          renderDemoButtons();
        });
      }
      stopPlay();
      openFromHash();
    }
  });
  let resizeTimer = null;
  window.addEventListener('resize', () => {
    clearTimeout(resizeTimer);
    resizeTimer = setTimeout(renderSpacetimeOnly, 120);
  });
}

function init() {
  applyLang(parseHash(location.hash).lang || 'en');
  wire();
  renderDemoButtons();
  enqueue(async () => {
    await loadDemos();
    renderDemoButtons();
  });
  openFromHash();
}

init();
