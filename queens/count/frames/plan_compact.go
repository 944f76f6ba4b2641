package frames

import (
	"context"
	"fmt"
	"iter"
	"math"
	"strconv"
	"strings"

	"github.com/chesspuzzles/chesspuzzles/queens/internal/order"
)

// compactTasks holds the tasks of a fine plan in about 27 bytes each (26.5 measured at
// n = 25) instead of the ~140 of a task with its prefix string: at n = 27 (1.1·10⁷ tasks)
// about 290 MB with the
// hand-out order, where the Tasks slice takes about 4 GB. A task is rebuilt on demand
// from its v1 frame, its Cost and its prefix squares.
type compactTasks struct {
	frames []task    // the v1 plan's frames, by v1 id
	frame  []uint32  // each task's frame, an index into frames
	cost   []uint32  // each task's Cost (at most a v1 frame's, under 2^21 for n ≤ 32)
	off    []uint32  // task i's prefix squares are sq[off[i]:off[i+1]]
	sq     [][2]byte // prefix squares (row, col), in prefix order
	order  []uint32  // ids costliest first, ties by id
}

// newCompactFinePlan returns the fine plan of n cut with bound (0: FineBound(n)), held
// compactly: it leaves tasks nil and keeps each task in about 27 bytes (its frame's index,
// its Cost, its prefix squares and its place in the hand-out order), so that a coordinator
// can hold the fine plan of n = 27 (1.1·10⁷ tasks) in about 290 MB. Building costs what
// newFinePlan's does (about 4.5 minutes on one core at n = 27, seconds at 25 and 26), plus
// sorting the ids by cost. It returns ctx.Err() if ctx is done first, looking at it
// after each frame is split (milliseconds apart).
func newCompactFinePlan(ctx context.Context, n int, bound uint64) (*plan, error) {
	given := bound
	base, bound, err := fineBase(ctx, n, bound)
	if err != nil {
		return nil, err
	}
	c := &compactTasks{frames: base.tasks, off: []uint32{0}}
	var ferr error
	for fi, f := range base.tasks {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		splitFrame(f, bound, func(t task) {
			if ferr != nil {
				return
			}
			if uint64(len(c.frame)) == math.MaxUint32 || t.Cost > math.MaxUint32 {
				ferr = fmt.Errorf("the fine plan of N=%d with bound %d is too large to hold compactly", n, bound)
				return
			}
			c.frame = append(c.frame, uint32(fi))
			c.cost = append(c.cost, uint32(t.Cost))
			if t.Prefix != "" {
				for f := range strings.SplitSeq(t.Prefix, ",") {
					rs, cs, _ := strings.Cut(f, ":")
					r, _ := strconv.Atoi(rs)
					col, _ := strconv.Atoi(cs)
					c.sq = append(c.sq, [2]byte{byte(r), byte(col)})
				}
			}
			c.off = append(c.off, uint32(len(c.sq)))
		})
	}
	if ferr != nil {
		return nil, ferr
	}
	// The slices grew by appending: copy them to their length, dropping up to half of
	// their capacity for the plan's lifetime.
	c.frame, c.cost, c.off, c.sq = exact(c.frame), exact(c.cost), exact(c.off), exact(c.sq)
	c.order = order.ByCost(len(c.cost), func(id int) uint64 { return uint64(c.cost[id]) })
	return &plan{n: n, version: FinePlanVersion, compact: c, bound: given}, nil
}

// task rebuilds task id (0 ≤ id < Len).
func (c *compactTasks) taskAt(id int) task {
	t := c.frames[c.frame[id]]
	t.ID = id
	t.Cost = uint64(c.cost[id])
	if a, b := c.off[id], c.off[id+1]; a < b {
		buf := make([]byte, 0, 6*(b-a))
		for i, q := range c.sq[a:b] {
			if i > 0 {
				buf = append(buf, ',')
			}
			buf = strconv.AppendInt(buf, int64(q[0]), 10)
			buf = append(buf, ':')
			buf = strconv.AppendInt(buf, int64(q[1]), 10)
		}
		t.Prefix = string(buf)
	}
	return t
}

// Len returns the number of tasks of the plan: its ids are 0 to Len()−1.
func (p *plan) Len() int {
	p.build()
	if p.compact != nil {
		return len(p.compact.frame)
	}
	return len(p.tasks)
}

// task returns task id, 0 ≤ id < Len(), from either representation.
func (p *plan) taskAt(id int) task {
	if p.compact != nil {
		return p.compact.taskAt(id)
	}
	return p.tasks[id]
}

// Weight returns the Weight of task id, 0 ≤ id < Len().
func (p *plan) Weight(id int) int {
	p.build()
	if p.compact != nil {
		return p.compact.frames[p.compact.frame[id]].Weight
	}
	return p.tasks[id].Weight
}

// Cost returns the Cost of task id, 0 ≤ id < Len().
func (p *plan) Cost(id int) uint64 {
	p.build()
	if p.compact != nil {
		return uint64(p.compact.cost[id])
	}
	return p.tasks[id].Cost
}

// Order returns the ids of the plan's tasks in the order a scheduler should hand them out:
// decreasing Cost, ties by id, as plan.ByCost. For a plan held in Tasks it sorts a copy
// of the ids first; a compact plan keeps the order.
func (p *plan) Order() iter.Seq[int] {
	p.build()
	return func(yield func(int) bool) {
		if p.compact != nil {
			for _, id := range p.compact.order {
				if !yield(int(id)) {
					return
				}
			}
			return
		}
		for _, id := range order.ByCost(len(p.tasks), p.Cost) {
			if !yield(int(id)) {
				return
			}
		}
	}
}

// All returns the plan's tasks in id order, rebuilding each of a compact plan as it goes.
func (p *plan) All() iter.Seq[task] {
	return func(yield func(task) bool) {
		for id := range p.Len() {
			if !yield(p.taskAt(id)) {
				return
			}
		}
	}
}

// exact returns a copy of s whose capacity is its length.
func exact[T any](s []T) []T {
	out := make([]T, len(s))
	copy(out, s)
	return out
}
