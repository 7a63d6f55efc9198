// The demos: playing one step by step (Next step) or on a timer (Play), with its captions.
import { t, lang } from './i18n.js';
import { fetchDemos, Refusal } from './api.js';
import { PRESETS_FALLBACK } from './scenario.js';
import { app, hooks, enqueue, idle, run, commit } from './run.js';
import { clearNotice, showRefusal, showFailure } from './notice.js';
import { byId as $ } from './svg.js';

// The one-column layout, where the demo's step bar is fixed to the bottom (style.css, same width).
const PHONE = '(width < 760px)';

export function demoById(id) {
  return app.demos.find((d) => d.id === id);
}

export function captionFor(state) {
  const d = demoById(state.id);
  if (!d) return '';
  if (state.pos === 0) return t('demoStart');
  const cap = d.steps[state.pos - 1].caption;
  return state.pos === d.steps.length ? `${cap} ${t('demoEnd')}` : cap;
}

export function leaveDemo() {
  app.demo = null;
  app.caption = t('demoLeft');
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
    app.demo = { id, pos: 0 };
    app.caption = captionFor(app.demo);
    commit(next, result);
    if (matchMedia(PHONE).matches) {
      // One column: Next step is now in the bar fixed to the bottom of the screen (style.css);
      // bring the network up above it, so each step's effect is in view as it happens.
      $('demo-next').focus({ preventScroll: true });
      $('network').scrollIntoView({ block: 'start' });
    } else {
      $('demo-next').focus();
    }
  });
}

export function demoAtEnd() {
  const d = app.demo && demoById(app.demo.id);
  return !d || app.demo.pos >= d.steps.length;
}

export function nextStep() {
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
