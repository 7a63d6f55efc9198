// No answer before the answer (docs/page.md, "Predict mode"): while a question waits for its
// answer (on this page, or in a lecture's vote), the parts of the panels that say the answer, or
// a fact that gives it away, wait with the step. Which parts those are is decided here, from the
// question's kind, and nowhere else; each panel asks `waits(part)` as it draws and writes the
// placeholder instead.
//
//   naive     the naive reading's total, its verdict, what it lost or counted twice, its cut
//   invariant the sum of the balances under the network (it is the naive total when every
//             branch has been read and nothing moved since)
//   cut       the cuts' verdict in the space-time diagram, and the red of a backward message
//   channels  what the snapshot's channels have recorded so far
//   property  what a snapshot declares of jobs or locks
import { t } from './i18n.js';

const PARTS = {
  naive_total: ['naive', 'invariant', 'cut'],
  cut_consistent: ['naive', 'cut'],
  channel_state: ['channels', 'cut'],
  delivery_recorded: ['channels', 'cut'],
  property_declared: ['naive', 'property', 'cut'],
  // A recorded balance is not on the page before its step, and Every schedule's verdict is not
  // drawn before the search: nothing else gives these away.
  balance_includes: [],
  every_schedule: [],
};

let waiting = new Set();
let redraw = () => {};

// app.js: how to draw the panels again when what waits changes.
export function onWaitsChange(fn) {
  redraw = fn;
}

// `q`: the question now waiting (null: none). Redraws only on a change.
export function waitFor(q) {
  const next = new Set(q ? PARTS[q.kind] || [] : []);
  const same = next.size === waiting.size && [...next].every((p) => waiting.has(p));
  waiting = next;
  document.body.classList.toggle('answer-waits', next.size > 0);
  if (!same) redraw();
}

export function waits(part) {
  return waiting.has(part);
}

// The words put where a part waits.
export function waitsText() {
  return t('waitsAnswer');
}
