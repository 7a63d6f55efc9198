// Presentation mode (the header's switch, or ?present=1 in the address): large type for a lecture
// hall, a palette that survives a projector (style.css, body.present), the introduction folded.
// The introduction's own fold button works in both modes.
import { t } from './i18n.js';
import { hooks } from './run.js';
import { byId as $ } from './svg.js';

export function isPresenting() {
  return document.body.classList.contains('present');
}

function setIntroOpen(open) {
  $('intro-body').hidden = !open;
  const b = $('intro-toggle');
  b.setAttribute('aria-expanded', String(open));
  b.dataset.i18n = open ? 'introHide' : 'introShow';
  b.textContent = t(b.dataset.i18n);
}

function setPresent(on) {
  document.body.classList.toggle('present', on);
  $('present-switch').setAttribute('aria-pressed', String(on));
  setIntroOpen(!on);
  // The address keeps the mode, so that a reload or a copied link comes back in it.
  const url = new URL(location.href);
  if (on) url.searchParams.set('present', '1');
  else url.searchParams.delete('present');
  history.replaceState(null, '', url);
  // The drawings size their type for the screen they are on (network.js, spacetime.js).
  hooks.render();
}

export function initPresent() {
  $('present-switch').addEventListener('click', () => setPresent(!isPresenting()));
  $('intro-toggle').addEventListener('click', () => setIntroOpen($('intro-body').hidden));
  const on = new URLSearchParams(location.search).get('present') === '1';
  document.body.classList.toggle('present', on);
  $('present-switch').setAttribute('aria-pressed', String(on));
  setIntroOpen(!on);
}
