// Export, import and share links: all of them are the run's scenario text.
import { t, lang } from './i18n.js';
import { runScenario, fetchShiviz, Refusal } from './api.js';
import { toCommands, toText, parseHash, decodeScenario } from './scenario.js';
import { html, byId as $ } from './svg.js';
import { app, enqueue, run, commit } from './run.js';
import { notify, showRefusal, clearNotice } from './notice.js';
import { stopPlay } from './demos.js';

// Hands `text` to the browser as a file called `name`.
function download(text, name) {
  const url = URL.createObjectURL(new Blob([text], { type: 'text/plain' }));
  const a = html('a', { href: url, download: name });
  document.body.appendChild(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10000);
}

export function exportScenario() {
  download(`# cutline scenario, exported from the page\n${toText(app.commands)}`, 'cutline-scenario.txt');
}

// The current run's history as a ShiViz log, as the server writes it (docs/api.md).
export function exportShiviz() {
  const text = toText(app.commands);
  enqueue(async () => download(await fetchShiviz(text, lang()), 'cutline-shiviz.log'));
}

export function importFile(file) {
  stopPlay();
  enqueue(async () => {
    const text = await file.text();
    const next = toCommands(text);
    try {
      // The file as it is first, so that a refusal names the file's own line
      // (the page's tidied copy drops comments and blank lines).
      await runScenario(text, lang());
      const result = await run(next);
      app.demo = null;
      app.caption = '';
      commit(next, result);
      notify(t('imported', { n: next.length, file: file.name }), 'info');
    } catch (e) {
      if (e instanceof Refusal) showRefusal(e.full, 'importRefused');
      else throw e;
    }
  });
}

export async function shareLink() {
  const url = location.href;
  $('share-url').value = url;
  try {
    await navigator.clipboard.writeText(url);
    notify(t('shareCopied'), 'info');
  } catch {
    notify(t('shareReady'), 'info');
  }
  $('share-url').select();
}

// Opens the run held in the URL's hash, if any; otherwise the Bank preset. A link that does not
// decode (cut short, edited) gets one translated line, never the browser's own exception, and a
// fresh bank; a notice left from an earlier link goes as soon as a later one opens.
export function openFromHash() {
  const { s } = parseHash(location.hash);
  enqueue(async () => {
    let next = null;
    let result = null;
    let refusal = null;
    if (s) {
      let text = null;
      try {
        text = decodeScenario(s);
      } catch {
        refusal = t('linkBroken');
      }
      if (text !== null) {
        try {
          next = toCommands(text);
          result = await run(next);
        } catch (e) {
          if (!(e instanceof Refusal)) throw e;
          result = null;
          refusal = t('linkRefused', { reason: e.full });
        }
      }
    }
    const opened = result !== null;
    if (!opened) {
      next = [app.presets.bank];
      result = await run(next);
    }
    app.demo = null;
    app.caption = '';
    commit(next, result);
    if (refusal) showRefusal(refusal, null);
    else if (opened && next.length > 1) notify(t('linkOpened', { n: next.length }), 'info');
    else clearNotice();
  });
}
