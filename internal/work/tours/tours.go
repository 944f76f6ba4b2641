// Package tours runs a plan of knight's-tour counting tasks ([Plan]: a task list with
// stable ids and weights, a task run under a context giving a result with counters a
// re-run reproduces, the plan's name for files and jobs; [OpenEnds] makes one of
// knight/count.OpenPlan, the directed open tours of a board by classes of end pairs) the
// ways a long count runs: in one process with a checkpoint that survives a kill, or in
// slices that a batch scheduler runs one process each, whose result files are merged into
// the total.
//
// Running: [Run] counts the tasks not yet recorded in the checkpoint (if any), one after
// another (each task's sweep is one goroutine and holds the memory; two at once would
// need twice it), recording each as it finishes, by the runner of every plan (work.RunPlan
// of [Neutral]: work.KnightPlan).
//
// Checkpoints: [OpenCheckpoint] creates or resumes an append-only text file, one header
// line naming the plan, one line a finished task, each line sealed by its CRC-32; results
// are written with one write(2) each and fsync'd, the file created by rename, so a killed
// run loses only the task in flight. Checkpoints are package work's (work.OpenPlanCheckpoint,
// in the knight plans' format); result files are written and read by internal/work/sealed,
// as the queens runners' are.
//
//	chesspuzzles-knight-checkpoint 1 plan="8x8 open-ends v1" tasks=136 crc=…
//	17 1234567890 4567890123 98765432 crc=…
//
// Slices: [Compute] counts the I-th of K slices of the plan (the tasks whose id is I
// modulo K) and returns its [File], sealed by a SHA-256 checksum; [Merge] reads a complete
// set of such files, checks that each is unchanged, of this plan, and that every task is
// there once (or twice with the same result), and returns the total, refused (ErrRefused)
// where a published count disagrees.
//
// NATS workers: internal/work/cluster runs a [Plan] as a job beside queens jobs
// (cluster.KnightPlan): a worker rebuilds the plan from its name, runs a task by id, and
// hands in its result with its counters, under the cluster's leases, seals and verification.
package tours

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"time"

	"github.com/chesspuzzles/chesspuzzles/internal/work"
	kcount "github.com/chesspuzzles/chesspuzzles/knight/count"
)

// Options say how Run counts.
type Options struct {
	// Tasks, if not nil, are the ids of the tasks to count (a slice); else every task.
	Tasks []int
	// Checkpoint, if not nil, holds results already found (skipped) and records new ones.
	Checkpoint *Checkpoint
	// Done are results already found (from the checkpoint): their tasks are not counted.
	Done []Result
	// MaxMemory bounds each task's state store (0: none).
	MaxMemory int64
	// Status, if not nil, is called after each cell of each task, with the task.
	Status func(Task, kcount.Status)
	// Finished, if not nil, is called after each task with its result and CPU time.
	Finished func(Result, time.Duration)
}

// Run counts the tasks of p that opts asks for and has no result of yet, one after
// another, by the runner of every plan (work.RunPlan of Neutral(p), on one worker),
// recording each in opts.Checkpoint, and returns the results of those tasks (the ones
// given in opts.Done among them). It stops with ctx.Err() within milliseconds of ctx
// being done (a task cut short is not recorded), or with a task's error.
func Run(ctx context.Context, p Plan, opts Options) ([]Result, error) {
	ids := opts.Tasks
	if ids == nil {
		for id := range p.Len() {
			ids = append(ids, id)
		}
	}
	done := make(map[int]Result)
	for _, r := range opts.Done {
		done[r.ID] = r
	}
	var pending []int
	for _, id := range ids {
		if id < 0 || id >= p.Len() {
			return nil, fmt.Errorf("task %d: the plan %s has tasks 0 to %d", id, p.Name(), p.Len()-1)
		}
		if _, ok := done[id]; !ok {
			pending = append(pending, id)
		}
	}
	kp := Neutral(p)
	kp.MaxMemory = opts.MaxMemory
	// Status is called on the runner's worker, Finished on its own goroutine: one at a
	// time, as when both ran here.
	var mu sync.Mutex
	if opts.Status != nil {
		kp.Status = func(t work.Task, s kcount.Status) {
			mu.Lock()
			defer mu.Unlock()
			opts.Status(p.Task(t.ID), s)
		}
	}
	wopts := work.Options{Workers: 1, Tasks: pending, Finished: func(wr work.Result, cpu time.Duration) error {
		if err := ctx.Err(); err != nil {
			return err // as when tasks ran one by one here: nothing is recorded after ctx ends
		}
		r, err := work.OpenResult(wr)
		if err != nil {
			return err
		}
		if opts.Checkpoint != nil {
			if err := opts.Checkpoint.Record(r); err != nil {
				return err
			}
		}
		if opts.Finished != nil {
			mu.Lock()
			opts.Finished(r, cpu)
			mu.Unlock()
		}
		done[r.ID] = r
		return nil
	}}
	if len(pending) > 0 {
		if _, err := work.RunPlan(ctx, kp, wopts); err != nil {
			return nil, err
		}
	}
	out := make([]Result, len(ids))
	for i, id := range ids {
		out[i] = done[id]
	}
	return out, nil
}

// Slice returns the ids of the i-th of k slices of p: the tasks whose id is i modulo k,
// so that the costly tasks, which are neighbours in the plan's order, spread over the
// slices (the knight plans' rule: work.KnightPlan.Slice). An i or k out of range is an error.
func Slice(p Plan, i, k int) ([]int, error) { return work.Slice(Neutral(p), i, k) }

// ErrInput marks an error in the files given to Merge: a file that cannot be read, is not
// a result file of this plan, was changed, or does not belong with the others.
var ErrInput = errors.New("bad result files")

// ErrRefused marks a total that Merge refuses although every file is well formed: it
// differs from the published count.
var ErrRefused = errors.New("total refused")
