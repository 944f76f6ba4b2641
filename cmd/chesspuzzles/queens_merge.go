package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"slices"
	"strings"

	"github.com/chesspuzzles/chesspuzzles/queens"
	"github.com/spf13/cobra"
)

type queensMergeOptions struct {
	files []string
	json  bool
}

func newQueensMergeCmd() *cobra.Command {
	var opts queensMergeOptions
	cmd := &cobra.Command{
		Use:   "merge FILE...",
		Short: "Sum the results of 'queens count N --shard I/K' into the exact count",
		Long: `Merge sums the JSON results that "queens count N --shard I/K" printed for
I = 0…K-1 into the exact count of N, as "queens count N" prints it (with --json, "seconds"
is the slices' wall times added up).

It refuses (exit 2) a set of files that is not exactly one complete plan of this build:
a missing slice, a slice given twice, a slice of another N, of another K or of another
plan version, or a file whose tasks are not the ones its slice holds.

  chesspuzzles queens count 18 --shard 0/3 > s0.json   # on any machine
  chesspuzzles queens count 18 --shard 1/3 > s1.json
  chesspuzzles queens count 18 --shard 2/3 > s2.json
  chesspuzzles queens merge s*.json`,
		Args: cobra.MinimumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			opts.files = args
			return runQueensMerge(cmd.Context(), opts, cmd.OutOrStdout())
		},
	}
	cmd.Flags().BoolVar(&opts.json, "json", false, "print the counts as one JSON object")
	return cmd
}

func runQueensMerge(_ context.Context, opts queensMergeOptions, stdout io.Writer) error {
	type shardFile struct {
		name string
		s    shardResult
	}
	var shards []shardFile
	for _, name := range opts.files {
		data, err := os.ReadFile(name)
		if err != nil {
			return usageError(fmt.Errorf("reading shard result: %w", err))
		}
		var s shardResult
		dec := json.NewDecoder(bytes.NewReader(data))
		dec.DisallowUnknownFields()
		if err := dec.Decode(&s); err != nil || s.Shards < 1 || s.N < 1 {
			return usageErrorf("%q is not the output of \"queens count N --shard I/K\"", name)
		}
		shards = append(shards, shardFile{name, s})
	}
	first := shards[0]
	method, version := queens.MethodFrames, queens.PlanVersion
	switch first.s.Method {
	case "":
	case queens.MethodJoin:
		method, version = queens.MethodJoin, queens.JoinPlanVersion
	default:
		return usageErrorf("%q is a slice of a count by method %q, which this build does not know", first.name, first.s.Method)
	}
	if first.s.PlanVersion != version {
		by := ""
		if method != queens.MethodFrames {
			by = " by method " + method
		}
		return usageErrorf("%q has plan version %d, but this build counts%s with plan version %d", first.name, first.s.PlanVersion, by, version)
	}
	byIndex := make([]string, first.s.Shards)
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
		case byIndex[s.Shard] != "":
			return usageErrorf("slice %d/%d given twice: %q and %q", s.Shard, s.Shards, byIndex[s.Shard], f.name)
		}
		byIndex[s.Shard] = f.name
	}
	var missing []string
	for i, name := range byIndex {
		if name == "" {
			missing = append(missing, fmt.Sprintf("%d/%d", i, first.s.Shards))
		}
	}
	switch {
	case len(missing) == 1:
		return usageErrorf("slice %s of N=%d is missing: compute it with \"queens count %d --shard %s\"", missing[0], first.s.N, first.s.N, missing[0])
	case len(missing) > 1:
		return usageErrorf("slices %s of N=%d are missing: compute them with \"queens count %d --shard I/%d\"", strings.Join(missing, ", "), first.s.N, first.s.N, first.s.Shards)
	}

	plan, err := newMethodPlan(first.s.N, method)
	if err != nil {
		return usageError(err)
	}
	var all []queens.TaskResult
	secs := 0.0
	for _, f := range shards {
		secs += f.s.Seconds
		tasks, err := plan.Shard(f.s.Shard, f.s.Shards)
		if err != nil {
			return usageError(err)
		}
		want := make([]int, len(tasks))
		for j, t := range tasks {
			want[j] = t.ID
		}
		got := make([]int, len(f.s.Results))
		for j, r := range f.s.Results {
			got[j] = r.ID
		}
		slices.Sort(want)
		slices.Sort(got)
		if !slices.Equal(got, want) {
			return usageErrorf("%q does not hold the tasks of slice %d/%d of N=%d", f.name, f.s.Shard, f.s.Shards, f.s.N)
		}
		all = append(all, f.s.Results...)
	}
	counts, err := plan.Sum(all)
	if err != nil {
		return usageError(err)
	}
	return printCounts(stdout, counts, opts.json, secs)
}

// methodName names a shard file's method.
func methodName(m string) string {
	if m == "" {
		return queens.MethodFrames
	}
	return m
}
