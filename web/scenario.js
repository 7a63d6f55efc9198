// The run as scenario text (docs/scenario-language.md): normalising, and encoding for share links.

export const PRESETS_FALLBACK = {
  bank: 'network P1=100 P2=100 P3=100 capacity=2 snapshots=one',
  lab: 'network A=100 B=100 capacity=2 snapshots=one',
};

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

function base64UrlToBytes(s) {
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
