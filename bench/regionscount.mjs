// bench/regionscount.mjs: the time the Regions editor takes to count a grid's solutions (up
// to 2) and, for two, to find a repaint that makes it unique (web/static/regions-count.js),
// on 300 random grids at N = 8, 10 and 12 (each cell to the nearest of N random centres):
// mean and worst wall time in ms, and the worst of the count alone. Run with Node: node bench/regionscount.mjs
import { countSolutions, suggestUnique } from '../web/static/regions-count.js';
// Random grids: N seeds, each cell to the nearest seed (Manhattan), ties by index.
let seed = 1; const rnd = () => (seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648;
for (const n of [8, 10, 12]) {
  let worst = 0, tot = 0, worstCount = 0, c = [0, 0, 0];
  for (let i = 0; i < 300; i++) {
    const pts = Array.from({ length: n }, () => [Math.floor(rnd() * n), Math.floor(rnd() * n)]);
    const rows = Array.from({ length: n }, (_, r) => Array.from({ length: n }, (_, cc) => {
      let b = 0, bd = 1e9; pts.forEach(([pr, pc], k) => { const d = Math.abs(pr - r) + Math.abs(pc - cc) + rnd() * 0.5; if (d < bd) { bd = d; b = k; } }); return b; }));
    for (let k = 0; k < n; k++) rows[pts[k][0]][pts[k][1]] = k;
    const t0 = performance.now();
    const res = countSolutions(rows, 2, 2);
    worstCount = Math.max(worstCount, performance.now() - t0);
    if (res.count === 2) suggestUnique(rows, res.solutions[0], res.solutions[1]);
    const ms = performance.now() - t0; worst = Math.max(worst, ms); tot += ms; c[res.count]++;
  }
  console.log(`N=${n}: 300 random grids, counts 0/1/more ${c.join('/')}, mean ${(tot/300).toFixed(2)} ms, worst ${worst.toFixed(1)} ms (count + suggestion), worst count alone ${worstCount.toFixed(1)} ms`);
}
