// Draw a cut (issue 15): one handle per branch line of the space-time diagram, moved by dragging
// (it snaps between the branch's sends and deliveries) or by keyboard (Left/Right one event, Home,
// End; Tab to the next branch). The page only places the points: the server's checker judges the
// cut (POST /api/cut) and this module says its verdict in words.
import { t, lang, money } from './i18n.js';
import { svg, byId as $ } from './svg.js';
import { judgeCut } from './api.js';
import { toText } from './scenario.js';
import { messageLabel, fromEvent } from './labels.js';
import { appOf, propertyText, holds } from './appwords.js';
import { app } from './run.js';
import { renderSpacetimeOnly } from './render.js';
import { keepAboveBar } from './stage.js';

const cut = {
  on: false,
  names: [],
  points: [], // by branch: the cut lies after this many of its message events
  atEnd: [], // by branch: the point follows the line's end as the run grows
  verdict: null, // the server's answer, for `verdictKey`
  verdictKey: '',
  asked: '', // the key of the request in flight (one at a time: each re-runs the scenario)
  error: '',
  errorKey: '', // a request that failed is not asked again until the cut or the run changes
};

// A branch's message events (what a cut point counts), in order. Each line also keeps, as `steps`,
// the branch's own steps (a jobs branch finishing one): they count as no point, and the checker
// puts each in the gap after the message event before it, so the handle is drawn after them.
function linesOf(history, names) {
  const lines = new Map(names.map((n) => [n, Object.assign([], { steps: [] })]));
  for (const e of history) {
    if (!lines.has(e.branch)) continue;
    if (e.kind === 'send' || e.kind === 'deliver') lines.get(e.branch).push(e);
    else if (e.kind === 'finish') lines.get(e.branch).steps.push(e);
  }
  return names.map((n) => lines.get(n));
}

function keyOf(text) {
  return JSON.stringify([text, cut.points, lang()]);
}

// Follows the run: a new set of branches starts the cut at "now"; a grown line keeps the point
// unless it was at the end.
function follow(names, lines) {
  if (names.join('\n') !== cut.names.join('\n')) {
    cut.names = names;
    cut.points = lines.map((l) => l.length);
    cut.atEnd = lines.map(() => true);
    return;
  }
  cut.points = cut.points.map((p, i) => (cut.atEnd[i] ? lines[i].length : Math.min(p, lines[i].length)));
}

function move(i, k, lines) {
  const next = Math.max(0, Math.min(lines[i].length, k));
  if (next === cut.points[i]) return;
  cut.points[i] = next;
  cut.atEnd[i] = next === lines[i].length;
  renderSpacetimeOnly({ keepScroll: true });
}

// The verdict in force: the server's answer to the cut and run now drawn, else nothing.
function current() {
  const key = keyOf(toText(app.commands));
  return cut.verdict && cut.verdictKey === key ? cut.verdict : null;
}

// The seqs the drawn cut crosses backwards (marked on the diagram like the other cuts').
export function drawnBackward() {
  const v = cut.on ? current() : null;
  return new Set(v ? v.backward.map((m) => m.seq) : []);
}

function ask() {
  const text = toText(app.commands);
  const key = keyOf(text);
  if (cut.verdictKey === key || cut.asked === key || cut.errorKey === key) return;
  // A drag or a held arrow key moves the cut many times a second: the latest cut is asked for
  // when the answer in flight comes back (the redraw then calls ask again), never in parallel.
  if (cut.asked) return;
  cut.asked = key;
  judgeCut(text, [...cut.points], lang())
    .then((v) => {
      cut.verdict = v;
      cut.verdictKey = key;
      cut.error = '';
      cut.errorKey = '';
    })
    .catch((err) => {
      cut.verdict = null;
      cut.verdictKey = '';
      cut.error = err.message || String(err);
      cut.errorKey = key;
    })
    .finally(() => {
      if (cut.asked === key) cut.asked = '';
      // Drawn with this answer, or (the cut moved meanwhile) redrawn to ask for the latest.
      if (cut.on) renderSpacetimeOnly({ keepScroll: true });
    });
}

// x of each gap on a line: gap k lies between its k-th and (k+1)-th events ("now" after the last),
// after any step of the branch's own in between.
function gaps(g, line) {
  const xs = line.map((e) => g.xAt(e.i));
  const lefts = [g.x0 - 14 * g.k, ...xs];
  for (const s of line.steps) {
    if (!g.has(s.i)) continue;
    const k = line.filter((e) => e.i < s.i).length;
    lefts[k] = Math.max(lefts[k], g.xAt(s.i));
  }
  const rights = [...xs, g.xNow];
  if (xs.length === 0 && !line.steps.length) return [(g.x0 + g.xNow) / 2];
  return rights.map((r, k) => (lefts[k] + r) / 2);
}

function valueText(k, n) {
  return t('cutHandleValue', { k, n });
}

// One handle per branch, kept across redraws (so focus and a drag in progress survive).
function handles(scrollEl, svgEl, g, lines) {
  let box = $('cut-handles');
  if (!box) {
    box = document.createElement('div');
    box.id = 'cut-handles';
    box.className = 'cut-handles';
    scrollEl.appendChild(box);
  }
  while (box.children.length > cut.names.length) box.lastChild.remove();
  const sr = scrollEl.getBoundingClientRect();
  const vr = svgEl.getBoundingClientRect();
  const ox = vr.left - sr.left + scrollEl.scrollLeft;
  const oy = vr.top - sr.top + scrollEl.scrollTop;
  cut.names.forEach((name, i) => {
    let h = box.children[i];
    if (!h) {
      h = document.createElement('div');
      h.className = 'cut-handle';
      h.setAttribute('role', 'slider');
      h.tabIndex = 0;
      h.setAttribute('aria-valuemin', '0');
      wireHandle(h, i);
      box.appendChild(h);
    }
    const xs = gaps(g, lines[i]);
    h.dataset.branch = name;
    h.setAttribute('aria-label', t('cutHandle', { b: name }));
    h.setAttribute('aria-valuemax', String(lines[i].length));
    h.setAttribute('aria-valuenow', String(cut.points[i]));
    h.setAttribute('aria-valuetext', valueText(cut.points[i], lines[i].length));
    h.style.left = `${ox + xs[cut.points[i]]}px`;
    h.style.top = `${oy + g.row.get(name)}px`;
  });
  drag.context = { svgEl, g, lines };
}

// The drag in progress reads the latest geometry (the diagram redraws under it).
const drag = { context: null };

function wireHandle(h, i) {
  h.addEventListener('keydown', (e) => {
    const { lines } = drag.context;
    const steps = { ArrowLeft: -1, ArrowDown: -1, ArrowRight: 1, ArrowUp: 1 };
    let k = null;
    if (e.key in steps) k = cut.points[i] + steps[e.key];
    else if (e.key === 'Home') k = 0;
    else if (e.key === 'End') k = lines[i].length;
    if (k === null || e.altKey || e.ctrlKey || e.metaKey) return;
    // The stage's keys (issue 13) step the demo; here they move the handle instead.
    e.preventDefault();
    e.stopPropagation();
    move(i, k, lines);
  });
  h.addEventListener('pointerdown', (e) => {
    e.preventDefault();
    h.setPointerCapture(e.pointerId);
    h.focus();
    h.classList.add('dragging');
  });
  h.addEventListener('pointermove', (e) => {
    if (!h.hasPointerCapture(e.pointerId)) return;
    const { svgEl, g, lines } = drag.context;
    const x = e.clientX - svgEl.getBoundingClientRect().left;
    const xs = gaps(g, lines[i]);
    let best = 0;
    xs.forEach((gx, k) => {
      if (Math.abs(gx - x) < Math.abs(xs[best] - x)) best = k;
    });
    move(i, best, lines);
  });
  const end = (e) => {
    if (h.hasPointerCapture(e.pointerId)) h.releasePointerCapture(e.pointerId);
    h.classList.remove('dragging');
    keepAboveBar($('cut-verdict'));
  };
  h.addEventListener('pointerup', end);
  h.addEventListener('pointercancel', end);
}

function describe(m, history, markers) {
  const send = history.find((e) => e.kind === 'send' && e.seq === m.seq);
  const what = m.kind === 'transfer' ? money(m.amount) : messageLabel(m.kind === 'marker' ? fromEvent(send) : m, markers);
  return { what, ch: `${m.from}→${m.to}` };
}

function li(ul, text) {
  const el = document.createElement('li');
  el.textContent = text;
  ul.appendChild(el);
}

function para(parent, cls, text) {
  const p = document.createElement('p');
  p.className = cls;
  p.textContent = text;
  parent.appendChild(p);
  return p;
}

function renderVerdict(v, history, markers) {
  const out = $('cut-verdict');
  out.hidden = !cut.on;
  // A live region: redrawn only when what it says changes (a demo step that leaves the verdict
  // as it was must not read it again).
  const said = JSON.stringify([cut.on, v, cut.error, lang()]);
  if (out.dataset.said === said) return;
  out.dataset.said = said;
  out.replaceChildren();
  if (!cut.on) return;
  if (!v) {
    para(out, 'cut-wait', cut.error || t('cutJudging'));
    delete out.dataset.consistent;
    delete out.dataset.backward;
    return;
  }
  out.dataset.consistent = String(v.consistent);
  // A new verdict is read where it is: above the step bar (not while a handle is being dragged,
  // which would slide the diagram under the pointer; the drag's end brings it into view).
  if (!document.querySelector('.cut-handle.dragging')) requestAnimationFrame(() => keepAboveBar(out));
  // The messages this cut crosses backwards, by seq (the diagram marks them; tests read it).
  out.dataset.backward = v.backward.map((m) => m.seq).join(' ');
  const head = para(out, `cut-status${v.consistent ? '' : ' bad'}`, '');
  const strong = document.createElement('strong');
  strong.textContent = v.consistent ? t('cutDrawnConsistent') : t('cutDrawnInconsistent');
  head.append(strong, ` ${v.consistent ? t('cutDrawnConsistentWhy') : t('cutDrawnInconsistentWhy')}`);
  if (v.backward.length) {
    const ul = document.createElement('ul');
    ul.className = 'cut-backward';
    for (const m of v.backward) li(ul, `✗ ${t('cutBackwardItem', describe(m, history, markers))}`);
    out.appendChild(ul);
  }
  if (v.forward.length) {
    para(out, 'cut-forward-head', t('cutForwardHead'));
    const ul = document.createElement('ul');
    ul.className = 'cut-forward';
    for (const m of v.forward) li(ul, t('cutForwardItem', describe(m, history, markers)));
    out.appendChild(ul);
  } else {
    const kind = appOf(app.result && app.result.state);
    para(out, 'cut-forward-head', t(kind === 'bank' ? 'cutForwardNone' : `cutForwardNone_${kind}`));
  }
  // Jobs and locks keep no money: the cut shows the property that a snapshot recording there
  // would declare (the checker's, in `property`), and whether a consistent cut vouches for it.
  if (v.property) {
    const yes = holds(v.property);
    const p = para(out, `cut-property ${yes ? 'holds' : 'not'}${v.consistent ? '' : ' bad'}`, '');
    p.id = 'cut-property';
    p.dataset.holds = String(yes);
    const strong = document.createElement('strong');
    strong.textContent = t('cutProperty', { v: propertyText(v.property) });
    p.append(strong, ` ${t(v.consistent ? 'cutPropertyConsistent' : 'cutPropertyInconsistent')}`);
    return;
  }
  const parts = v.branches.map((b) => `${b.name} ${money(b.balance)}`);
  parts.push(t('cutChannels', { v: money(v.in_channels) }));
  const sum = para(out, `cut-sum${v.total === v.bank_total ? '' : ' bad'}`, t('cutSum', { parts: parts.join(' + '), total: money(v.total), bank: money(v.bank_total) }));
  sum.id = 'cut-sum';
  sum.dataset.total = String(v.total);
  let why;
  if (v.total !== v.bank_total) why = t('cutSumTwice', { v: money(v.total - v.bank_total) });
  else why = v.consistent ? t('cutSumEqual') : t('cutSumMarkers');
  sum.append(` ${why}`);
}

// Called by renderSpacetime after it drew the diagram: the drawn cut under the messages, the
// handles over the lines, and the verdict under the diagram.
export function renderCut({ svgEl, scrollEl, cutLayer, g, history, markers }) {
  const button = $('cut-toggle');
  button.setAttribute('aria-pressed', String(cut.on));
  $('cut-hint').hidden = !cut.on;
  scrollEl.classList.toggle('cutting', cut.on);
  if (!cut.on) {
    const box = $('cut-handles');
    if (box) box.remove();
    renderVerdict(null, history, markers);
    return;
  }
  if (!g.names.length) return;
  const lines = linesOf(history, g.names);
  follow(g.names, lines);
  const v = current();
  const pts = g.names.map((n, i) => [gaps(g, lines[i])[cut.points[i]], g.row.get(n)]);
  const first = pts[0];
  const last = pts[pts.length - 1];
  const all = [[first[0], first[1] - 22 * g.k], ...pts, [last[0], last[1] + 22 * g.k]];
  const bad = v && !v.consistent;
  const grp = svg('g', { class: `st-cut st-cut-drawn${bad ? ' bad' : ''}` }, cutLayer);
  svg('polyline', { points: all.map((p) => p.join(',')).join(' '), class: 'cut-drawn' }, grp);
  // Not by colour alone: the verdict's sign at the line's top end.
  if (v) svg('text', { x: first[0], y: first[1] - 28 * g.k, 'text-anchor': 'middle', class: `cut-label cut-drawn-mark${bad ? ' bad' : ''}` }, grp, v.consistent ? '✓' : '✗');
  handles(scrollEl, svgEl, g, lines);
  renderVerdict(v, history, markers);
  if (!v) ask();
}

export function wireCut() {
  $('cut-toggle').addEventListener('click', () => {
    cut.on = !cut.on;
    cut.names = [];
    renderSpacetimeOnly();
    if (cut.on) {
      const h = document.querySelector('#cut-handles .cut-handle');
      if (h) h.focus();
    }
  });
}
