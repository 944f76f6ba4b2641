// regions_read.js reads a screenshot of a region-queens puzzle in the Regions tab: paste it
// (Ctrl-V), drop it on the tab, or pick the file. The picture goes as it is to
// POST /api/regions/read, which finds the grid, N and the regions (package
// queens/regions/scan); what it read is handed to the tab's editor as the event
//
//	document.dispatchEvent(new CustomEvent('regions:load', {detail: {n, regions}}))
//
// regions being the grid's rows as region letters (["AAB…", …], the CLI's text), for the
// player to check, correct and then solve with hints. A picture it cannot read fires
// 'regions:unread' (no detail), so that the editor drops a grid read from an earlier picture.

import { $, h } from './dom.js';

const root = $('regions');
const MAX_BYTES = 16 << 20; // the API's bound

const picker = h('input', { type: 'file', id: 'regions-read-file', accept: 'image/png,image/jpeg,image/gif', hidden: '' });
const status = h('p', { id: 'regions-read-status', class: 'rg-status', role: 'status', 'aria-live': 'polite' });
// The grid read, as the CLI's text, to copy ("chesspuzzles queens regions solve -").
const text = h('pre', { id: 'regions-read-text' });
const details = h('details', { hidden: '' }, h('summary', { text: 'the grid read, as text' }), text);
root.append(h('div', { class: 'controls rg-controls rg-read' },
  h('button', { id: 'regions-read', text: 'read a screenshot…', title: 'pick a picture of a puzzle (PNG, JPEG or GIF); or paste one (Ctrl-V) or drop it here', onclick: () => picker.click() }),
  picker,
  h('span', { class: 'hint', text: 'or paste (Ctrl-V) or drop a screenshot of a Queens puzzle here' })),
status, details);

picker.addEventListener('change', () => {
  if (picker.files.length) read(picker.files[0]);
  picker.value = '';
});

// A pasted picture counts while the tab is shown; text pastes are left alone.
document.addEventListener('paste', (e) => {
  if (root.hidden) return;
  const file = [...(e.clipboardData?.files || [])].find((f) => f.type.startsWith('image/'));
  if (!file) return;
  e.preventDefault();
  read(file);
});

root.addEventListener('dragover', (e) => {
  if ([...e.dataTransfer.types].includes('Files')) e.preventDefault();
});
root.addEventListener('drop', (e) => {
  const file = [...e.dataTransfer.files].find((f) => f.type.startsWith('image/'));
  if (!file) return;
  e.preventDefault();
  read(file);
});

let reading = 0;

async function read(file) {
  const gen = ++reading;
  if (file.size > MAX_BYTES) {
    say(`The picture is ${(file.size / (1 << 20)).toFixed(1)} MiB; at most 16 MiB can be read.`, 'error');
    return;
  }
  say('Reading the picture…');
  let res, body;
  try {
    res = await fetch('/api/regions/read', { method: 'POST', body: file, headers: { 'Content-Type': file.type || 'application/octet-stream' } });
    body = await res.json().catch(() => ({ error: `HTTP ${res.status}` }));
  } catch (e) {
    if (gen === reading) say(`The picture could not be sent: ${e.message}.`, 'error');
    return;
  }
  if (gen !== reading) return;
  if (!res.ok) {
    say(`No puzzle read: ${body.error || `HTTP ${res.status}`}.`, 'error');
    // The grid of the picture before is not this picture's: it goes, here and in the editor.
    text.textContent = '';
    details.hidden = true;
    document.dispatchEvent(new CustomEvent('regions:unread'));
    return;
  }
  const regions = body.regions.map((row) => row.map((k) => String.fromCharCode(65 + k)).join(''));
  say(`Read a ${body.n}×${body.n} grid of ${body.n} regions: check it against the picture, correct it if need be, then solve it.`);
  text.textContent = regions.join('\n');
  details.hidden = false;
  document.dispatchEvent(new CustomEvent('regions:load', { detail: { n: body.n, regions } }));
}

function say(text, kind = '') {
  status.textContent = text;
  status.className = 'rg-status' + (kind ? ' ' + kind : '');
}
