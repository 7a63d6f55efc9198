// The demos: playing one step by step (Next step, Previous step) or on a timer (Play), with its
// captions. Where the run stands in its demo is read from the run itself (syncDemo): the run is in
// the demo's script while its commands are the script's first ones, so Undo, Reset and Previous
// step all lead back into the demo without bookkeeping of their own.
import { t, lang } from './i18n.js';
import { fetchDemos, Refusal } from './api.js';
import { PRESETS_FALLBACK } from './scenario.js';
import { app, hooks, enqueue, idle, run, commit } from './run.js';
import { clearNotice, showRefusal, showFailure } from './notice.js';
import { showStage } from './stage.js';
import { askBefore, showFeedback, showScore, clearPanel, clearDemoScore } from './predict.js';
import { byId as $ } from './svg.js';

// The server's demos by number; 'explore' is the schedule found by Every schedule (explore.js).
export function demoById(id) {
  if (id === 'explore') return app.exploreDemo;
  return app.demos.find((d) => d.id === id);
}

// The demo's whole script: its network line, then one command per step.
export function script(state) {
  const d = demoById(state.id);
  return d ? [state.network, ...d.steps.map((s) => s.command)] : [state.network];
}

export function captionFor(state) {
  const d = demoById(state.id);
  if (!d) return '';
  if (state.off) return t('demoLeft', { k: state.pos });
  if (state.pos === 0) return d.intro ? `${d.intro} ${t('demoStart')}` : t('demoStart');
  const cap = d.steps[state.pos - 1].caption;
  return state.pos === d.steps.length ? `${cap} ${t('demoEnd')}` : cap;
}

// Called before every redraw (run.js): where the run stands in the demo. In the script, `pos` is
// the number of its steps applied. Off the script (a free action, a changed setting: another
// network line), `pos` is the last step the run still shares with the script, and Previous step
// and Undo go back there.
export function syncDemo() {
  const st = app.demo;
  if (!st) return;
  const want = script(st);
  const have = app.commands;
  let k = 1;
  while (k < have.length && k < want.length && have[k] === want[k]) k += 1;
  st.off = k < have.length || have[0] !== want[0];
  st.pos = k - 1;
  app.caption = captionFor(st);
}

export function startDemo(id) {
  stopPlay();
  enqueue(async () => {
    const d = demoById(id);
    // The demo's own first line: demos 6-10 need options the preset's line lacks (fifo=no,
    // algorithm=...), so the preset name alone would play them on the wrong network.
    const next = [d.network || app.presets[d.preset] || PRESETS_FALLBACK[d.preset]];
    const result = await run(next);
    clearNotice();
    app.demo = { id, network: next[0], pos: 0, off: false };
    clearPanel();
    clearDemoScore(`demo-${id}`);
    commit(next, result);
    // Next step is now in the bar fixed to the bottom of the screen (style.css): bring the
    // network up above it, so that each step's effect is in view as it happens.
    $('demo-next').focus({ preventScroll: true });
    showStage(true);
  });
}

export function demoAtEnd() {
  const d = app.demo && demoById(app.demo.id);
  return !d || app.demo.off || app.demo.pos >= d.steps.length;
}

export function nextStep() {
  return enqueue(async () => {
    if (demoAtEnd()) {
      stopPlay();
      return;
    }
    const d = demoById(app.demo.id);
    const next = [...app.commands, d.steps[app.demo.pos].command];
    const key = `demo-${app.demo.id}`;
    try {
      const result = await run(next);
      // Predict mode: the step's questions first, then the step (predict.js).
      const feedback = await askBefore(result, next.length - 1, key, { inDemo: true });
      clearNotice();
      commit(next, result);
      showFeedback(feedback, $('demo-next'));
    } catch (e) {
      stopPlay();
      if (e instanceof Refusal) showRefusal(e.reason, 'demoRefused');
      else throw e;
    }
    if (demoAtEnd()) {
      stopPlay();
      showScore(key);
    }
  });
}

// Back to step `k` of the demo (0 = its start), replaying its script that far.
function goToStep(k) {
  return enqueue(async () => {
    const st = app.demo;
    if (!st || k < 0) return;
    const next = script(st).slice(0, k + 1);
    const result = await run(next);
    clearNotice();
    clearPanel();
    if (k === 0) clearDemoScore(`demo-${st.id}`);
    commit(next, result);
  });
}

// One step back; off the script, back to where the run left it first.
export function prevStep() {
  stopPlay();
  if (!app.demo) return null;
  return goToStep(app.demo.off ? app.demo.pos : app.demo.pos - 1);
}

export function canGoBack() {
  return !!app.demo && (app.demo.off || app.demo.pos > 0);
}

export function restartDemo() {
  stopPlay();
  if (!app.demo) return null;
  return goToStep(0);
}

// Leaves the demo: the run stays as it is, the step bar goes back into the Demos card, and the
// focus goes to the demo's own button (the step bar it was in is no longer fixed in view).
export function endDemo() {
  stopPlay();
  enqueue(async () => {
    const id = app.demo && app.demo.id;
    app.demo = null;
    app.caption = '';
    clearPanel();
    hooks.renderDemoUi();
    const b = document.querySelector(`.demo-button[data-demo="${id}"]`);
    if (b) b.focus();
  });
}

export function stopPlay() {
  if (app.timer) {
    clearInterval(app.timer);
    app.timer = null;
    hooks.renderDemoUi();
  }
}

export function togglePlay() {
  if (app.timer) {
    stopPlay();
    return;
  }
  if (!app.demo || demoAtEnd()) return;
  app.timer = setInterval(() => {
    if (idle()) nextStep();
  }, 1100);
  hooks.renderDemoUi();
  nextStep();
}

export async function loadDemos() {
  try {
    const data = await fetchDemos(lang());
    app.demos = data.demos || [];
    if (data.presets) app.presets = { ...app.presets, ...data.presets };
  } catch (e) {
    showFailure(e);
  }
}
