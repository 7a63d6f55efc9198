// The text panels: Chandy-Lamport snapshot, Naive reading and Event log. They only render
// what the server computed (the state's snapshots, the `naive` object, the steps' log lines).
import { html } from './svg.js';
import { t, money } from './i18n.js';
import { STATE_CLASS } from './network.js';

function table(parent, headers, cls) {
  const tb = html('table', { class: cls }, parent);
  const tr = html('tr', {}, html('thead', {}, tb));
  for (const h of headers) html('th', { scope: 'col' }, tr, h);
  return html('tbody', {}, tb);
}

function amounts(list) {
  return list.map(money).join(', ');
}

export function renderSnapshot(body, state, snap, lab) {
  body.textContent = '';
  if (!snap) {
    html('p', { class: 'muted' }, body, t('noSnapshot'));
    return;
  }
  const head = html('p', { class: 'snap-head' }, body);
  html('strong', {}, head, t('snapHeader', { id: snap.id, who: snap.initiators.join(', ') }));
  head.append(' ');
  html('span', { class: `badge ${snap.complete ? 'badge-done' : 'badge-run'}`, 'data-status': snap.complete ? 'complete' : 'running' },
    head, snap.complete ? t('complete') : t('running'));

  const recorded = new Map(snap.recorded.map((r) => [r.name, r.balance]));
  const done = new Set(snap.parts_done || []);
  const rows = table(body, [t('colBranch'), t('colRecorded'), t('colPartDone')], 'cl-branches');
  for (const b of state.branches) {
    const tr = html('tr', { 'data-branch': b.name }, rows);
    html('th', { scope: 'row' }, tr, b.name);
    html('td', { class: recorded.has(b.name) ? 'is-recorded' : 'muted' }, tr,
      recorded.has(b.name) ? money(recorded.get(b.name)) : t('notYet'));
    html('td', {}, tr, done.has(b.name) ? `✓ ${t('yes')}` : t('no'));
  }

  const crows = table(body, [t('colChannel'), t('colState')], 'cl-channels');
  for (const c of snap.channels) {
    const cls = STATE_CLASS[c.state] || 'not';
    const tr = html('tr', { 'data-channel': `${c.from}->${c.to}`, 'data-state': c.state }, crows);
    html('th', { scope: 'row' }, tr, `${c.from}→${c.to}`);
    const td = html('td', {}, tr);
    html('span', { class: `dot ch-${cls}`, 'aria-hidden': 'true' }, td);
    if (c.state === 'recording') {
      td.append(`${t('stRec')}: ${t('soFar', { list: c.transfers.length ? amounts(c.transfers) : t('nothingYet') })}`);
    } else if (c.state === 'closed') {
      td.append(`${t('stClosed')}: ${t('contents', { list: c.transfers.length ? amounts(c.transfers) : t('empty') })}`);
    } else {
      td.append(t('stNot'));
    }
  }

  const expected = snap.markers_expected ?? state.channels.length;
  html('p', { class: 'cl-markers' }, body, t('markers', { s: snap.markers_sent, e: expected }));
  html('p', { class: 'cl-parts' }, body,
    t('partsDone', { list: done.size ? [...state.branches.map((b) => b.name).filter((n) => done.has(n))].join(', ') : t('noneYet') }));

  if (snap.complete && snap.total !== undefined) {
    const terms = [
      ...snap.recorded.map((r) => `${r.name} ${money(r.balance)}`),
      ...snap.channels.filter((c) => c.transfers.length).map((c) => `${c.from}→${c.to} ${amounts(c.transfers).replace(/, /g, ' + ')}`),
    ];
    const p = html('p', { class: 'cl-total' }, body);
    html('strong', {}, p, t('total', { terms: terms.join(' + '), total: money(snap.total) }));
    if (snap.total === state.total) p.append(' ', t('totalMatches', { t: money(state.total) }));
  } else {
    html('p', { class: 'muted cl-total-pending' }, body, t('totalPending'));
  }

  const earlier = state.snapshots.filter((s) => s.id !== snap.id);
  if (earlier.length) {
    html('p', { class: 'muted' }, body, t('earlier', {
      list: earlier.map((s) => `#${s.id} ${s.complete ? money(s.total) : t('running')}`).join(', '),
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
    html('p', { class: 'muted' }, body, t('noReads'));
    return;
  }
  const rows = table(body, [t('colBranch'), t('colCopied')], 'naive-reads');
  for (const r of reads) {
    const tr = html('tr', { 'data-branch': r.name }, rows);
    html('th', { scope: 'row' }, tr, r.name);
    html('td', {}, tr, money(r.balance));
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
