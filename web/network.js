// The Network panel: a box per branch, a line with an arrow per channel, the messages waiting in
// each channel beside its line (oldest nearest the receiver), and the invariant line.
import { svg, clearSvg } from './svg.js';
import { t, money } from './i18n.js';
import { messageLabel, messageTitle, isBarrier } from './labels.js';

const VIEW_W = 600; // layout space; the viewBox is fitted around the boxes
const VIEW_H = 440;
const LANE = 9; // the two directions of a pair run side by side, this far from the centre line
const GAP = 7; // between a box and the end of a channel line
const MSG_H = 22;

export const STATE_CLASS = { 'not recorded': 'not', recording: 'rec', closed: 'closed', 'held back': 'held' };

// Each branch's depth (longest path from a source) when the channels have no cycle, else null.
function depths(names, channels) {
  if (!channels.length) return null;
  const depth = new Map(names.map((n) => [n, 0]));
  for (let round = 0; round <= names.length; round++) {
    let changed = false;
    for (const c of channels) {
      if (depth.get(c.to) < depth.get(c.from) + 1) {
        depth.set(c.to, depth.get(c.from) + 1);
        changed = true;
      }
    }
    if (!changed) return depth;
  }
  return null; // still growing after n rounds: a cycle
}

// A network without cycles (a dataflow such as P1->P2,P3->P4) is drawn in layers from left to
// right, so that every channel points forwards and none crosses another needlessly; any other
// network in a ring.
function layered(names, depth) {
  const layers = Math.max(...depth.values()) + 1;
  const pts = new Map();
  for (let d = 0; d < layers; d++) {
    const here = names.filter((n) => depth.get(n) === d);
    // Wide apart, so that a diagonal channel has room for its two transfers and a marker.
    const gap = here.length > 1 ? Math.min(250, 500 / (here.length - 1)) : 0;
    here.forEach((n, k) => pts.set(n, {
      x: layers === 1 ? VIEW_W / 2 : 40 + ((VIEW_W - 80) * d) / (layers - 1),
      y: VIEW_H / 2 + (k - (here.length - 1) / 2) * gap,
    }));
  }
  return pts;
}

function positions(names, channels) {
  const n = names.length;
  const depth = n > 2 ? depths(names, channels) : null;
  if (depth) return layered(names, depth);
  let pts;
  if (n === 2) pts = [[130, 215], [470, 215]];
  else if (n === 3) pts = [[120, 100], [480, 100], [300, 345]];
  else {
    const r = 170;
    pts = names.map((_, i) => {
      const a = -Math.PI / 2 - Math.PI / n + (2 * Math.PI * i) / n;
      return [VIEW_W / 2 + r * Math.cos(a), VIEW_H / 2 + 10 + r * Math.sin(a)];
    });
  }
  return new Map(names.map((name, i) => [name, { x: pts[i][0], y: pts[i][1] }]));
}

function boxSize(n) {
  return n <= 4 ? { w: 104, h: 50 } : { w: 78, h: 44 };
}

// Distance from a box's centre to its border along unit direction (dx, dy).
function clipDistance(box, dx, dy) {
  const ax = Math.abs(dx) < 1e-9 ? Infinity : box.w / 2 / Math.abs(dx);
  const ay = Math.abs(dy) < 1e-9 ? Infinity : box.h / 2 / Math.abs(dy);
  return Math.min(ax, ay);
}

function addArrowDefs(root) {
  const defs = svg('defs', {}, root);
  for (const cls of Object.values(STATE_CLASS)) {
    const m = svg('marker', {
      id: `nw-arrow-${cls}`, viewBox: '0 0 10 10', refX: 9, refY: 5,
      markerWidth: 7, markerHeight: 7, orient: 'auto-start-reverse', markerUnits: 'strokeWidth',
    }, defs);
    svg('path', { d: 'M0,1 L10,5 L0,9 Z', class: `arrow-head ch-${cls}` }, m);
  }
}

// Enter and Space on a focusable SVG element, as on a button.
function onActivate(el, fn) {
  el.addEventListener('click', fn);
  el.addEventListener('keydown', (e) => {
    if (e.key === 'Enter' || e.key === ' ') {
      e.preventDefault();
      fn();
    }
  });
}

// A channel. On a FIFO channel the whole channel is the button that delivers its head. On a
// non-FIFO channel any waiting message may go next, so each message is a button of its own
// (deliver ... at=K, K its place in the queue, oldest = 1) and the channel only groups them (a
// button inside a button would be unusable). A channel held back behind a barrier (aligned) is
// drawn dashed with a "held back" label, its messages marked held: nothing leaves it for now.
function drawChannel(root, ch, stateName, pos, box, onDeliver, run) {
  const a = pos.get(ch.from);
  const b = pos.get(ch.to);
  const len = Math.hypot(b.x - a.x, b.y - a.y);
  const dx = (b.x - a.x) / len;
  const dy = (b.y - a.y) / len;
  const rx = -dy; // right-hand side of the direction of travel (y grows downwards)
  const ry = dx;
  const ca = clipDistance(box, dx, dy) + GAP;
  const start = { x: a.x + dx * ca + rx * LANE, y: a.y + dy * ca + ry * LANE };
  const end = { x: b.x - dx * ca + rx * LANE, y: b.y - dy * ca + ry * LANE };
  const lineLen = Math.hypot(end.x - start.x, end.y - start.y);
  const cls = STATE_CLASS[stateName] || 'not';
  const held = cls === 'held';
  const anyOrder = !run.fifo;

  // The waiting messages as drawn, oldest first (see the layout below: those that do not fit
  // are a "+N"): a channel button's name must contain all the text it shows (WCAG 2.5.3).
  const labels = ch.queue.map((m) => messageLabel(m, run.markers));
  const msgW = Math.max(46, ...labels.map((l) => 12 + l.length * 7));
  const along = msgW * Math.abs(dx) + MSG_H * Math.abs(dy);
  const spacing = along + 6;
  const fits = Math.max(1, Math.floor((lineLen - 14) / spacing));
  const shown = ch.queue.length > fits ? fits - 1 : ch.queue.length;
  const drawn = labels.slice(0, shown);
  if (shown < ch.queue.length) drawn.push(t('more', { n: ch.queue.length - shown }));
  let what = ch.queue.length === 0
    ? t('channelEmpty')
    : t('channelWaitingAll', { n: ch.queue.length, list: drawn.join(', ') });
  if (held) what += `, ${t('heldBack')}`;
  const g = svg('g', anyOrder ? {
    class: `channel any-order ch-${cls}`, role: 'group',
    'data-from': ch.from, 'data-to': ch.to, 'data-state': stateName || 'not recorded',
    'aria-label': t('channelGroupAria', { from: ch.from, to: ch.to, what }),
  } : {
    class: `channel ch-${cls}`, tabindex: 0, role: 'button',
    'data-from': ch.from, 'data-to': ch.to, 'data-state': stateName || 'not recorded',
    'data-focus-key': `ch-${ch.from}-${ch.to}`,
    'aria-label': t('channelAria', { from: ch.from, to: ch.to, what }),
  }, root);
  svg('line', { x1: start.x, y1: start.y, x2: end.x, y2: end.y, class: 'hit' }, g);
  svg('line', {
    x1: start.x, y1: start.y, x2: end.x, y2: end.y, class: `ch-line ch-${cls}`,
    'marker-end': `url(#nw-arrow-${cls})`,
  }, g);

  if (held) {
    // On the side away from the messages (a dataflow has no channel back on that side). Beside
    // the button, not in it: its name already says "held back".
    const mx = (start.x + end.x) / 2 - rx * 14;
    const my = (start.y + end.y) / 2 - ry * 14 + 4;
    svg('text', {
      x: mx, y: my, 'text-anchor': 'middle', class: 'ch-held-label', 'aria-hidden': 'true',
      'data-from': ch.from, 'data-to': ch.to,
    }, root, t('heldBack'));
  }

  // Messages: the head (oldest) nearest the receiver, the others queued behind it.
  const side = 5 + (msgW / 2) * Math.abs(rx) + (MSG_H / 2) * Math.abs(ry);
  for (let k = 0; k < shown; k++) {
    const m = ch.queue[k];
    const back = along / 2 + 12 + k * spacing;
    const cx = end.x - dx * back + rx * side;
    const cy = end.y - dy * back + ry * side;
    const title = messageTitle(m, run.markers) + (held ? ` — ${t('heldTitle')}` : '');
    const mg = svg('g', {
      class: `nmsg nmsg-${m.kind}${k === 0 ? ' head' : ''}${held ? ' held' : ''}`, 'data-seq': m.seq,
    }, g);
    if (anyOrder) {
      // The name starts with the visible label, so that saying what is seen names the button.
      mg.setAttribute('role', 'button');
      mg.setAttribute('tabindex', '0');
      mg.setAttribute('data-at', k + 1);
      mg.setAttribute('data-focus-key', `msg-${ch.from}-${ch.to}-${m.seq}`);
      mg.setAttribute('aria-label', t('messageAria', {
        label: labels[k], from: ch.from, to: ch.to, k: k + 1, n: ch.queue.length, title,
      }));
      onActivate(mg, () => onDeliver(ch.from, ch.to, k + 1));
    }
    svg('title', {}, mg, title);
    svg('rect', { x: cx - msgW / 2, y: cy - MSG_H / 2, width: msgW, height: MSG_H, rx: 5 }, mg);
    svg('text', { x: cx, y: cy + 4, 'text-anchor': 'middle' }, mg, labels[k]);
    // Not drawn (SVG draws only <text>), but it keeps the labels apart in the channel's text
    // ("$10 barrier", not "$10barrier"), which must read as part of its name (WCAG 2.5.3).
    g.append(' ');
  }
  if (shown < ch.queue.length) {
    const back = along / 2 + 12 + shown * spacing;
    svg('text', {
      x: end.x - dx * back + rx * side, y: end.y - dy * back + ry * side + 4,
      'text-anchor': 'middle', class: 'nmsg-more',
    }, g, t('more', { n: ch.queue.length - shown }));
  }

  if (!anyOrder) onActivate(g, () => onDeliver(ch.from, ch.to));
}

function drawBranch(root, br, p, box, recorded, centre) {
  const g = svg('g', {
    class: `branch${recorded !== undefined ? ' recorded' : ''}`, 'data-name': br.name,
  }, root);
  svg('rect', { x: p.x - box.w / 2, y: p.y - box.h / 2, width: box.w, height: box.h, rx: 8, class: 'branch-box' }, g);
  svg('text', { x: p.x, y: p.y - 5, 'text-anchor': 'middle', class: 'branch-name' }, g, br.name);
  svg('text', { x: p.x, y: p.y + 15, 'text-anchor': 'middle', class: 'branch-balance' }, g, money(br.balance));
  if (recorded !== undefined) {
    const label = t('recordedTag', { v: money(recorded) });
    const w = 16 + label.length * 7;
    const above = p.y <= centre.y;
    const ty = above ? p.y - box.h / 2 - 18 : p.y + box.h / 2 + 18;
    const tg = svg('g', { class: 'rec-tag' }, g);
    svg('rect', { x: p.x - w / 2, y: ty - 11, width: w, height: 22, rx: 11 }, tg);
    svg('text', { x: p.x, y: ty + 4, 'text-anchor': 'middle' }, tg, label);
  }
}

// Draws the network. `snap` is the snapshot whose colours are shown (the running one, else the
// latest), or null. onDeliver(from, to) is called when a FIFO channel or its head message is
// chosen, onDeliver(from, to, k) when the k-th waiting message of a non-FIFO channel is.
export function renderNetwork(svgEl, invariantEl, state, snap, onDeliver) {
  clearSvg(svgEl);
  addArrowDefs(svgEl);
  const names = state.branches.map((b) => b.name);
  const pos = positions(names, state.channels);
  const run = { fifo: state.fifo !== false, algorithm: state.algorithm || 'chandy-lamport', markers: state.markers || 'marker' };
  const box = boxSize(names.length);
  const xs = [...pos.values()].map((p) => p.x);
  const ys = [...pos.values()].map((p) => p.y);
  const x0 = Math.min(...xs) - box.w / 2 - 45;
  const y0 = Math.min(...ys) - box.h / 2 - 48;
  svgEl.setAttribute('viewBox', `${x0} ${y0} ${Math.max(...xs) + box.w / 2 + 45 - x0} ${Math.max(...ys) + box.h / 2 + 44 - y0}`);
  const centre = [...pos.values()].reduce((c, p) => ({ x: c.x + p.x / names.length, y: c.y + p.y / names.length }), { x: 0, y: 0 });

  const chState = new Map();
  const recorded = new Map();
  if (snap) {
    for (const c of snap.channels || []) chState.set(`${c.from}>${c.to}`, c.state);
    for (const r of snap.recorded || []) recorded.set(r.name, r.balance);
  }
  const channelLayer = svg('g', { class: 'channels' }, svgEl);
  for (const ch of state.channels) {
    drawChannel(channelLayer, ch, chState.get(`${ch.from}>${ch.to}`), pos, box, onDeliver, run);
  }
  const branchLayer = svg('g', { class: 'branches' }, svgEl);
  for (const br of state.branches) drawBranch(branchLayer, br, pos.get(br.name), box, recorded.get(br.name), centre);

  const balances = state.branches.reduce((s, b) => s + b.balance, 0);
  const holds = balances + state.in_flight === state.total;
  invariantEl.textContent = '';
  invariantEl.append(t('invariant', { b: money(balances), f: money(state.in_flight), t: money(state.total) }));
  const mark = document.createElement('span');
  mark.className = holds ? 'inv-ok' : 'inv-bad';
  mark.textContent = holds ? ` ✓ ${t('invariantOk')}` : ` ✗ ${t('invariantBad')}`;
  invariantEl.append(mark);
}

// The legend and the hint under the network say only what this run can show: epochs and control
// messages under Lai-Yang, held-back channels under aligned barriers, "barrier" for the barrier
// algorithms' markers, and how to deliver when channels may reorder.
export function renderNetworkLegend(legendEl, hintEl, state) {
  const algorithm = state.algorithm || 'chandy-lamport';
  const show = {
    'lai-yang': algorithm === 'lai-yang',
    aligned: algorithm === 'aligned',
    marker: algorithm !== 'lai-yang',
  };
  for (const li of legendEl.querySelectorAll('li[data-show]')) li.hidden = !show[li.dataset.show];
  legendEl.querySelector('[data-legend="marker"]').textContent = t(isBarrier(state.markers) ? 'legendBarrier' : 'legendMarker');
  hintEl.textContent = t(state.fifo === false ? 'clickHintAnyOrder' : 'clickHint');
}
