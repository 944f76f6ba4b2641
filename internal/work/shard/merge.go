package shard

import (
	"context"
	"fmt"
	"math/rand/v2"
	"os"
	"slices"
	"strings"

	"github.com/chesspuzzles/chesspuzzles/internal/work"
	"github.com/chesspuzzles/chesspuzzles/queens"
	"github.com/chesspuzzles/chesspuzzles/queens/count"
)

// MergeOptions say how Merge checks the files beyond their form.
type MergeOptions struct {
	// Replicas is how many times every slice must be given, each from another run; a
	// task whose results differ between replicas refuses the total. 1 to MaxReplicas.
	Replicas int
	// Verify is the share of tasks, from 0 to 1, recomputed here, chosen at random (at
	// least one task unless 0); a task whose recomputed result differs refuses the total.
	Verify float64
}

// MaxReplicas is the most replicas Merge takes of a slice.
const MaxReplicas = 16

// named is a shard file with the name it was read from.
type named struct {
	name string
	f    File
}

// Merge reads the shard files names and returns the counts of the plan they make up, with
// the slices' wall times added up. It refuses (ErrInput) files that are not exactly one
// complete plan of this build, given Replicas times: a missing slice, a slice given too
// often or too seldom, a slice of another N, K, method or plan version, a file whose tasks
// are not its slice's, whose checksum does not match, whose totals are not the sums of its
// tasks' results, or with a task result impossible for its task (count.Check); and, with
// replicas, a file without a run identity or two files of one run (a copy is not a
// replica). It refuses the total (ErrRefused) when replicas disagree on a task, a recomputed task differs, or
// the sum disagrees with the published count.
//
// Merge takes the time of reading the files, building the plan, and recomputing the
// verified share of the tasks on all cores; it holds every file's results in memory.
func Merge(ctx context.Context, names []string, opts MergeOptions) (count.Counts, float64, error) {
	if !(opts.Verify >= 0 && opts.Verify <= 1) {
		return count.Counts{}, 0, inputErrorf("--verify must be a fraction from 0 to 1, got %v", opts.Verify)
	}
	if opts.Replicas < 1 || opts.Replicas > MaxReplicas {
		return count.Counts{}, 0, inputErrorf("--replicas must be a whole number from 1 to %d, got %d", MaxReplicas, opts.Replicas)
	}
	if len(names) == 0 {
		return count.Counts{}, 0, inputErrorf("no shard files given")
	}
	var shards []named
	var read int64
	for i, name := range names {
		for _, other := range names[:i] {
			if opts.Replicas > 1 && sameFile(name, other) {
				return count.Counts{}, 0, inputErrorf("%q and %q are the same file: give each slice's file once (with --replicas, one file of each independent run)", other, name)
			}
		}
		s, size, err := ReadFile(ctx, name, min(MaxFileBytes, MaxBytes-read))
		if err != nil {
			return count.Counts{}, 0, err
		}
		read += size
		if s.Checksum == "" {
			return count.Counts{}, 0, inputErrorf("%q has no checksum: compute the slice again with this build", name)
		}
		if s.Checksum != Sum(s) {
			return count.Counts{}, 0, inputErrorf("%q does not match its checksum: it was changed after \"queens count --shard\" wrote it", name)
		}
		shards = append(shards, named{name, s})
	}
	byIndex, err := complete(shards, opts.Replicas)
	if err != nil {
		return count.Counts{}, 0, err
	}

	first := shards[0].f
	plan, err := queens.NewPlan(first.N, MethodName(first.Method), first.PlanVersion)
	if err != nil {
		return count.Counts{}, 0, inputError(err)
	}
	if err := plan.Build(ctx); err != nil {
		return count.Counts{}, 0, err
	}
	// Memory beyond the files read: a tally of the plan's size, and the results of one
	// slice at a time while its replicas are compared; no copy of every result, no map of
	// every task.
	tally := count.NewTally(plan)
	var firsts []named // the first file of each slice, whose results are summed
	at := map[string]int{}
	secs := 0.0
	for i, sf := range shards {
		f := sf.f
		at[sf.name] = i
		if err := checkTasks(plan, sf.name, f); err != nil {
			return count.Counts{}, 0, err
		}
		if first := byIndex[f.Shard][0]; first != sf.name {
			// Another replica of a slice already read: every task must agree.
			want := make(map[int]count.Result, len(f.Results))
			for _, q := range shards[at[first]].f.Results {
				want[q.ID] = q
			}
			for _, r := range f.Results {
				if q := want[r.ID]; q != r {
					return count.Counts{}, 0, refusedErrorf("slice %d/%d: %q and %q disagree on task %d: %d solutions (%d, %d fixed by turns, %d nodes) against %d (%d, %d, %d nodes); the total is refused",
						f.Shard, f.Shards, first, sf.name, r.ID, q.Solutions, q.HalfTurn, q.QuarterTurn, q.Nodes, r.Solutions, r.HalfTurn, r.QuarterTurn, r.Nodes)
				}
			}
			shards[i].f.Results = nil // compared: not needed again
			continue
		}
		secs += f.Seconds
		if err := tally.AddAll(f.Results); err != nil {
			return count.Counts{}, 0, inputErrorf("%q: %v", sf.name, err)
		}
		firsts = append(firsts, sf)
	}
	if err := verify(ctx, plan, firsts, opts.Verify); err != nil {
		return count.Counts{}, 0, err
	}
	counts, err := tally.Final()
	if err != nil {
		// Every task is there once with a possible result: what is left to refuse is a
		// sum unlike the published count, a wrong result no other check caught.
		return count.Counts{}, 0, &kindError{ErrRefused, err}
	}
	return counts, secs, nil
}

// complete checks that shards are slices of one plan, each given replicas times (with
// more than one, each replica from another run: a run identity is in one file only), and
// returns the names of each slice's files by slice index. The first file's plan must be
// one this build makes.
func complete(shards []named, replicas int) ([][]string, error) {
	first := shards[0]
	if _, err := queens.NewPlan(first.f.N, MethodName(first.f.Method), first.f.PlanVersion); err != nil {
		return nil, inputErrorf("%q: a slice this build cannot plan: %v", first.name, err)
	}
	byIndex := make([][]string, first.f.Shards)
	runs := map[string]string{} // run identity → the file that has it
	for _, sf := range shards {
		s := sf.f
		switch {
		case s.Method != first.f.Method:
			return nil, inputErrorf("%q is a slice of a count by method %s, but %q is by method %s", sf.name, MethodName(s.Method), first.name, MethodName(first.f.Method))
		case s.N != first.f.N || s.PlanVersion != first.f.PlanVersion:
			return nil, inputErrorf("%q is a slice of N=%d with plan version %d, but %q is of N=%d with plan version %d",
				sf.name, s.N, s.PlanVersion, first.name, first.f.N, first.f.PlanVersion)
		case s.Shards != first.f.Shards:
			return nil, inputErrorf("%q is slice %d/%d, but %q is one of %d slices", sf.name, s.Shard, s.Shards, first.name, first.f.Shards)
		case s.Shard < 0 || s.Shard >= s.Shards:
			return nil, inputErrorf("%q names slice %d/%d, which does not exist", sf.name, s.Shard, s.Shards)
		case len(byIndex[s.Shard]) == replicas && replicas == 1:
			return nil, inputErrorf("slice %d/%d given twice: %q and %q", s.Shard, s.Shards, byIndex[s.Shard][0], sf.name)
		case len(byIndex[s.Shard]) == replicas:
			return nil, inputErrorf("slice %d/%d given %d times (%s), but --replicas %d wants it %d times", s.Shard, s.Shards, replicas+1, quoteList(append(byIndex[s.Shard], sf.name)), replicas, replicas)
		}
		if replicas > 1 {
			if s.Run == "" {
				return nil, inputErrorf("%q has no run identity, so it cannot count as a replica: compute slice %d/%d again with this build", sf.name, s.Shard, s.Shards)
			}
			if other, ok := runs[s.Run]; ok {
				return nil, inputErrorf("%q and %q come from one run (%s): a copy is not a replica; give slice %d/%d's file of another run", other, sf.name, s.Run, s.Shard, s.Shards)
			}
			runs[s.Run] = sf.name
		}
		byIndex[s.Shard] = append(byIndex[s.Shard], sf.name)
	}
	var missing []string
	for i, names := range byIndex {
		switch {
		case len(names) == 0:
			missing = append(missing, fmt.Sprintf("%d/%d", i, first.f.Shards))
		case len(names) < replicas:
			return nil, inputErrorf("slice %d/%d is given %d times (%s), but --replicas %d wants %d independent runs of it", i, first.f.Shards, len(names), quoteList(names), replicas, replicas)
		}
	}
	switch {
	case len(missing) == 1:
		return nil, inputErrorf("slice %s of N=%d is missing: compute it with \"queens count %d --shard %s\"", missing[0], first.f.N, first.f.N, missing[0])
	case len(missing) > 1:
		return nil, inputErrorf("slices %s of N=%d are missing: compute them with \"queens count %d --shard I/%d\"", strings.Join(missing, ", "), first.f.N, first.f.N, first.f.Shards)
	}
	return byIndex, nil
}

// checkTasks checks that the file name holds the tasks of its slice of plan, each result
// possible for its task, and totals that are the sums of its results.
func checkTasks(plan count.Plan, name string, f File) error {
	want, err := count.Shard(plan, f.Shard, f.Shards)
	if err != nil {
		return inputError(err)
	}
	got := make([]int, len(f.Results))
	for j, r := range f.Results {
		got[j] = r.ID
	}
	slices.Sort(want)
	slices.Sort(got)
	if !slices.Equal(got, want) {
		return inputErrorf("%q does not hold the tasks of slice %d/%d of N=%d", name, f.Shard, f.Shards, f.N)
	}
	for _, r := range f.Results {
		if err := count.Check(plan, r); err != nil {
			return inputErrorf("%q: %v", name, err)
		}
	}
	sum, err := work.Sum(plan, f.Results)
	if err != nil {
		return inputErrorf("%q: %v", name, err)
	}
	sol, half, quarter, nodes := sum.Counts.Total.String(), sum.Counts.HalfTurn.String(), sum.Counts.QuarterTurn.String(), sum.Nodes
	if f.Tasks != len(f.Results) || f.Solutions != sol || f.HalfTurn != half || f.QuarterTurn != quarter || f.Nodes != nodes {
		return inputErrorf("%q says %d tasks with %s solutions (%s, %s fixed by turns) and %d nodes, but its tasks sum to %d, %s (%s, %s), %d",
			name, f.Tasks, f.Solutions, f.HalfTurn, f.QuarterTurn, f.Nodes, len(f.Results), sol, half, quarter, nodes)
	}
	return nil
}

// verify recomputes the share f of the results in files (work.VerifySample), chosen at
// random, on all cores, and returns an ErrRefused naming the first task whose result
// differs, and its file. It takes those tasks' time, and memory for them alone.
func verify(ctx context.Context, plan count.Plan, files []named, f float64) error {
	total := 0
	for _, sf := range files {
		total += len(sf.f.Results)
	}
	k := work.VerifySample(f, total)
	if k == 0 {
		return nil
	}
	pick := sample(total, k)
	type where struct {
		file string
		r    count.Result
	}
	picked := make([]where, 0, k)
	ids := make([]int, 0, k)
	base := 0 // index of files[fi]'s first result among all
	fi := 0
	for _, i := range pick {
		for i >= base+len(files[fi].f.Results) {
			base += len(files[fi].f.Results)
			fi++
		}
		r := files[fi].f.Results[i-base]
		picked = append(picked, where{files[fi].name, r})
		ids = append(ids, r.ID)
	}
	res, err := work.Run(ctx, plan, work.Options{Tasks: ids})
	if err != nil {
		return err
	}
	again := res.Results
	for j, w := range picked {
		if r := w.r; r != again[j] {
			return refusedErrorf("task %d of N=%d in %q: the file says %d solutions (%d, %d fixed by turns, %d nodes), recomputed %d (%d, %d, %d nodes); the total is refused",
				r.ID, plan.N(), w.file, r.Solutions, r.HalfTurn, r.QuarterTurn, r.Nodes, again[j].Solutions, again[j].HalfTurn, again[j].QuarterTurn, again[j].Nodes)
		}
	}
	return nil
}

// sample returns k distinct integers from 0 to n-1, chosen uniformly at random, in
// ascending order (Floyd's algorithm: k draws and memory for k, not n).
func sample(n, k int) []int {
	chosen := make(map[int]bool, k)
	for j := n - k; j < n; j++ {
		t := rand.IntN(j + 1)
		if chosen[t] {
			t = j
		}
		chosen[t] = true
	}
	out := make([]int, 0, k)
	for i := range chosen {
		out = append(out, i)
	}
	slices.Sort(out)
	return out
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
