// regions-editor.js is the Regions tab's editor: pick N, paint regions by click and drag
// (mouse, pen or touch: pointer events) or by keys, and see at once how many solutions the grid has
// (0, 1 or more: regions-count.js, in the page), where two solutions differ, and one cell
// to repaint that makes the solution unique. The grid is imported and exported as the
// CLI's text (region letters, a row a line) or as JSON ({"n", "regions"}), played with
// hints, and shared by a link (?tab=regions&grid=AAB/…).
//
// Other scripts hand it a grid with
//
//	document.dispatchEvent(new CustomEvent('regions:load', {detail: {n, regions}}))
//
// (regions as text rows, ["AAB…", …]; a screenshot reader does this): the editor opens
// with that grid for the player to confirm or correct.

import { h } from './dom.js';
import { countSolutions, missingRegions, suggestUnique, parseGrid, gridText } from './regions-count.js';

const NS = 'http://www.w3.org/2000/svg';
const letter = (k) => String.fromCharCode(65 + k);
const cellName = (r, c) => `r${r + 1}c${c + 1}`;

function svg(name, attrs = {}, parent = null) {
  const e = document.createElementNS(NS, name);
  for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, v);
  if (parent) parent.appendChild(e);
  return e;
}

// stripes is the grid whose regions are its rows: a start to paint over.
const stripes = (n) => Array.from({ length: n }, (_, r) => new Array(n).fill(r));

// makeEditor builds the editor. palette and colourRegions colour it as the game does;
// play(rows) plays a grid; link(rows) returns its share link.
export function makeEditor({ palette, colourRegions, play, link, minN, maxN }) {
  let rows = stripes(8);
  let brush = 0;
  let painting = false;
  let cursor = [0, 0]; // the keyboard's cell
  let check = null; // the last count: {count, solutions, ms, missing, suggestion}

  const nSel = h('select', { id: 'rg-ed-n', 'aria-label': 'editor grid size' });
  for (let n = minN; n <= maxN; n++) nSel.add(new Option(`${n}×${n}`, String(n), false, n === 8));
  nSel.addEventListener('change', () => { rows = stripes(Number(nSel.value)); brush = 0; cursor = [0, 0]; update(); });
  const pal = h('div', { id: 'rg-ed-palette', class: 'rg-ed-palette', role: 'radiogroup', 'aria-label': 'region to paint' });
  const board = h('div', { id: 'rg-ed-board', class: 'rg-board rg-ed-board' });
  const count = h('p', { id: 'rg-ed-count', class: 'rg-status', role: 'status', 'aria-live': 'polite' });
  const diff = h('p', { id: 'rg-ed-diff', class: 'rg-hint' });
  const apply = h('button', { id: 'rg-ed-apply', text: 'make this change', hidden: '', onclick: () => applySuggestion() });
  const suggest = h('p', { id: 'rg-ed-suggest', class: 'rg-hint' });
  const text = h('textarea', { id: 'rg-ed-text', rows: '6', cols: '24', spellcheck: 'false', 'aria-label': 'the grid as text or JSON' });
  const note = h('p', { id: 'rg-ed-note', class: 'rg-hint', 'aria-live': 'polite' });
  const el = h('div', { id: 'regions-editor', class: 'rg-editor', hidden: '' },
    h('div', { class: 'controls rg-controls' },
      h('label', {}, 'size ', nSel),
      h('button', { id: 'rg-ed-play', text: 'play it', onclick: () => { if (check && check.count >= 1 && !check.missing.length) play(rows); } }),
      h('button', { id: 'rg-ed-link', text: 'copy link', onclick: () => copyLink() }),
      h('button', { id: 'rg-ed-close', text: 'close editor', onclick: () => { el.hidden = true; } })),
    pal,
    h('div', { class: 'rg-layout' }, board,
      h('div', { class: 'rg-side' }, count, diff, suggest, apply,
        h('p', { class: 'hint' }, 'Pick a region in the palette, then click or drag over cells to paint them. Keys: arrows move, a letter picks its region, Space or Enter paints. A region may be in several pieces.'),
        text,
        h('div', { class: 'controls rg-controls' },
          h('button', { id: 'rg-ed-import', text: 'import', title: 'read the box: region letters, a row a line, or JSON {"n", "regions"}', onclick: () => importText() }),
          h('button', { id: 'rg-ed-export-text', text: 'export text', onclick: () => { text.value = gridText(rows) + '\n'; note.textContent = 'The grid as the command line writes it.'; } }),
          h('button', { id: 'rg-ed-export-json', text: 'export JSON', onclick: () => { text.value = JSON.stringify({ n: rows.length, regions: rows }); note.textContent = 'The grid as JSON: n and regions (ids 0…N−1).'; } })),
        note)));

  function importText() {
    try {
      load(parseGrid(text.value));
      note.textContent = `Imported a ${rows.length}×${rows.length} grid.`;
    } catch (e) {
      note.textContent = `Not imported: ${e.message}.`;
    }
  }

  async function copyLink() {
    const url = link(rows);
    try {
      await navigator.clipboard.writeText(url);
      note.textContent = `Link copied: ${url}`;
    } catch {
      note.textContent = `Share this link: ${url}`;
    }
  }

  function applySuggestion() {
    if (!check || !check.suggestion) return;
    const { r, c, region } = check.suggestion;
    rows[r][c] = region;
    update();
  }

  // fromPicture: the grid shown was read from a picture ('regions:load').
  let fromPicture = false;

  // load puts a grid (N arrays of N ids) in the editor, and opens it, scrolled into view,
  // unless show is false.
  function load(next, show = true) {
    rows = next.map((row) => row.slice());
    nSel.value = String(rows.length);
    brush = Math.min(brush, rows.length - 1);
    cursor = [Math.min(cursor[0], rows.length - 1), Math.min(cursor[1], rows.length - 1)];
    fromPicture = false;
    if (show) {
      el.hidden = false;
      el.scrollIntoView({ block: 'nearest' });
    }
    update();
  }

  // recount counts the solutions (up to 2) and, for two, finds a repaint that leaves one.
  function recount() {
    const missing = missingRegions(rows);
    if (missing.length) return { count: -1, solutions: [], ms: 0, missing, suggestion: null };
    const t0 = performance.now();
    const res = countSolutions(rows, 2, 2);
    const ms = performance.now() - t0;
    let suggestion = null;
    if (res.count === 2) suggestion = suggestUnique(rows, res.solutions[0], res.solutions[1]);
    return { ...res, ms, missing, suggestion };
  }

  function update() {
    const t0 = performance.now();
    check = recount();
    const n = rows.length;
    // The times of the count alone and with the suggestion, for tests and bench/README.md.
    count.dataset.ms = check.ms.toFixed(2);
    count.dataset.totalMs = (performance.now() - t0).toFixed(2);
    diff.textContent = '';
    suggest.textContent = '';
    apply.hidden = true;
    if (check.missing.length) {
      count.textContent = `Regions ${check.missing.map(letter).join(', ')} have no cells yet: paint them.`;
      count.dataset.count = 'missing';
    } else if (check.count === 0) {
      count.textContent = 'No solution: change the regions.';
      count.dataset.count = '0';
    } else if (check.count === 1) {
      count.textContent = 'Exactly one solution: a puzzle.';
      count.dataset.count = '1';
    } else {
      count.textContent = 'More than one solution.';
      count.dataset.count = 'more';
      const [a, b] = check.solutions;
      const cells = [];
      for (let r = 0; r < n; r++) if (a[r] !== b[r]) cells.push(cellName(r, a[r]), cellName(r, b[r]));
      diff.textContent = `Two solutions differ in rows ${[...Array(n).keys()].filter((r) => a[r] !== b[r]).map((r) => r + 1).join(', ')}: one has queens on ${cells.filter((_, i) => i % 2 === 0).join(', ')}, the other on ${cells.filter((_, i) => i % 2 === 1).join(', ')} (outlined).`;
      if (check.suggestion) {
        const { r, c, region } = check.suggestion;
        suggest.textContent = `Paint ${cellName(r, c)} (region ${letter(rows[r][c])}) as region ${letter(region)}, and the grid has exactly one solution.`;
        apply.hidden = false;
      } else {
        suggest.textContent = 'No single cell repainted makes the solution unique; change a region where the solutions differ.';
      }
    }
    draw();
  }

  function drawPalette(colour) {
    pal.replaceChildren();
    for (let k = 0; k < rows.length; k++) {
      const b = h('button', { class: 'rg-ed-swatch', 'data-k': String(k), role: 'radio', 'aria-checked': String(k === brush), title: `paint region ${letter(k)}`, style: `background:${palette[colour[k]]}`, text: letter(k) });
      b.addEventListener('click', () => { brush = k; drawPalette(colour); });
      pal.append(b);
    }
  }

  function draw() {
    const n = rows.length;
    const colour = colourRegions(rows, n);
    drawPalette(colour);
    const M = 0.08;
    const s = svg('svg', { viewBox: `${-M} ${-M} ${n + 2 * M} ${n + 2 * M}`, role: 'application', tabindex: '0', 'aria-label': `${n}×${n} region editor; arrows move, a letter picks a region, Space or Enter paints`, xmlns: NS });
    const differ = new Set();
    if (check && check.count === 2) {
      const [a, b] = check.solutions;
      for (let r = 0; r < n; r++) if (a[r] !== b[r]) differ.add(`${r},${a[r]}`).add(`${r},${b[r]}`);
    }
    const sug = check && check.suggestion;
    for (let r = 0; r < n; r++) {
      for (let c = 0; c < n; c++) {
        const k = rows[r][c];
        svg('rect', { x: c, y: r, width: 1, height: 1, fill: palette[colour[k]], class: 'rg-ed-cell', 'data-r': r, 'data-c': c, 'data-region': letter(k) }, s);
        const t = svg('text', { x: c + 0.5, y: r + 0.62, 'font-size': '0.34', 'text-anchor': 'middle', fill: '#222', 'pointer-events': 'none', 'font-family': 'system-ui, sans-serif' }, s);
        t.textContent = letter(k);
        if (differ.has(`${r},${c}`)) svg('rect', { x: c + 0.08, y: r + 0.08, width: 0.84, height: 0.84, class: 'rg-ed-diff', 'pointer-events': 'none' }, s);
        if (sug && sug.r === r && sug.c === c) svg('rect', { x: c + 0.04, y: r + 0.04, width: 0.92, height: 0.92, class: 'rg-ed-suggest', 'pointer-events': 'none' }, s);
      }
    }
    let thin = '', thick = '';
    for (let r = 0; r < n; r++) {
      for (let c = 0; c < n; c++) {
        if (c + 1 < n) { const seg = `M${c + 1} ${r}V${r + 1}`; if (rows[r][c] !== rows[r][c + 1]) thick += seg; else thin += seg; }
        if (r + 1 < n) { const seg = `M${c} ${r + 1}H${c + 1}`; if (rows[r][c] !== rows[r + 1][c]) thick += seg; else thin += seg; }
      }
    }
    svg('path', { d: thin, stroke: '#555', 'stroke-width': '0.015', 'stroke-opacity': '0.6', fill: 'none', 'pointer-events': 'none' }, s);
    svg('path', { d: thick, stroke: '#1a1a1a', 'stroke-width': '0.07', 'stroke-linecap': 'square', fill: 'none', 'pointer-events': 'none' }, s);
    svg('rect', { x: 0, y: 0, width: n, height: n, stroke: '#1a1a1a', 'stroke-width': '0.1', fill: 'none', 'pointer-events': 'none' }, s);
    const [cr, cc] = cursor;
    svg('rect', { x: cc + 0.08, y: cr + 0.08, width: 0.84, height: 0.84, class: 'rg-cursor', fill: 'none', 'pointer-events': 'none' }, s);
    const hadFocus = board.contains(document.activeElement);
    board.replaceChildren(s);
    if (hadFocus) s.focus();
    s.addEventListener('keydown', onKey);
  }

  // onKey: arrows move the cursor, a region's letter picks it, Space or Enter paints.
  function onKey(ev) {
    if (ev.ctrlKey || ev.metaKey || ev.altKey) return;
    const n = rows.length;
    const move = { ArrowUp: [-1, 0], ArrowDown: [1, 0], ArrowLeft: [0, -1], ArrowRight: [0, 1] }[ev.key];
    const k = ev.key.length === 1 ? ev.key.toUpperCase().charCodeAt(0) - 65 : -1;
    if (move) {
      cursor = [Math.min(n - 1, Math.max(0, cursor[0] + move[0])), Math.min(n - 1, Math.max(0, cursor[1] + move[1]))];
      draw();
    } else if (k >= 0 && k < n) {
      brush = k;
      draw();
    } else if (ev.key === ' ' || ev.key === 'Enter') {
      const [r, c] = cursor;
      if (rows[r][c] !== brush) {
        rows[r][c] = brush;
        update();
      }
    } else {
      return;
    }
    ev.preventDefault();
  }

  // Painting: a pointer pressed on a cell paints it, and every cell it moves over until
  // it is lifted. Pointer events serve mouse, pen and touch alike; the board takes no
  // touch scrolling (touch-action: none in regions.css) so that a finger paints.
  function cellAt(ev) {
    const t = document.elementFromPoint(ev.clientX, ev.clientY);
    if (!t || !t.classList || !t.classList.contains('rg-ed-cell')) return null;
    return [Number(t.dataset.r), Number(t.dataset.c)];
  }
  function paint(ev) {
    const at = cellAt(ev);
    if (!at) return;
    const [r, c] = at;
    cursor = [r, c];
    if (rows[r][c] === brush) return;
    rows[r][c] = brush;
    update();
  }
  board.addEventListener('pointerdown', (ev) => {
    painting = true;
    paint(ev);
    ev.preventDefault();
  });
  board.addEventListener('pointermove', (ev) => { if (painting) paint(ev); });
  for (const end of ['pointerup', 'pointercancel', 'pointerleave']) board.addEventListener(end, () => { painting = false; });

  document.addEventListener('regions:load', (ev) => {
    const d = ev.detail || {};
    try {
      const grid = parseGrid(Array.isArray(d.regions) ? d.regions.join('\n') : '');
      if (d.n !== undefined && d.n !== grid.length) throw new Error(`n is ${d.n} but there are ${grid.length} rows`);
      load(grid);
      fromPicture = true;
      note.textContent = `Loaded a ${grid.length}×${grid.length} grid: check it against your picture, correct it by painting, then play it.`;
    } catch (e) {
      el.hidden = false;
      note.textContent = `Could not load the grid: ${e.message}.`;
    }
    el.scrollIntoView({ block: 'nearest' });
  });
  // A picture that could not be read: a grid read from an earlier one is not shown for it.
  document.addEventListener('regions:unread', () => {
    if (!fromPicture) return;
    fromPicture = false;
    el.hidden = true;
  });

  update();
  return { el, load, rows: () => rows.map((row) => row.slice()) };
}
