package queens

import (
	"context"
	"iter"
	"math/bits"
	"strconv"
	"sync/atomic"
)

// ListOptions chooses what [List] streams.
type ListOptions struct {
	// After, when not nil, starts the listing strictly after this placement in code order,
	// without visiting what comes before it. It must have N entries, each a column from 0
	// to N-1; it need not be a solution (a page cursor is usually the last solution shown).
	After Placement
	// Fundamental lists only canonical representatives (see [IsCanonical]), one a class.
	Fundamental bool
	// Progress, when not nil, is updated as the search goes, for a progress display
	// running in another goroutine.
	Progress *Progress
}

// Progress holds counters of a running search, safe to read from another goroutine.
type Progress struct {
	nodes atomic.Uint64
	found atomic.Uint64
	first atomic.Int64 // column of the queen on the top row, +1; 0 before the search starts
}

// Nodes returns how many partial placements the search has visited so far, to within a few
// thousand.
func (p *Progress) Nodes() uint64 { return p.nodes.Load() }

// Found returns how many solutions the search has yielded so far.
func (p *Progress) Found() uint64 { return p.found.Load() }

// TopColumn returns the 0-based column of the queen the search has on the top row: the
// listing is done with the top-row columns before it. It is -1 before the search starts.
func (p *Progress) TopColumn() int { return int(p.first.Load()) - 1 }

// progressEvery is how many nodes the search visits between updates of its Progress and
// checks of its context: rare enough to cost nothing, often enough (a millisecond or so) for
// Ctrl-C to feel immediate.
const progressEvery = 1 << 16

// Solutions returns every solution of the n×n board, in ascending code order. The yielded
// Placement is reused by the next iteration: Clone it to keep it. For n outside 1…MaxN it
// yields nothing. Listing all solutions takes time proportional to the search tree (about
// 2.5 s for the 14,772,512 solutions of n = 16 on a 2020s core) and constant memory.
func Solutions(n int) iter.Seq[Placement] {
	return List(context.Background(), n, ListOptions{})
}

// Fundamental returns the canonical representative of every class of solutions of the n×n
// board under the eight symmetries of the square, in ascending code order. Like
// [Solutions], it reuses the yielded Placement.
func Fundamental(n int) iter.Seq[Placement] {
	return List(context.Background(), n, ListOptions{Fundamental: true})
}

// List streams the solutions of the n×n board in ascending code order, as [Solutions] does,
// with the options in opts. It stops early, without yielding more, when ctx is done: check
// ctx.Err() after the loop to tell a complete listing from a cancelled one. It yields
// nothing when n is outside 1…MaxN or opts.After does not fit the board; use
// [ValidateList] first to get those as errors.
func List(ctx context.Context, n int, opts ListOptions) iter.Seq[Placement] {
	return func(yield func(Placement) bool) {
		if ValidateList(n, opts) != nil || ctx.Err() != nil {
			return
		}
		listSolutions(ctx, n, opts, yield)
	}
}

// ValidateList reports whether n and opts describe a listing [List] can run.
func ValidateList(n int, opts ListOptions) error {
	if err := checkN(n); err != nil {
		return err
	}
	if opts.After != nil {
		if len(opts.After) != n {
			return &NotationError{Input: opts.After.Format(Perm), Reason: "a starting point needs one column for each of the " + strconv.Itoa(n) + " rows"}
		}
		for _, c := range opts.After {
			if c < 0 || int(c) >= n {
				return &NotationError{Input: opts.After.Format(Perm), Reason: "a column is off the board"}
			}
		}
	}
	return nil
}

// listSolutions is the search. It keeps, for each row d, the columns still open there in
// avail[d] (bit c for column c) and the attacked columns coming down from the rows above in
// cols, left and right; taking the lowest open bit first is what makes the order ascending.
func listSolutions(ctx context.Context, n int, opts ListOptions, yield func(Placement) bool) {
	var (
		cols, left, right, avail [MaxN + 1]uint64
		place                    = make(Placement, n)
		mask                     = ^uint64(0) >> (64 - n)
		d                        = 0
		nodes                    uint64
		pr                       = opts.Progress
	)
	avail[0] = mask
	if opts.Fundamental {
		// A representative has the smallest code of its class, and mirroring left-right
		// moves the top queen from column c to n-1-c: so it stands in the left half.
		avail[0] &= uint64(1)<<((n-1)/2+1) - 1
	}
	if opts.After != nil {
		// Walk down the starting point. At each row, the columns still to try are those
		// right of its queen; where its queen is attacked, nothing below it can follow,
		// so the search starts there.
		for d = 0; d < n; d++ {
			c := opts.After[d]
			bit := uint64(1) << c
			open := avail[d]
			avail[d] = open &^ (bit<<1 - 1)
			if open&bit == 0 {
				break
			}
			place[d] = c
			if d+1 < n {
				cols[d+1], left[d+1], right[d+1] = cols[d]|bit, (left[d]|bit)<<1, (right[d]|bit)>>1
				avail[d+1] = mask &^ (cols[d+1] | left[d+1] | right[d+1])
			}
		}
		if d == n {
			d = n - 1
		}
	}
	if pr != nil {
		defer func() { pr.nodes.Add(nodes % progressEvery) }()
	}
	for d >= 0 {
		open := avail[d]
		if open == 0 {
			d--
			continue
		}
		bit := open & -open
		avail[d] = open ^ bit
		place[d] = int32(bits.TrailingZeros64(bit))
		nodes++
		if nodes%progressEvery == 0 {
			if ctx.Err() != nil {
				return
			}
			if pr != nil {
				pr.nodes.Add(progressEvery)
				pr.first.Store(int64(place[0]) + 1)
			}
		}
		if d == n-1 {
			if opts.Fundamental && !IsCanonical(place) {
				continue
			}
			if pr != nil {
				pr.found.Add(1)
			}
			if !yield(place) {
				return
			}
			continue
		}
		c, l, r := cols[d]|bit, (left[d]|bit)<<1, (right[d]|bit)>>1
		d++
		cols[d], left[d], right[d] = c, l, r
		avail[d] = mask &^ (c | l | r)
	}
}
