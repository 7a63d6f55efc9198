// Every schedule (POST /api/explore): the run's transfers and snapshots taken in every order of
// deliveries the channels allow, each snapshot judged by the server's checker. Under a rule
// meant to be right (the server's `sound`), the button checks every schedule; under a rule broken
// on purpose, or Chandy-Lamport over channels that reorder, it looks for the shortest schedule
// that breaks it and loads that schedule as a demo to step through. A schedule after which nothing
// more can happen while a snapshot is not complete breaks it too (the snapshot never completes), and
// the page says so in the server's words. In predict mode the button asks first ("will it survive
// every schedule?") and the answer comes with the server's verdict.
import { t, lang } from './i18n.js';
import { exploreScenario, Busy, Refusal } from './api.js';
import { toText } from './scenario.js';
import { app, enqueue } from './run.js';
import { notify, clearNotice, showRefusal } from './notice.js';
import { startDemo, demoById, script } from './demos.js';
import { askQuestion, showFeedback, isPredicting } from './predict.js';
import { html, byId as $ } from './svg.js';

// The demo a counterexample becomes: its source is the scenario explored, from which the same
// search finds the same schedule again (another language, a student's page in a lecture).
function demoFrom(answer, source) {
  const n = answer.demo.steps.length;
  return {
    id: 'explore',
    title: t('exploreDemoTitle'),
    intro: t(answer.never_completes ? 'exploreDemoIntroStuck' : 'exploreDemoIntro', { n }),
    network: answer.demo.network,
    steps: answer.demo.steps,
    source,
    lang: lang(),
  };
}

const count = (n) => Number(n).toLocaleString(lang() === 'ja' ? 'ja-JP' : 'en-US');

function verdictText(a) {
  switch (a.outcome) {
    case 'right':
      return t('exploreRight', { judged: count(a.snapshots_judged), schedules: count(a.schedules), states: count(a.states) });
    case 'nothing':
      return t('exploreNothing');
    case 'broken':
      return a.never_completes
        ? t('exploreNeverCompletes', { n: a.demo.steps.length, finding: a.findings.join(t('exploreFindingGap')) })
        : t('exploreBroken', { n: a.demo.steps.length, states: count(a.states) });
    default:
      return t('exploreBounded', { states: count(a.states), seconds: a.seconds.toFixed(1), depth: a.depth });
  }
}

// What the result under the button speaks of, in which language: once the run to explore or the
// language changes, it is cleared (renderExplore), so that no verdict stands under another run.
let shown = null;

// The result under the button: the page's verdict, then the server's account of the search.
function showResult(a, source) {
  const box = $('explore-result');
  box.textContent = '';
  shown = { source, lang: lang() };
  html('p', { class: `explore-verdict explore-${a.outcome}` }, box, verdictText(a));
  html('p', { class: 'explore-summary' }, box, a.summary);
}

// The button says what it will do under the run's rule; in predict mode it only asks, as its
// words would give the answer away.
export function renderExplore() {
  const st = app.result && app.result.state;
  const b = $('explore');
  if (!st) return;
  const key = isPredicting() ? 'exploreAsk' : st.sound === false ? 'exploreFind' : 'exploreCheck';
  b.dataset.i18n = key;
  b.textContent = t(key);
  if (shown && (shown.source !== scenarioToExplore() || shown.lang !== lang())) {
    shown = null;
    $('explore-result').textContent = '';
  }
}

// What is explored: a demo's whole script wherever it stands (its transfers and snapshots are
// what a student asks about), the scenario a found schedule came from, or in free play (and off
// a demo's script) the run as it is.
function scenarioToExplore() {
  const st = app.demo;
  const d = st && !st.off && demoById(st.id);
  if (!d) return toText(app.commands);
  return d.source || toText(script(st));
}

export function exploreEverySchedule() {
  enqueue(async () => {
    const source = scenarioToExplore();
    const b = $('explore');
    b.setAttribute('aria-disabled', 'true');
    $('explore-result').textContent = t('exploreRunning');
    let answer;
    try {
      answer = await exploreScenario(source, lang());
    } catch (e) {
      shown = null;
      $('explore-result').textContent = '';
      if (e instanceof Busy) notify(t('exploreBusy'), 'refusal');
      else if (e instanceof Refusal) showRefusal(e.reason);
      else throw e;
      return;
    } finally {
      b.removeAttribute('aria-disabled');
    }
    clearNotice();
    shown = null;
    $('explore-result').textContent = '';
    // Predict mode: the question first, answered by the verdict (a bounded search, or one with no
    // snapshot to judge, has none).
    let feedback = null;
    if (isPredicting() && (answer.outcome === 'right' || answer.outcome === 'broken')) {
      const q = {
        kind: 'every_schedule',
        answer: answer.outcome === 'right',
        why: {
          code: `every_schedule_${answer.outcome}`,
          schedules: count(answer.schedules),
          steps: answer.demo ? answer.demo.steps.length : 0,
        },
      };
      feedback = await askQuestion(q, 'explore', 'every-schedule');
    }
    showResult(answer, source);
    // Both queued after this action: the demo starts once it is over, then the feedback shows.
    if (answer.outcome === 'broken') {
      app.exploreDemo = demoFrom(answer, source);
      startDemo('explore');
    }
    if (feedback) enqueue(async () => showFeedback(feedback, null));
  });
}

// The counterexample demo of `source` in the page's language, fetched again if the page holds
// another (a language switch, or a student's page following a lecture's explore demo). Resolves
// to whether the page holds it now.
export async function ensureExploreDemo(source) {
  const d = app.exploreDemo;
  if (d && d.source === source && d.lang === lang()) return true;
  try {
    const answer = await exploreScenario(source, lang());
    if (answer.outcome !== 'broken') return false;
    app.exploreDemo = demoFrom(answer, source);
    return true;
  } catch (e) {
    if (e instanceof Busy || e instanceof Refusal) return false;
    throw e;
  }
}

export function wireExplore() {
  // After predict.js's own listener: the button's words follow the switch.
  $('predict-switch').addEventListener('click', renderExplore);
  $('explore').addEventListener('click', () => {
    if ($('explore').getAttribute('aria-disabled') === 'true') return;
    exploreEverySchedule();
  });
}
