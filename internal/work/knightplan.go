package work

import (
	"context"
	"fmt"
	"iter"
	"math/big"
	"strings"

	"github.com/chesspuzzles/chesspuzzles/board"
	kcount "github.com/chesspuzzles/chesspuzzles/knight/count"
)

// KnightPlan is a count of a board's directed open tours (kcount.OpenPlan: by classes of
// end pairs, or by parts of a split sweep) as a [Plan].
//
// Its job id is "k" and its name with dashes for spaces ("k8x8-open-ends-v1"); a task's
// Weight is the OpenTask's, its Cost 1 (the plan has no forecast: Order is by id), its Desc
// says what it counts ("ends a1–c2", "parts 8:2/3 12:1/2"); a result's Count is the task's
// tours, its counters "states" (the states after each cell of the sweep, summed) and
// "peak" (the most after one cell). It is sliced by id modulo K ([ModK]): the costly
// tasks, neighbours by id, spread over the slices. The published value is the board's
// directed open tours (kcount.PublishedOpen).
type KnightPlan struct {
	p *kcount.OpenPlan
	// MaxMemory bounds each task's state store when it runs here (0: none); past it
	// RunTask returns a *kcount.MemoryError.
	MaxMemory int64
	// Status, if not nil, is called after each cell of each task's sweep.
	Status func(Task, kcount.Status)
}

// BoundMemory sets MaxMemory: a task run here needs at most bytes for its store.
func (k *KnightPlan) BoundMemory(bytes int64) { k.MaxMemory = bytes }

// Knight returns p as a [Plan].
func Knight(p *kcount.OpenPlan) *KnightPlan { return &KnightPlan{p: p} }

// Open returns the kcount.OpenPlan k presents.
func (k *KnightPlan) Open() *kcount.OpenPlan { return k.p }

// Name returns the plan's name, "8x8 open-ends v1" (kcount.OpenPlan.Name).
func (k *KnightPlan) Name() string { return k.p.Name() }

// Job returns "k" and the plan's name with dashes for spaces: "k8x8-open-ends-v1".
func (k *KnightPlan) Job() string { return "k" + strings.ReplaceAll(k.p.Name(), " ", "-") }

// Len returns the number of tasks.
func (k *KnightPlan) Len() int { return len(k.p.Tasks) }

// Size returns the board's rows and columns.
func (k *KnightPlan) Size() (rows, cols int) { return k.p.Rows, k.p.Cols }

// TaskEnds returns the end squares of task id of an open-ends plan as "file,rank" from 1
// (rank 1 the bottom row), the way every board's squares can be written, and true; false
// for a task of a split plan (or no task), which has no fixed ends.
func (k *KnightPlan) TaskEnds(id int) (start, end string, ok bool) {
	if k.p.Split != nil || id < 0 || id >= len(k.p.Tasks) {
		return "", "", false
	}
	t := k.p.Tasks[id]
	name := func(s board.Square) string { return fmt.Sprintf("%d,%d", s.Col+1, k.p.Rows-s.Row) }
	return name(t.Start), name(t.End), true
}

// CountName returns "tours", the name of a task's count in shard files.
func (k *KnightPlan) CountName() string { return "tours" }

// Order yields the ids in increasing order.
func (k *KnightPlan) Order() iter.Seq[int] {
	return func(yield func(int) bool) {
		for id := range k.p.Tasks {
			if !yield(id) {
				return
			}
		}
	}
}

// Slice returns the tasks whose id is i modulo k ([ModK]).
func (k *KnightPlan) Slice(i, n int) ([]int, error) { return ModK(k, i, n) }

// Task returns task id.
func (k *KnightPlan) Task(id int) (Task, error) {
	if id < 0 || id >= len(k.p.Tasks) {
		return Task{}, fmt.Errorf("task %d: the plan %s has tasks 0 to %d", id, k.p.Name(), len(k.p.Tasks)-1)
	}
	t := k.p.Tasks[id]
	return Task{ID: id, Weight: t.Weight, Cost: 1, Desc: k.desc(t)}, nil
}

// desc says what t counts: its ends, or its parts of a split sweep.
func (k *KnightPlan) desc(t kcount.OpenTask) string {
	if k.p.Split == nil {
		sz := board.Size{Rows: k.p.Rows, Cols: k.p.Cols}
		return "ends " + sz.Name(t.Start) + "–" + sz.Name(t.End)
	}
	var b strings.Builder
	b.WriteString("parts")
	for _, s := range t.Split {
		fmt.Fprintf(&b, " %d:%d/%d", s.Cell, s.Part, s.Parts)
	}
	return b.String()
}

// RunTask counts task t.ID, which t must describe as the plan does, by the sweep with its
// ends fixed (kcount.CountOpenTask), its store bounded by k.MaxMemory.
func (k *KnightPlan) RunTask(ctx context.Context, t Task) (Result, error) {
	want, err := k.Task(t.ID)
	if err != nil {
		return Result{}, err
	}
	if t != want {
		return Result{}, fmt.Errorf("task %d is described otherwise than in the plan %s", t.ID, k.p.Name())
	}
	var status func(kcount.Status)
	if k.Status != nil {
		status = func(s kcount.Status) { k.Status(t, s) }
	}
	r, err := kcount.CountOpenTask(ctx, k.p.Rows, k.p.Cols, k.p.Tasks[t.ID], k.MaxMemory, status)
	if err != nil {
		return Result{}, err
	}
	return KnightResult(r), nil
}

// KnightResult returns r as a [Result] of a knight plan.
func KnightResult(r kcount.OpenResult) Result {
	return Result{ID: r.ID, Count: r.Tours, Counters: []Counter{{"states", uint64(r.States)}, {"peak", uint64(r.Peak)}}}
}

// OpenResult returns r as the kcount.OpenResult it stands for, or an error if its
// counters are not a knight task's ("states" and "peak", each below 2⁶³).
func OpenResult(r Result) (kcount.OpenResult, error) {
	c := r.Counters
	if len(c) != 2 || c[0].Name != "states" || c[1].Name != "peak" || c[0].Value > 1<<63-1 || c[1].Value > 1<<63-1 {
		return kcount.OpenResult{}, fmt.Errorf("task %d: a knight task's result has the counters states and peak, each below 2⁶³", r.ID)
	}
	return kcount.OpenResult{ID: r.ID, Tours: r.Count, States: int64(c[0].Value), Peak: int64(c[1].Value)}, nil
}

// Check returns why r cannot be the result of its task: its counters, or what
// kcount.OpenPlan.Check refuses.
func (k *KnightPlan) Check(r Result) error {
	o, err := OpenResult(r)
	if err != nil {
		return err
	}
	return k.p.Check(o)
}

// Published returns the board's published directed open tours, if known.
func (k *KnightPlan) Published() (*big.Int, bool) { return kcount.PublishedOpen(k.p.Rows, k.p.Cols) }

// Counters returns "states" and "peak".
func (k *KnightPlan) Counters() []string { return []string{"states", "peak"} }

// knightMagic begins a knight checkpoint's header.
const knightMagic = "chesspuzzles-knight-checkpoint"

// CheckpointFormat is the format of knight checkpoints since their first build: a header
// naming the plan and its tasks, every result synced as it is recorded (a task takes
// seconds to hours).
func (k *KnightPlan) CheckpointFormat() CheckpointFormat {
	return CheckpointFormat{
		Magic:  knightMagic,
		What:   "knight count checkpoint",
		Header: fmt.Sprintf("%s %d plan=%q tasks=%d", knightMagic, checkpointFormat, k.p.Name(), k.Len()),
		Other: func(body string) error {
			return fmt.Errorf("records another plan (%.80s), not %q with %d tasks; use another file or delete it", strings.TrimPrefix(body, knightMagic+" "), k.p.Name(), k.Len())
		},
	}
}
