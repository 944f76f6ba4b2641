// board.js draws a chessboard as SVG, one unit a square, with labels, queens, lines and
// numbers in layers, and reports clicks on squares. The queen is the figure that package
// render draws (render/scene.go).

const NS = 'http://www.w3.org/2000/svg';
const MARGIN = 0.6;
const PAD = 0.1;

const CROWN = [[0.22, 0.74], [0.13, 0.34], [0.32, 0.54], [0.33, 0.26], [0.44, 0.50], [0.50, 0.20],
  [0.56, 0.50], [0.67, 0.26], [0.68, 0.54], [0.87, 0.34], [0.78, 0.74]];
const BASE = [[0.20, 0.77], [0.80, 0.77], [0.83, 0.87], [0.17, 0.87]];
const BALLS = [[0.13, 0.32], [0.33, 0.24], [0.50, 0.18], [0.67, 0.24], [0.87, 0.32]];

function el(name, attrs = {}, parent = null) {
  const e = document.createElementNS(NS, name);
  for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, v);
  if (parent) parent.appendChild(e);
  return e;
}

// fileName and squareName follow chess: file letters from the left, ranks from the bottom;
// boards of more than 26 files use "file,rank".
export function squareName(rows, cols, r, c) {
  if (cols <= 26) return String.fromCharCode(97 + c) + (rows - r);
  return `${c + 1},${rows - r}`;
}

export function parseName(rows, name) {
  const m = /^([a-z])(\d+)$/.exec(name);
  if (m) return [rows - Number(m[2]), m[1].charCodeAt(0) - 97];
  const [f, rk] = name.split(',').map(Number);
  return [rows - rk, f - 1];
}

export class Board {
  constructor(container, rows, cols, onClick = null) {
    this.rows = rows;
    this.cols = cols;
    container.replaceChildren();
    const w = MARGIN + cols + PAD, h = PAD + rows + MARGIN;
    this.svg = el('svg', { viewBox: `0 0 ${w} ${h}`, role: 'img' }, container);
    const g = el('g', { transform: `translate(${MARGIN} ${PAD})` }, this.svg);
    this.squares = el('g', {}, g);
    this.shade = el('g', {}, g);
    this.lines = el('g', {}, g);
    this.pieces = el('g', {}, g);
    this.text = el('g', {}, g);
    for (let r = 0; r < rows; r++) {
      for (let c = 0; c < cols; c++) {
        const dark = (rows - 1 - r + c) % 2 === 0;
        el('rect', {
          x: c, y: r, width: 1, height: 1, class: 'sq ' + (dark ? 'dark' : 'light'),
          'data-r': r, 'data-c': c, 'data-name': squareName(rows, cols, r, c),
        }, this.squares);
      }
    }
    const labels = el('g', {}, g);
    const fs = Math.max(rows, cols) > 16 ? 0.3 : 0.36;
    for (let c = 0; c < cols; c++) {
      const t = el('text', { x: c + 0.5, y: rows + MARGIN / 2, class: 'label', 'font-size': fs }, labels);
      t.textContent = cols <= 26 ? String.fromCharCode(97 + c) : String(c + 1);
    }
    for (let r = 0; r < rows; r++) {
      const t = el('text', { x: -MARGIN / 2, y: r + 0.5, class: 'label', 'font-size': fs }, labels);
      t.textContent = String(rows - r);
    }
    if (onClick) {
      this.squares.addEventListener('click', (ev) => {
        const t = ev.target;
        if (t.dataset && t.dataset.r !== undefined) onClick(Number(t.dataset.r), Number(t.dataset.c));
      });
    }
  }

  square(r, c) { return this.squares.querySelector(`[data-r="${r}"][data-c="${c}"]`); }

  clear() {
    for (const g of [this.shade, this.lines, this.pieces, this.text]) g.replaceChildren();
  }

  // setQueens draws queens at [r, c] pairs; those in conflict (a Set of "r,c") red.
  setQueens(queens, conflict = new Set()) {
    this.pieces.replaceChildren();
    for (const [r, c] of queens) {
      const q = el('g', {
        class: 'queen' + (conflict.has(`${r},${c}`) ? ' conflict' : ''),
        transform: `translate(${c} ${r})`, 'data-r': r, 'data-c': c,
      }, this.pieces);
      el('polygon', { points: CROWN.map((p) => p.join(',')).join(' ') }, q);
      el('polygon', { points: BASE.map((p) => p.join(',')).join(' ') }, q);
      for (const [x, y] of BALLS) el('circle', { cx: x, cy: y, r: 0.06 }, q);
    }
  }

  setShade(squares) {
    this.shade.replaceChildren();
    for (const [r, c] of squares) el('rect', { x: c, y: r, width: 1, height: 1, class: 'attacked' }, this.shade);
  }

  addLine(a, b, cls) {
    return el('line', { x1: a[1] + 0.5, y1: a[0] + 0.5, x2: b[1] + 0.5, y2: b[0] + 0.5, class: cls }, this.lines);
  }

  addPath(points, cls) {
    return el('polyline', { points: points.map(([r, c]) => `${c + 0.5},${r + 0.5}`).join(' '), class: cls }, this.lines);
  }

  addRing([r, c], cls) {
    return el('circle', { cx: c + 0.5, cy: r + 0.5, r: 0.38, class: cls }, this.lines);
  }

  addText([r, c], s, cls, size) {
    const t = el('text', { x: c + 0.5, y: r + 0.5, class: cls, 'font-size': size }, this.text);
    t.textContent = s;
    return t;
  }
}
