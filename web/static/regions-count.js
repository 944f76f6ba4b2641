// regions-count.js counts the solutions of a region grid in the page, so that the editor can
// say at once whether a grid has 0, 1 or more solutions, without asking the server. It is
// the search of package queens/regions (count.go) in JavaScript: bitmasks, one word a row
// (N ≤ 20 fits 32-bit integers), always branching on the row, column or region with the
// fewest free cells, and stopping at the limit (2: "more than one").
//
// rows is N arrays of N region ids 0…N−1; a region may be in several pieces. countSolutions
// returns {count, solutions} with the first `keep` solutions (sol[row] = column).

const popcount = (x) => {
  x -= (x >>> 1) & 0x55555555;
  x = (x & 0x33333333) + ((x >>> 2) & 0x33333333);
  return (((x + (x >>> 4)) & 0x0f0f0f0f) * 0x01010101) >>> 24;
};
const low = (x) => 31 - Math.clz32(x & -x); // the index of the lowest set bit

export function countSolutions(rows, limit = 2, keep = 2) {
  const n = rows.length;
  const full = n === 32 ? 0xffffffff : (1 << n) - 1;
  // cells[k][r]: the columns of region k in row r.
  const cells = Array.from({ length: n }, () => new Int32Array(n));
  for (let r = 0; r < n; r++) for (let c = 0; c < n; c++) cells[rows[r][c]][r] |= 1 << c;
  const out = { count: 0, solutions: [] };
  const queen = new Int8Array(n).fill(-1);

  function place(cand, r, c) {
    const t = cand.slice();
    const bit = 1 << c, reg = cells[rows[r][c]];
    for (let i = 0; i < n; i++) t[i] &= ~(bit | reg[i]);
    t[r] = 0;
    const near = bit | (bit << 1) | (bit >>> 1);
    if (r > 0) t[r - 1] &= ~near;
    if (r + 1 < n) t[r + 1] &= ~near;
    return t;
  }

  function search(cand, rowsDone, colsDone, regsDone) {
    if (rowsDone === full) {
      out.count++;
      if (out.solutions.length < keep) out.solutions.push(Array.from(queen));
      return;
    }
    const col = new Int32Array(n), reg = new Int32Array(n);
    for (let r = 0; r < n; r++) {
      for (let m = cand[r]; m !== 0; m &= m - 1) {
        const c = low(m);
        col[c]++;
        reg[rows[r][c]]++;
      }
    }
    let best = n + 1, kind = 0, idx = 0;
    for (let r = 0; r < n; r++) {
      if (!(rowsDone & (1 << r))) {
        const k = popcount(cand[r]);
        if (k < best) { best = k; kind = 0; idx = r; }
      }
    }
    for (let c = 0; c < n; c++) if (!(colsDone & (1 << c)) && col[c] < best) { best = col[c]; kind = 1; idx = c; }
    for (let k = 0; k < n; k++) if (!(regsDone & (1 << k)) && reg[k] < best) { best = reg[k]; kind = 2; idx = k; }
    if (best === 0) return;
    const tryAt = (r, c) => {
      queen[r] = c;
      search(place(cand, r, c), rowsDone | (1 << r), colsDone | (1 << c), regsDone | (1 << rows[r][c]));
      queen[r] = -1;
      return out.count >= limit;
    };
    if (kind === 0) {
      for (let m = cand[idx]; m !== 0; m &= m - 1) if (tryAt(idx, low(m))) return;
    } else if (kind === 1) {
      for (let r = 0; r < n; r++) if ((cand[r] & (1 << idx)) && tryAt(r, idx)) return;
    } else {
      for (let r = 0; r < n; r++) {
        for (let m = cand[r] & cells[idx][r]; m !== 0; m &= m - 1) if (tryAt(r, low(m))) return;
      }
    }
  }

  search(new Int32Array(n).fill(full), 0, 0, 0);
  return out;
}

// missingRegions returns the ids 0…N−1 that no cell of rows has.
export function missingRegions(rows) {
  const n = rows.length, seen = new Array(n).fill(false);
  for (const row of rows) for (const k of row) seen[k] = true;
  return [...seen.keys()].filter((k) => !seen[k]);
}

// suggestUnique looks for one cell to repaint that leaves rows with exactly one solution,
// given two of its solutions a and b: a queen cell of one that the other lacks goes to a
// region next to it (by a side), which kills the solution through it. It returns
// {r, c, region} or null. It costs a count per cell and neighbour tried: at most about 4·2N.
export function suggestUnique(rows, a, b) {
  const n = rows.length;
  const tries = [];
  for (const [kill] of [[b], [a]]) {
    for (let r = 0; r < n; r++) {
      if (a[r] !== b[r]) tries.push([r, kill[r]]);
    }
  }
  for (const [r, c] of tries) {
    const own = rows[r][c], seen = new Set([own]);
    for (const [dr, dc] of [[-1, 0], [1, 0], [0, -1], [0, 1]]) {
      const rr = r + dr, cc = c + dc;
      if (rr < 0 || rr >= n || cc < 0 || cc >= n || seen.has(rows[rr][cc])) continue;
      const k = rows[rr][cc];
      seen.add(k);
      const next = rows.map((row) => row.slice());
      next[r][c] = k;
      if (missingRegions(next).length === 0 && countSolutions(next, 2, 0).count === 1) return { r, c, region: k };
    }
  }
  return null;
}

// parseGrid reads a grid as the CLI writes it (rows of region letters, one a line, or
// joined by "/"; blank and # lines skipped) or as JSON ({"n": N, "regions": rows of letters
// or of ids 0…N−1}). It returns N arrays of N ids, or throws an Error saying what is wrong.
export function parseGrid(text) {
  const t = text.trim();
  let lines;
  if (t.startsWith('{')) {
    let j;
    try { j = JSON.parse(t); } catch { throw new Error('the JSON does not parse'); }
    if (!Array.isArray(j.regions)) throw new Error('the JSON has no "regions" list');
    lines = j.regions.map((row) => (Array.isArray(row) ? row.map((k) => (Number.isInteger(k) && k >= 0 && k < 26 ? String.fromCharCode(65 + k) : '?')).join('') : String(row)));
    if (j.n !== undefined && j.n !== lines.length) throw new Error(`"n" is ${j.n} but there are ${lines.length} rows`);
  } else {
    lines = t.split(/[\n/]/).map((l) => l.replace(/\s+/g, '')).filter((l) => l !== '' && !l.startsWith('#'));
  }
  const n = lines.length;
  if (n < 5 || n > 20) throw new Error(`a grid has 5 to 20 rows here, got ${n}`);
  const rows = [];
  for (let r = 0; r < n; r++) {
    const line = lines[r].toUpperCase();
    if (line.length !== n) throw new Error(`row ${r + 1} has ${line.length} cells, want ${n} (as many as there are rows)`);
    const row = [];
    for (const ch of line) {
      const k = ch.charCodeAt(0) - 65;
      if (k < 0 || k >= n) throw new Error(`row ${r + 1} has "${ch}": want region letters A to ${String.fromCharCode(64 + n)}`);
      row.push(k);
    }
    rows.push(row);
  }
  const miss = missingRegions(rows);
  if (miss.length) throw new Error(`a ${n}×${n} grid has ${n} regions; missing ${miss.map((k) => String.fromCharCode(65 + k)).join(', ')}`);
  return rows;
}

// gridText writes rows as region letters, one row a line.
export const gridText = (rows) => rows.map((row) => row.map((k) => String.fromCharCode(65 + k)).join('')).join('\n');
