// dom.js: the few helpers every tab's script shares: look up an element, call the JSON API,
// and build an element.

// $ returns the element with this id.
export const $ = (id) => document.getElementById(id);

// api fetches a JSON answer of the API; an error answer ({"error": …}) or a failed request
// throws an Error carrying the server's one line.
export async function api(path) {
  const res = await fetch(path);
  const body = await res.json().catch(() => ({ error: `HTTP ${res.status}` }));
  if (!res.ok) throw new Error(body.error || `HTTP ${res.status}`);
  return body;
}

// h makes an element: attrs are attributes, except text (its text) and on… (listeners);
// kids are appended.
export function h(tag, attrs = {}, ...kids) {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (k === 'text') e.textContent = v;
    else if (k.startsWith('on')) e.addEventListener(k.slice(2), v);
    else e.setAttribute(k, v);
  }
  for (const k of kids) e.append(k);
  return e;
}
