// The visitor's actions on the run: each appends a command (or Undo/Reset/a preset cuts the list);
// a refusal is shown and changes nothing.
import { t } from './i18n.js';
import { Refusal } from './api.js';
import { app, hooks, enqueue, run, commit } from './run.js';
import { withNetworkOptions } from './scenario.js';
import { clearNotice, showRefusal } from './notice.js';
import { stopPlay } from './demos.js';
import { byId as $ } from './svg.js';
import { askBefore, showFeedback } from './predict.js';

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
      // Predict mode in free play: the questions of this step first (predict.js).
      const back = document.activeElement;
      const feedback = await askBefore(result, next.length - 1, app.demo ? `demo-${app.demo.id}` : 'free', { inDemo: !!app.demo });
      clearNotice();
      commit(next, result);
      showFeedback(feedback, feedback && back && back.isConnected ? back : null);
    } catch (e) {
      if (e instanceof Refusal) showRefusal(e.reason);
      else throw e;
    }
  });
}

// k: the place of the chosen message among those waiting (oldest = 1), on channels that reorder.
export function deliverOn(from, to, k) {
  act(() => (k === undefined ? `deliver ${from} ${to}` : `deliver ${from} ${to} at=${k}`));
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

// Jobs and locks: `job FROM TO`, `request FROM TO`, `grant FROM TO`. The server refuses what the
// application does not allow (an idle branch handing out work, a grant nobody asked for).
export function sendAppMessage(verb) {
  const from = $('tr-from').value;
  const to = $('tr-to').value;
  act(() => `${verb} ${from} ${to}`);
}

export function finishJob(name) {
  act(() => `finish ${name}`);
}

export function undo() {
  stopPlay();
  enqueue(async () => {
    if (app.commands.length <= 1) {
      showRefusal(t('nothingToUndo'), null);
      return;
    }
    const next = app.commands.slice(0, -1);
    const result = await run(next);
    clearNotice();
    commit(next, result);
  });
}

export function reset() {
  stopPlay();
  enqueue(async () => {
    const next = [app.commands[0]];
    const result = await run(next);
    clearNotice();
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

// The algorithm selector and the FIFO switch: the run is replayed with its network line changed
// (withNetworkOptions). A refusal changes nothing, like any refused action, and the controls go
// back to what the run is. Why not start over from the new line instead: the visitor would lose
// the run without asking, and Undo could not bring it back; the notice says how to start over.
export function changeNetwork(change) {
  stopPlay();
  enqueue(async () => {
    const st = app.result.state;
    const now = { algorithm: st.algorithm || 'chandy-lamport', fifo: st.fifo !== false };
    const line = withNetworkOptions(app.commands[0], { ...now, ...change });
    if (line === app.commands[0]) return;
    const next = [line, ...app.commands.slice(1)];
    try {
      const result = await run(next);
      clearNotice();
      commit(next, result);
    } catch (e) {
      if (!(e instanceof Refusal)) throw e;
      // The network line itself refused (aligned on a cycle, barriers without FIFO) says it all;
      // a later line refused is named, with the way to start over.
      if (e.line > 1) showRefusal(e.full, 'networkChangeRefused');
      else showRefusal(e.reason);
      hooks.render();
    }
  });
}

export function stopTheWorld() {
  act(() => 'stop-the-world');
}
