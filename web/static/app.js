// app.js runs the three tabs of the page: browse the solutions of N queens, solve by hand,
// and watch a knight's tour. All the puzzle work is done by the server's JSON API.

import { Board, squareName, parseName } from './board.js';

const $ = (id) => document.getElementById(id);

async function api(path) {
  const res = await fetch(path);
  const body = await res.json().catch(() => ({ error: `HTTP ${res.status}` }));
  if (!res.ok) throw new Error(body.error || `HTTP ${res.status}`);
  return body;
}

// ---- tabs ----
let activeTab = 'browse';
for (const b of document.querySelectorAll('nav button')) {
  b.addEventListener('click', () => showTab(b.dataset.tab));
}
function showTab(name) {
  activeTab = name;
  for (const b of document.querySelectorAll('nav button')) b.setAttribute('aria-selected', String(b.dataset.tab === name));
  for (const p of document.querySelectorAll('.panel')) p.hidden = p.id !== name;
}

function fillN(select, lo, hi, value) {
  for (let n = lo; n <= hi; n++) select.add(new Option(String(n), String(n), false, n === value));
}

// ---- browse ----
const browse = { n: 8, unique: false, next: null, codes: [], selected: -1, loading: null, generation: 0 };
const browseN = $('browse-n');
fillN(browseN, 1, 27, 8);
browseN.addEventListener('change', () => startBrowse());
$('browse-unique').addEventListener('change', () => startBrowse());
$('more').addEventListener('click', () => loadPage());

async function startBrowse() {
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
}

// loadPage fetches the page after the last code shown (the cursor).
function loadPage(first = false) {
  if (browse.loading) return browse.loading;
  if (!first && browse.next === null) return Promise.resolve();
  const gen = browse.generation;
  let url = `/api/queens/solutions?n=${browse.n}&limit=100&unique=${browse.unique ? 1 : 0}`;
  if (!first) url += `&after=${encodeURIComponent(browse.next)}`;
  browse.loading = api(url).then((page) => {
    if (gen !== browse.generation) return;
    const list = $('solutions');
    for (const s of page.solutions) {
      const li = document.createElement('li');
      li.className = 'solution';
      li.textContent = s.code;
      li.dataset.index = String(browse.codes.length);
      li.dataset.perm = s.perm.join(',');
      li.addEventListener('click', () => select(Number(li.dataset.index)));
      list.appendChild(li);
      browse.codes.push(s);
    }
    browse.next = page.next;
    $('more').hidden = page.next === null;
    if (browse.selected < 0 && browse.codes.length > 0) select(0);
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

function startSolve() {
  solve.n = Number(solveN.value);
  solve.queens.clear();
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
      status(`No solution keeps these queens: ${res.reason}`, 'error');
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
const tour = { rows: 8, cols: 8, path: [], closed: false, shown: 0, timer: null, board: null };

for (const id of ['knight-rows', 'knight-cols']) $(id).addEventListener('change', startKnight);
$('knight-closed').addEventListener('change', () => { if (tour.path.length) startTour(tour.path[0]); });
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

function startKnight() {
  pause();
  const clamp = (v) => Math.min(32, Math.max(1, Number(v) || 8));
  tour.rows = clamp($('knight-rows').value);
  tour.cols = clamp($('knight-cols').value);
  tour.path = [];
  tour.shown = 0;
  tour.board = new Board($('knight-board'), tour.rows, tour.cols, (r, c) => startTour([r, c]));
  $('knight-play').disabled = $('knight-step').disabled = true;
  knightStatus('Click a square to start the knight there.');
  drawTour();
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
      drawTour();
      knightStatus(`No ${tour.closed ? 'closed' : 'open'} tour from ${start}: ${res.reason}`, 'error');
      return;
    }
    tour.path = res.squares;
    tour.shown = 1;
    $('knight-play').disabled = $('knight-step').disabled = false;
    drawTour();
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

startBrowse();
startSolve();
startKnight();
