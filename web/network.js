// The Network panel: a box per branch, a line with an arrow per channel, the messages waiting in
// each channel beside its line (oldest nearest the receiver), and the invariant line.
import { svg, clearSvg } from './svg.js';
import { t, money } from './i18n.js';
import { messageLabel, messageTitle, isBarrier } from './labels.js';
import { appOf, stateText, stateClass, propertyText, holds } from './appwords.js';
import { waits } from './waits.js';

const VIEW_W = 600; // layout space; the viewBox is fitted around the boxes
const VIEW_H = 440;
const GAP = 7; // between a box and the end of a channel line
// What the screen must get, in CSS px, whatever the drawing's scale: a target to press of at least
// 24x24 (WCAG 2.5.8; 26 leaves a margin), and text of at least 11 px (20 px in presentation mode).
const TARGET_PX = 26;
const TEXT_PX = 11;
const TEXT_PX_PRESENT = 20;

// Sizes in the drawing's own units for a drawing shown at `scale` CSS px per unit. The two
// directions of a pair run side by side, `lane` from the centre line, far enough apart that
// their bands to press (`hit`) do not touch.
function metrics(scale, present) {
  const minPx = present ? TEXT_PX_PRESENT : TEXT_PX;
  // A thousandth over: the scale measured here and the one the browser lays out differ in the
  // fifth digit, which would leave a 20 px label at 19.9997 px.
  const font = (base, extra = 0) => Math.max(base, ((minPx + extra) * 1.001) / scale);
  const msgFont = font(12);
  const hit = Math.max(18, TARGET_PX / scale);
  return {
    msgFont,
    nameFont: font(15, 2),
    balFont: font(14, 1),
    tagFont: font(12),
    moreFont: font(12),
    msgH: Math.max(22, msgFont * 1.75, TARGET_PX / scale),
    hit,
    lane: Math.max(9, hit / 2 + 2),
  };
}

export const STATE_CLASS = { 'not recorded': 'not', recording: 'rec', closed: 'closed', 'held back': 'held' };

// About how wide a label is drawn at `font`: Japanese characters take a full em, others ~0.6.
function textWidth(label, font) {
  let w = 0;
  for (const ch of label) w += /[\u3000-\u9fff\uff00-\uffef]/.test(ch) ? font : font * 0.6;
  return w;
}

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

// Room for the name and the balance at the sizes metrics() chose.
function boxSize(n, m) {
  const base = n <= 4 ? { w: 104, h: 50 } : { w: 78, h: 44 };
  return { w: Math.max(base.w, m.balFont * 3.6), h: Math.max(base.h, (m.nameFont + m.balFont) * 1.5) };
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
      // In the drawing's units, not the line's width: a thick "closed" line keeps a normal head.
      id: `nw-arrow-${cls}`, viewBox: '0 0 10 10', refX: 9, refY: 5,
      markerWidth: 16, markerHeight: 16, orient: 'auto-start-reverse', markerUnits: 'userSpaceOnUse',
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
function drawChannel(root, ch, stateName, pos, box, onDeliver, run, m) {
  const LANE = m.lane;
  const MSG_H = m.msgH;
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
  const labels = ch.queue.map((q) => messageLabel(q, run.markers));
  const msgW = Math.max(46, MSG_H, ...labels.map((l) => m.msgFont + textWidth(l, m.msgFont)));
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
  // The band to press: on this direction's own side of the pair's centre line, from near it out
  // past the waiting messages, so the two directions of a pair never share a point.
  const side = 5 + (msgW / 2) * Math.abs(rx) + (MSG_H / 2) * Math.abs(ry);
  const inner = Math.max(1, LANE - m.hit / 2);
  const outer = Math.max(LANE + m.hit / 2, LANE + side + (msgW / 2) * Math.abs(rx) + (MSG_H / 2) * Math.abs(ry) + 2);
  const angle = (Math.atan2(dy, dx) * 180) / Math.PI;
  const ox = start.x - rx * LANE;
  const oy = start.y - ry * LANE;
  svg('rect', {
    x: 0, y: inner, width: lineLen, height: outer - inner, class: 'hit',
    transform: `translate(${ox} ${oy}) rotate(${angle})`,
  }, g);
  svg('line', {
    x1: start.x, y1: start.y, x2: end.x, y2: end.y, class: `ch-line ch-${cls}`,
    'marker-end': `url(#nw-arrow-${cls})`,
  }, g);

  if (held) {
    // On the side away from the messages (a dataflow has no channel back on that side). Beside
    // the button, not in it: its name already says "held back".
    const mx = (start.x + end.x) / 2 - rx * m.tagFont * 1.2;
    const my = (start.y + end.y) / 2 - ry * m.tagFont * 1.2 + m.tagFont * 0.35;
    svg('text', {
      x: mx, y: my, 'text-anchor': 'middle', class: 'ch-held-label', 'aria-hidden': 'true', 'font-size': m.tagFont,
      'data-from': ch.from, 'data-to': ch.to,
    }, root, t('heldBack'));
  }

  // Messages: the head (oldest) nearest the receiver, the others queued behind it.
  for (let k = 0; k < shown; k++) {
    const msg = ch.queue[k];
    const back = along / 2 + 12 + k * spacing;
    const cx = end.x - dx * back + rx * side;
    const cy = end.y - dy * back + ry * side;
    const title = messageTitle(msg, run.markers) + (held ? ` — ${t('heldTitle')}` : '');
    const mg = svg('g', {
      class: `nmsg nmsg-${msg.kind}${k === 0 ? ' head' : ''}${held ? ' held' : ''}`, 'data-seq': msg.seq,
    }, g);
    if (anyOrder) {
      // The name starts with the visible label, so that saying what is seen names the button.
      mg.setAttribute('role', 'button');
      mg.setAttribute('tabindex', '0');
      mg.setAttribute('data-at', k + 1);
      mg.setAttribute('data-focus-key', `msg-${ch.from}-${ch.to}-${msg.seq}`);
      mg.setAttribute('aria-label', t('messageAria', {
        label: labels[k], from: ch.from, to: ch.to, k: k + 1, n: ch.queue.length, title,
      }));
      onActivate(mg, () => onDeliver(ch.from, ch.to, k + 1));
    }
    svg('title', {}, mg, title);
    svg('rect', { x: cx - msgW / 2, y: cy - MSG_H / 2, width: msgW, height: MSG_H, rx: 5 }, mg);
    svg('text', { x: cx, y: cy + m.msgFont * 0.35, 'text-anchor': 'middle', 'font-size': m.msgFont }, mg, labels[k]);
    // Not drawn (SVG draws only <text>), but it keeps the labels apart in the channel's text
    // ("$10 barrier", not "$10barrier"), which must read as part of its name (WCAG 2.5.3).
    g.append(' ');
  }
  if (shown < ch.queue.length) {
    const back = along / 2 + 12 + shown * spacing;
    svg('text', {
      x: end.x - dx * back + rx * side, y: end.y - dy * back + ry * side + m.moreFont * 0.35,
      'text-anchor': 'middle', class: 'nmsg-more', 'font-size': m.moreFont,
    }, g, t('more', { n: ch.queue.length - shown }));
  }

  if (!anyOrder) onActivate(g, () => onDeliver(ch.from, ch.to));
}

// `recorded`: the branch's recorded state in the snapshot on display (an object with its
// application's key), or undefined.
function drawBranch(root, br, p, box, recorded, centre, m) {
  const kind = stateClass(br);
  const g = svg('g', {
    class: `branch${recorded !== undefined ? ' recorded' : ''}${kind ? ` ${kind}` : ''}`, 'data-name': br.name,
  }, root);
  svg('rect', { x: p.x - box.w / 2, y: p.y - box.h / 2, width: box.w, height: box.h, rx: 8, class: 'branch-box' }, g);
  svg('text', { x: p.x, y: p.y - box.h * 0.08, 'text-anchor': 'middle', class: 'branch-name', 'font-size': m.nameFont }, g, br.name);
  svg('text', { x: p.x, y: p.y + box.h * 0.36, 'text-anchor': 'middle', class: 'branch-balance', 'font-size': m.balFont }, g, stateText(br));
  if (recorded !== undefined) {
    const label = t('recordedTag', { v: stateText(recorded) });
    const w = m.tagFont * 1.4 + textWidth(label, m.tagFont);
    const h = m.tagFont * 1.8;
    const above = p.y <= centre.y;
    const ty = above ? p.y - box.h / 2 - h * 0.8 : p.y + box.h / 2 + h * 0.8;
    const tg = svg('g', { class: 'rec-tag' }, g);
    svg('rect', { x: p.x - w / 2, y: ty - h / 2, width: w, height: h, rx: h / 2 }, tg);
    svg('text', { x: p.x, y: ty + m.tagFont * 0.35, 'text-anchor': 'middle', 'font-size': m.tagFont }, tg, label);
  }
}

// CSS px per unit of the viewBox: the drawing fills its width unless a max-height (style.css)
// stops it first, and it keeps its proportions.
function drawingScale(svgEl, vw, vh) {
  const width = svgEl.getBoundingClientRect().width;
  if (!width) return 1;
  const maxH = parseFloat(getComputedStyle(svgEl).maxHeight);
  const height = Number.isFinite(maxH) ? Math.min(width * (vh / vw), maxH) : width * (vh / vw);
  return Math.min(width / vw, height / vh);
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
  const xs = [...pos.values()].map((p) => p.x);
  const ys = [...pos.values()].map((p) => p.y);
  // The frame around the branches (at the base box size), then the scale it is shown at, then the
  // sizes that give that scale readable text and big enough targets.
  const base = boxSize(names.length, metrics(1, false));
  const x0 = Math.min(...xs) - base.w / 2 - 45;
  const y0 = Math.min(...ys) - base.h / 2 - 48;
  const vw = Math.max(...xs) + base.w / 2 + 45 - x0;
  const vh = Math.max(...ys) + base.h / 2 + 44 - y0;
  svgEl.setAttribute('viewBox', `${x0} ${y0} ${vw} ${vh}`);
  const m = metrics(drawingScale(svgEl, vw, vh), document.body.classList.contains('present'));
  const box = boxSize(names.length, m);
  const centre = [...pos.values()].reduce((c, p) => ({ x: c.x + p.x / names.length, y: c.y + p.y / names.length }), { x: 0, y: 0 });

  const chState = new Map();
  const recorded = new Map();
  if (snap) {
    for (const c of snap.channels || []) chState.set(`${c.from}>${c.to}`, c.state);
    for (const r of snap.recorded || []) recorded.set(r.name, r);
  }
  const channelLayer = svg('g', { class: 'channels' }, svgEl);
  for (const ch of state.channels) {
    drawChannel(channelLayer, ch, chState.get(`${ch.from}>${ch.to}`), pos, box, onDeliver, run, m);
  }
  drawWaits(svgEl, state, pos, box, m);
  const branchLayer = svg('g', { class: 'branches' }, svgEl);
  for (const br of state.branches) drawBranch(branchLayer, br, pos.get(br.name), box, recorded.get(br.name), centre, m);

  if (state.property) {
    renderTruth(invariantEl, state.property);
    return;
  }
  const balances = state.branches.reduce((s, b) => s + b.balance, 0);
  const holds = balances + state.in_flight === state.total;
  invariantEl.textContent = '';
  if (waits('invariant')) {
    const waiting = document.createElement('span');
    waiting.className = 'waits-answer';
    waiting.textContent = t('invariantWaits');
    invariantEl.append(waiting);
    return;
  }
  invariantEl.append(t('invariant', { b: money(balances), f: money(state.in_flight), t: money(state.total) }));
  const mark = document.createElement('span');
  mark.className = holds ? 'inv-ok' : 'inv-bad';
  mark.textContent = holds ? ` ✓ ${t('invariantOk')}` : ` ✗ ${t('invariantBad')}`;
  invariantEl.append(mark);
}

// Locks: who waits for whom, as a dashed arrow from the waiting branch to the one it waits for,
// along the middle of their pair of channels (the channels run beside it, one on each side). The
// edges of a deadlock the live state has (the server's `property`) are drawn as such.
function drawWaits(root, state, pos, box, m) {
  const waiting = state.branches.filter((b) => b.waiting_for);
  if (!waiting.length) return;
  const cycle = state.property && state.property.deadlocked ? state.property.cycle : [];
  const layer = svg('g', { class: 'waits', 'aria-hidden': 'true' }, root);
  const defs = svg('defs', {}, layer);
  for (const kind of ['wait', 'deadlock']) {
    const head = svg('marker', {
      id: `nw-arrow-${kind}`, viewBox: '0 0 10 10', refX: 9, refY: 5, markerWidth: 14, markerHeight: 14,
      orient: 'auto', markerUnits: 'userSpaceOnUse',
    }, defs);
    svg('path', { d: 'M0,1 L10,5 L0,9 Z', class: `${kind}-head` }, head);
  }
  for (const b of waiting) {
    const a = pos.get(b.name);
    const c = pos.get(b.waiting_for);
    if (!a || !c) continue;
    const len = Math.hypot(c.x - a.x, c.y - a.y);
    const dx = (c.x - a.x) / len;
    const dy = (c.y - a.y) / len;
    const ca = clipDistance(box, dx, dy) + 2;
    const inCycle = cycle.includes(b.name) && cycle.includes(b.waiting_for);
    svg('line', {
      x1: a.x + dx * ca, y1: a.y + dy * ca, x2: c.x - dx * ca, y2: c.y - dy * ca,
      class: `wait-edge${inCycle ? ' deadlocked' : ''}`, 'marker-end': `url(#nw-arrow-${inCycle ? 'deadlock' : 'wait'})`,
      'data-from': b.name, 'data-to': b.waiting_for, 'stroke-width': Math.max(2.5, m.hit / 9),
    }, layer);
  }
}

// Jobs and locks: under the network, what is true of the whole system right now (the page sees
// every branch and every channel at once, which no branch can): the baseline the naive detector
// and the snapshot are judged against.
function renderTruth(el, property) {
  el.textContent = '';
  el.append(t('truthNow'), ' ');
  const strong = document.createElement('strong');
  strong.className = holds(property) ? 'truth-holds' : 'truth-not';
  strong.textContent = propertyText(property);
  el.append(strong);
}

// The legend and the hint under the network say only what this run can show: epochs and control
// messages under Lai-Yang, held-back channels under aligned barriers, "barrier" for the barrier
// algorithms' markers, and how to deliver when channels may reorder.
export function renderNetworkLegend(legendEl, hintEl, state) {
  const algorithm = state.algorithm || 'chandy-lamport';
  const application = appOf(state);
  const show = {
    'lai-yang': algorithm === 'lai-yang',
    aligned: algorithm === 'aligned',
    marker: algorithm !== 'lai-yang',
    bank: application === 'bank',
    jobs: application === 'jobs',
    locks: application === 'locks',
  };
  for (const li of legendEl.querySelectorAll('li[data-show]')) li.hidden = !show[li.dataset.show];
  legendEl.querySelector('[data-legend="marker"]').textContent = t(isBarrier(state.markers) ? 'legendBarrier' : 'legendMarker');
  hintEl.textContent = t(state.fifo === false ? 'clickHintAnyOrder' : 'clickHint');
}
