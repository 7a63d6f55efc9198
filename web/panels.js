// The text panels: Chandy-Lamport snapshot, Naive reading and Event log. They only render
// what the server computed (the state's snapshots, the `naive` object, the steps' log lines).
import { html } from './svg.js';
import { t, money } from './i18n.js';
import { STATE_CLASS } from './network.js';
import { renderCost } from './cost.js';
import { stateText, propertyText, holds, messageWhat } from './appwords.js';
import { waits, waitsText } from './waits.js';

function table(parent, headers, cls) {
  const tb = html('table', { class: cls }, parent);
  const tr = html('tr', {}, html('thead', {}, tb));
  for (const h of headers) html('th', { scope: 'col' }, tr, h);
  return html('tbody', {}, tb);
}

function amounts(list) {
  return list.map(money).join(', ');
}

// The snapshot region's heading names the run's algorithm (the network line's `algorithm=`), so
// that a screen reader, and a test, finds "Chandy-Lamport snapshot" exactly while Chandy-Lamport
// is selected. It follows the run, not the snapshot on display: a stop-the-world snapshot taken
// during a Chandy-Lamport run is shown in the same region, and its own head line says what it is.
const HEADING = {
  'chandy-lamport': 'clHeading', 'lai-yang': 'snapHeadingLaiYang', aligned: 'snapHeadingAligned', unaligned: 'snapHeadingUnaligned',
};
export function renderSnapshotHeading(heading, state) {
  const key = HEADING[state.algorithm] || 'clHeading';
  // data-i18n too, so that a language switch (applyStatic) keeps the algorithm's name.
  heading.dataset.i18n = key;
  heading.textContent = t(key);
}

// Under the barrier algorithms the markers are barriers; under Lai-Yang, control messages.
const MARKERS = { 'lai-yang': 'markersLaiYang', aligned: 'markersBarrier', unaligned: 'markersBarrier' };

// A channel's recorded messages in words ("$40", "job"); under unaligned barriers, the ones the
// barrier overtook (they come first) are marked, since that is the point of the algorithm.
function channelAmounts(c, none) {
  const words = c.messages ? c.messages.map((k) => t(`kind_${k}`)) : c.transfers.map(money);
  const over = (c.overtaken || []).length;
  if (!words.length) return none;
  if (!over) return words.join(', ');
  const marked = t('overtakenMark', { list: words.slice(0, over).join(', ') });
  return over < words.length ? `${marked}, ${words.slice(over).join(', ')}` : marked;
}

// Lai-Yang: a branch that recorded because a transfer of a newer epoch reached it (the server
// says so: the record's cause is "transfer").
function epochRecords(snap, history) {
  const sends = new Map(history.filter((e) => e.kind === 'send').map((e) => [e.seq, e]));
  return history
    .filter((e) => e.kind === 'record' && e.snapshot === snap.id && e.cause === 'transfer')
    .map((e) => ({ rec: e, msg: sends.get(e.transfer_seq) }))
    .filter((x) => x.msg);
}

// The checker's verdict on a complete snapshot, in words: each transfer it counted twice or lost.
function renderVerdict(body, snap) {
  const items = [
    ...(snap.backward || []).map((m) => t('backwardItem', { amt: messageWhat(m), from: m.from, to: m.to, seq: m.seq })),
    ...(snap.extra || []).map((m) => t('extraItem', { amt: messageWhat(m), from: m.from, to: m.to, seq: m.seq })),
    ...(snap.missed || []).map((m) => t('missedItem', { amt: messageWhat(m), from: m.from, to: m.to, seq: m.seq })),
    ...(snap.unrecorded || []).map((m) => t('unrecordedItem', { amt: messageWhat(m), from: m.from, to: m.to, seq: m.seq })),
  ];
  // Not by colour alone: a mark (✓/✗), the word, and for a wrong snapshot a bordered box.
  const box = html('div', { class: `cl-verdict ${snap.consistent ? 'ok' : 'bad'}`, 'data-consistent': String(snap.consistent) }, body);
  const bank = !snap.property;
  html('p', {}, box, snap.consistent ? t(bank ? 'verdictOk' : 'verdictOkApp') : t('verdictBad'));
  if (items.length) {
    const ul = html('ul', { class: 'cl-why' }, box);
    for (const text of items) html('li', {}, ul, text);
  }
}

// The headline, first in the panel so that it is on the stage with the network (stage.js): which
// snapshot, whether it is running or complete, its total and the checker's verdict.
function renderHeadline(body, state, snap) {
  const headline = html('div', { class: 'snap-headline', id: 'cl-headline' }, body);
  if (!snap) {
    html('p', { class: 'muted' }, headline, t('noSnapshot'));
    return;
  }
  const head = html('p', { class: 'snap-head' }, headline);
  // A stop-the-world snapshot has no initiator: no "started by" with an empty list.
  html('strong', {}, head, snap.initiators.length
    ? t('snapHeader', { id: snap.id, who: snap.initiators.join(', ') })
    : t('snapHeaderAlone', { id: snap.id }));
  head.append(' ');
  html('span', { class: `badge ${snap.complete ? 'badge-done' : 'badge-run'}`, 'data-status': snap.complete ? 'complete' : 'running' },
    head, snap.complete ? t('complete') : t('running'));
  if (snap.complete && snap.property && waits('property')) {
    html('p', { class: 'cl-total waits-answer' }, headline, waitsText());
  } else if (snap.complete && snap.property) {
    // Jobs and locks: what the snapshot declares, and why not when it does not.
    const p = html('p', { class: `cl-total snap-property ${holds(snap.property) ? 'holds' : 'not'}`, 'data-holds': String(holds(snap.property)) }, headline);
    html('strong', {}, p, t('snapSays', { v: propertyText(snap.property) }));
    if (snap.consistent !== undefined) renderVerdict(headline, snap);
  } else if (snap.complete && snap.total !== undefined) {
    const terms = [
      ...snap.recorded.map((r) => `${r.name} ${money(r.balance)}`),
      ...snap.channels.filter((c) => c.transfers.length).map((c) => `${c.from}→${c.to} ${amounts(c.transfers).replace(/, /g, ' + ')}`),
    ];
    const right = snap.total === state.total && snap.consistent !== false;
    const p = html('p', { class: `cl-total${right ? '' : ' wrong'}` }, headline);
    html('strong', {}, p, t('total', { terms: terms.join(' + '), total: money(snap.total) }));
    if (snap.total === state.total) {
      p.append(' ', t('totalMatches', { t: money(state.total) }));
    } else {
      const diff = snap.total - state.total;
      p.append(' ', t('totalWrong', { t: money(state.total), d: `${diff > 0 ? '+' : '−'}${money(Math.abs(diff))}` }));
    }
    // The checker's verdict (absent from the store page's older snapshot objects).
    if (snap.consistent !== undefined) renderVerdict(headline, snap);
  } else {
    html('p', { class: 'muted cl-total-pending' }, headline, t('totalPending'));
  }
}

export function renderSnapshot(body, state, snap, lab, history = []) {
  body.textContent = '';
  renderHeadline(body, state, snap);
  if (!snap) return;
  const algorithm = snap.algorithm || 'chandy-lamport';
  const stw = algorithm === 'stop-the-world';
  if (snap.algorithm) {
    let name = t(`algo_${algorithm}`);
    if (state.fifo === false && !stw) name = t('algoNotFifo', { name });
    html('p', { class: 'snap-algo', 'data-algorithm': algorithm }, body, t('snapAlgo', { name }));
  }

  const recorded = new Map(snap.recorded.map((r) => [r.name, r]));
  const done = new Set(snap.parts_done || []);
  const rows = table(body, [t('colBranch'), t(state.property ? 'colRecordedState' : 'colRecorded'), t('colPartDone')], 'cl-branches');
  for (const b of state.branches) {
    const tr = html('tr', { 'data-branch': b.name }, rows);
    html('th', { scope: 'row' }, tr, b.name);
    html('td', { class: recorded.has(b.name) ? 'is-recorded' : 'muted' }, tr,
      recorded.has(b.name) ? stateText(recorded.get(b.name)) : t('notYet'));
    html('td', {}, tr, done.has(b.name) ? `✓ ${t('yes')}` : t('no'));
  }
  if (algorithm === 'lai-yang') {
    for (const { rec, msg } of epochRecords(snap, history)) {
      html('p', { class: 'cl-epoch' }, body, t('epochRecord', {
        b: rec.branch, v: money(rec.balance), seq: msg.seq, amt: money(msg.amount), from: msg.from, e: rec.snapshot,
      }));
    }
  }

  const crows = table(body, [t('colChannel'), t('colState')], 'cl-channels');
  for (const c of snap.channels) {
    const cls = c.state === 'held back' ? 'held' : STATE_CLASS[c.state] || 'not';
    const tr = html('tr', { 'data-channel': `${c.from}->${c.to}`, 'data-state': c.state }, crows);
    html('th', { scope: 'row' }, tr, `${c.from}→${c.to}`);
    const td = html('td', {}, tr);
    html('span', { class: `dot ch-${cls}`, 'aria-hidden': 'true' }, td);
    if (waits('channels') && (c.state === 'recording' || c.state === 'closed')) {
      td.append(`${t(c.state === 'recording' ? 'stRec' : 'stClosed')}: `);
      html('span', { class: 'waits-answer' }, td, waitsText());
    } else if (c.state === 'recording') {
      td.append(`${t('stRec')}: ${t('soFar', { list: channelAmounts(c, t('nothingYet')) })}`);
    } else if (c.state === 'closed') {
      td.append(`${t('stClosed')}: ${t('contents', { list: channelAmounts(c, t('empty')) })}`);
    } else if (c.state === 'held back') {
      td.append(t('stHeld', { to: c.to }));
    } else {
      td.append(t('stNot'));
    }
  }
  if (algorithm === 'aligned') html('p', { class: 'cl-aligned muted' }, body, t('alignedNoState'));

  if (stw) {
    const n = snap.stopped_deliveries ?? 0;
    html('p', { class: 'cl-stopped' }, body, t(n === 1 ? 'stwStoppedOne' : 'stwStopped', { n }));
  } else {
    const expected = snap.markers_expected ?? state.channels.length;
    html('p', { class: 'cl-markers' }, body, t(MARKERS[algorithm] || 'markers', { s: snap.markers_sent, e: expected }));
    html('p', { class: 'cl-parts' }, body,
      t('partsDone', { list: done.size ? [...state.branches.map((b) => b.name).filter((n) => done.has(n))].join(', ') : t('noneYet') }));
  }

  renderCost(body, state, snap);

  const earlier = state.snapshots.filter((s) => s.id !== snap.id);
  if (earlier.length) {
    html('p', { class: 'muted cl-earlier' }, body, t('earlier', {
      list: earlier.map((s) => {
        const what = s.algorithm ? `${t(`algoShort_${s.algorithm}`)} ` : '';
        const verdict = s.consistent === false ? ` (${t('inconsistent')})` : '';
        const result = !s.complete ? t('running') : s.property ? propertyText(s.property) : money(s.total);
        return `#${s.id} ${what}${result}${verdict}`;
      }).join(', '),
    }));
  }
  if (lab) {
    const d = html('details', { class: 'lab' }, body);
    html('summary', {}, d, t('labFormat'));
    html('pre', {}, d, lab);
  }
}

export function renderNaive(body, state, naive) {
  body.textContent = '';
  const reads = naive ? naive.reads : state.naive.reads;
  if (!reads.length) {
    html('p', { class: 'muted' }, body, t(state.property ? 'noReadsApp' : 'noReads'));
    return;
  }
  const rows = table(body, [t('colBranch'), t(state.property ? 'colCopiedState' : 'colCopied')], 'naive-reads');
  for (const r of reads) {
    const tr = html('tr', { 'data-branch': r.name }, rows);
    html('th', { scope: 'row' }, tr, r.name);
    html('td', {}, tr, stateText(r));
  }
  // What the reads add up to, and what they lost, wait with a question about them (waits.js).
  if (waits('naive')) {
    html('p', { class: 'naive-total waits-answer' }, body, waitsText());
    return;
  }
  const property = naive ? naive.property : state.naive.property;
  if (property) {
    renderNaiveProperty(body, property, reads.length, state.branches.length);
    return;
  }
  const total = naive ? naive.total : state.naive.total;
  const bankTotal = naive && naive.bank_total !== undefined ? naive.bank_total : state.total;
  const allRead = naive ? naive.all_read : reads.length === state.branches.length;
  const p = html('p', { class: 'naive-total' }, body);
  html('strong', {}, p, t('naiveTotal', { t: money(total) }));
  if (!allRead) {
    p.append(' ', t('partial', { k: reads.length, n: state.branches.length }));
  } else if (total === bankTotal) {
    html('p', { class: 'verdict ok' }, body, t('naiveRight', { t: money(bankTotal) }));
  } else {
    const diff = total - bankTotal;
    html('p', { class: 'verdict bad' }, body,
      t('naiveWrong', { t: money(bankTotal), d: `${diff > 0 ? '+' : '−'}${money(Math.abs(diff))}` }));
  }
  if (!naive) return;
  const items = [
    ...naive.lost.map((m) => ['lost', t('lostItem', { amt: money(m.amount), from: m.from, to: m.to, seq: m.seq })]),
    ...naive.counted_twice.map((m) => ['twice', t('twiceItem', { amt: money(m.amount), from: m.from, to: m.to, seq: m.seq })]),
  ];
  if (items.length) {
    const ul = html('ul', { class: 'naive-why' }, body);
    for (const [cls, text] of items) html('li', { class: `why-${cls}` }, ul, text);
  }
  if (naive.consistent) {
    html('p', { class: 'naive-cut ok' }, body, t('cutConsistent'));
  } else {
    const list = naive.backward.map((m) => (m.kind === 'transfer'
      ? t('msgTransfer', { seq: m.seq, amt: money(m.amount), from: m.from, to: m.to })
      : t('msgMarker', { seq: m.seq, from: m.from, to: m.to }))).join(', ');
    html('p', { class: 'naive-cut bad' }, body, t('cutInconsistent', { list }));
  }
}

// Jobs and locks: what the naive detector declares from its reads, and, when the run shows it
// wrong (a false termination, a phantom deadlock), what was really true when it last read.
function renderNaiveProperty(body, p, k, n) {
  const says = html('p', { class: 'naive-total naive-property', 'data-holds': String(holds(p)) }, body);
  html('strong', {}, says, t('naiveSays', { v: propertyText(p) }));
  if (!holds(p) && p.terminated !== undefined && k < n) says.append(' ', t('partial', { k, n }));
  const wrong = p.false_termination || p.phantom;
  if (wrong) {
    const box = html('div', { class: 'verdict bad naive-wrong' }, body);
    html('p', {}, box, t(p.phantom ? 'naivePhantom' : 'naiveFalseTermination'));
    if (p.truth) html('p', {}, box, t('naiveTruth', { v: propertyText(p.truth) }));
  } else if (holds(p)) {
    html('p', { class: 'verdict ok' }, body, t('naiveRightApp'));
  }
}

export function renderLog(list, scroller, steps) {
  list.textContent = '';
  if (!steps.length) {
    html('li', { class: 'muted empty' }, list, t('logEmpty'));
    return;
  }
  steps.forEach((s, k) => {
    const li = html('li', { class: k === steps.length - 1 ? 'latest' : null, 'data-line': s.line }, list);
    html('code', {}, li, s.command);
    const ul = html('ul', {}, li);
    for (const line of s.log || []) html('li', {}, ul, line);
  });
  scroller.scrollTop = scroller.scrollHeight;
}
