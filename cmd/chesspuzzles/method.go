package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"math"
	"runtime/debug"
	"strings"

	"github.com/chesspuzzles/chesspuzzles/queens"
	"github.com/chesspuzzles/chesspuzzles/queens/count"
	"github.com/chesspuzzles/chesspuzzles/queens/count/frames"
	"github.com/chesspuzzles/chesspuzzles/queens/count/join"
	"github.com/spf13/cobra"
)

// methodOptions are the flags that choose how "queens count" counts.
type methodOptions struct {
	method      string // auto, join or frames
	maxMemory   string // --max-memory as given; "" means half the machine's memory
	planVersion int    // --plan-version; 0 means the method's default for N
}

// addMethodFlags adds --method and --max-memory to cmd.
func addMethodFlags(cmd *cobra.Command, o *methodOptions) {
	f := cmd.Flags()
	f.StringVar(&o.method, "method", "auto", "`METHOD` of counting: join (half-boards joined from a quarter-board table, N from 4 to 29), frames (border queens + search: any N, tiny memory), or auto (whichever the measured cost model says is faster at N, within --max-memory; \"queens plan N\" shows it)")
	f.StringVar(&o.maxMemory, "max-memory", "", "memory the count may use, e.g. 512MiB or 8GB (default: half the machine's memory)")
	f.IntVar(&o.planVersion, "plan-version", 0, fmt.Sprintf("plan `VERSION`: frames %d (a task per border frame) or %d (big frames split to about a core-hour; the default from N=%d), join %d or %d (tasks made on demand; the default from N=%d)", frames.PlanVersion, frames.FinePlanVersion, frames.FineFromN, join.PlanVersion, join.DemandPlanVersion, join.DemandFromN))
}

// minMaxMemory is the smallest --max-memory accepted: below it not even the frames
// method's plan and buffers fit.
const minMaxMemory = 16 << 20

// parseMemory reads --max-memory for a count: a size (parseSize) of at least minMaxMemory.
func parseMemory(s string) (uint64, error) {
	v, err := parseSize(s)
	if err != nil || v < minMaxMemory {
		return 0, usageErrorf("--max-memory must be a size from 16MiB up, such as 512MiB or 8GB, got %q", s)
	}
	return v, nil
}

// memoryLimit returns --max-memory, or half the machine's memory (4 GiB if unknown).
func (o *methodOptions) memoryLimit() (uint64, error) {
	if o.maxMemory != "" {
		return parseMemory(o.maxMemory)
	}
	return halfMemory(), nil
}

// validate checks --method and --max-memory whatever N is.
func (o *methodOptions) validate() error {
	switch o.method {
	case "auto", count.MethodJoin, count.MethodFrames:
	default:
		return usageErrorf("--method must be auto, join or frames, got %q", o.method)
	}
	if o.planVersion != 0 {
		// N = 12 is a board that every plan version plans: only the version is checked.
		if _, err := queens.NewPlan(12, "", o.planVersion); err != nil {
			return usageErrorf("--plan-version: %v", err)
		}
	}
	_, err := o.memoryLimit()
	return err
}

// plan decides, once, how a count of n is made on workers goroutines (0: its tasks run
// elsewhere, slices or NATS workers, where auto takes frames): queens.Choose from
// --method, --plan-version and --max-memory gives the plan (not yet built: Build it to
// count), its memory and the cost model. Where it takes the join it sets the process's Go
// memory limit to --max-memory, which the join keeps its table within.
func (o *methodOptions) plan(n, workers int) (queens.Choice, error) {
	limit, err := o.memoryLimit()
	if err != nil {
		return queens.Choice{}, err
	}
	c, err := queens.Choose(n, queens.PlanOptions{Method: o.method, Version: o.planVersion, Workers: workers, MaxMemory: limit})
	var me *queens.MemoryError
	switch {
	case errors.Is(err, queens.ErrPlanVersion):
		return c, usageErrorf("--plan-version: %s", strings.TrimPrefix(err.Error(), queens.ErrPlanVersion.Error()+": "))
	case errors.As(err, &me):
		return c, usageErrorf("--method join for N=%d needs %s on %s, more than --max-memory %s allows; raise --max-memory, use fewer --workers or --method frames",
			n, humanBytes(me.Need), plural(uint64(max(workers, 1)), "worker", "workers"), humanBytes(limit))
	case err != nil && o.method == count.MethodJoin:
		return c, usageErrorf("--method join counts N from %d to %d, got %d; use --method frames", join.MinN, join.MaxN, n)
	case err != nil:
		return c, usageErrorf("--method must be auto, join or frames, got %q", o.method)
	}
	if c.Plan.Method() == count.MethodJoin {
		debug.SetMemoryLimit(int64(min(limit, math.MaxInt64)))
	}
	return c, nil
}

// newMethodPlan returns the plan of n by method with plan version v (0: the method's
// default for n), its tasks built: the plan a shard file or a merge names, not one to
// choose (that is methodOptions.plan). A fine plan of version 2 is held compactly (about
// 27 bytes a task, 290 MB for the 1.1·10⁷ tasks of N = 27); it returns ctx.Err() within
// milliseconds of ctx's end (the build takes seconds to minutes from N = 26).
func newMethodPlan(ctx context.Context, n int, method string, v int) (count.Plan, error) {
	p, err := queens.NewPlan(n, method, v)
	if err != nil {
		return nil, usageErrorf("--plan-version: %v", err)
	}
	if err := p.Build(ctx); err != nil {
		return nil, err
	}
	return p, nil
}

// describeMethod writes the line "count" prints before starting: the method and its memory.
func describeMethod(w io.Writer, plan count.Plan, workers int, limit uint64) {
	if plan.Method() == count.MethodJoin {
		need, _ := plan.Memory(workers, limit)
		whole, _ := plan.Memory(workers, 0)
		how := fmt.Sprintf("quarter table shared by %s", plural(uint64(workers), "worker", "workers"))
		if need < whole {
			how = fmt.Sprintf("the rows of its quarter table that the tasks read, within --max-memory; %s with the whole table", humanBytes(whole))
		}
		fmt.Fprintf(w, "N=%d: method join, plan version %d, memory about %s (%s)\n", plan.N(), plan.Version(), humanBytes(need), how)
		return
	}
	fmt.Fprintf(w, "N=%d: method frames, plan version %d, memory under 1 MB a worker\n", plan.N(), plan.Version())
}
