// The page's notices: one aria-live line that says what was refused or what went wrong.
import { t } from './i18n.js';
import { Refusal } from './api.js';
import { byId as $ } from './svg.js';

export function notify(text, kind = 'info') {
  const el = $('notice');
  el.textContent = text;
  el.className = `notice ${kind}`;
}

export function clearNotice() {
  notify('', 'empty');
}

export function showRefusal(reason, key = 'refused') {
  notify(t(key, { reason }), 'refusal');
}

export function showFailure(err) {
  if (err instanceof Refusal) showRefusal(err.reason);
  else notify(t('networkError', { e: err && err.message ? err.message : String(err) }), 'refusal');
}
