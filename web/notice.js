// The page's notices: one aria-live line that says what was refused or what went wrong. It is
// fixed in view (style.css: at the bottom of the screen, above the demo's step bar), wherever the
// refused control is, and the next good action clears it.
import { t } from './i18n.js';
import { Refusal } from './api.js';
import { byId as $ } from './svg.js';

export function notify(text, kind = 'info') {
  const el = $('notice');
  el.textContent = text;
  el.className = `notice ${kind}`;
  // The box stays in the page when empty (so the live region is there before it speaks).
  $('notice-box').className = `notice-box ${text ? kind : 'empty'}`;
}

export function clearNotice() {
  notify('', 'empty');
}

// key: the catalogue's frame for the reason ("Refused: {reason}"), or null for a text that is
// the whole message already.
export function showRefusal(reason, key = 'refused') {
  notify(key ? t(key, { reason }) : reason, 'refusal');
}

export function showFailure(err) {
  if (err instanceof Refusal) showRefusal(err.reason);
  else notify(t('networkError', { e: err && err.message ? err.message : String(err) }), 'refusal');
}
