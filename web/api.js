// The page's only link to the simulation: the server's HTTP API (docs/api.md).

// reason: the server's reason alone; full: with the line it names ("line 3: ..."), for texts
// the visitor did not type command by command (an imported file, a shared link).
export class Refusal extends Error {
  constructor(reason, full, line) {
    super(reason);
    this.reason = reason;
    this.full = full || reason;
    this.line = line;
  }
}

// Runs a whole scenario. Resolves to the server's result; rejects with Refusal when the
// server refuses the scenario, with another Error when it cannot be reached.
// A refusal is an ordinary answer here, not a failed request: `error_status: 200` asks the
// server to send it with status 200 (as {"error", "line", "message"}), so that the browser
// does not log a failed load on the console each time a click is refused. A 422 is handled
// the same way.
export async function runScenario(text, lang) {
  return postRun({ scenario: text, lang });
}

// The run's history as a ShiViz log ("format": "shiviz"): its text; rejects as runScenario.
export async function fetchShiviz(text, lang) {
  return (await postRun({ scenario: text, lang, format: 'shiviz' })).shiviz;
}

function postRun(request) {
  return postJson('api/run', { ...request, error_status: 200 });
}

// The server is busy with another search (503 from POST /api/explore): try again later.
export class Busy extends Error {}

// POSTs `request` as JSON to `path`. Resolves to the server's answer; rejects with Refusal when
// the server refuses in words, with Busy on a 503 when `busy` is asked for, else with an Error.
async function postJson(path, request, { busy = false } = {}) {
  const res = await fetch(path, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify(request),
  });
  const body = await res.json().catch(() => null);
  if (res.ok && body && !('error' in body)) return body;
  if (busy && res.status === 503) throw new Busy(body && body.error);
  if (body && (body.message || body.error)) throw new Refusal(body.message || body.error, body.error, body.line);
  throw new Error(`HTTP ${res.status}`);
}

export async function fetchDemos(lang) {
  const res = await fetch(`api/demos?lang=${encodeURIComponent(lang)}`);
  if (!res.ok) throw new Error(`HTTP ${res.status}`);
  return res.json();
}

// Judges a cut drawn on the space-time diagram (POST /api/cut): `points`, one per branch, each
// the number of the branch's sends and deliveries inside the cut. Rejects as runScenario.
export async function judgeCut(text, points, lang) {
  return postJson('api/cut', { scenario: text, cut: points, lang });
}

// Every schedule of a scenario, judged (POST /api/explore): the server's answer ("outcome", the
// figures, and for a broken rule "demo"). Rejects as runScenario, or with Busy.
export async function exploreScenario(text, lang) {
  return postJson('api/explore', { scenario: text, lang }, { busy: true });
}
