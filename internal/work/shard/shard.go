// Package shard computes, reads and merges the slices of a count plan that a batch
// scheduler runs one process each: "queens count N --shard I/K" writes one File, and
// "queens merge" sums a complete set of them into the exact count; any other work.Plan
// (a knight plan: "knight count --plan --shard I/K", "knight merge") is written as a
// [PlanFile] by [ComputePlan] and summed by [MergePlan], by the plan's own slicing rule
// (work.Slice) and check (work.Plan.Check).
//
// Computing: [Compute] runs the I-th of K deterministic slices of a plan (count.Shard)
// on the local pool and returns its File, sealed by its checksum.
//
// Reading: [ReadFile] decodes one file, bounded in size, refusing anything but one JSON
// object; its open and reads stop on the context's end, so Ctrl-C leaves a silent FIFO.
//
// Merging: [Merge] checks that the files are one complete plan of this build, every slice
// given once (or Replicas times, from as many runs), each file unchanged since written,
// each task's result possible for its task; it compares replicas task by task, recomputes
// a share of the tasks (Verify), and returns the counts, refused where they disagree with
// the published values.
//
// Errors that say the files are wrong wrap [ErrInput]; errors that refuse a total the
// files would give wrap [ErrRefused]; the command line maps them to exit 2 and 1.
//
//	f, _ := shard.Compute(ctx, plan, 0, 3, work.Options{})
//	c, secs, err := shard.Merge(ctx, []string{"s0.json", "s1.json", "s2.json"}, shard.MergeOptions{Verify: 0.02})
package shard

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"time"

	"github.com/chesspuzzles/chesspuzzles/internal/work"
	"github.com/chesspuzzles/chesspuzzles/internal/work/sealed"
	"github.com/chesspuzzles/chesspuzzles/queens/count"
)

// File is what "queens count N --shard I/K" prints: one slice of a count plan with the
// result of each of its tasks, so that Merge can check that every task of the plan is
// there exactly once. Sums are weighted by each task's symmetry class; counts are decimal
// strings because Q(N) outgrows 64 bits from N = 29 on.
//
// Run names the process that computed the slice: 128 random bits in hex, drawn anew by
// every Compute, so that two files of one slice with the same Run are one computation
// copied, never two replicas. Files written before runs were recorded have none; Merge
// takes those only without replicas.
//
// Checksum is "sha256:" and the hex SHA-256 of the record's canonical encoding: the JSON
// that encoding/json writes for it with Checksum empty (fields in the order below, no
// spaces). It finds a file changed after it was written (an edited count, a cut copy,);
// it is no signature, since anyone can compute it again, which is
// why Merge also checks each task's result against its task and recomputes a share of
// them (Verify).
type File struct {
	N           int            `json:"n"`
	Method      string         `json:"method,omitempty"` // "" for frames, as before methods
	PlanVersion int            `json:"plan_version"`
	Shard       int            `json:"shard"`
	Shards      int            `json:"shards"`
	Tasks       int            `json:"tasks"`
	Solutions   string         `json:"solutions"`
	HalfTurn    string         `json:"half_turn"`
	QuarterTurn string         `json:"quarter_turn"`
	Nodes       uint64         `json:"nodes"`
	Seconds     float64        `json:"seconds"` // the slice's wall time
	Results     []count.Result `json:"results"`
	Run         string         `json:"run,omitempty"`
	Checksum    string         `json:"checksum"`
}

// Sum returns the checksum f should carry (see File). It takes time proportional to the
// file's size.
func Sum(f File) string {
	f.Checksum = ""
	return sealed.Checksum(f)
}

// FileMethod is the method as a shard file names it: empty for frames, so that files of
// the frames method read as they did before there were two methods.
func FileMethod(m string) string {
	if m == count.MethodFrames {
		return ""
	}
	return m
}

// MethodName names a shard file's method: FileMethod's inverse.
func MethodName(m string) string {
	if m == "" {
		return count.MethodFrames
	}
	return m
}

// Compute runs the i-th of k slices of plan (count.Shard) on the local pool with opts
// (its Tasks are set here) and returns the slice's File, with a new Run, sealed. It takes
// the slice's tasks' time; the plan must be built. A slice that does not exist (i, k out
// of range) is an ErrInput.
func Compute(ctx context.Context, plan count.Plan, i, k int, opts work.Options) (File, error) {
	tasks, err := count.Shard(plan, i, k)
	if err != nil {
		return File{}, inputError(err)
	}
	start := time.Now()
	opts.Tasks = tasks
	res, err := work.Run(ctx, plan, opts)
	if err != nil {
		return File{}, err
	}
	secs, _ := strconv.ParseFloat(strconv.FormatFloat(time.Since(start).Seconds(), 'g', 4, 64), 64)
	f := File{N: plan.N(), Method: FileMethod(plan.Method()), PlanVersion: plan.Version(), Shard: i, Shards: k, Tasks: len(tasks),
		Solutions: res.Counts.Total.String(), HalfTurn: res.Counts.HalfTurn.String(), QuarterTurn: res.Counts.QuarterTurn.String(),
		Nodes: res.Nodes, Seconds: secs, Results: res.Results, Run: sealed.NewRun()}
	f.Checksum = Sum(f)
	return f, nil
}

// ErrInput marks an error in the files given to Merge or ReadFile: a file that cannot be
// read, is not a shard file, was changed, or does not belong with the others.
var ErrInput = errors.New("bad shard files")

// ErrRefused marks a total that Merge refuses although every file is well formed:
// replicas that disagree, a recomputed task that differs, a sum unlike the published one.
var ErrRefused = errors.New("total refused")

// kindError is err marked as one of ErrInput or ErrRefused; its message is err's alone.
type kindError struct {
	kind, err error
}

func (e *kindError) Error() string   { return e.err.Error() }
func (e *kindError) Unwrap() []error { return []error{e.kind, e.err} }

func inputError(err error) error { return &kindError{ErrInput, err} }

func inputErrorf(format string, args ...any) error {
	return inputError(fmt.Errorf(format, args...))
}

func refusedErrorf(format string, args ...any) error {
	return &kindError{ErrRefused, fmt.Errorf(format, args...)}
}
