// What the run's application calls things (docs/spec apps.md): a branch's state ("$100", "2 jobs",
// "waiting for P2") and a stable property's verdict ("terminated", "deadlocked: P1 → P2 → P1", or
// why not). One place for the network, the tables, the panels and the diagram. Nothing here
// decides anything: the states and the verdicts come from the server (the JSON's `jobs`,
// `waiting_for` and `property`), and this only puts them into words.
import { t, money } from './i18n.js';

// The run's application: "bank" (also for the store page's older objects without `app`).
export function appOf(state) {
  return (state && state.app) || 'bank';
}

// An object holding a branch's state under its application's key: a branch, a recorded state, a
// naive read, a history event.
export function stateText(o) {
  if (o.jobs !== undefined) return o.jobs === 0 ? t('idleState') : t(o.jobs === 1 ? 'jobsOne' : 'jobsMany', { n: o.jobs });
  if (o.waiting_for !== undefined) return o.waiting_for === null ? t('activeState') : t('waitingFor', { b: o.waiting_for });
  return money(o.balance);
}

// busy / idle (jobs), waiting / active (locks), none (bank): the class the network draws with.
export function stateClass(o) {
  if (o.jobs !== undefined) return o.jobs > 0 ? 'busy' : 'idle';
  if (o.waiting_for !== undefined) return o.waiting_for === null ? 'active' : 'waiting';
  return '';
}

export function cycleText(cycle) {
  return [...cycle, cycle[0]].join(' → ');
}

// A verdict in words, with its reason. `p` is a `property` object of the JSON.
export function propertyText(p) {
  if (p.terminated !== undefined) {
    if (p.terminated) return t('propTerminated');
    const why = [];
    if (p.why && p.why.busy.length) why.push(t('propBusy', { list: p.why.busy.join(', ') }));
    for (const c of (p.why && p.why.in_channels) || []) {
      why.push(t(c.jobs === 1 ? 'propJobInChannel' : 'propJobsInChannel', { n: c.jobs, from: c.from, to: c.to }));
    }
    return why.length ? t('propNotTerminatedWhy', { why: why.join(t('listAnd')) }) : t('propNotTerminated');
  }
  if (p.deadlocked) return t('propDeadlocked', { cycle: cycleText(p.cycle) });
  if (p.dissolving) {
    return t('propDissolving', {
      cycle: cycleText(p.dissolving.cycle),
      grants: p.dissolving.grants.map((g) => `${g.from}→${g.to}`).join(', '),
    });
  }
  return t('propNotDeadlocked');
}

// Whether the property holds.
export function holds(p) {
  return p.terminated !== undefined ? p.terminated : p.deadlocked;
}

// What a message carries, in a sentence's words: "$30", or "job", "request", "grant".
export function messageWhat(m) {
  return m.amount !== undefined ? money(m.amount) : t(`kind_${m.kind}`);
}

// The application's messages (not the bank's transfers, not the markers).
export const APP_KINDS = ['job', 'request', 'grant'];
