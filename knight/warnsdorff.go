package knight

import "context"

// warnsdorff runs Warnsdorff's rule from s on a rows×cols board: always move to the unvisited
// square with the fewest unvisited onward squares; on a tie, to the one whose own onward
// squares include the square with the fewest onward moves (one move of look-ahead); on a
// further tie, the first in the fixed move order. It returns the squares visited and whether
// that is all of them. It works on a board with a two-square margin, one byte per square
// (the onward count, or -1 once visited or off the board), so a 10000×10000 board needs
// 100 MB beside the 400 MB path; time is linear in the squares. It stops early, returning
// false, when ctx is done (looked at every 4096 squares, under a millisecond).
func warnsdorff(ctx context.Context, rows, cols int, s int32) ([]int32, bool) {
	w := cols + 4
	deg := newMargined(ctx, rows, cols)
	if deg == nil {
		return nil, false
	}
	var off [8]int
	for k, m := range moves {
		off[k] = m[0]*w + m[1]
	}
	n := rows * cols
	path := make([]int32, 0, n)
	p := (int(s)/cols+2)*w + int(s)%cols + 2
	for {
		path = append(path, int32((p/w-2)*cols+p%w-2))
		deg[p] = -1
		for _, o := range off {
			if deg[p+o] > 0 {
				deg[p+o]--
			}
		}
		if len(path) == n {
			return path, true
		}
		if len(path)&(1<<12-1) == 0 && ctx.Err() != nil {
			return path, false
		}
		best, bestDeg, bestLook := -1, int8(9), int8(9)
		for _, o := range off {
			q := p + o
			d := deg[q]
			if d < 0 || d > bestDeg {
				continue
			}
			look := int8(9)
			for _, o2 := range off {
				if x := deg[q+o2]; x >= 0 && x-1 < look {
					look = x - 1
				}
			}
			if d < bestDeg || look < bestLook {
				best, bestDeg, bestLook = q, d, look
			}
		}
		if best < 0 {
			return path, false
		}
		p = best
	}
}

// newMargined returns the onward-move counts of a rows×cols board with a two-square margin of
// -1 on every side, row-major with width cols+4; nil when ctx is done first.
func newMargined(ctx context.Context, rows, cols int) []int8 {
	w := cols + 4
	deg := make([]int8, (rows+4)*w)
	for i := range deg {
		deg[i] = -1
	}
	for r := 0; r < rows; r++ {
		for c := 0; c < cols; c++ {
			if (r*cols+c)&(1<<16-1) == 0 && ctx.Err() != nil {
				return nil
			}
			k := int8(0)
			for _, m := range moves {
				rr, cc := r+m[0], c+m[1]
				if rr >= 0 && rr < rows && cc >= 0 && cc < cols {
					k++
				}
			}
			deg[(r+2)*w+c+2] = k
		}
	}
	return deg
}
