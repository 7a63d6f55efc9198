// The page's only link to the simulation: the server's HTTP API (docs/api.md).

export class Refusal extends Error {
  constructor(reason, line) {
    super(reason);
    this.reason = reason;
    this.line = line;
  }
}

// Runs a whole scenario. Resolves to the server's result; rejects with Refusal when the
// server refuses the scenario (422, 400, 413), with another Error when it cannot be reached.
export async function runScenario(text, lang) {
  const res = await fetch('api/run', {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ scenario: text, lang }),
  });
  let body = null;
  try {
    body = await res.json();
  } catch {
    body = null;
  }
  if (res.ok && body) return body;
  if (body && (body.message || body.error)) throw new Refusal(body.message || body.error, body.line);
  throw new Error(`HTTP ${res.status}`);
}

export async function fetchDemos(lang) {
  const res = await fetch(`api/demos?lang=${encodeURIComponent(lang)}`);
  if (!res.ok) throw new Error(`HTTP ${res.status}`);
  return res.json();
}
