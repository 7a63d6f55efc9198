// The stage: while a demo runs, the network, the step bar (fixed to the bottom of the screen) and
// the snapshot panel's headline are on screen together, and on a tall screen the space-time
// diagram too; and the keys that step a demo (a presenter remote sends PageDown and PageUp).
import { app } from './run.js';
import { byId as $ } from './svg.js';

const MARGIN = 8;

// The top of the bar fixed over the bottom of the screen (the screen's bottom when it is not).
function usableBottom() {
  const bar = $('demo-stepbar');
  const fixed = getComputedStyle(bar).position === 'fixed';
  return fixed ? bar.getBoundingClientRect().top : window.innerHeight;
}

// The snapshot's headline: which snapshot, its total and the verdict's line; the list of what
// a wrong snapshot counted twice or lost, under that line, may run on below.
export function headlineBox() {
  const parts = [...document.querySelectorAll('#cl-headline > :not(.cl-verdict), #cl-headline > .cl-verdict > p')];
  const rects = parts.map((el) => el.getBoundingClientRect());
  return { top: Math.min(...rects.map((r) => r.top)), bottom: Math.max(...rects.map((r) => r.bottom)) };
}

// Scrolls the page, only when needed (or always, when `force`: a demo was just chosen), so that
// the Network panel's top, its drawing and invariant line, and the snapshot headline are between
// the top of the screen and the step bar. The space-time diagram joins them where it fits.
export function showStage(force = false) {
  if (!app.demo) return;
  const bottom = usableBottom();
  const room = bottom - 2 * MARGIN;
  const box = (id) => $(id).getBoundingClientRect();
  // From the panel's heading if there is room, else from the drawing itself.
  let top = box('network').top;
  const head = headlineBox();
  let end = Math.max(box('invariant').bottom, head.bottom);
  if (end - top > room) top = Math.min(box('network-svg').top, head.top);
  const st = box('st-scroll');
  if (Math.max(end, st.bottom) - Math.min(top, st.top) <= room) {
    top = Math.min(top, st.top);
    end = Math.max(end, st.bottom);
  }
  if (!force && top >= 0 && end <= bottom) return;
  let delta = top - MARGIN;
  // The control just pressed (it has the focus) is never left under the bar. Where the stage
  // cannot fit one screen anyway (150 % zoom) it stays in view: scrolling up to the network would
  // slide Read Balance or Send behind the bar or off the screen. Where the stage fits, the stage
  // wins and the control may leave the screen (presentation mode: the controls are under the
  // stage), but not stop half under the bar.
  const ctl = force ? null : focusedOutsideBar();
  if (ctl) {
    const H = window.innerHeight;
    const above = ctl.bottom - bottom + MARGIN; // the least scroll that keeps it above the bar
    const onTop = ctl.top - MARGIN; // the most scroll that keeps it on screen
    const fits = (d) => top - d >= 0 && end - d <= bottom;
    if (end - top > room) delta = Math.min(Math.max(delta, above), Math.max(onTop, above));
    else if (ctl.bottom - delta > bottom && ctl.top - delta < H) {
      const below = ctl.top - H; // just below the screen
      delta = fits(below) && !fits(above) ? below : Math.max(delta, above);
    }
  }
  if (Math.abs(delta) >= 1) window.scrollBy({ top: delta, behavior: 'instant' });
}

// Scrolls, only when needed, so that `el` (a verdict just given, say) is between the top of the
// screen and the step bar: all of it if it fits, else from its top down.
export function keepAboveBar(el) {
  const bottom = usableBottom();
  const r = el.getBoundingClientRect();
  if (r.height === 0 || (r.top >= MARGIN && r.bottom <= bottom - MARGIN)) return;
  const delta = r.top < MARGIN ? r.top - MARGIN : Math.min(r.bottom - bottom + MARGIN, r.top - MARGIN);
  if (Math.abs(delta) >= 1) window.scrollBy({ top: delta, behavior: 'instant' });
}

// The box of the focused control when it is in the page's flow (not in the step bar itself).
function focusedOutsideBar() {
  const el = document.activeElement;
  if (!el || el === document.body || $('demo-stepbar').contains(el)) return null;
  const r = el.getBoundingClientRect();
  return r.height > 0 ? r : null;
}

// A field that takes typing, or a control that handles these keys itself (a select's arrows, a
// scroll box's arrows and pages).
function ownsKeys(el) {
  return !!(el && el.closest && el.closest('input, select, textarea, [contenteditable], .st-scroll, .log-scroll'));
}

// Space on a button (or anything else that Space activates) is that control's press, not a step.
function spaceActivates(el) {
  return !!(el && el.closest && el.closest('button, a[href], summary, [role="button"], label'));
}

const FORWARD = new Set(['ArrowRight', 'PageDown', ' ']);
const BACK = new Set(['ArrowLeft', 'PageUp']);

// Right, PageDown and Space step forward; Left and PageUp step back; Home restarts the demo.
// Only while a demo runs, never with a modifier, never while the focus is in a field.
export function wireStageKeys({ next, prev, restart }) {
  document.addEventListener('keydown', (e) => {
    if (!app.demo || e.defaultPrevented || e.altKey || e.ctrlKey || e.metaKey || e.shiftKey) return;
    const el = e.target;
    if (ownsKeys(el)) return;
    if (e.key === ' ' && spaceActivates(el)) return;
    let fn = null;
    if (FORWARD.has(e.key)) fn = next;
    else if (BACK.has(e.key)) fn = prev;
    else if (e.key === 'Home') fn = restart;
    if (!fn) return;
    e.preventDefault();
    fn();
  });
}
