// The page's entry point: the language switch, the wiring of every control, and the start. The
// jobs live in modules of their own: run.js (the run and its queue), actions.js, demos.js,
// share.js (export, import, links), render.js (drawing), notice.js. No simulation happens on the
// page: every change sends the whole scenario to the server.
import { setLang, lang, applyStatic, startingLang, rememberLang } from './i18n.js';
import { parseHash } from './scenario.js';
import { app, hooks, enqueue, run, commit } from './run.js';
import { clearNotice } from './notice.js';
import { act, sendTransfer, sendAppMessage, undo, reset, loadPreset, changeNetwork, stopTheWorld } from './actions.js';
import { captionFor, stopPlay, nextStep, prevStep, restartDemo, endDemo, togglePlay, loadDemos, syncDemo } from './demos.js';
import { wireStageKeys, showStage } from './stage.js';
import { initPresent } from './present.js';
import { initPredict, questionPending, focusQuestion } from './predict.js';
import { exportScenario, exportShiviz, importFile, shareLink, openFromHash } from './share.js';
import { render, renderDemoUi, renderDemoButtons, renderSpacetimeOnly } from './render.js';
import { byId as $ } from './svg.js';
import { wireCut } from './cut.js';
import { initLecture, renderLecture, advanceIfWaiting, confirmLeaving } from './lecture.js';
import { wireExplore, ensureExploreDemo } from './explore.js';
import { onWaitsChange } from './waits.js';
import { wireTrace, retranslateTrace } from './trace.js';

hooks.sync = syncDemo;
hooks.render = () => {
  render();
  showStage();
};
hooks.renderDemoUi = renderDemoUi;
// A question that starts or stops waiting hides or shows what would give its answer away.
onWaitsChange(render);

// Sets the language of the page's own texts and of the switch's pressed state.
function applyLang(next) {
  setLang(next);
  applyStatic();
  for (const o of document.querySelectorAll('.lang-switch button')) o.setAttribute('aria-pressed', String(o.dataset.lang === lang()));
  app.branchKey = '';
}

function switchLang(next) {
  stopPlay();
  rememberLang(next);
  applyLang(next);
  renderLecture();
  clearNotice();
  enqueue(async () => {
    await retranslateTrace();
    await loadDemos();
    // A found schedule's captions come in the new language too (the server's search, again).
    if (app.exploreDemo && !(await ensureExploreDemo(app.exploreDemo.source)) && app.demo && app.demo.id === 'explore') {
      app.demo = null;
    }
    if (app.demo) app.caption = captionFor(app.demo);
    else if (app.caption) app.caption = '';
    const result = await run(app.commands);
    commit(app.commands, result);
    renderDemoButtons();
  });
}

function wire() {
  for (const b of document.querySelectorAll('.lang-switch button')) {
    b.addEventListener('click', () => switchLang(b.dataset.lang));
  }
  wireTrace();
  $('preset-bank').addEventListener('click', () => loadPreset('bank'));
  $('preset-lab').addEventListener('click', () => loadPreset('lab'));
  $('preset-dataflow').addEventListener('click', () => loadPreset('dataflow'));
  $('preset-jobs').addEventListener('click', () => loadPreset('jobs'));
  $('preset-locks').addEventListener('click', () => loadPreset('locks'));
  $('algorithm').addEventListener('change', (e) => changeNetwork({ algorithm: e.target.value }));
  $('fifo').addEventListener('change', (e) => changeNetwork({ fifo: e.target.checked }));
  $('stop-the-world').addEventListener('click', stopTheWorld);
  $('transfer-form').addEventListener('submit', (e) => {
    e.preventDefault();
    // Enter in the form sends what its first button sends: a transfer, or a job.
    if (!$('tr-send').hidden) sendTransfer();
    else if (!$('job-send').hidden) sendAppMessage('job');
  });
  $('job-send').addEventListener('click', () => sendAppMessage('job'));
  $('lock-request').addEventListener('click', () => sendAppMessage('request'));
  $('lock-grant').addEventListener('click', () => sendAppMessage('grant'));
  $('deliver-next').addEventListener('click', () => act(() => 'deliver'));
  $('undo').addEventListener('click', undo);
  $('reset').addEventListener('click', reset);
  const enabled = (id) => $(id).getAttribute('aria-disabled') !== 'true';
  // Predict mode: no step key, button or restart skips a question that waits for its answer.
  const waits = () => {
    if (!questionPending()) return false;
    focusQuestion();
    return true;
  };
  // A student following a lecture steps alone only after saying so (lecture.js asks first).
  const own = (fn) => () => confirmLeaving(fn) || fn();
  const next = () => {
    // A lecture's question waiting for its reveal: the presenter's step key moves it on.
    if (advanceIfWaiting() || waits() || !enabled('demo-next')) return;
    stopPlay();
    nextStep();
  };
  const prev = () => {
    if (!waits() && enabled('demo-prev')) prevStep();
  };
  $('demo-next').addEventListener('click', own(next));
  $('demo-prev').addEventListener('click', own(prev));
  $('demo-end').addEventListener('click', own(endDemo));
  wireStageKeys({ next: own(next), prev: own(prev), restart: own(() => waits() || restartDemo()) });
  wireCut();
  wireExplore();
  $('notice-close').addEventListener('click', clearNotice);
  $('demo-play').addEventListener('click', own(() => {
    if ($('demo-play').getAttribute('aria-disabled') === 'true') return;
    togglePlay();
  }));
  $('export').addEventListener('click', exportScenario);
  $('export-shiviz').addEventListener('click', exportShiviz);
  $('import').addEventListener('click', () => $('import-file').click());
  $('import-file').addEventListener('change', (e) => {
    const f = e.target.files && e.target.files[0];
    if (f) importFile(f);
    e.target.value = '';
  });
  $('share').addEventListener('click', shareLink);
  window.addEventListener('hashchange', () => {
    if (location.hash !== app.writtenHash) {
      const l = startingLang(parseHash(location.hash).lang);
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
  applyLang(startingLang(parseHash(location.hash).lang));
  initPresent();
  initPredict();
  wire();
  renderDemoButtons();
  enqueue(async () => {
    await loadDemos();
    renderDemoButtons();
  });
  openFromHash();
  // After the first run and the demo list: a lecture's room replaces the run the address holds.
  initLecture();
}

init();
