package count

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/chesspuzzles/chesspuzzles/knight/internal/frontier"
)

// SplitPlanVersion is the version of NewSplitPlan's task list and of the key that gives
// each state its part (frontier.Split: splitmix64's finaliser of the packed far slots,
// modulo the parts): a checkpoint or a result file names it, and one of another version
// is refused.
const SplitPlanVersion = 1

// SplitLevel is one level of a split plan: the states of the whole forward sweep before
// cell Cell (in the sweep's order: column by column of the board turned to have no more
// rows than columns, top to bottom, from 0) go to Parts parts by a hash of their Far
// cells furthest ahead in the window (0: of the whole state).
type SplitLevel struct {
	Cell, Parts, Far int
}

// SplitPart is a task's part at one level of a split plan.
type SplitPart struct {
	Cell, Parts, Far, Part int
}

// NewSplitPlan returns the plan of the directed open tours of a rows×cols board (as
// NewOpenPlan's boards) as a split of the whole forward sweep: one task for each choice of
// a part at every level (levels at increasing cells; the product of their parts, at most
// 1<<20, is the number of tasks). A task sweeps the board whole, keeping at each level's
// cell only the states of its part; the states of one part lead to tours the others' do
// not, so the tasks' counts (directed tours, each of weight 1) sum to the directed total. Task ids run over the parts with the last level's fastest.
//
// Why a split of the frontier: the whole sweep of 8×8 is forecast at about 12 core-hours
// but 3·10¹⁰ states at its widest (167 GiB); the pairs of ends (NewOpenPlan) keep a task's
// memory small but repeat most of the work (400–600 core-hours). A part holds about 1/K of
// the states after its cell, and the states of two parts that the whole sweep would merge
// later are carried twice; keying on the far cells keeps such states together
// (bench/log/2026-11-27.md, "Issue 35: the 8×8 open tours by a split frontier"). Building the
// plan costs nothing beyond its task list.
func NewSplitPlan(rows, cols int, levels []SplitLevel) (*OpenPlan, error) {
	if _, err := NewOpenPlan(rows, cols); err != nil {
		return nil, err
	}
	n, W := frontier.SweepCells(rows, cols)
	if len(levels) == 0 {
		return nil, fmt.Errorf("board %d×%d: a split plan needs at least one level", rows, cols)
	}
	tasks := 1
	for i, l := range levels {
		switch {
		case l.Cell < 1 || l.Cell >= n:
			return nil, fmt.Errorf("split cell %d: a split of %d×%d is at a cell from 1 to %d", l.Cell, rows, cols, n-1)
		case i > 0 && l.Cell <= levels[i-1].Cell:
			return nil, fmt.Errorf("split cell %d: the levels' cells must increase", l.Cell)
		case l.Parts < 1 || l.Parts > 1<<20:
			return nil, fmt.Errorf("split parts %d: the parts must be from 1 to %d", l.Parts, 1<<20)
		case l.Far < 0 || l.Far > W:
			return nil, fmt.Errorf("split far slots %d: from 0 (the whole state) to the window's %d", l.Far, W)
		}
		if tasks *= l.Parts; tasks > 1<<20 {
			return nil, fmt.Errorf("split of %d×%d: %d tasks or more, at most %d", rows, cols, tasks, 1<<20)
		}
	}
	p := &OpenPlan{Rows: rows, Cols: cols, Split: append([]SplitLevel(nil), levels...)}
	for id := range tasks {
		t := OpenTask{ID: id, Weight: 1}
		rest := id
		t.Split = make([]SplitPart, len(levels))
		for i := len(levels) - 1; i >= 0; i-- {
			l := levels[i]
			t.Split[i] = SplitPart{Cell: l.Cell, Parts: l.Parts, Far: l.Far, Part: rest % l.Parts}
			rest /= l.Parts
		}
		p.Tasks = append(p.Tasks, t)
	}
	return p, nil
}

// splitName is the levels as a plan's name carries them: "c20k64f5" a level, joined by
// "-".
func splitName(levels []SplitLevel) string {
	var b strings.Builder
	for i, l := range levels {
		if i > 0 {
			b.WriteByte('-')
		}
		fmt.Fprintf(&b, "c%dk%df%d", l.Cell, l.Parts, l.Far)
	}
	return b.String()
}

// ParseSplitLevels reads levels as a split plan's name carries them ("c20k64f5", levels
// joined by "-"), as "knight plan --split" takes them.
func ParseSplitLevels(s string) ([]SplitLevel, error) {
	var levels []SplitLevel
	for _, f := range strings.Split(s, "-") {
		var l SplitLevel
		c, rest, ok1 := strings.Cut(strings.TrimPrefix(f, "c"), "k")
		k, far, ok2 := strings.Cut(rest, "f")
		var err1, err2, err3 error
		l.Cell, err1 = strconv.Atoi(c)
		l.Parts, err2 = strconv.Atoi(k)
		l.Far, err3 = strconv.Atoi(far)
		if !strings.HasPrefix(f, "c") || !ok1 || !ok2 || err1 != nil || err2 != nil || err3 != nil {
			return nil, fmt.Errorf("split %q: each level is cCELLkPARTSfFAR (e.g. c20k64f5), levels joined by - (c10k4f3-c20k2f0)", s)
		}
		levels = append(levels, l)
	}
	return levels, nil
}

// frontierSplits are t's parts as the sweep takes them.
func frontierSplits(t OpenTask) []frontier.Split {
	var sp []frontier.Split
	for _, s := range t.Split {
		sp = append(sp, frontier.Split{Cell: s.Cell, Parts: s.Parts, Part: s.Part, Far: s.Far})
	}
	return sp
}

// SplitKind is the kind a split plan's name carries, "open-split-" and its levels:
// "open-split-c18k4f4" (the name: "8x8 open-split-c18k4f4 v1").
func SplitKind(levels []SplitLevel) string {
	return "open-split-" + splitName(levels)
}
