// The run: the scenario as a list of commands and the server's answer to it, and the queue that
// applies the visitor's actions one at a time. Nothing is simulated here: every change sends the
// whole scenario to the server. Other modules draw; they are reached through `hooks`, set by
// app.js, so that this module depends on none of them.
import { lang } from './i18n.js';
import { runScenario } from './api.js';
import { toText, PRESETS_FALLBACK, makeHash } from './scenario.js';
import { showFailure } from './notice.js';
import { byId as $ } from './svg.js';

export const app = {
  commands: [PRESETS_FALLBACK.bank],
  result: null,
  presets: { ...PRESETS_FALLBACK },
  demos: [],
  demo: null, // {id, pos}: playing demo `id`, `pos` of its steps applied
  exploreDemo: null, // the schedule Every schedule found, played as demo 'explore' (explore.js)
  caption: '',
  timer: null,
  branchKey: '',
  writtenHash: '',
};

// Filled in by app.js: where the run stands in its demo (before a redraw), redraw everything,
// or only the demo controls; and by lecture.js: what a lecture does with each commit.
export const hooks = { sync() {}, render() {}, renderDemoUi() {}, lecture() {} };

// Actions run one at a time, in the order they were asked for.
let queue = Promise.resolve();
let pending = 0;
export function enqueue(fn) {
  pending += 1;
  document.body.dataset.busy = 'true';
  queue = queue.then(fn).catch(showFailure).finally(() => {
    pending -= 1;
    if (pending === 0) delete document.body.dataset.busy;
  });
  return queue;
}
export function idle() {
  return pending === 0;
}

export async function run(commands) {
  return runScenario(toText(commands), lang());
}

export function commit(commands, result) {
  app.commands = commands;
  app.result = result;
  writeHash();
  hooks.sync();
  hooks.render();
  // Lecture mode (lecture.js): the teacher's run goes to the room; a student's own step leaves it.
  hooks.lecture();
}

export function writeHash() {
  const hash = makeHash(app.commands, lang());
  app.writtenHash = hash;
  if (location.hash !== hash) history.replaceState(null, '', hash);
  $('share-url').value = location.href;
}
