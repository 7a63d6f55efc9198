// What a message is called on the page: one place for the Network panel and the Space-time
// diagram. A message here is {kind, amount, epoch, snapshot, count, seq}, as in the state's
// queues; history events are turned into that shape by fromEvent(). What the run's algorithm
// calls its markers comes from the server (the run's state.markers: "marker", "control" or
// "barrier", the algorithm's words in src/algorithms), so nothing here knows the algorithms.
import { t, money } from './i18n.js';
import { APP_KINDS } from './appwords.js';

// Barriers travel as markers in the JSON; only their name differs.
export function isBarrier(markers) {
  return markers === 'barrier';
}

// A history event's message (send or deliver): under Lai-Yang its markers are control messages,
// and they carry their count.
export function fromEvent(e) {
  const kind = e.message === 'marker' && e.count !== undefined ? 'control' : e.message;
  return { kind, amount: e.amount, epoch: e.epoch, snapshot: e.snapshot, count: e.count, seq: e.seq };
}

// Short text drawn on (or beside) the message: "$30", "$30 e1", "ctl 1 (2)", "marker", "barrier".
export function messageLabel(m, markers) {
  if (APP_KINDS.includes(m.kind)) return t(`kind_${m.kind}`);
  if (m.kind === 'transfer') {
    return m.epoch === undefined ? money(m.amount) : t('epochLabel', { amt: money(m.amount), e: m.epoch });
  }
  if (m.kind === 'control') return t('controlLabel', { s: m.snapshot, n: m.count });
  return isBarrier(markers) ? t('barrier') : t('marker');
}

// The longer words behind the label (a title, a sentence).
export function messageTitle(m, markers) {
  let what;
  if (APP_KINDS.includes(m.kind)) {
    what = t(`kindTitle_${m.kind}`);
  } else if (m.kind === 'transfer') {
    what = money(m.amount);
    if (m.epoch !== undefined) what += `, ${epochTitle(m.epoch)}`;
  } else if (m.kind === 'control') {
    what = t('controlTitle', { s: m.snapshot, n: m.count });
  } else {
    what = t(isBarrier(markers) ? 'barrierOf' : 'markerOf', { id: m.snapshot });
  }
  return `${what} (#${m.seq})`;
}

export function epochTitle(e) {
  return e === 0 ? t('epochZeroTitle') : t('epochTitle', { e });
}
