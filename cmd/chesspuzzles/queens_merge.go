package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"slices"
	"strings"

	"github.com/chesspuzzles/chesspuzzles/internal/work"
	"github.com/chesspuzzles/chesspuzzles/internal/work/dist"
	"github.com/chesspuzzles/chesspuzzles/queens"
	"github.com/chesspuzzles/chesspuzzles/queens/count"
	"github.com/spf13/cobra"
)

func newQueensMergeCmd() *cobra.Command {
	return command(&cobra.Command{
		Use:   "merge FILE...",
		Short: "Sum the results of 'queens count N --shard I/K' into the exact count",
		Long: `Merge sums the JSON results that "queens count N --shard I/K" printed for
I = 0…K-1 into the exact count of N, as "queens count N" prints it (with --json, "seconds"
is the slices' wall times added up).

It refuses (exit 2) a set of files that is not exactly one complete plan of this build:
a missing slice, a slice given twice, a slice of another N, of another K or of another
plan version, or a file whose tasks are not the ones its slice holds. It refuses as well
a file changed since it was written: one whose checksum does not match its content, with
data after its JSON object, whose totals are not the sums of its tasks' results, or with a
task result impossible for its task (see count.Plan.CheckResult).

What a checksum proves: the SHA-256 in each file finds accidents (a cut copy, a flipped
bit, a hand edit that forgot it); it is no signature, since anyone can compute it again
for an edited file. So it does not prove that the file is what "queens count --shard"
computed: a forged file with its checksum recomputed passes it. What catches a forgery is
the task checks above (a result impossible for its task) and recomputation.

A lie that keeps to all of these (a consistent file written by a broken or dishonest
machine) is found by recomputation: --verify FRACTION recomputes that share of the tasks,
chosen at random, on this machine (at least one task unless FRACTION is 0), and refuses
the total (exit 1, naming the task) if any differs. --verify 1 recomputes everything.

--replicas R wants every slice computed R times, independently (on machines, accounts or
sites that do not trust one another), and given R times: merge refuses (exit 1, naming
the slice and the task) any task whose R results are not all equal, so one dishonest
replica cannot change the total unless the others lie the same way. merge cannot see
that the runs were independent; that is for whoever schedules them. The same file given
twice is refused.

  chesspuzzles queens count 18 --shard 0/3 > s0.json   # on any machine
  chesspuzzles queens count 18 --shard 1/3 > s1.json
  chesspuzzles queens count 18 --shard 2/3 > s2.json
  chesspuzzles queens merge s*.json
  chesspuzzles queens merge --replicas 2 siteA/s*.json siteB/s*.json`,
		Args: cobra.MinimumNArgs(1),
	}, func(cmd *cobra.Command, opts *queensMergeOptions) {
		cmd.Flags().BoolVar(&opts.json, "json", false, "print the counts as one JSON object")
		cmd.Flags().IntVar(&opts.replicas, "replicas", 1, "want every slice `R` times, from independent runs, and refuse any task whose results differ")
		cmd.Flags().Float64Var(&opts.verify, "verify", defaultVerify, "recompute this `FRACTION` of the tasks, chosen at random, and refuse the total if any differs (0: none)")
	}, func(cmd *cobra.Command, opts *queensMergeOptions, args []string) error {
		opts.files = args
		return runQueensMerge(cmd.Context(), *opts, cmd.OutOrStdout())
	})
}

// queensMergeOptions are the options of "queens merge".
type queensMergeOptions struct {
	files    []string
	json     bool
	verify   float64
	replicas int
}

// maxShardBytes bounds what merge reads, all files together: a shard file holds a JSON
// result of about 200 bytes per task, and no plan of this build has near five million
// tasks.
const maxShardBytes = 1 << 30

func runQueensMerge(ctx context.Context, opts queensMergeOptions, stdout io.Writer) error {
	if err := checkVerify(opts.verify); err != nil {
		return err
	}
	type shardFile struct {
		name string
		s    shardResult
	}
	if opts.replicas < 1 || opts.replicas > 16 {
		return usageErrorf("--replicas must be a whole number from 1 to 16, got %d", opts.replicas)
	}
	var shards []shardFile
	var read int64
	for i, name := range opts.files {
		for _, other := range opts.files[:i] {
			if opts.replicas > 1 && sameFile(name, other) {
				return usageErrorf("%q and %q are the same file: give each slice's file once (with --replicas, one file of each independent run)", other, name)
			}
		}
		s, size, err := readShard(ctx, name, maxShardBytes-read)
		if err != nil {
			return err
		}
		read += size
		if s.Checksum == "" {
			return usageErrorf("%q has no checksum: compute the slice again with this build", name)
		}
		if s.Checksum != shardChecksum(s) {
			return usageErrorf("%q does not match its checksum: it was changed after \"queens count --shard\" wrote it", name)
		}
		shards = append(shards, shardFile{name, s})
	}
	first := shards[0]
	method, version := methodName(first.s.Method), first.s.PlanVersion
	if _, err := queens.NewPlan(first.s.N, method, version); err != nil {
		return usageErrorf("%q: a slice this build cannot plan: %v", first.name, err)
	}
	byIndex := make([][]string, first.s.Shards)
	for _, f := range shards {
		s := f.s
		switch {
		case s.Method != first.s.Method:
			return usageErrorf("%q is a slice of a count by method %s, but %q is by method %s", f.name, methodName(s.Method), first.name, methodName(first.s.Method))
		case s.N != first.s.N || s.PlanVersion != first.s.PlanVersion:
			return usageErrorf("%q is a slice of N=%d with plan version %d, but %q is of N=%d with plan version %d",
				f.name, s.N, s.PlanVersion, first.name, first.s.N, first.s.PlanVersion)
		case s.Shards != first.s.Shards:
			return usageErrorf("%q is slice %d/%d, but %q is one of %d slices", f.name, s.Shard, s.Shards, first.name, first.s.Shards)
		case s.Shard < 0 || s.Shard >= s.Shards:
			return usageErrorf("%q names slice %d/%d, which does not exist", f.name, s.Shard, s.Shards)
		case len(byIndex[s.Shard]) == opts.replicas && opts.replicas == 1:
			return usageErrorf("slice %d/%d given twice: %q and %q", s.Shard, s.Shards, byIndex[s.Shard][0], f.name)
		case len(byIndex[s.Shard]) == opts.replicas:
			return usageErrorf("slice %d/%d given %d times (%s), but --replicas %d wants it %d times", s.Shard, s.Shards, opts.replicas+1, quoteList(append(byIndex[s.Shard], f.name)), opts.replicas, opts.replicas)
		}
		byIndex[s.Shard] = append(byIndex[s.Shard], f.name)
	}
	var missing []string
	for i, names := range byIndex {
		switch {
		case len(names) == 0:
			missing = append(missing, fmt.Sprintf("%d/%d", i, first.s.Shards))
		case len(names) < opts.replicas:
			return usageErrorf("slice %d/%d is given %d times (%s), but --replicas %d wants %d independent runs of it", i, first.s.Shards, len(names), quoteList(names), opts.replicas, opts.replicas)
		}
	}
	switch {
	case len(missing) == 1:
		return usageErrorf("slice %s of N=%d is missing: compute it with \"queens count %d --shard %s\"", missing[0], first.s.N, first.s.N, missing[0])
	case len(missing) > 1:
		return usageErrorf("slices %s of N=%d are missing: compute them with \"queens count %d --shard I/%d\"", strings.Join(missing, ", "), first.s.N, first.s.N, first.s.Shards)
	}

	plan, err := newMethodPlan(ctx, first.s.N, method, version)
	if err != nil {
		return err
	}
	var all []count.Result
	from := map[int]string{}          // task id → file
	replica := map[int]count.Result{} // task id → the first replica's result
	secs := 0.0
	for _, f := range shards {
		tasks, err := count.Shard(plan, f.s.Shard, f.s.Shards)
		if err != nil {
			return usageError(err)
		}
		want := tasks
		got := make([]int, len(f.s.Results))
		for j, r := range f.s.Results {
			got[j] = r.ID
		}
		slices.Sort(want)
		slices.Sort(got)
		if !slices.Equal(got, want) {
			return usageErrorf("%q does not hold the tasks of slice %d/%d of N=%d", f.name, f.s.Shard, f.s.Shards, f.s.N)
		}
		for _, r := range f.s.Results {
			if err := count.Check(plan, r); err != nil {
				return usageErrorf("%q: %v", f.name, err)
			}
		}
		sum, err := work.Sum(plan, f.s.Results)
		if err != nil {
			return usageErrorf("%q: %v", f.name, err)
		}
		sol, half, quarter, nodes := sum.Counts.Total.String(), sum.Counts.HalfTurn.String(), sum.Counts.QuarterTurn.String(), sum.Nodes
		if f.s.Tasks != len(f.s.Results) || f.s.Solutions != sol || f.s.HalfTurn != half || f.s.QuarterTurn != quarter || f.s.Nodes != nodes {
			return usageErrorf("%q says %d tasks with %s solutions (%s, %s fixed by turns) and %d nodes, but its tasks sum to %d, %s (%s, %s), %d",
				f.name, f.s.Tasks, f.s.Solutions, f.s.HalfTurn, f.s.QuarterTurn, f.s.Nodes, len(f.s.Results), sol, half, quarter, nodes)
		}
		if byIndex[f.s.Shard][0] != f.name {
			// Another replica of a slice already read: every task must agree.
			for _, r := range f.s.Results {
				if q := replica[r.ID]; q != r {
					return answerNo(fmt.Errorf("slice %d/%d: %q and %q disagree on task %d: %d solutions (%d, %d fixed by turns, %d nodes) against %d (%d, %d, %d nodes); the total is refused",
						f.s.Shard, f.s.Shards, from[r.ID], f.name, r.ID, q.Solutions, q.HalfTurn, q.QuarterTurn, q.Nodes, r.Solutions, r.HalfTurn, r.QuarterTurn, r.Nodes))
				}
			}
			continue
		}
		secs += f.s.Seconds
		for _, r := range f.s.Results {
			from[r.ID] = f.name
			replica[r.ID] = r
		}
		all = append(all, f.s.Results...)
	}
	if err := verifyResults(ctx, plan, all, dist.VerifySample(opts.verify, len(all)), from); err != nil {
		return err
	}
	counts, err := count.Sum(plan, all)
	if err != nil {
		return usageError(err)
	}
	return printCounts(stdout, counts, opts.json, secs)
}

// verifyResults recomputes k of the results, chosen at random, on all cores, and returns an
// error (exit 1) naming the first task whose result differs; from names each task's file.
// It takes k tasks' time.
func verifyResults(ctx context.Context, plan count.Plan, results []count.Result, k int, from map[int]string) error {
	if k == 0 {
		return nil
	}
	pick := rand.Perm(len(results))[:k]
	slices.Sort(pick)
	ids := make([]int, k)
	for j, i := range pick {
		ids[j] = results[i].ID
	}
	res, err := work.Run(ctx, plan, work.Options{Tasks: ids})
	if err != nil {
		return err
	}
	again := res.Results
	for j, i := range pick {
		if r := results[i]; r != again[j] {
			return answerNo(fmt.Errorf("task %d of N=%d in %q: the file says %d solutions (%d, %d fixed by turns, %d nodes), recomputed %d (%d, %d, %d nodes); the total is refused",
				r.ID, plan.N(), from[r.ID], r.Solutions, r.HalfTurn, r.QuarterTurn, r.Nodes, again[j].Solutions, again[j].HalfTurn, again[j].QuarterTurn, again[j].Nodes))
		}
	}
	return nil
}

// methodName names a shard file's method.
func methodName(m string) string {
	if m == "" {
		return count.MethodFrames
	}
	return m
}

// quoteList quotes each name and joins them with commas.
func quoteList(names []string) string {
	q := make([]string, len(names))
	for i, n := range names {
		q[i] = fmt.Sprintf("%q", n)
	}
	return strings.Join(q, ", ")
}

// sameFile reports whether the paths a and b name one file.
func sameFile(a, b string) bool {
	fa, err1 := os.Stat(a)
	fb, err2 := os.Stat(b)
	return err1 == nil && err2 == nil && os.SameFile(fa, fb)
}

// readShard decodes the shard file name, reading at most limit bytes, and returns it with
// the bytes it read. The JSON is decoded as it streams in, so an input that is no JSON
// (/dev/zero) is refused at its first byte; the open and the reads run aside, so Ctrl-C
// stops a read of a slow or endless pipe at once.
func readShard(ctx context.Context, name string, limit int64) (shardResult, int64, error) {
	var s shardResult
	var n int64
	err := aside(ctx, func() error {
		f, err := os.Open(name)
		if err != nil {
			return usageError(fmt.Errorf("reading shard result: %w", err))
		}
		defer f.Close()
		cr := &countingReader{r: io.LimitReader(f, limit+1)}
		dec := json.NewDecoder(cr)
		dec.DisallowUnknownFields()
		if err := dec.Decode(&s); err != nil || s.Shards < 1 || s.N < 1 {
			if cr.n > limit {
				return usageErrorf("%q is larger than %d bytes, more than any slice's result", name, limit)
			}
			return usageErrorf("%q is not the output of \"queens count N --shard I/K\"", name)
		}
		at := dec.InputOffset()
		rest, err := io.ReadAll(io.LimitReader(io.MultiReader(dec.Buffered(), cr), 4096))
		if err != nil {
			return usageError(fmt.Errorf("reading shard result %q: %w", name, err))
		}
		if len(bytes.TrimSpace(rest)) > 0 {
			return usageErrorf("%q has data after its JSON object (at byte %d): a shard file holds one object", name, at)
		}
		n = cr.n
		return nil
	})
	if err != nil {
		return shardResult{}, 0, err // s may still be written to if ctx ended
	}
	return s, n, nil
}

// countingReader counts the bytes read through it.
type countingReader struct {
	r io.Reader
	n int64
}

func (c *countingReader) Read(p []byte) (int, error) {
	k, err := c.r.Read(p)
	c.n += int64(k)
	return k, err
}
