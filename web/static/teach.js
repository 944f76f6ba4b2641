// teach.js runs the Learn tab: watch the N-queens search step by step, Warnsdorff's rule
// made visible (beside the classic article's rule), a knight's tour by hand, and puzzles
// with exactly one answer. Every step shown comes from the server's engine (docs/teach.md).

import { Board, squareName } from './board.js';
import { $, api, h } from './dom.js';

const root = $('learn');

function say(id, text, cls = '') {
  const e = $(id);
  e.textContent = text;
  e.className = 'say ' + cls;
}

function options(lo, hi, value) {
  const s = [];
  for (let i = lo; i <= hi; i++) s.push(h('option', { value: String(i), text: String(i), ...(i === value ? { selected: '' } : {}) }));
  return s;
}

const fmt = (n) => Number(n).toLocaleString('en-US');

// ---- the mode switch ----
const MODES = [['watch', 'Watch the search'], ['rule', "Warnsdorff's rule"], ['hand', 'Tour by hand'], ['puzzle', 'Puzzle']];
const modeBar = h('div', { class: 'modes', role: 'group', 'aria-label': 'learn mode' });
root.append(h('p', { class: 'hint', text: 'Learn by watching and by doing: every step below is computed by the same engine as the rest of the program.' }), modeBar);
const panes = {};
for (const [id, label] of MODES) {
  modeBar.append(h('button', { id: `learn-${id}`, 'data-mode': id, 'aria-pressed': 'false', text: label, onclick: () => showMode(id) }));
  panes[id] = h('div', { id: `mode-${id}`, class: 'mode', hidden: '' });
  root.append(panes[id]);
}
const started = {};
let mode = '';
function showMode(id) {
  mode = id;
  for (const b of modeBar.children) b.setAttribute('aria-pressed', String(b.dataset.mode === id));
  for (const [k, p] of Object.entries(panes)) p.hidden = k !== id;
  if (!started[id]) { started[id] = true; STARTERS[id](); }
  tellState();
}

// tellState hands the tab's state to app.js, which keeps it in the URL: the mode, and for a
// puzzle its n, level and seed, so that a teacher can hand out the link.
function tellState() {
  const state = { mode };
  if (mode === 'puzzle' && puzzle.p) Object.assign(state, { n: String(puzzle.p.n), level: puzzle.p.level, seed: String(puzzle.p.seed) });
  document.dispatchEvent(new CustomEvent('learn-state', { detail: state }));
}

// ---- 1. watch the search ----
panes.watch.append(
  h('div', { class: 'controls' },
    h('label', {}, 'N ', h('select', { id: 'watch-n' }, ...options(4, 12, 6))),
    h('button', { id: 'watch-play', text: 'play' }),
    h('button', { id: 'watch-back', text: '◀ step back' }),
    h('button', { id: 'watch-step', text: 'step ▶' }),
    h('label', {}, 'speed ', h('input', { type: 'range', id: 'watch-speed', min: '1', max: '200', value: '8' }), ' ', h('span', { id: 'watch-speed-value', text: '8' }), '/s'),
    h('label', {}, h('input', { type: 'checkbox', id: 'watch-stop', checked: '' }), ' stop at each solution'),
    h('label', {}, h('input', { type: 'checkbox', id: 'watch-naive' }), ' compare with testing every permutation')),
  h('div', { class: 'stats' },
    h('span', {}, 'step ', h('b', { id: 'watch-pos', text: '0' })),
    h('span', {}, 'queens placed ', h('b', { id: 'watch-placed', text: '0' })),
    h('span', {}, 'dead ends ', h('b', { id: 'watch-dead', text: '0' })),
    h('span', {}, 'solutions ', h('b', { id: 'watch-solutions', text: '0' }))),
  h('p', { id: 'watch-say', class: 'say', 'aria-live': 'polite' }),
  h('div', { id: 'watch-board', class: 'board' }),
  h('p', { id: 'watch-naive-text', class: 'naive', hidden: '' }),
  h('p', { class: 'hint', text: 'Row by row from the top, each square from the left: a queen goes on the first square no queen above attacks (shaded squares are attacked); when a row has no free square, that is a dead end and the queen above moves on.' }));

const watch = { n: 6, events: [], done: false, kinds: [], naive: null, pos: 0, cols: [], timer: null, board: null, loading: null, gen: 0 };

async function watchStart() {
  watchPause();
  watch.gen++;
  watch.n = Number($('watch-n').value);
  Object.assign(watch, { events: [], done: false, pos: 0, cols: new Array(watch.n).fill(-1), loading: null });
  watch.board = new Board($('watch-board'), watch.n, watch.n);
  await watchLoad();
  watchDraw();
}

// watchLoad fetches the next page of events.
function watchLoad() {
  if (watch.done) return Promise.resolve();
  if (watch.loading) return watch.loading;
  const gen = watch.gen;
  watch.loading = api(`/api/queens/trace?n=${watch.n}&from=${watch.events.length}&limit=5000`).then((res) => {
    if (gen !== watch.gen) return;
    watch.kinds = res.kinds;
    watch.naive = res.naive;
    for (const e of res.events) watch.events.push(e);
    watch.done = res.done;
  }).catch((e) => say('watch-say', e.message, 'bad')).finally(() => { if (gen === watch.gen) watch.loading = null; });
  return watch.loading;
}

const KIND = { try: 0, attacked: 1, place: 2, deadend: 3, remove: 4, solution: 5 };

// watchForward applies one event; false at the end of the search.
async function watchForward() {
  if (watch.pos >= watch.events.length) {
    await watchLoad();
    if (watch.pos >= watch.events.length) return false;
  }
  const e = watch.events[watch.pos++];
  if (e[0] === KIND.place) watch.cols[e[1]] = e[2];
  if (e[0] === KIND.remove) watch.cols[e[1]] = -1;
  if (watch.events.length - watch.pos < 1000) watchLoad();
  return true;
}

function watchBack() {
  if (watch.pos === 0) return;
  const e = watch.events[--watch.pos];
  if (e[0] === KIND.place) watch.cols[e[1]] = -1;
  if (e[0] === KIND.remove) watch.cols[e[1]] = e[2];
}

function watchDraw() {
  const n = watch.n, b = watch.board, cols = watch.cols;
  b.clear();
  const queens = [];
  for (let r = 0; r < n; r++) if (cols[r] >= 0) queens.push([r, cols[r]]);
  const shade = [];
  for (let r = 0; r < n; r++) {
    for (let c = 0; c < n; c++) {
      if (cols[r] === c) continue;
      if (queens.some(([qr, qc]) => qr !== r && (qc === c || Math.abs(qc - c) === Math.abs(qr - r)))) shade.push([r, c]);
    }
  }
  b.setShade(shade);
  b.setQueens(queens);
  const e = watch.pos > 0 ? watch.events[watch.pos - 1] : null;
  const name = (r, c) => squareName(n, n, r, c);
  let text = 'Press step or play to start the search.';
  let cls = '';
  if (e) {
    const [k, r, c, by] = e;
    switch (k) {
      case KIND.try: b.addRing([r, c], 't-try'); text = `Row ${r + 1}: try ${name(r, c)}.`; break;
      case KIND.attacked:
        b.addRing([r, c], 't-attacked');
        b.addLine([by, cols[by]], [r, c], 't-attack-line');
        text = `${name(r, c)} is attacked by the queen on ${name(by, cols[by])}: next square.`;
        break;
      case KIND.place: text = `No queen attacks ${name(r, c)}: place a queen there, go to row ${r + 2}.`; break;
      case KIND.deadend: {
        for (let x = 0; x < n; x++) shadeRect(b, r, x, 't-dead');
        text = `Dead end: every square of row ${r + 1} is attacked. Go back and move the queen above.`;
        cls = 'bad';
        break;
      }
      case KIND.remove: text = `Take the queen off ${name(r, c)} and try the next square of row ${r + 1}.`; break;
      case KIND.solution: text = `Solution ${e[6]}: ${queens.map(([, qc]) => qc + 1).join(n < 10 ? '' : ',')}`; cls = 'good'; break;
    }
  }
  if (!e && watch.pos === 0) text = 'Press step or play to start the search.';
  if (watch.done && watch.pos === watch.events.length && watch.pos > 0) { text = `The search is over: ${e[6]} solutions, ${fmt(e[4])} queens placed, ${fmt(e[5])} dead ends.`; cls = 'good'; }
  say('watch-say', text, cls);
  $('watch-pos').textContent = fmt(watch.pos);
  $('watch-placed').textContent = fmt(e ? e[4] : 0);
  $('watch-dead').textContent = fmt(e ? e[5] : 0);
  $('watch-solutions').textContent = fmt(e ? e[6] : 0);
  const nv = watch.naive, np = $('watch-naive-text');
  np.hidden = !$('watch-naive').checked;
  if (nv && !np.hidden) {
    np.textContent = `Testing every permutation (one queen a row, one a column, then check the diagonals) looks at ${fmt(nv.toFirst)} ` +
      `of the ${fmt(nv.candidates)} permutations of ${n} to find the first solution, and all ${fmt(nv.candidates)} to find every one. ` +
      `Backtracking has placed ${fmt(e ? e[4] : 0)} queens so far: it gives up on a row as soon as it is attacked, so it never looks at the rest of those permutations.`;
  }
}

async function watchStep() {
  const ok = await watchForward();
  watchDraw();
  return ok;
}

function watchPlay() {
  if (watch.timer) return;
  $('watch-play').textContent = 'pause';
  const gen = watch.gen;
  const tick = async () => {
    if (gen !== watch.gen || !watch.timer) return;
    const speed = Number($('watch-speed').value);
    // Above 50 steps a second, several events a frame.
    const per = Math.max(1, Math.round(speed / 50));
    for (let i = 0; i < per; i++) {
      const ok = await watchForward();
      const e = watch.events[watch.pos - 1];
      if (!ok) { watchPause(); break; }
      if (e && e[0] === KIND.solution && $('watch-stop').checked) { watchPause(); break; }
    }
    watchDraw();
    if (watch.timer) watch.timer = setTimeout(tick, 1000 / Math.min(speed, 50));
  };
  watch.timer = setTimeout(tick, 0);
}

function watchPause() {
  if (watch.timer) clearTimeout(watch.timer);
  watch.timer = null;
  if ($('watch-play')) $('watch-play').textContent = 'play';
}

$('watch-n').addEventListener('change', watchStart);
$('watch-play').addEventListener('click', () => (watch.timer ? watchPause() : watchPlay()));
$('watch-step').addEventListener('click', () => { watchPause(); watchStep(); });
$('watch-back').addEventListener('click', () => { watchPause(); watchBack(); watchDraw(); });
$('watch-speed').addEventListener('input', () => { $('watch-speed-value').textContent = $('watch-speed').value; });
$('watch-naive').addEventListener('change', watchDraw);

// shadeRect adds a shaded square (class cls, more attributes in extra) under the pieces.
function shadeRect(b, r, c, cls, extra = {}) {
  const rect = document.createElementNS('http://www.w3.org/2000/svg', 'rect');
  for (const [a, v] of Object.entries({ x: c, y: r, width: 1, height: 1, class: cls, ...extra })) rect.setAttribute(a, v);
  b.shade.append(rect);
}

// ---- knight helpers ----
function drawPath(b, squares, upto, cls = 'path') {
  const pts = squares.slice(0, upto);
  if (pts.length > 1) b.addPath(pts, cls);
  const size = Math.max(b.rows, b.cols) > 12 ? 0.32 : 0.4;
  pts.forEach((sq, i) => b.addText(sq, String(i + 1), 't-num', size));
}

function knightOn(b, sq) {
  b.addRing(sq, 'ring-end');
}

// ---- 2. Warnsdorff's rule made visible ----
panes.rule.append(
  h('div', { class: 'controls' },
    h('label', {}, 'board ', h('select', { id: 'rule-size' }, ...options(5, 12, 8))),
    h('label', {}, 'compare with ', h('select', { id: 'rule-other' },
      h('option', { value: 'article', text: "the article's program" }), h('option', { value: '', text: 'nothing' }))),
    h('button', { id: 'rule-back', text: '◀ back' }),
    h('button', { id: 'rule-step', text: 'step ▶' }),
    h('button', { id: 'rule-play', text: 'play' })),
  h('p', { id: 'rule-say', class: 'say', 'aria-live': 'polite', text: 'Click a square to start the knight there.' }),
  h('div', { class: 'layout' },
    h('div', { id: 'rule-board', class: 'board' }),
    h('div', { class: 'side' }, h('div', { id: 'rule-table' }), h('p', { id: 'rule-other-say', class: 'naive' }))),
  h('p', { class: 'hint', text: "Warnsdorff's rule: move to the square with the fewest onward moves (the blue numbers). On a tie, look one move further: take the square whose own onward squares include the one with the fewest onward moves; on a further tie, the first in a fixed order. The dashed purple line is the article's program from the same start." }));

const rule = { n: 8, steps: [], other: null, pos: 0, timer: null, board: null, start: null, message: '' };

function ruleStart() {
  rule.n = Number($('rule-size').value);
  rule.board = new Board($('rule-board'), rule.n, rule.n, (r, c) => ruleLoad([r, c]));
  rule.steps = [];
  rule.other = null;
  rule.pos = 0;
  ruleDraw();
  say('rule-say', 'Click a square to start the knight there.');
}

async function ruleLoad(start) {
  rulePause();
  const n = rule.n, name = squareName(n, n, start[0], start[1]);
  try {
    const ex = await api(`/api/knight/explain?size=${n}&start=${name}`);
    rule.steps = ex.steps;
    rule.message = ex.stuck ? ex.message : '';
    rule.other = null;
    const m = $('rule-other').value;
    if (m) rule.other = await api(`/api/knight/replay?size=${n}&start=${name}&method=${m}`);
    rule.pos = 1;
    ruleDraw();
  } catch (e) {
    say('rule-say', e.message, 'bad');
  }
}

function ruleDraw() {
  const b = rule.board;
  b.clear();
  const table = $('rule-table');
  table.replaceChildren();
  $('rule-other-say').textContent = '';
  if (!rule.steps.length) return;
  const n = rule.n;
  const path = rule.steps.map((s) => s.knight.at);
  if (rule.other) {
    const o = rule.other.squares;
    if (o.length > 1) b.addPath(o.slice(0, Math.max(rule.pos, 1)), 't-other');
    let part = -1;
    for (let i = 0; i < Math.min(o.length, path.length); i++) if (o[i][0] !== path[i][0] || o[i][1] !== path[i][1]) { part = i; break; }
    const what = part < 0 ? 'takes the same squares' : `parts from Warnsdorff's rule at move ${part + 1} (${squareName(n, n, ...o[part])} instead of ${squareName(n, n, ...path[part])})`;
    $('rule-other-say').textContent = `The article's program ${what}` + (rule.other.stuck ? `; ${rule.other.message}.` : ', and finishes its tour.');
  }
  drawPath(b, path, rule.pos);
  const st = rule.steps[rule.pos - 1];
  knightOn(b, st.knight.at);
  const done = rule.pos === rule.steps.length;
  if (!done) {
    for (const [i, c] of st.candidates.entries()) {
      b.addText(c.at, String(c.onward), 't-onward', 0.5);
      if (i === st.chosen) b.addRing(c.at, 't-chosen');
    }
  }
  const cands = st.candidates;
  let text;
  if (done && rule.message) text = `Stuck on ${st.knight.name}: ${rule.message}.`;
  else if (done) text = `Tour complete: ${rule.steps.length} squares.`;
  else {
    const chosen = cands[st.chosen];
    const mins = cands.filter((c) => c.onward === st.min);
    text = `Move ${rule.pos}, knight on ${st.knight.name}. Candidates: ${cands.map((c) => `${c.name} (${c.onward})`).join(', ')}. Fewest onward moves: ${st.min}`;
    if (st.tie) {
      const look = (c) => (c.lookAhead < 0 ? 'none' : c.lookAhead);
      text += `, a tie between ${mins.map((c) => c.name).join(' and ')}; one move further their smallest onward counts are ${mins.map((c) => `${c.name} ${look(c)}`).join(', ')}, so ${chosen.name}.`;
    } else text += `, so ${chosen.name}.`;
  }
  say('rule-say', text, done ? (rule.message ? 'bad' : 'good') : '');
  const t = h('table', { class: 'cands' }, h('tr', {}, h('th', { text: 'square' }), h('th', { text: 'onward' }), h('th', { text: 'look-ahead' })));
  if (!done) {
    cands.forEach((c, i) => t.append(h('tr', { class: i === st.chosen ? 'chosen' : '' },
      h('td', { text: c.name }), h('td', { text: String(c.onward) }), h('td', { text: c.lookAhead < 0 ? '–' : String(c.lookAhead) }))));
    table.append(t);
  }
}

function rulePlay() {
  if (rule.timer || !rule.steps.length) return;
  $('rule-play').textContent = 'pause';
  rule.timer = setInterval(() => {
    if (rule.pos >= rule.steps.length) { rulePause(); return; }
    rule.pos++;
    ruleDraw();
  }, 250);
}
function rulePause() {
  clearInterval(rule.timer);
  rule.timer = null;
  $('rule-play').textContent = 'play';
}
$('rule-size').addEventListener('change', ruleStart);
$('rule-other').addEventListener('change', () => { if (rule.steps.length) ruleLoad(rule.steps[0].knight.at); });
$('rule-step').addEventListener('click', () => { rulePause(); if (rule.pos < rule.steps.length) { rule.pos++; ruleDraw(); } });
$('rule-back').addEventListener('click', () => { rulePause(); if (rule.pos > 1) { rule.pos--; ruleDraw(); } });
$('rule-play').addEventListener('click', () => (rule.timer ? rulePause() : rulePlay()));

// ---- 3. tour by hand ----
panes.hand.append(
  h('div', { class: 'controls' },
    h('label', {}, 'rows ', h('select', { id: 'hand-rows' }, ...options(5, 12, 8))),
    h('label', {}, 'columns ', h('select', { id: 'hand-cols' }, ...options(5, 12, 8))),
    h('label', {}, h('input', { type: 'checkbox', id: 'hand-closed' }), ' closed'),
    h('button', { id: 'hand-undo', text: 'undo' }),
    h('button', { id: 'hand-hint', text: 'hint' }),
    h('button', { id: 'hand-finish', text: 'finish it for me' }),
    h('button', { id: 'hand-reset', text: 'start again' })),
  h('p', { id: 'hand-say', class: 'say', 'aria-live': 'polite', text: 'Click a square to put the knight there.' }),
  h('div', { id: 'hand-board', class: 'board' }),
  h('p', { class: 'hint', text: "Blue squares are the knight's moves; the number on each is its accessibility, the moves onward from there. Good practice: go where the number is smallest, corners and edges first." }));

const hand = { rows: 8, cols: 8, path: [], next: null, hint: false, board: null, seq: 0, finished: null };

function handStart() {
  hand.rows = Number($('hand-rows').value);
  hand.cols = Number($('hand-cols').value);
  hand.path = [];
  hand.next = null;
  hand.finished = null;
  hand.board = new Board($('hand-board'), hand.rows, hand.cols, handClick);
  handDraw();
  say('hand-say', 'Click a square to put the knight there.');
}

const pathParam = () => encodeURIComponent(hand.path.map(([r, c]) => squareName(hand.rows, hand.cols, r, c)).join(' '));

async function handRefresh() {
  hand.hint = false;
  hand.finished = null;
  const seq = ++hand.seq;
  if (!hand.path.length) { hand.next = null; handDraw(); say('hand-say', 'Click a square to put the knight there.'); return; }
  try {
    const res = await api(`/api/knight/next?rows=${hand.rows}&cols=${hand.cols}&path=${pathParam()}`);
    if (seq !== hand.seq) return;
    hand.next = res;
    handDraw();
    const k = hand.path.length;
    if (res.done) say('hand-say', `A full tour of all ${k} squares!`, 'good');
    else if (res.stuck) say('hand-say', `Stuck: the knight has no move from ${res.step.knight.name}, with ${res.left} squares left. Undo, or start again.`, 'bad');
    else say('hand-say', `Move ${k} on ${res.step.knight.name}: ${res.step.candidates.length} moves from here, ${res.left} squares left.`);
  } catch (e) {
    say('hand-say', e.message, 'bad');
  }
}

function handClick(r, c) {
  if (hand.finished) return;
  if (!hand.path.length) { hand.path.push([r, c]); handRefresh(); return; }
  const cands = hand.next ? hand.next.step.candidates : [];
  if (!cands.some((x) => x.at[0] === r && x.at[1] === c)) {
    say('hand-say', `${squareName(hand.rows, hand.cols, r, c)} is not a knight's move to an unvisited square: pick a blue one.`, 'bad');
    return;
  }
  hand.path.push([r, c]);
  handRefresh();
}

function handDraw() {
  const b = hand.board;
  b.clear();
  const path = hand.finished || hand.path;
  drawPath(b, path, path.length);
  if (!path.length) return;
  knightOn(b, path[path.length - 1]);
  if (hand.finished || !hand.next) return;
  const st = hand.next.step;
  const shade = st.candidates.map((x) => x.at);
  for (const sq of shade) shadeRect(b, sq[0], sq[1], 't-cand', { 'data-cand': squareName(hand.rows, hand.cols, sq[0], sq[1]) });
  st.candidates.forEach((x, i) => {
    b.addText(x.at, String(x.onward), 't-onward', 0.5);
    if (hand.hint && i === st.chosen) b.addRing(x.at, 't-chosen');
  });
}

$('hand-rows').addEventListener('change', handStart);
$('hand-cols').addEventListener('change', handStart);
$('hand-reset').addEventListener('click', handStart);
$('hand-undo').addEventListener('click', () => { if (hand.finished) { hand.finished = null; handDraw(); return; } if (hand.path.length) { hand.path.pop(); handRefresh(); } });
$('hand-hint').addEventListener('click', () => {
  if (!hand.next || hand.next.step.chosen < 0) return;
  hand.hint = true;
  handDraw();
  const st = hand.next.step;
  say('hand-say', `Warnsdorff's rule would go to ${st.candidates[st.chosen].name} (${st.min} onward moves${st.tie ? ', winning a tie by looking one move further' : ''}).`);
});
$('hand-finish').addEventListener('click', async () => {
  if (!hand.path.length) { say('hand-say', 'Click a start square first.', 'bad'); return; }
  say('hand-say', 'Searching…');
  const seq = ++hand.seq;
  try {
    const res = await api(`/api/knight/complete?rows=${hand.rows}&cols=${hand.cols}&closed=${$('hand-closed').checked ? 1 : 0}&path=${pathParam()}`);
    if (seq !== hand.seq) return;
    if (!res.found) { say('hand-say', `No: ${res.reason}. Undo a few moves and try again.`, 'bad'); return; }
    hand.finished = res.squares;
    handDraw();
    say('hand-say', `Finished from move ${hand.path.length}: a ${res.closed ? 'closed ' : ''}tour of ${res.squares.length} squares. Undo to go back to your path.`, 'good');
  } catch (e) {
    say('hand-say', e.message, 'bad');
  }
});

// ---- 4. puzzles ----
panes.puzzle.append(
  h('div', { class: 'controls' },
    h('label', {}, 'N ', h('select', { id: 'puzzle-n' }, ...options(6, 20, 8))),
    h('label', {}, 'level ', h('select', { id: 'puzzle-level' }, ...['easy', 'medium', 'hard'].map((l) => h('option', { value: l, text: l })))),
    h('label', {}, 'seed ', h('input', { type: 'number', id: 'puzzle-seed', min: '0', value: '1', style: 'width:6em' })),
    h('button', { id: 'puzzle-new', text: 'open puzzle' }),
    h('button', { id: 'puzzle-clear', text: 'clear my queens' }),
    h('a', { id: 'puzzle-print', target: '_blank', text: 'printable SVG' })),
  h('p', { id: 'puzzle-say', class: 'say', 'aria-live': 'polite' }),
  h('div', { id: 'puzzle-board', class: 'board' }),
  h('p', { class: 'hint', text: 'Place the remaining queens: one a row, none attacking another. The grey queens are given; there is exactly one way. Click a square to place or remove a queen; queens in conflict turn red.' }));

const puzzle = { p: null, mine: new Map(), board: null, seq: 0 };

async function puzzleOpen() {
  const n = $('puzzle-n').value, level = $('puzzle-level').value, seed = $('puzzle-seed').value || '1';
  say('puzzle-say', 'Making a puzzle…');
  try {
    const p = await api(`/api/queens/puzzle?n=${n}&level=${level}&seed=${encodeURIComponent(seed)}`);
    puzzle.p = p;
    puzzle.mine = new Map();
    puzzle.board = new Board($('puzzle-board'), p.n, p.n, puzzleClick);
    const given = p.given.map((c, r) => [r, c]).filter(([, c]) => c >= 0);
    $('puzzle-print').href = `/api/queens/picture.svg?n=${p.n}&position=${encodeURIComponent(given.map(([r, c]) => `(${c + 1},${r + 1})`).join(' '))}`;
    if (mode === 'puzzle') tellState();
    puzzleDraw();
  } catch (e) {
    say('puzzle-say', e.message, 'bad');
  }
}

function puzzleClick(r, c) {
  const p = puzzle.p;
  if (!p || p.given[r] >= 0) return;
  const k = `${r},${c}`;
  if (puzzle.mine.has(k)) puzzle.mine.delete(k); else puzzle.mine.set(k, [r, c]);
  puzzleDraw();
}

async function puzzleDraw() {
  const p = puzzle.p, b = puzzle.board;
  b.clear();
  const given = p.given.map((c, r) => [r, c]).filter(([, c]) => c >= 0);
  const all = [...given, ...puzzle.mine.values()];
  const seq = ++puzzle.seq;
  let rep;
  try {
    rep = await api(`/api/queens/check?n=${p.n}&position=${encodeURIComponent(all.map(([r, c]) => `(${c + 1},${r + 1})`).join(' '))}`);
  } catch (e) {
    say('puzzle-say', e.message, 'bad');
    return;
  }
  if (seq !== puzzle.seq) return;
  const conflict = new Set();
  const at = (name) => [p.n - Number(name.slice(1)), name.charCodeAt(0) - 97]; // n ≤ 20: algebraic
  for (const a of rep.attacks) {
    const pa = at(a.a), pb = at(a.b);
    conflict.add(pa.join(',')).add(pb.join(','));
    b.addLine(pa, pb, 'conflict-line');
  }
  b.setQueens(all, conflict);
  for (const q of b.pieces.children) if (p.given[Number(q.dataset.r)] === Number(q.dataset.c)) q.classList.add('t-given');
  const left = p.n - all.length;
  if (rep.solved) say('puzzle-say', `Solved! That is the one answer (${p.level}, seed ${p.seed}).`, 'good');
  else if (rep.attacks.length) say('puzzle-say', `${rep.attacks.length} ${rep.attacks.length === 1 ? 'pair attacks' : 'pairs attack'} each other.`, 'bad');
  else say('puzzle-say', `${p.n}×${p.n}, ${p.level}: ${left} ${left === 1 ? 'queen' : 'queens'} to place.`);
}

$('puzzle-new').addEventListener('click', puzzleOpen);
$('puzzle-clear').addEventListener('click', () => { puzzle.mine = new Map(); if (puzzle.p) puzzleDraw(); });

const STARTERS = { watch: watchStart, rule: ruleStart, hand: handStart, puzzle: puzzleOpen };

// The Learn tab opens on the first mode; app.js shows and hides the tab itself. A link
// ?tab=learn&mode=M opens on mode M (a puzzle link also sets its n, level and seed).
$('tab-learn').addEventListener('click', () => { if (!Object.keys(started).length) showMode('watch'); else tellState(); });
{
  const q = new URLSearchParams(location.search);
  if (q.get('tab') === 'learn') {
    const want = MODES.some(([id]) => id === q.get('mode')) ? q.get('mode') : 'watch';
    if (want === 'puzzle') {
      const n = Number(q.get('n')), seed = Number(q.get('seed'));
      if (Number.isInteger(n) && n >= 6 && n <= 20) $('puzzle-n').value = String(n);
      if (['easy', 'medium', 'hard'].includes(q.get('level'))) $('puzzle-level').value = q.get('level');
      if (Number.isInteger(seed) && seed >= 0) $('puzzle-seed').value = String(seed);
    }
    showMode(want);
  }
}
