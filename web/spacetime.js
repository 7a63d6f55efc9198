// The Space-time diagram: a horizontal line per branch, time to the right; sends, deliveries,
// records and reads as points; each message an arrow from its send to its delivery; the snapshot
// cut through the record points and the naive cut through the read points. On channels that may
// reorder, a message delivered before older ones on its channel (the server lists them in the
// deliver event's "overtook") is drawn as overtaking. The student's own cut is cut.js's.
import { svg, clearSvg } from './svg.js';
import { t } from './i18n.js';
import { messageLabel, messageTitle, fromEvent } from './labels.js';
import { appOf, stateText, APP_KINDS } from './appwords.js';
import { renderCut, drawnBackward } from './cut.js';
import { waits } from './waits.js';

// The geometry grows with the diagram's type (12 px; 20 px and up in presentation mode, style.css),
// so that larger labels keep their room: set by renderSpacetime, `k` times these.
let X0 = 64; // first column
let Y0 = 52; // first row
let ROW = 64;
let R = 4.5; // point radius
let K = 1;

// The run's algorithm, and what it calls its markers (labels.js); set by renderSpacetime.
let algorithm = 'chandy-lamport';
let markers = 'marker';

function msgText(e) {
  return messageLabel(fromEvent(e), markers);
}

function addDefs(root) {
  const defs = svg('defs', {}, root);
  for (const kind of ['transfer', 'marker', 'backward', ...APP_KINDS]) {
    const m = svg('marker', {
      id: `st-arrow-${kind}`, viewBox: '0 0 10 10', refX: 9, refY: 5,
      markerWidth: 6, markerHeight: 6, orient: 'auto', markerUnits: 'strokeWidth',
    }, defs);
    svg('path', { d: 'M0,1 L10,5 L0,9 Z', class: `st-head-${kind}` }, m);
  }
}

// Columns: one per point event; a record caused by a message (its "cause" says which: a marker,
// or under Lai-Yang a transfer of a newer epoch) shares that message's delivery column. Returns history index -> column, and the column count.
function layoutColumns(history) {
  const col = new Map();
  const deliveryCol = new Map(); // message seq -> column of its delivery
  let c = -1;
  for (const e of history) {
    if (!['send', 'deliver', 'record', 'read', 'finish'].includes(e.kind)) continue;
    const by = e.kind === 'record' ? (e.cause === 'transfer' ? e.transfer_seq : e.marker_seq) : undefined;
    if (by !== undefined && deliveryCol.has(by)) {
      col.set(e.i, deliveryCol.get(by));
      continue;
    }
    c += 1;
    col.set(e.i, c);
    if (e.kind === 'deliver') deliveryCol.set(e.seq, c);
  }
  return { col, columns: c + 1 };
}

// The diagram's geometry: rows by branch, x by column, "now" after the last column.
function makeGeometry(svgEl, scrollEl, names, col, columns) {
  const avail = Math.max(300, (scrollEl.clientWidth || 600) - 4);
  const step = Math.max(16 * K, Math.min(56 * K, (avail - X0 - 56 * K) / Math.max(columns, 1)));
  const xNow = X0 + Math.max(columns - 1, 0) * step + step;
  const g = {
    names,
    columns,
    row: new Map(names.map((n, i) => [n, Y0 + i * ROW])),
    xAt: (i) => X0 + col.get(i) * step,
    has: (i) => col.has(i),
    xNow,
    x0: X0,
    k: K,
    // Whole pixels: a fractional width is laid out rounded, which scales the drawing by a hair
    // under 1 and its 20 px labels (presentation mode) to 19.9995 px.
    width: Math.ceil(Math.max(avail, xNow + 56 * K)),
    height: Math.ceil(Y0 + (names.length - 1) * ROW + 52 * K),
  };
  svgEl.setAttribute('width', g.width);
  svgEl.setAttribute('height', g.height);
  svgEl.setAttribute('viewBox', `0 0 ${g.width} ${g.height}`);
  return g;
}

// Branch lines, their names, the time arrow and the "now" line.
function drawRows(svgEl, g) {
  const base = svg('g', { class: 'st-rows' }, svgEl);
  for (const n of g.names) {
    svg('line', { x1: X0 - 14 * K, y1: g.row.get(n), x2: g.width - 14, y2: g.row.get(n), class: 'st-row' }, base);
    svg('text', { x: 10, y: g.row.get(n) + 4 * K, class: 'st-name' }, base, n);
  }
  svg('text', { x: g.width - 14, y: 16 * K, 'text-anchor': 'end', class: 'st-time' }, base, t('time'));
  if (g.columns > 0) {
    // "Now": where undelivered messages are, still on their way.
    svg('line', { x1: g.xNow, y1: Y0 - 16 * K, x2: g.xNow, y2: g.height - 30 * K, class: 'st-now' }, base);
    svg('text', { x: g.xNow, y: g.height - 16 * K, 'text-anchor': 'middle', class: 'st-time' }, base, t('now'));
  }
}

// Each message an arrow from its send to its delivery (or towards "now" while in flight);
// messages crossing a cut backwards get a halo, messages that overtook older ones a dotted band.
function drawMessages(layer, g, sends, delivers, backwardSeqs) {
  for (const s of sends) {
    const d = delivers.get(s.seq);
    const x1 = g.xAt(s.i);
    const y1 = g.row.get(s.from);
    const x2 = d ? g.xAt(d.i) : g.xNow;
    const y2 = d ? g.row.get(d.to) : y1 + (g.row.get(s.to) - y1) * 0.45;
    const len = Math.hypot(x2 - x1, y2 - y1) || 1;
    const ex = x2 - ((x2 - x1) / len) * (d ? R + 1 : 0);
    const ey = y2 - ((y2 - y1) / len) * (d ? R + 1 : 0);
    const backward = backwardSeqs.has(s.seq);
    const overtook = d && d.overtook ? d.overtook : [];
    const grp = svg('g', {
      class: `st-msg st-${s.message}${backward ? ' backward' : ''}${overtook.length ? ' overtakes' : ''}${d ? '' : ' undelivered'}`,
      'data-seq': s.seq,
    }, layer);
    let title = `${messageTitle(fromEvent(s), markers)} ${s.from}→${s.to}`;
    if (overtook.length) title += ` — ${t('overtakesTitle', { list: overtook.map((q) => `#${q}`).join(', ') })}`;
    svg('title', {}, grp, title);
    if (backward) svg('line', { x1, y1, x2: ex, y2: ey, class: 'msg-halo' }, grp);
    // Not by colour alone: a crossing backwards is dash-dotted and carries a ✗ (the legend too).
    if (backward) {
      svg('text', {
        x: (x1 + x2) / 2 - 8 * K, y: (y1 + y2) / 2 + 5 * K, 'text-anchor': 'end', class: 'st-cross-mark',
      }, grp, '✗');
    }
    if (overtook.length) svg('line', { x1, y1, x2: ex, y2: ey, class: 'msg-overtake' }, grp);
    svg('line', {
      x1, y1, x2: ex, y2: ey,
      class: backward ? 'msg-backward' : `msg-${s.message}`,
      'marker-end': d ? `url(#st-arrow-${backward ? 'backward' : s.message})` : null,
    }, grp);
    if (s.message === 'transfer' || APP_KINDS.includes(s.message)) {
      svg('text', { x: (x1 + x2) / 2 + 4 * K, y: (y1 + y2) / 2 - 4 * K, class: 'st-amount' }, grp, msgText(s));
    }
  }
}

// One cut: a polyline through each branch's point (history index in `at`; a branch without one
// is cut at "now"), labelled above or below.
function drawCut(cutLayer, labelLayer, g, at, cls, label, bad, labelBelow) {
  if (at.size === 0) return;
  const pts = g.names.map((n) => [at.has(n) ? g.xAt(at.get(n)) : g.xNow, g.row.get(n)]);
  const first = pts[0];
  const last = pts[pts.length - 1];
  const all = [[first[0], first[1] - 22 * K], ...pts, [last[0], last[1] + 22 * K]];
  const grp = svg('g', { class: `st-cut st-${cls}${bad ? ' bad' : ''}` }, cutLayer);
  svg('polyline', { points: all.map((p) => p.join(',')).join(' '), class: cls }, grp);
  const lx = labelBelow ? last[0] : first[0];
  const ly = labelBelow ? last[1] + 38 * K : first[1] - 28 * K;
  const anchor = lx > g.width - 170 * K ? 'end' : (lx < 120 * K ? 'start' : 'middle');
  svg('text', { x: lx, y: ly, 'text-anchor': anchor, class: `cut-label${bad ? ' bad' : ''}`, 'data-cut': cls }, labelLayer, label);
}

// The point events on top: sends, deliveries, records (squares), reads (diamonds) and, for jobs, a
// branch finishing one (a tick: a step of its own, no message).
function drawPoints(layer, g, history) {
  for (const e of history) {
    if (!g.has(e.i)) continue;
    const x = g.xAt(e.i);
    const y = g.row.get(e.branch);
    let p;
    let title;
    if (e.kind === 'send') {
      p = svg('circle', { cx: x, cy: y, r: R, class: 'pt-send' }, layer);
      title = t('evSend', { b: e.branch, to: e.to, what: msgText(e) });
    } else if (e.kind === 'deliver') {
      p = svg('circle', { cx: x, cy: y, r: R, class: 'pt-deliver' }, layer);
      title = t('evDeliver', { b: e.branch, from: e.from, what: msgText(e) });
    } else if (e.kind === 'record') {
      p = svg('rect', { x: x - 5 * K, y: y - 5 * K, width: 10 * K, height: 10 * K, class: 'pt-record' }, layer);
      title = t('evRecord', { b: e.branch, v: stateText(e), id: e.snapshot });
    } else if (e.kind === 'finish') {
      p = svg('path', { d: `M${x - 5 * K} ${y - 1 * K} L${x - 1.5 * K} ${y + 4 * K} L${x + 5 * K} ${y - 6 * K}`, class: 'pt-finish' }, layer);
      title = t('evFinish', { b: e.branch });
    } else {
      const d = 6 * K;
      p = svg('path', { d: `M${x} ${y - d} L${x + d} ${y} L${x} ${y + d} L${x - d} ${y} Z`, class: 'pt-read' }, layer);
      title = t('evRead', { b: e.branch, v: stateText(e) });
    }
    p.setAttribute('data-kind', e.kind);
    svg('title', {}, p, title);
  }
}

// A sentence under the diagram says what is highlighted.
function describeCrossings(noteEl, sends, delivers, naiveBackward, snapBackward, anyCut) {
  const describe = (seqs) => [...seqs].map((seq) => {
    const s = sends.find((e) => e.seq === seq);
    if (s.message === 'transfer' || APP_KINDS.includes(s.message)) return t('msgTransfer', { seq, amt: msgText(s), from: s.from, to: s.to });
    if (s.message === 'marker' && algorithm === 'chandy-lamport') return t('msgMarker', { seq, from: s.from, to: s.to });
    return t('msgOther', { seq, label: msgText(s), from: s.from, to: s.to });
  }).join(', ');
  const notes = [];
  if (naiveBackward.size) notes.push(t('stNoteBackward', { list: describe(naiveBackward), cut: t('naiveCut') }));
  if (snapBackward.size) notes.push(t('stNoteBackward', { list: describe(snapBackward), cut: t('snapCut') }));
  for (const d of delivers.values()) {
    if (d.overtook) notes.push(t('stNoteOvertook', { msg: describe([d.seq]), list: describe(d.overtook) }));
  }
  if (!notes.length && anyCut) notes.push(t('stNoteOk'));
  noteEl.textContent = notes.join(' ');
  noteEl.classList.toggle('bad', naiveBackward.size + snapBackward.size > 0);
}

export function renderSpacetime(svgEl, scrollEl, noteEl, state, history, snap, naive) {
  clearSvg(svgEl);
  algorithm = state.algorithm || 'chandy-lamport';
  markers = state.markers || 'marker';
  K = Math.max(1, parseFloat(getComputedStyle(svgEl).fontSize) / 12) || 1;
  [X0, Y0, ROW, R] = [64 * K, 52 * K, 64 * K, 4.5 * K];
  const names = state.branches.map((b) => b.name);
  const { col, columns } = layoutColumns(history);
  const g = makeGeometry(svgEl, scrollEl, names, col, columns);
  addDefs(svgEl);
  drawRows(svgEl, g);

  const sends = history.filter((e) => e.kind === 'send');
  const delivers = new Map(history.filter((e) => e.kind === 'deliver').map((e) => [e.seq, e]));
  // Cut points: the snapshot's records, the naive reader's reads.
  const recAt = new Map();
  if (snap) for (const e of history) if (e.kind === 'record' && e.snapshot === snap.id) recAt.set(e.branch, e.i);
  const readAt = new Map();
  for (const e of history) if (e.kind === 'read') readAt.set(e.branch, e.i);
  // While a question about a cut waits (waits.js), the cuts are drawn without their verdict.
  const judging = !waits('cut');
  const naiveBackward = new Set((judging && naive && naive.backward ? naive.backward : []).map((m) => m.seq));
  const snapBackward = new Set((judging && snap && snap.backward ? snap.backward : []).map((m) => m.seq));

  // Layers: cuts under the messages, points and labels on top.
  const cutLayer = svg('g', { class: 'st-cuts' }, svgEl);
  const msgLayer = svg('g', { class: 'st-messages' }, svgEl);
  // The student's drawn cut (cut.js) marks its backward messages as the other cuts do.
  drawMessages(msgLayer, g, sends, delivers, new Set([...naiveBackward, ...snapBackward, ...drawnBackward()]));
  const labelLayer = svg('g', { class: 'st-labels' });
  if (snap) {
    const pending = names.some((n) => !recAt.has(n));
    const status = snapBackward.size ? t('inconsistent') : (pending ? t('inProgress') : t('consistent'));
    drawCut(cutLayer, labelLayer, g, recAt, 'cut-snapshot', judging ? t('cutLabel', { cut: t('snapCut'), status }) : t('snapCut'), snapBackward.size > 0, false);
  }
  if (readAt.size) {
    // The naive detectors of jobs and locks are judged by their verdict (the naive panel), not by
    // their cut: the server says nothing of the cut there, so the label says nothing either.
    const judged = judging && !!(naive && naive.backward);
    const status = naiveBackward.size ? t('inconsistent') : t('consistent');
    drawCut(cutLayer, labelLayer, g, readAt, 'cut-naive', judged ? t('cutLabel', { cut: t('naiveCut'), status }) : t('naiveCut'), naiveBackward.size > 0, true);
  }
  const pts = svg('g', { class: 'st-points' }, svgEl);
  svgEl.appendChild(labelLayer);
  drawPoints(pts, g, history);
  if (columns === 0) {
    svg('text', { x: X0, y: Y0 + ((names.length - 1) * ROW) / 2 + 4 * K, class: 'st-empty' }, svgEl, t('stEmpty'));
  }
  describeCrossings(noteEl, sends, delivers, naiveBackward, snapBackward, judging && (readAt.size || recAt.size));
  renderCut({ svgEl, scrollEl, cutLayer, g, history, markers });
}

// The legend names markers as the run's algorithm does, and shows "overtakes" only where a
// message can overtake: channels that reorder, or unaligned barriers sent at a channel's head.
export function renderSpacetimeLegend(legendEl, state) {
  const algo = state.algorithm || 'chandy-lamport';
  const key = { control: 'lgControl', barrier: 'lgBarrier' }[state.markers] || 'lgMarker';
  legendEl.querySelector('[data-legend="marker"]').textContent = t(key);
  const overtakes = state.fifo === false || algo === 'unaligned';
  const application = appOf(state);
  const show = { overtakes, bank: application === 'bank', jobs: application === 'jobs', locks: application === 'locks' };
  for (const li of legendEl.querySelectorAll('li[data-show]')) li.hidden = !show[li.dataset.show];
}
