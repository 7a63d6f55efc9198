// The player of a `cutline test` schedule file (docs/harness.md): the file goes to the server
// (POST /api/trace), which reads its trace and answers one frame per step, captions and all, in the
// page's language. Nothing runs here or on the server: the file says what happened. The page's
// own run model (scenarios the server plays) cannot hold a program's opaque messages, so the
// player is a dialog of its own: the nodes, what is in flight on each channel, what each node
// recorded, and the judge's findings as the last caption.
import { t, lang } from './i18n.js';
import { Refusal } from './api.js';
import { showRefusal, clearNotice, showFailure } from './notice.js';
import { svg, html, clearSvg, byId as $ } from './svg.js';

const player = { text: '', name: '', answer: null, at: 0 };

// Resolves to the server's frames; rejects with Refusal when it refuses the file.
async function fetchTrace(text, name, language) {
  const query = new URLSearchParams({ lang: language, name, error_status: '200' });
  const res = await fetch(`api/trace?${query}`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: text });
  const body = await res.json().catch(() => null);
  if (res.ok && body && !('error' in body)) return body;
  if (body && body.error) throw new Refusal(body.error);
  throw new Error(`HTTP ${res.status}`);
}

// A message as a chip's words: "$31 n3-1" for a transfer, its type for the algorithm's own.
const chip = (m) => (m.transfer ? `${m.amount} ${m.name}` : m.type);

function drawNetwork(answer, frame) {
  const root = $('trace-svg');
  clearSvg(root);
  const n = answer.nodes.length;
  const [cx, cy, r] = [200, 150, n > 8 ? 118 : 105];
  const at = answer.nodes.map((_, i) => {
    const a = -Math.PI / 2 + (2 * Math.PI * i) / n;
    return [cx + r * Math.cos(a), cy + r * Math.sin(a)];
  });
  const index = Object.fromEntries(answer.nodes.map((name, i) => [name, i]));
  const did = frame.did || {};
  for (const c of frame.in_flight) {
    const [a, b] = [at[index[c.from]], at[index[c.to]]];
    const len = Math.hypot(b[0] - a[0], b[1] - a[1]) || 1;
    // Each direction to its own side of the line between the two nodes.
    const [ox, oy] = [(-(b[1] - a[1]) / len) * 7, ((b[0] - a[0]) / len) * 7];
    const [ux, uy] = [(b[0] - a[0]) / len, (b[1] - a[1]) / len];
    const g = svg('g', { class: 'tr-channel', 'data-channel': `${c.from}->${c.to}` }, root);
    const from = [a[0] + ux * 24 + ox, a[1] + uy * 24 + oy];
    const to = [b[0] - ux * 26 + ox, b[1] - uy * 26 + oy];
    svg('line', { x1: from[0], y1: from[1], x2: to[0], y2: to[1], class: 'tr-line', 'marker-end': 'url(#tr-arrow)' }, g);
    const label = c.messages.map(chip).join(' · ');
    const [lx, ly] = [from[0] + (to[0] - from[0]) * 0.4 + ox * 1.6, from[1] + (to[1] - from[1]) * 0.4 + oy * 1.6];
    svg('text', { x: lx, y: ly + 4, class: 'tr-chip', 'text-anchor': 'middle' }, g, label.length > 28 ? `${label.slice(0, 27)}…` : label);
  }
  const defs = svg('defs', {}, root);
  const marker = svg('marker', { id: 'tr-arrow', viewBox: '0 0 10 10', refX: 9, refY: 5, markerWidth: 7, markerHeight: 7, orient: 'auto-start-reverse' }, defs);
  svg('path', { d: 'M0 0 10 5 0 10Z', class: 'tr-arrowhead' }, marker);
  answer.nodes.forEach((name, i) => {
    const recorded = frame.snapshots.some((s) => s.nodes[i].recorded !== null);
    const acted = did.node === name || did.to === name;
    const g = svg('g', { class: `tr-node${recorded ? ' recorded' : ''}${acted ? ' acted' : ''}`, 'data-node': name }, root);
    svg('circle', { cx: at[i][0], cy: at[i][1], r: 22 }, g);
    svg('text', { x: at[i][0], y: at[i][1] - 3, 'text-anchor': 'middle', class: 'tr-name' }, g, name);
    svg('text', { x: at[i][0], y: at[i][1] + 12, 'text-anchor': 'middle', class: 'tr-balance' }, g, frame.balances[i]);
  });
}

function drawTables(answer, frame) {
  const head = $('trace-nodes-head');
  head.replaceChildren();
  html('th', { scope: 'col' }, head, t('traceColNode'));
  html('th', { scope: 'col' }, head, t('traceColBalance'));
  for (const s of frame.snapshots) html('th', { scope: 'col' }, head, t('traceColSnapshot', { id: s.id }));
  const body = $('trace-nodes-body');
  body.replaceChildren();
  answer.nodes.forEach((name, i) => {
    const tr = html('tr', { 'data-node': name }, body);
    html('th', { scope: 'row' }, tr, name);
    html('td', {}, tr, frame.balances[i]);
    for (const s of frame.snapshots) {
      const node = s.nodes[i];
      const td = html('td', { class: 'tr-recorded' }, tr);
      if (node.recorded === null && node.channels === null) {
        td.textContent = t('traceNotRecorded');
        continue;
      }
      html('div', {}, td, node.recorded === null ? t('traceNotRecorded') : t('traceRecorded', { balance: node.recorded }));
      if (node.channels === null) continue;
      for (const c of node.channels) {
        const list = c.transfers.map((x) => `${x.amount} ${x.name}`).join(', ');
        html('div', { class: 'tr-part' }, td, t('traceChannelState', { from: c.from, to: name, list: list || t('traceEmpty') }));
      }
    }
  });
  const flight = $('trace-flight');
  flight.replaceChildren();
  if (frame.in_flight.length === 0) html('li', {}, flight, t('traceNothingInFlight'));
  for (const c of frame.in_flight) {
    html('li', { 'data-channel': `${c.from}->${c.to}` }, flight, `${c.from}→${c.to}: ${c.messages.map(chip).join(', ')}`);
  }
}

function draw() {
  const a = player.answer;
  const frame = a.frames[player.at];
  const last = a.frames.length - 1;
  $('trace-progress').textContent = player.at === 0 ? t('traceAtStart', { n: last - 1 })
    : player.at === last ? t('traceAtEnd') : t('traceStepOf', { k: player.at, n: last - 1 });
  $('trace-caption-text').textContent = frame.caption;
  const findings = $('trace-findings');
  findings.replaceChildren();
  for (const f of frame.findings || []) html('li', {}, findings, f);
  findings.hidden = !frame.findings || frame.findings.length === 0;
  $('trace-prev').setAttribute('aria-disabled', String(player.at === 0));
  $('trace-next').setAttribute('aria-disabled', String(player.at === last));
  drawNetwork(a, frame);
  drawTables(a, frame);
}

function step(by) {
  if (!player.answer) return;
  const next = player.at + by;
  if (next < 0 || next >= player.answer.frames.length) return;
  player.at = next;
  draw();
}

async function load(text, name) {
  try {
    const answer = await fetchTrace(text, name, lang());
    Object.assign(player, { text, name, answer, at: 0 });
    clearNotice();
    $('trace-title-file').textContent = name;
    $('trace-bin').textContent = t('traceProgram', { bin: answer.bin, total: answer.total });
    draw();
    const dialog = $('trace-player');
    if (!dialog.open) dialog.showModal();
    $('trace-next').focus();
  } catch (e) {
    if (e instanceof Refusal) showRefusal(e.reason, 'traceRefused');
    else showFailure(e);
  }
}

// The page's language changed: the open schedule's captions come again in it.
export async function retranslateTrace() {
  if (!player.answer) return;
  const at = player.at;
  try {
    player.answer = await fetchTrace(player.text, player.name, lang());
    player.at = Math.min(at, player.answer.frames.length - 1);
    $('trace-bin').textContent = t('traceProgram', { bin: player.answer.bin, total: player.answer.total });
    if ($('trace-player').open) draw();
  } catch (e) {
    showFailure(e);
  }
}

export function wireTrace() {
  const input = $('trace-file');
  $('trace-open').addEventListener('click', () => input.click());
  input.addEventListener('change', async () => {
    const file = input.files && input.files[0];
    input.value = '';
    if (file) await load(await file.text(), file.name);
  });
  $('trace-next').addEventListener('click', () => step(1));
  $('trace-prev').addEventListener('click', () => step(-1));
  $('trace-close').addEventListener('click', () => $('trace-player').close());
  // The demo keys, inside the player: it holds them, so the page's demo behind does not move.
  $('trace-player').addEventListener('keydown', (e) => {
    if (e.altKey || e.ctrlKey || e.metaKey || e.shiftKey) return;
    const forward = ['ArrowRight', 'PageDown'].includes(e.key);
    const back = ['ArrowLeft', 'PageUp'].includes(e.key);
    if (e.key === 'Home') {
      e.preventDefault();
      step(-player.at);
    } else if (forward || back) {
      e.preventDefault();
      step(forward ? 1 : -1);
    }
  });
}
