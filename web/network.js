// The Network panel: a box per branch, a line with an arrow per channel, the messages waiting in
// each channel beside its line (oldest nearest the receiver), and the invariant line.
import { svg, clearSvg } from './svg.js';
import { t, money } from './i18n.js';

const VIEW_W = 600; // layout space; the viewBox is fitted around the boxes
const VIEW_H = 440;
const LANE = 9; // the two directions of a pair run side by side, this far from the centre line
const GAP = 7; // between a box and the end of a channel line
const MSG_H = 22;

export const STATE_CLASS = { 'not recorded': 'not', recording: 'rec', closed: 'closed' };

function positions(names) {
  const n = names.length;
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

function messageLabel(m) {
  return m.kind === 'transfer' ? money(m.amount) : t('marker');
}

function messageTitle(m) {
  return m.kind === 'transfer' ? `${money(m.amount)} (#${m.seq})` : `${t('markerOf', { id: m.snapshot })} (#${m.seq})`;
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

function drawChannel(root, ch, stateName, pos, box, onDeliver) {
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

  const what = ch.queue.length === 0
    ? t('channelEmpty')
    : t('channelWaiting', { n: ch.queue.length, head: messageLabel(ch.queue[0]) });
  const g = svg('g', {
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

  // Messages: the head (oldest) nearest the receiver, the others queued behind it.
  const labels = ch.queue.map(messageLabel);
  const msgW = Math.max(46, ...labels.map((l) => 12 + l.length * 7));
  const along = msgW * Math.abs(dx) + MSG_H * Math.abs(dy);
  const spacing = along + 6;
  const side = 5 + (msgW / 2) * Math.abs(rx) + (MSG_H / 2) * Math.abs(ry);
  const fits = Math.max(1, Math.floor((lineLen - 14) / spacing));
  const shown = ch.queue.length > fits ? fits - 1 : ch.queue.length;
  for (let k = 0; k < shown; k++) {
    const m = ch.queue[k];
    const back = along / 2 + 12 + k * spacing;
    const cx = end.x - dx * back + rx * side;
    const cy = end.y - dy * back + ry * side;
    const mg = svg('g', {
      class: `nmsg nmsg-${m.kind}${k === 0 ? ' head' : ''}`, 'data-seq': m.seq,
    }, g);
    svg('title', {}, mg, messageTitle(m));
    svg('rect', { x: cx - msgW / 2, y: cy - MSG_H / 2, width: msgW, height: MSG_H, rx: 5 }, mg);
    svg('text', { x: cx, y: cy + 4, 'text-anchor': 'middle' }, mg, labels[k]);
  }
  if (shown < ch.queue.length) {
    const back = along / 2 + 12 + shown * spacing;
    svg('text', {
      x: end.x - dx * back + rx * side, y: end.y - dy * back + ry * side + 4,
      'text-anchor': 'middle', class: 'nmsg-more',
    }, g, t('more', { n: ch.queue.length - shown }));
  }

  const deliver = () => onDeliver(ch.from, ch.to);
  g.addEventListener('click', deliver);
  g.addEventListener('keydown', (e) => {
    if (e.key === 'Enter' || e.key === ' ') {
      e.preventDefault();
      deliver();
    }
  });
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
// latest), or null. onDeliver(from, to) is called when a channel or its head message is chosen.
export function renderNetwork(svgEl, invariantEl, state, snap, onDeliver) {
  clearSvg(svgEl);
  addArrowDefs(svgEl);
  const names = state.branches.map((b) => b.name);
  const pos = positions(names);
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
    drawChannel(channelLayer, ch, chState.get(`${ch.from}>${ch.to}`), pos, box, onDeliver);
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
