// app.js runs the three tabs of the page: browse the solutions of N queens, solve by hand,
// and watch a knight's tour. All the puzzle work is done by the server's JSON API.

import { Board, squareName, parseName } from './board.js';
import { $, api } from './dom.js';


// The page's state lives in its URL (?tab=&n=&sol=…), so that a link reopens it: every
// change calls saveURL, and the start reads the URL back (see restore at the end). The
// Learn tab (teach.js) keeps its own part, ?tab=learn&mode=…, and tells this file of each
// change with a "learn-state" event whose detail holds its parameters.
const url = new URLSearchParams(location.search);
let restoring = true; // while the URL's state is being rebuilt, do not overwrite it
let learnState = {}; // the Learn tab's parameters, from teach.js
document.addEventListener('learn-state', (e) => { learnState = e.detail; if (activeTab === 'learn') saveURL(); });
let regionsState = {}; // the Regions tab's n, seed and level, from regions.js ("regions-state")
document.addEventListener('regions-state', (e) => { regionsState = e.detail; if (activeTab === 'regions') saveURL(); });

// tabState is the state a tab's module reported, or, before it has reported any (its script
// may run after the first save on a slow load), the link's own parameters for that tab, so
// that a link such as ?tab=regions&n=10&seed=7 is not cut to ?tab=regions under it.
function tabState(reported) {
  if (Object.keys(reported).length > 0 || url.get('tab') !== activeTab) return reported;
  return Object.fromEntries([...url].filter(([k]) => k !== 'tab'));
}

function saveURL() {
  if (restoring) return;
  const p = new URLSearchParams();
  p.set('tab', activeTab);
  if (activeTab === 'browse') {
    p.set('n', String(browse.n));
    if (browse.unique) p.set('unique', '1');
    if (browse.selected >= 0) p.set('sol', String(browse.selected + 1));
  } else if (activeTab === 'solve') {
    p.set('n', String(solve.n));
    const q = [...solve.queens.values()].map(([r, c]) => squareName(solve.n, solve.n, r, c));
    if (q.length) p.set('queens', q.join(' '));
  } else if (activeTab === 'knight') {
    p.set('rows', String(tour.rows));
    p.set('cols', String(tour.cols));
    if (tour.path.length) p.set('start', squareName(tour.rows, tour.cols, tour.path[0][0], tour.path[0][1]));
    else if (tour.failedStart) p.set('start', tour.failedStart);
    if ($('knight-closed').checked) p.set('closed', '1');
  } else if (activeTab === 'learn') {
    for (const [k, v] of Object.entries(tabState(learnState))) p.set(k, v);
  } else if (activeTab === 'regions') {
    for (const [k, v] of Object.entries(tabState(regionsState))) p.set(k, v);
  }
  const next = `${location.pathname}?${p}`;
  if (next !== `${location.pathname}${location.search}`) history.replaceState(null, '', next);
}

// capitalize starts a sentence with a capital letter.
const capitalize = (s) => s.charAt(0).toUpperCase() + s.slice(1);

// ---- tabs ----
let activeTab = 'browse';
for (const b of document.querySelectorAll('nav button')) {
  b.addEventListener('click', () => showTab(b.dataset.tab));
}
function showTab(name) {
  activeTab = name;
  for (const b of document.querySelectorAll('nav button')) b.setAttribute('aria-selected', String(b.dataset.tab === name));
  for (const p of document.querySelectorAll('.panel')) p.hidden = p.id !== name;
  saveURL();
}

function fillN(select, lo, hi, value) {
  for (let n = lo; n <= hi; n++) select.add(new Option(String(n), String(n), false, n === value));
}

// ---- browse ----
const browse = { n: 8, unique: false, next: null, codes: [], selected: -1, loading: null, generation: 0, want: 0 };
const browseN = $('browse-n');
fillN(browseN, 1, 27, 8);
browseN.addEventListener('change', () => startBrowse());
$('browse-unique').addEventListener('change', () => startBrowse());
$('more').addEventListener('click', () => loadPage());

// startBrowse lists the solutions of the chosen N from the first; want (1-based) is the
// solution to select once listed, from a shared link.
async function startBrowse(want = 1) {
  browse.want = want;
  browse.n = Number(browseN.value);
  browse.unique = $('browse-unique').checked;
  browse.next = null;
  browse.codes = [];
  browse.selected = -1;
  browse.generation++;
  browse.loading = null;
  $('solutions').replaceChildren();
  new Board($('browse-board'), browse.n, browse.n);
  $('browse-selected').textContent = '';
  setDownloads(null);
  const gen = browse.generation;
  api(`/api/queens/count?n=${browse.n}`).then((c) => {
    if (gen !== browse.generation) return;
    const total = BigInt(c.total), unique = BigInt(c.unique);
    const fmt = (x) => x.toLocaleString('en-US');
    $('count').textContent = browse.unique
      ? `${fmt(unique)} fundamental solutions (${fmt(total)} in all)`
      : `${fmt(total)} solutions (${fmt(unique)} fundamental)`;
    $('count').dataset.total = c.total;
    $('count').dataset.unique = c.unique;
  }).catch((e) => { $('count').textContent = e.message; });
  await loadPage(true);
  saveURL();
}

// loadPage fetches the page after the last code shown (the cursor).
function loadPage(first = false) {
  if (browse.loading) return browse.loading;
  if (!first && browse.next === null) return Promise.resolve();
  const gen = browse.generation;
  // A shared link may select a solution far down: fetch up to it in pages of 500.
  const limit = browse.want > browse.codes.length + 100 ? 500 : 100;
  let url = `/api/queens/solutions?n=${browse.n}&limit=${limit}&unique=${browse.unique ? 1 : 0}`;
  if (!first) url += `&after=${encodeURIComponent(browse.next)}`;
  browse.loading = api(url).then((page) => {
    if (gen !== browse.generation) return;
    const list = $('solutions');
    for (const s of page.solutions) {
      const li = document.createElement('li');
      li.className = 'solution';
      // Long codes (N ≥ 10) wrap after their commas, so every digit stays in view.
      s.code.split(',').forEach((part, k, all) => {
        li.append(k < all.length - 1 ? part + ',' : part);
        if (k < all.length - 1) li.append(document.createElement('wbr'));
      });
      li.dataset.index = String(browse.codes.length);
      li.dataset.perm = s.perm.join(',');
      li.addEventListener('click', () => select(Number(li.dataset.index)));
      list.appendChild(li);
      browse.codes.push(s);
    }
    browse.next = page.next;
    $('more').hidden = page.next === null;
    if (browse.selected < 0 && browse.codes.length > 0) {
      if (browse.want > browse.codes.length && page.next !== null) {
        browse.loading = null;
        return loadPage(); // not there yet
      }
      select(Math.min(browse.want, browse.codes.length) - 1);
    }
    if (browse.codes.length === 0) $('browse-selected').textContent = `The ${browse.n}×${browse.n} board has no solution.`;
  }).catch((e) => { $('browse-selected').textContent = e.message; })
    .finally(() => { if (gen === browse.generation) browse.loading = null; });
  return browse.loading;
}

function select(i) {
  if (i < 0 || i >= browse.codes.length) return;
  const list = $('solutions');
  const old = list.children[browse.selected];
  if (old) old.removeAttribute('aria-selected');
  browse.selected = i;
  const li = list.children[i];
  li.setAttribute('aria-selected', 'true');
  li.scrollIntoView({ block: 'nearest' });
  const s = browse.codes[i];
  const b = new Board($('browse-board'), browse.n, browse.n);
  b.setQueens(s.perm.map((c, r) => [r, c]));
  $('browse-selected').textContent = `Solution ${i + 1}: ${s.code}`;
  setDownloads(s.code);
  saveURL();
  // Keep a page ahead of the selection, so moving down never waits.
  if (browse.codes.length - i < 20) loadPage();
}

function setDownloads(code) {
  for (const fmt of ['svg', 'png']) {
    const a = $(`download-${fmt}`);
    if (code === null) {
      a.removeAttribute('href');
      continue;
    }
    a.href = `/api/queens/picture.${fmt}?n=${browse.n}&position=${encodeURIComponent(code)}`;
    a.download = `queens-${browse.n}-${code.replaceAll(',', '-')}.${fmt}`;
  }
}

document.addEventListener('keydown', async (ev) => {
  if (activeTab !== 'browse' || ev.target.tagName === 'SELECT' || ev.target.tagName === 'INPUT') return;
  if (ev.key === 'ArrowDown') {
    ev.preventDefault();
    if (browse.selected + 1 >= browse.codes.length) await loadPage();
    select(browse.selected + 1);
  } else if (ev.key === 'ArrowUp') {
    ev.preventDefault();
    select(browse.selected - 1);
  }
});

// ---- solve by hand ----
const solve = { n: 8, queens: new Map(), board: null, seq: 0 };
const solveN = $('solve-n');
fillN(solveN, 1, 27, 8);
solveN.addEventListener('change', () => startSolve());
$('solve-clear').addEventListener('click', () => { solve.queens.clear(); redraw(); });
$('solve-hint').addEventListener('click', hint);

// startSolve draws the empty board of the chosen N, or with the queens on the squares
// named in queens (from a shared link).
function startSolve(queens = []) {
  solve.n = Number(solveN.value);
  solve.queens.clear();
  for (const name of queens) {
    const [r, c] = parseName(solve.n, name);
    if (r >= 0 && r < solve.n && c >= 0 && c < solve.n) solve.queens.set(`${r},${c}`, [r, c]);
  }
  solve.board = new Board($('solve-board'), solve.n, solve.n, toggle);
  redraw();
}

function toggle(r, c) {
  const k = `${r},${c}`;
  if (solve.queens.has(k)) solve.queens.delete(k);
  else solve.queens.set(k, [r, c]);
  redraw();
}

// position writes the queens in coords notation, (x,y) with x the column and y the row
// from the top, both 1-based: it reads the same on boards of any size.
function position() {
  return [...solve.queens.values()].map(([r, c]) => `(${c + 1},${r + 1})`).join(' ');
}

async function redraw() {
  const n = solve.n, b = solve.board, queens = [...solve.queens.values()];
  // Shade every empty square a queen attacks along its row, column or a diagonal.
  const rows = new Set(), cols = new Set(), diag = new Set(), anti = new Set();
  for (const [r, c] of queens) { rows.add(r); cols.add(c); diag.add(c - r); anti.add(r + c); }
  const shaded = [];
  for (let r = 0; r < n; r++) {
    for (let c = 0; c < n; c++) {
      if (!solve.queens.has(`${r},${c}`) && (rows.has(r) || cols.has(c) || diag.has(c - r) || anti.has(r + c))) shaded.push([r, c]);
    }
  }
  b.clear();
  b.setShade(shaded);
  b.setQueens(queens);
  saveURL();
  const seq = ++solve.seq;
  let rep;
  try {
    rep = await api(`/api/queens/check?n=${n}&position=${encodeURIComponent(position())}`);
  } catch (e) {
    status(e.message, 'error');
    return;
  }
  if (seq !== solve.seq) return; // a later click has been made
  const conflict = new Set();
  for (const a of rep.attacks) {
    const pa = parseName(n, a.a), pb = parseName(n, a.b);
    conflict.add(pa.join(',')).add(pb.join(','));
    b.addLine(pa, pb, 'conflict-line');
  }
  b.setQueens(queens, conflict);
  counters(rep);
  if (rep.solved) status(`Solved! ${n} queens stand in peace.`, 'solved');
  else if (rep.attacks.length > 0) status(`${rep.attacks.length} ${rep.attacks.length === 1 ? 'pair attacks' : 'pairs attack'} each other`, 'error');
  else status(`${rep.queens} of ${n} queens placed`, '');
}

function status(text, cls) {
  const s = $('solve-status');
  s.textContent = text;
  s.className = cls;
}

function counters(rep) {
  const box = $('solve-counters');
  box.replaceChildren();
  const table = (title, counts) => {
    const t = document.createElement('table');
    const tr = t.insertRow();
    const th = document.createElement('th');
    th.textContent = title;
    tr.appendChild(th);
    for (const k of counts) {
      const td = tr.insertCell();
      td.textContent = String(k);
      if (k > 1) td.className = 'over';
      else if (k === 1) td.className = 'one';
    }
    box.appendChild(t);
  };
  table('rows (top to bottom)', rep.rows);
  table('columns (left to right)', rep.columns);
  table('diagonals ↘', rep.diagonals);
  table('anti-diagonals ↗', rep.anti_diagonals);
}

async function hint() {
  status('thinking…', '');
  try {
    const res = await api(`/api/queens/complete?n=${solve.n}&position=${encodeURIComponent(position())}`);
    if (!res.completable) {
      status(`No solution keeps these queens: ${res.reason.replace(/^the position cannot be completed:?\s*/, '')}`, 'error');
      return;
    }
    solve.queens.clear();
    res.solution.perm.forEach((c, r) => solve.queens.set(`${r},${c}`, [r, c]));
    await redraw();
  } catch (e) {
    status(e.message, 'error');
  }
}

// ---- knight's tour ----
const KNIGHT_MOVES = [[-2, -1], [-2, 1], [-1, -2], [-1, 2], [1, -2], [1, 2], [2, -1], [2, 1]];
const tour = { rows: 8, cols: 8, path: [], closed: false, shown: 0, timer: null, board: null, failedStart: '' };
// MAX_KNIGHT_SIDE is the largest side the page draws (one SVG square each, numbered); the API
// and the command line take far larger boards.
const MAX_KNIGHT_SIDE = 32;

for (const id of ['knight-rows', 'knight-cols']) $(id).addEventListener('change', () => startKnight());
$('knight-closed').addEventListener('change', () => {
  if (tour.path.length) startTour(tour.path[0]);
  else if (tour.failedStart) startTour(parseName(tour.rows, tour.failedStart));
  else saveURL();
});
$('knight-end').addEventListener('click', () => { pause(); tour.shown = tour.path.length; drawTour(); });
$('knight-access').addEventListener('change', () => drawTour());
$('knight-play').addEventListener('click', () => (tour.timer ? pause() : play()));
$('knight-step').addEventListener('click', () => { pause(); step(); });
$('knight-speed').addEventListener('input', () => {
  $('knight-speed-value').textContent = $('knight-speed').value;
  if (tour.timer) { pause(); play(); }
});

function knightStatus(text, cls = '') {
  const s = $('tour-status');
  s.textContent = text;
  s.className = cls;
}

// readSide reads a side of the knight's board: a whole number from 1 to MAX_KNIGHT_SIDE, or
// null with the input marked invalid.
function readSide(id) {
  const input = $(id), v = input.value.trim();
  const ok = /^\d+$/.test(v) && Number(v) >= 1 && Number(v) <= MAX_KNIGHT_SIDE;
  input.setAttribute('aria-invalid', String(!ok));
  return ok ? Number(v) : null;
}

// startKnight draws the empty board of the chosen size; a size the page cannot draw is
// refused, in red, and the board stays as it was.
function startKnight() {
  const rows = readSide('knight-rows'), cols = readSide('knight-cols');
  if (rows === null || cols === null) {
    const bad = rows === null ? $('knight-rows').value : $('knight-cols').value;
    knightStatus(`The page draws boards of 1 to ${MAX_KNIGHT_SIDE} squares a side, not ${JSON.stringify(bad)}; the board is still ${tour.rows}×${tour.cols}. (chesspuzzles knight tour takes larger boards.)`, 'error');
    return false;
  }
  pause();
  tour.rows = rows;
  tour.cols = cols;
  tour.path = [];
  tour.shown = 0;
  tour.failedStart = '';
  tour.board = new Board($('knight-board'), tour.rows, tour.cols, (r, c) => startTour([r, c]));
  $('knight-play').disabled = $('knight-step').disabled = $('knight-end').disabled = true;
  knightStatus('Click a square to start the knight there.');
  drawTour();
  saveURL();
  return true;
}

async function startTour([r, c]) {
  pause();
  tour.closed = $('knight-closed').checked;
  const start = squareName(tour.rows, tour.cols, r, c);
  knightStatus(`finding a${tour.closed ? ' closed' : 'n open'} tour from ${start}…`);
  try {
    const res = await api(`/api/knight/tour?rows=${tour.rows}&cols=${tour.cols}&start=${encodeURIComponent(start)}&closed=${tour.closed ? 1 : 0}`);
    if (!res.found) {
      tour.path = [];
      tour.shown = 0;
      tour.failedStart = start;
      $('knight-play').disabled = $('knight-step').disabled = $('knight-end').disabled = true;
      drawTour();
      // The reason already names the kind of tour, the start and the board.
      knightStatus(capitalize(res.reason) + '.', 'error');
      saveURL();
      return;
    }
    tour.path = res.squares;
    tour.shown = 1;
    tour.failedStart = '';
    $('knight-play').disabled = $('knight-step').disabled = $('knight-end').disabled = false;
    drawTour();
    saveURL();
    play();
  } catch (e) {
    knightStatus(e.message, 'error');
  }
}

function play() {
  if (tour.shown >= tour.path.length) tour.shown = Math.min(1, tour.path.length);
  const speed = Number($('knight-speed').value);
  tour.timer = setInterval(step, 1000 / speed);
  $('knight-play').textContent = 'pause';
}

function pause() {
  if (tour.timer) clearInterval(tour.timer);
  tour.timer = null;
  $('knight-play').textContent = 'play';
}

function step() {
  if (tour.shown < tour.path.length) tour.shown++;
  if (tour.shown >= tour.path.length) pause();
  drawTour();
}

// drawTour draws the first tour.shown moves: numbers in the visited squares, the knight on
// the last, and on every square not yet visited the number of onward moves from it to
// squares not yet visited (the accessibility Warnsdorff's rule reads).
function drawTour() {
  const b = tour.board;
  if (!b) return;
  b.clear();
  const { rows, cols } = tour;
  const shown = tour.path.slice(0, tour.shown);
  const visited = new Set(shown.map(([r, c]) => `${r},${c}`));
  const digits = String(rows * cols).length;
  const size = Math.min(0.42, 0.85 / (0.6 * digits));
  if (shown.length > 1) b.addPath(shown, 'path');
  const done = tour.shown === tour.path.length && tour.path.length > 0;
  if (done && tour.closed && shown.length > 2) b.addLine(shown[shown.length - 1], shown[0], 'closing');
  if (shown.length > 0) b.addRing(shown[0], 'ring-start');
  if (done && shown.length > 1) b.addRing(shown[shown.length - 1], 'ring-end');
  shown.forEach((sq, i) => {
    if (i < shown.length - 1 || done) b.addText(sq, String(i + 1), 'move', size);
  });
  if (shown.length > 0 && !done) b.addText(shown[shown.length - 1], '♞', 'knight', 0.8);
  if ($('knight-access').checked && !done) {
    for (let r = 0; r < rows; r++) {
      for (let c = 0; c < cols; c++) {
        if (visited.has(`${r},${c}`)) continue;
        let k = 0;
        for (const [dr, dc] of KNIGHT_MOVES) {
          const rr = r + dr, cc = c + dc;
          if (rr >= 0 && rr < rows && cc >= 0 && cc < cols && !visited.has(`${rr},${cc}`)) k++;
        }
        b.addText([r, c], String(k), 'access', 0.3);
      }
    }
  }
  if (tour.path.length > 0) {
    knightStatus(done
      ? `Tour complete: ${tour.path.length} squares${tour.closed ? ', closed' : ''}.`
      : `move ${tour.shown} of ${tour.path.length}`);
  }
}

// restore rebuilds the state a link carries, then lets changes write the URL again.
async function restore() {
  const tab = ['browse', 'solve', 'knight', 'learn', 'regions'].includes(url.get('tab')) ? url.get('tab') : 'browse';
  const n = Number(url.get('n'));
  const validN = Number.isInteger(n) && n >= 1 && n <= 27;
  if (tab === 'browse' && validN) browseN.value = String(n);
  if (tab === 'solve' && validN) solveN.value = String(n);
  if (tab === 'browse') $('browse-unique').checked = url.get('unique') === '1';
  showTab(tab);
  const sol = Number(url.get('sol'));
  const browsing = startBrowse(tab === 'browse' && Number.isInteger(sol) && sol >= 1 ? sol : 1);
  startSolve(tab === 'solve' ? (url.get('queens') || '').split(/\s+/).filter(Boolean) : []);
  let knightReady = startKnight();
  if (tab === 'knight') {
    for (const k of ['rows', 'cols']) if (url.has(k)) $(`knight-${k}`).value = url.get(k);
    $('knight-closed').checked = url.get('closed') === '1';
    knightReady = startKnight();
  }
  await browsing;
  restoring = false;
  const start = url.get('start');
  if (tab === 'knight' && knightReady && start) {
    const [r, c] = parseName(tour.rows, start);
    if (r >= 0 && r < tour.rows && c >= 0 && c < tour.cols) {
      startTour([r, c]);
      return;
    }
    knightStatus(`The link's start square ${JSON.stringify(start)} is not on the ${tour.rows}×${tour.cols} board.`, 'error');
  }
  saveURL();
}

restore();
