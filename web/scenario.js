// The run as scenario text (docs/scenario-language.md): normalising, and encoding for share links.

export const PRESETS_FALLBACK = {
  bank: 'network P1=100 P2=100 P3=100 capacity=2 snapshots=one',
  lab: 'network A=100 B=100 capacity=2 snapshots=one',
  dataflow: 'network P1=100 P2=100 P3=100 P4=100 links=P1>P2,P1>P3,P2>P4,P3>P4 capacity=2 snapshots=one',
  jobs: 'network P1=1 P2=0 P3=0 app=jobs',
  locks: 'network P1 P2 P3 app=locks',
};

// The one place that edits the run's network line (its first command): sets the snapshot
// algorithm and whether channels are FIFO, replacing the options already there. The defaults
// (chandy-lamport, fifo=yes) are left out, so a plain run keeps the line it had.
export function withNetworkOptions(line, { algorithm, fifo }) {
  const words = line.split(' ').filter((w) => !/^(algorithm|fifo)=/.test(w));
  if (!fifo) words.push('fifo=no');
  if (algorithm && algorithm !== 'chandy-lamport') words.push(`algorithm=${algorithm}`);
  return words.join(' ');
}

// One command per entry: comments and blank lines dropped, spaces tidied. The server numbers
// lines, so the page always sends exactly these lines and line k is commands[k-1].
export function toCommands(text) {
  return String(text)
    .split(/\r\n|\r|\n/)
    .map((l) => l.replace(/#.*/, '').trim().replace(/\s+/g, ' '))
    .filter((l) => l.length > 0);
}

export function toText(commands) {
  return commands.join('\n') + '\n';
}

function bytesToBase64Url(bytes) {
  let bin = '';
  for (const b of bytes) bin += String.fromCharCode(b);
  return btoa(bin).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

// Throws on anything that is not base64url (a link cut short or edited): the caller words it.
function base64UrlToBytes(s) {
  if (!/^[A-Za-z0-9_-]*$/.test(s) || s.length % 4 === 1) throw new Error('not base64url');
  const b64 = s.replace(/-/g, '+').replace(/_/g, '/');
  const bin = atob(b64 + '='.repeat((4 - (b64.length % 4)) % 4));
  return Uint8Array.from(bin, (c) => c.charCodeAt(0));
}

export function encodeScenario(commands) {
  return bytesToBase64Url(new TextEncoder().encode(toText(commands)));
}

export function decodeScenario(encoded) {
  return new TextDecoder('utf-8', { fatal: true }).decode(base64UrlToBytes(encoded));
}

// "#s=...&lang=ja" -> {s, lang}
export function parseHash(hash) {
  const params = new URLSearchParams(String(hash).replace(/^#/, ''));
  return { s: params.get('s'), lang: params.get('lang') };
}

export function makeHash(commands, lang) {
  const parts = [`s=${encodeScenario(commands)}`];
  if (lang && lang !== 'en') parts.push(`lang=${lang}`);
  return '#' + parts.join('&');
}
