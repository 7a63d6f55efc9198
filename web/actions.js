// The visitor's actions on the run: each appends a command (or Undo/Reset/a preset cuts the list);
// a refusal is shown and changes nothing.
import { t } from './i18n.js';
import { Refusal } from './api.js';
import { app, enqueue, run, commit } from './run.js';
import { notify, clearNotice, showRefusal } from './notice.js';
import { stopPlay, leaveDemo, captionFor } from './demos.js';
import { byId as $ } from './svg.js';

// Appends the command made by makeCommand() (evaluated when its turn comes, so that it sees the
// latest state). A refusal is shown and changes nothing.
export function act(makeCommand) {
  stopPlay();
  enqueue(async () => {
    const cmd = makeCommand();
    if (!cmd) return;
    const next = [...app.commands, cmd];
    try {
      const result = await run(next);
      clearNotice();
      if (app.demo) leaveDemo();
      commit(next, result);
    } catch (e) {
      if (e instanceof Refusal) showRefusal(e.reason);
      else throw e;
    }
  });
}

export function deliverOn(from, to) {
  act(() => `deliver ${from} ${to}`);
}

export function startSnapshot(name) {
  act(() => {
    const st = app.result.state;
    if (st.running !== null && st.running !== undefined) {
      const s = st.snapshots.find((x) => x.id === st.running);
      // Not recorded yet: join the running snapshot as another initiator. Already recorded,
      // one snapshot at a time: ask anyway, so the server's refusal says why.
      if (s && (!s.recorded.some((r) => r.name === name) || st.snapshots_mode === 'one')) {
        return `snapshot ${name} id=${st.running}`;
      }
    }
    return `snapshot ${name}`;
  });
}

export function sendTransfer() {
  const from = $('tr-from').value;
  const to = $('tr-to').value;
  const raw = $('tr-amount').value.trim();
  if (!/^[0-9]+$/.test(raw) || !/[1-9]/.test(raw)) {
    stopPlay();
    showRefusal(t('amountNotWhole', { v: raw }));
    return;
  }
  act(() => `transfer ${from} ${to} ${raw.replace(/^0+/, '')}`);
}

export function undo() {
  stopPlay();
  enqueue(async () => {
    if (app.commands.length <= 1) {
      notify(t('nothingToUndo'), 'refusal');
      return;
    }
    const next = app.commands.slice(0, -1);
    const result = await run(next);
    clearNotice();
    if (app.demo && app.demo.pos > 0) {
      app.demo.pos -= 1;
      app.caption = captionFor(app.demo);
    }
    commit(next, result);
  });
}

export function reset() {
  stopPlay();
  enqueue(async () => {
    const next = [app.commands[0]];
    const result = await run(next);
    clearNotice();
    if (app.demo) {
      app.demo.pos = 0;
      app.caption = captionFor(app.demo);
    }
    commit(next, result);
  });
}

export function loadPreset(name) {
  stopPlay();
  enqueue(async () => {
    const next = [app.presets[name]];
    const result = await run(next);
    clearNotice();
    app.demo = null;
    app.caption = '';
    commit(next, result);
  });
}
