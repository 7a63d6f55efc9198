// Small DOM helpers for building SVG and HTML without innerHTML.
const SVG_NS = 'http://www.w3.org/2000/svg';

// The page's element with this id.
export const byId = (id) => document.getElementById(id);

export function svg(tag, attrs = {}, parent = null, text = null) {
  const el = document.createElementNS(SVG_NS, tag);
  for (const [k, v] of Object.entries(attrs)) if (v !== null && v !== undefined) el.setAttribute(k, String(v));
  if (text !== null) el.textContent = text;
  if (parent) parent.appendChild(el);
  return el;
}

export function html(tag, attrs = {}, parent = null, text = null) {
  const el = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (v === null || v === undefined) continue;
    if (k === 'class') el.className = v;
    else el.setAttribute(k, String(v));
  }
  if (text !== null) el.textContent = text;
  if (parent) parent.appendChild(el);
  return el;
}

// Removes every child except <title> and <desc>, which carry the SVG's accessible name.
export function clearSvg(root) {
  for (const child of [...root.childNodes]) {
    if (child.nodeName !== 'title' && child.nodeName !== 'desc') child.remove();
  }
}
