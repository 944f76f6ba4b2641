// regions.js runs the Regions tab: the daily "Queens" game. An N×N grid is cut into N
// coloured regions; the player places N queens, one in every row, column and region, no two
// touching. The puzzles come from the server (GET /api/regions, exactly one answer each) and
// so do the hints (GET /api/regions/hint: the technique a person would use next, where and
// why). Everything else — marks, conflicts, undo, the timer — is played here. The editor
// (regions-editor.js) makes the player's own grids, played here too.

import { $, api, h } from './dom.js';
import { makeEditor } from './regions-editor.js';
import { parseGrid, gridText } from './regions-count.js';

const NS = 'http://www.w3.org/2000/svg';
const root = $('regions');

function svg(name, attrs = {}, parent = null) {
  const e = document.createElementNS(NS, name);
  for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, v);
  if (parent) parent.appendChild(e);
  return e;
}

// The palette: light tints of the Okabe–Ito colours (Okabe & Ito, "Color Universal Design",
// 2008), which people with the common kinds of colour blindness tell apart, then two more
// tints. Neighbouring regions always get different colours (see colourRegions); letters and
// patterns can be shown on top, and thick borders separate the regions whatever the colours.
const PALETTE = ['#f2b84b', '#8fcdf0', '#5cc4a4', '#efe46a', '#6aa6dd', '#ee9466', '#dba3c8', '#c4c4c4', '#e9dcb9', '#b9dd9f'];
// One pattern a colour, for players who want more than colour: drawn in dark ink, thin.
const PATTERNS = ['dots', 'hlines', 'vlines', 'diag', 'anti', 'grid', 'cross', 'none', 'rings', 'zig'];

const MIN_N = 5, MAX_N = 20, LEVELS = ['easy', 'medium', 'hard'];
const EMPTY = 0, X = 1, QUEEN = 2;

// ---- the controls ----
const nSel = h('select', { id: 'regions-n', 'aria-label': 'grid size' });
for (let n = MIN_N; n <= MAX_N; n++) nSel.add(new Option(`${n}×${n}`, String(n), false, n === 8));
const levelSel = h('select', { id: 'regions-level', 'aria-label': 'level' });
for (const l of LEVELS) levelSel.add(new Option(l, l));
const seedIn = h('input', { id: 'regions-seed', type: 'number', min: '0', max: String(2 ** 53 - 1), step: '1', value: '1', 'aria-label': 'puzzle number (seed)' });
const status = h('p', { id: 'regions-status', class: 'rg-status', role: 'status', 'aria-live': 'polite' });
const hintText = h('p', { id: 'regions-hint-text', class: 'rg-hint', 'aria-live': 'polite' });
// where says the cursor's cell to screen readers as the arrows move it.
const where = h('p', { id: 'regions-where', class: 'rg-sr', 'aria-live': 'polite' });
const timer = h('span', { id: 'regions-timer', class: 'rg-timer', 'aria-label': 'time' }, '0:00');
const lettersBox = h('input', { type: 'checkbox', id: 'regions-letters' });
const patternsBox = h('input', { type: 'checkbox', id: 'regions-patterns' });
const boardBox = h('div', { id: 'regions-board', class: 'rg-board' });

root.append(
  h('div', { class: 'controls rg-controls' },
    h('label', {}, 'size ', nSel),
    h('label', {}, 'level ', levelSel),
    h('label', {}, 'puzzle # ', seedIn),
    h('button', { id: 'regions-go', text: 'play', onclick: () => loadFromControls() }),
    h('button', { id: 'regions-daily', text: 'today’s puzzle', title: 'the puzzle numbered by today’s date, YYYYMMDD: the same for everyone today', onclick: () => { seedIn.value = String(todaySeed()); loadFromControls(); } }),
    h('button', { id: 'regions-random', text: 'random', onclick: () => { seedIn.value = String(Math.floor(Math.random() * 1e9)); loadFromControls(); } }),
    h('button', { id: 'regions-edit', text: 'editor', title: 'make your own grid, or correct this one: paint regions, see how many solutions it has', onclick: () => editor.load(game ? game.rows : Array.from({ length: 8 }, (_, r) => new Array(8).fill(r))) })),
  h('div', { class: 'controls rg-controls' },
    h('button', { id: 'regions-hint', text: 'hint', title: 'which technique applies next, where and why (H)', onclick: () => hint() }),
    h('button', { id: 'regions-undo', text: 'undo', title: 'undo the last mark (U or Ctrl+Z)', onclick: () => undo() }),
    h('button', { id: 'regions-clear', text: 'clear', onclick: () => { if (game) { record(); game.marks.fill(EMPTY); afterMove(); } } }),
    h('button', { id: 'regions-share', text: 'copy link', onclick: () => share() }),
    h('button', { id: 'regions-print', text: 'print', onclick: () => window.print() }),
    h('button', { id: 'regions-svg', text: 'SVG', title: 'download the grid and your queens as an SVG picture', onclick: () => picture('svg') }),
    h('button', { id: 'regions-png', text: 'PNG', title: 'download the grid and your queens as a PNG picture', onclick: () => picture('png') }),
    h('label', {}, lettersBox, ' letters'),
    h('label', {}, patternsBox, ' patterns'),
    timer),
  h('div', { class: 'rg-layout' },
    boardBox,
    h('div', { class: 'rg-side' }, status, hintText, where,
      h('p', { class: 'hint' }, 'Place one queen in every row, every column and every coloured region; no two queens may touch, not even diagonally. ',
        'Click a cell to cycle it: empty → ✕ → queen. Keys: arrows move, Q or Enter places a queen, X or Space a ✕, Delete empties, U undoes, H asks for a hint.'))));

const editor = makeEditor({
  palette: PALETTE, colourRegions, minN: MIN_N, maxN: MAX_N,
  play: (rows) => playGrid(rows),
  link: (rows) => `${location.origin}${location.pathname}?tab=regions&grid=${gridText(rows).replaceAll('\n', '/')}`,
});
root.append(editor.el);

lettersBox.addEventListener('change', () => draw());
patternsBox.addEventListener('change', () => draw());

function todaySeed(d = new Date()) {
  return d.getFullYear() * 10000 + (d.getMonth() + 1) * 100 + d.getDate();
}

// ---- the game ----
// game: {n, level, seed, rows, colour[region], marks (Int8Array n·n), history, cursor, start, solved, hint}
let game = null;
let generation = 0;
let tick = null;

// tellState hands the tab's state to app.js, which keeps it in the URL (?tab=regions&n=&seed=&level=).
function tellState() {
  const state = game && game.custom
    ? { grid: gridText(game.rows).replaceAll('\n', '/') }
    : { n: nSel.value, seed: seedIn.value, level: levelSel.value };
  document.dispatchEvent(new CustomEvent('regions-state', { detail: state }));
}

function loadFromControls() {
  const seed = Number(seedIn.value);
  if (!Number.isSafeInteger(seed) || seed < 0) {
    seedIn.setAttribute('aria-invalid', 'true');
    say(`The puzzle number must be a whole number from 0 to ${2 ** 53 - 1}.`, 'error');
    return;
  }
  seedIn.removeAttribute('aria-invalid');
  load(Number(nSel.value), seed, levelSel.value);
}

async function load(n, seed, level) {
  const gen = ++generation;
  tellState();
  say(`Making puzzle #${seed} (${n}×${n}, ${level})…${n >= 18 ? ' Grids this large can take several seconds.' : ''}`);
  hintText.textContent = '';
  let p;
  try {
    p = await api(`/api/regions?n=${n}&seed=${seed}&level=${level}`);
  } catch (e) {
    if (gen === generation) say(e.message, 'error');
    return;
  }
  if (gen !== generation) return;
  begin(p.regions, { level: p.level, seed: p.seed });
  say(`Puzzle #${p.seed}, ${p.n}×${p.n}, ${p.level}: place ${p.n} queens.`);
}

// begin starts a game on rows; how says which puzzle it is: {level, seed}, or {custom: true}.
function begin(rows, how) {
  const n = rows.length;
  game = {
    n, level: how.level || 'custom', seed: how.seed ?? null, custom: !!how.custom, rows, colour: colourRegions(rows, n),
    marks: new Int8Array(n * n), history: [], cursor: [0, 0], start: Date.now(), solved: false, hint: null,
  };
  clearInterval(tick);
  tick = setInterval(showTime, 1000);
  showTime();
  hintText.textContent = '';
  draw();
}

// playGrid plays a grid of the player's own (from the editor or a link).
function playGrid(rows) {
  ++generation;
  begin(rows.map((row) => row.slice()), { custom: true });
  tellState();
  say(`Your puzzle, ${game.n}×${game.n}: place ${game.n} queens.`);
  boardBox.scrollIntoView({ block: 'nearest' });
}

// colourRegions gives each region a palette index different from its neighbours', greedily,
// largest regions first (with ten colours and map-like regions it never runs out; if it did,
// it would reuse the least used neighbouring colour, and the borders still tell them apart).
function colourRegions(rows, n) {
  const adj = Array.from({ length: n }, () => new Set());
  const size = new Array(n).fill(0);
  for (let r = 0; r < n; r++) {
    for (let c = 0; c < n; c++) {
      const a = rows[r][c];
      size[a]++;
      if (c + 1 < n && rows[r][c + 1] !== a) { adj[a].add(rows[r][c + 1]); adj[rows[r][c + 1]].add(a); }
      if (r + 1 < n && rows[r + 1][c] !== a) { adj[a].add(rows[r + 1][c]); adj[rows[r + 1][c]].add(a); }
    }
  }
  const order = [...Array(n).keys()].sort((a, b) => size[b] - size[a] || a - b);
  const colour = new Array(n).fill(-1);
  const used = new Array(PALETTE.length).fill(0);
  for (const reg of order) {
    const taken = new Set([...adj[reg]].map((b) => colour[b]));
    let best = -1;
    for (let k = 0; k < PALETTE.length; k++) {
      if (!taken.has(k) && (best < 0 || used[k] < used[best])) best = k;
    }
    if (best < 0) best = used.indexOf(Math.min(...used));
    colour[reg] = best;
    used[best]++;
  }
  return colour;
}

const at = (r, c) => r * game.n + c;
const cellName = (r, c) => `r${r + 1}c${c + 1}`;
const letter = (k) => String.fromCharCode(65 + k);

function queens() {
  const qs = [];
  for (let r = 0; r < game.n; r++) for (let c = 0; c < game.n; c++) if (game.marks[at(r, c)] === QUEEN) qs.push([r, c]);
  return qs;
}

// conflicts returns the queens that break a rule (a Set of "r,c") and a sentence on the first.
function conflicts(qs) {
  const bad = new Set();
  let why = '';
  for (let i = 0; i < qs.length; i++) {
    for (let j = i + 1; j < qs.length; j++) {
      const [a, b] = [qs[i], qs[j]];
      let rule = '';
      if (a[0] === b[0]) rule = `share row ${a[0] + 1}`;
      else if (a[1] === b[1]) rule = `share column ${a[1] + 1}`;
      else if (game.rows[a[0]][a[1]] === game.rows[b[0]][b[1]]) rule = `share region ${letter(game.rows[a[0]][a[1]])}`;
      else if (Math.abs(a[0] - b[0]) <= 1 && Math.abs(a[1] - b[1]) <= 1) rule = 'touch';
      if (rule) {
        bad.add(`${a[0]},${a[1]}`);
        bad.add(`${b[0]},${b[1]}`);
        if (!why) why = `The queens on ${cellName(...a)} and ${cellName(...b)} ${rule}.`;
      }
    }
  }
  return { bad, why };
}

function record() {
  game.history.push(Int8Array.from(game.marks));
  if (game.history.length > 2000) game.history.shift();
}

function undo() {
  if (!game || game.history.length === 0) return;
  game.marks = game.history.pop();
  afterMove();
}

function setMark(r, c, m) {
  if (!game || game.marks[at(r, c)] === m) return;
  record();
  game.marks[at(r, c)] = m;
  afterMove();
}

function cycle(r, c) {
  if (!game) return;
  const m = game.marks[at(r, c)];
  setMark(r, c, m === EMPTY ? X : m === X ? QUEEN : EMPTY);
}

function afterMove() {
  game.moves = (game.moves || 0) + 1;
  game.hint = null;
  hintText.textContent = '';
  const qs = queens();
  const { bad, why } = conflicts(qs);
  if (bad.size > 0) {
    say(why, 'error');
  } else if (qs.length === game.n) {
    if (!game.solved) {
      game.solved = true;
      game.time = Date.now() - game.start;
      clearInterval(tick);
      showTime();
    }
    say(`Solved in ${clock(game.time)}! Every row, column and region has its queen, and no two touch.`, 'solved');
  } else {
    say(`${qs.length} of ${game.n} queens placed.`);
  }
  draw();
}

function clock(ms) {
  const s = Math.floor(ms / 1000);
  const hh = Math.floor(s / 3600), mm = Math.floor(s / 60) % 60, ss = String(s % 60).padStart(2, '0');
  return hh > 0 ? `${hh}:${String(mm).padStart(2, '0')}:${ss}` : `${mm}:${ss}`;
}

function showTime() {
  if (!game) return;
  timer.textContent = clock(game.solved ? game.time : Date.now() - game.start);
}

function say(text, cls = '') {
  status.textContent = text;
  status.className = 'rg-status ' + cls;
}

// ---- hints ----
async function hint() {
  if (!game) return;
  const qs = queens();
  const { bad, why } = conflicts(qs);
  if (bad.size > 0) {
    hintText.textContent = `First take back a queen that breaks the rules: ${why}`;
    return;
  }
  const grid = game.rows.map((row) => row.map(letter).join('')).join('/');
  const q = qs.map(([r, c]) => cellName(r, c)).join(' ');
  const gen = generation, moves = game.moves;
  hintText.textContent = 'Thinking…';
  let res;
  try {
    res = await api(`/api/regions/hint?grid=${grid}&queens=${encodeURIComponent(q)}`);
  } catch (e) {
    hintText.textContent = e.message;
    return;
  }
  if (gen !== generation || moves !== game.moves) return; // the grid changed meanwhile
  if (res.status !== 'step') {
    hintText.textContent = res.text;
    return;
  }
  const s = res.step;
  game.hint = s;
  let said = `${s.technique[0].toUpperCase()}${s.technique.slice(1)} (${s.level}): ${s.text}`;
  // The hint reads only the queens: once its cells are all crossed, it would repeat.
  if (!s.queen && s.ruled.length > 0 && s.ruled.every(([r, c]) => game.marks[at(r, c)] === X)) {
    said += ' You have crossed all these cells already; hints look only at your queens, so this one shows until you place the next queen it leads to.';
  }
  hintText.textContent = said;
  draw();
}

// ---- drawing ----
const CROWN = [[0.22, 0.74], [0.13, 0.34], [0.32, 0.54], [0.33, 0.26], [0.44, 0.50], [0.50, 0.20],
  [0.56, 0.50], [0.67, 0.26], [0.68, 0.54], [0.87, 0.34], [0.78, 0.74]];
const BASE = [[0.20, 0.77], [0.80, 0.77], [0.83, 0.87], [0.17, 0.87]];

function patternDefs(defs) {
  const ink = '#333';
  const mk = (id, body) => {
    const p = svg('pattern', { id: `rg-pat-${id}`, width: '0.25', height: '0.25', patternUnits: 'userSpaceOnUse' }, defs);
    body(p);
  };
  const line = (p, x1, y1, x2, y2) => svg('line', { x1, y1, x2, y2, stroke: ink, 'stroke-width': '0.025' }, p);
  mk('dots', (p) => svg('circle', { cx: '0.125', cy: '0.125', r: '0.035', fill: ink }, p));
  mk('hlines', (p) => line(p, 0, 0.125, 0.25, 0.125));
  mk('vlines', (p) => line(p, 0.125, 0, 0.125, 0.25));
  mk('diag', (p) => { line(p, 0, 0, 0.25, 0.25); });
  mk('anti', (p) => { line(p, 0, 0.25, 0.25, 0); });
  mk('grid', (p) => { line(p, 0, 0.125, 0.25, 0.125); line(p, 0.125, 0, 0.125, 0.25); });
  mk('cross', (p) => { line(p, 0, 0, 0.25, 0.25); line(p, 0, 0.25, 0.25, 0); });
  mk('rings', (p) => svg('circle', { cx: '0.125', cy: '0.125', r: '0.07', fill: 'none', stroke: ink, 'stroke-width': '0.02' }, p));
  mk('zig', (p) => svg('polyline', { points: '0,0.19 0.125,0.06 0.25,0.19', fill: 'none', stroke: ink, 'stroke-width': '0.025' }, p));
}

// draw redraws the whole grid: cells, patterns, letters, region borders, hint marks, ✕s,
// queens and the keyboard cursor. A 20×20 grid is 400 cells: cheap to redraw each move.
function draw() {
  if (!game) return;
  const { n, rows } = game;
  const M = 0.08;
  const s = svg('svg', { viewBox: `${-M} ${-M} ${n + 2 * M} ${n + 2 * M}`, role: 'application', tabindex: '0', 'aria-label': `${n}×${n} region puzzle; arrows move, Q places a queen, X a cross, H asks for a hint`, xmlns: NS });
  const defs = svg('defs', {}, s);
  if (patternsBox.checked) patternDefs(defs);
  const cells = svg('g', { class: 'rg-cells' }, s);
  const over = svg('g', { class: 'rg-over' }, s);
  const qs = queens();
  const { bad } = conflicts(qs);
  const hintCells = new Map();
  if (game.hint) {
    for (const [r, c] of game.hint.ruled) hintCells.set(`${r},${c}`, 'rg-ruled');
    for (const [r, c] of game.hint.because) hintCells.set(`${r},${c}`, 'rg-because');
    if (game.hint.queen) hintCells.set(`${game.hint.queen[0]},${game.hint.queen[1]}`, 'rg-target');
  }
  for (let r = 0; r < n; r++) {
    for (let c = 0; c < n; c++) {
      const reg = rows[r][c], k = game.colour[reg];
      const mark = game.marks[at(r, c)];
      const label = `${cellName(r, c)}, region ${letter(reg)}${mark === QUEEN ? ', queen' : mark === X ? ', crossed' : ''}`;
      svg('rect', { x: c, y: r, width: 1, height: 1, fill: PALETTE[k], class: 'rg-cell', 'data-r': r, 'data-c': c, 'data-region': letter(reg), 'aria-label': label }, cells);
      if (patternsBox.checked && PATTERNS[k] !== 'none') {
        svg('rect', { x: c, y: r, width: 1, height: 1, fill: `url(#rg-pat-${PATTERNS[k]})`, 'fill-opacity': '0.45', 'pointer-events': 'none' }, over);
      }
      if (lettersBox.checked) {
        const t = svg('text', { x: c + 0.07, y: r + 0.07, 'font-size': '0.27', 'font-family': 'system-ui, sans-serif', 'font-weight': 'bold', fill: '#222', 'dominant-baseline': 'hanging', class: 'rg-letter', 'pointer-events': 'none' }, over);
        t.textContent = letter(reg);
      }
      const hc = hintCells.get(`${r},${c}`);
      if (hc) svg('rect', { x: c + 0.06, y: r + 0.06, width: 0.88, height: 0.88, class: hc, 'pointer-events': 'none' }, over);
      if (hc === 'rg-ruled' && mark === EMPTY) {
        // A ruled-out cell shows the ✕ the player may put there, in the hint's colour.
        svg('path', { d: `M${c + 0.38} ${r + 0.38}L${c + 0.62} ${r + 0.62}M${c + 0.62} ${r + 0.38}L${c + 0.38} ${r + 0.62}`, class: 'rg-ruled-x', 'pointer-events': 'none' }, over);
      }
      if (mark === X) {
        svg('path', { d: `M${c + 0.36} ${r + 0.36}L${c + 0.64} ${r + 0.64}M${c + 0.64} ${r + 0.36}L${c + 0.36} ${r + 0.64}`, stroke: '#333', 'stroke-width': '0.06', 'stroke-linecap': 'round', class: 'rg-x', 'pointer-events': 'none' }, over);
      } else if (mark === QUEEN) {
        const conflict = bad.has(`${r},${c}`);
        const g = svg('g', { transform: `translate(${c} ${r})`, class: 'rg-queen' + (conflict ? ' conflict' : ''), 'data-r': r, 'data-c': c, fill: '#1a1a1a', stroke: '#fff', 'stroke-width': '0.035', 'stroke-linejoin': 'round', 'pointer-events': 'none' }, over);
        if (conflict) svg('rect', { x: 0.04, y: 0.04, width: 0.92, height: 0.92, fill: 'none', class: 'rg-conflict-box' }, g);
        svg('polygon', { points: CROWN.map((p) => p.join(',')).join(' ') }, g);
        svg('polygon', { points: BASE.map((p) => p.join(',')).join(' ') }, g);
      }
    }
  }
  // Borders: thin between cells of a region, thick between regions and around the grid.
  let thin = '', thick = '';
  for (let r = 0; r < n; r++) {
    for (let c = 0; c < n; c++) {
      if (c + 1 < n) {
        const seg = `M${c + 1} ${r}V${r + 1}`;
        if (rows[r][c] !== rows[r][c + 1]) thick += seg; else thin += seg;
      }
      if (r + 1 < n) {
        const seg = `M${c} ${r + 1}H${c + 1}`;
        if (rows[r][c] !== rows[r + 1][c]) thick += seg; else thin += seg;
      }
    }
  }
  svg('path', { d: thin, stroke: '#555', 'stroke-width': '0.015', 'stroke-opacity': '0.6', fill: 'none', 'pointer-events': 'none' }, s);
  svg('path', { d: thick, stroke: '#1a1a1a', 'stroke-width': '0.07', 'stroke-linecap': 'square', fill: 'none', 'pointer-events': 'none' }, s);
  svg('rect', { x: 0, y: 0, width: n, height: n, stroke: '#1a1a1a', 'stroke-width': '0.1', fill: 'none', class: 'rg-frame', 'pointer-events': 'none' }, s);
  const [cr, cc] = game.cursor;
  svg('rect', { x: cc + 0.08, y: cr + 0.08, width: 0.84, height: 0.84, class: 'rg-cursor', fill: 'none', 'pointer-events': 'none' }, s);
  if (game.solved) s.classList.add('rg-solved');
  const hadFocus = boardBox.contains(document.activeElement);
  boardBox.replaceChildren(s);
  if (hadFocus) s.focus();
  s.addEventListener('click', (ev) => {
    const t = ev.target;
    if (t.dataset && t.dataset.r !== undefined) {
      game.cursor = [Number(t.dataset.r), Number(t.dataset.c)];
      cycle(game.cursor[0], game.cursor[1]);
    }
  });
  s.addEventListener('keydown', onKey);
}

function onKey(ev) {
  if (!game) return;
  const [r, c] = game.cursor, n = game.n;
  const move = { ArrowUp: [-1, 0], ArrowDown: [1, 0], ArrowLeft: [0, -1], ArrowRight: [0, 1] }[ev.key];
  if (ev.ctrlKey || ev.metaKey || ev.altKey) {
    if ((ev.key === 'z' || ev.key === 'Z') && !ev.altKey) { undo(); ev.preventDefault(); }
    return;
  }
  if (move) {
    game.cursor = [Math.min(n - 1, Math.max(0, r + move[0])), Math.min(n - 1, Math.max(0, c + move[1]))];
    const [nr, nc] = game.cursor, m = game.marks[at(nr, nc)];
    where.textContent = `${cellName(nr, nc)}, region ${letter(game.rows[nr][nc])}${m === QUEEN ? ', queen' : m === X ? ', crossed' : ''}`;
    draw();
  } else if (ev.key === 'q' || ev.key === 'Q' || ev.key === 'Enter') {
    setMark(r, c, game.marks[at(r, c)] === QUEEN ? EMPTY : QUEEN);
  } else if (ev.key === 'x' || ev.key === 'X' || ev.key === ' ') {
    setMark(r, c, game.marks[at(r, c)] === X ? EMPTY : X);
  } else if (ev.key === 'Delete' || ev.key === 'Backspace') {
    setMark(r, c, EMPTY);
  } else if (ev.key === 'u' || ev.key === 'U') {
    undo();
  } else if (ev.key === 'h' || ev.key === 'H') {
    hint();
  } else {
    return;
  }
  ev.preventDefault();
}

// ---- sharing, pictures ----
async function share() {
  const link = location.href;
  try {
    await navigator.clipboard.writeText(link);
    say(`Link copied: ${link}`);
  } catch {
    say(`Share this link: ${link}`);
  }
}

// picture downloads the grid with the player's queens (the first of each row) as the
// server draws it (package render, the same as the command line's --format svg|png).
function picture(kind) {
  if (!game) return;
  const rows = new Set();
  const qs = queens().filter(([r]) => !rows.has(r) && rows.add(r));
  const grid = game.rows.map((row) => row.map(letter).join('')).join('/');
  const q = encodeURIComponent(qs.map(([r, c]) => cellName(r, c)).join(' '));
  const a = h('a', { href: `/api/regions/picture.${kind}?grid=${grid}&queens=${q}`, download: game.custom ? `regions-${game.n}-own.${kind}` : `regions-${game.n}-${game.level}-${game.seed}.${kind}` });
  document.body.append(a);
  a.click();
  a.remove();
}

// ---- start ----
// The tab starts from the link's n, seed and level (?tab=regions&n=6&seed=1&level=easy), or
// from today's puzzle at 8×8, easy, when it is first opened.
let started = false;
function start() {
  if (started) { tellState(); return; }
  started = true;
  const q = new URLSearchParams(location.search);
  if (q.get('tab') === 'regions' && q.get('grid')) {
    // A shared grid of the player's own: played, and in the editor to change.
    try {
      const rows = parseGrid(q.get('grid'));
      editor.load(rows, false);
      playGrid(rows);
      return;
    } catch (e) {
      say(`The link's grid is not a puzzle: ${e.message}.`, 'error');
    }
  }
  const n = Number(q.get('n')), seed = Number(q.get('seed')), level = q.get('level');
  if (q.get('tab') === 'regions' && Number.isInteger(n) && n >= MIN_N && n <= MAX_N) nSel.value = String(n);
  if (q.get('tab') === 'regions' && LEVELS.includes(level)) levelSel.value = level;
  seedIn.value = String(q.get('tab') === 'regions' && q.get('seed') !== null && Number.isSafeInteger(seed) && seed >= 0 ? seed : todaySeed());
  loadFromControls();
}
$('tab-regions').addEventListener('click', () => start());
if (new URLSearchParams(location.search).get('tab') === 'regions') start();
