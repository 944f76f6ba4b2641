package queens

import (
	"context"
	"fmt"

	"github.com/chesspuzzles/chesspuzzles/queens/count"
	"github.com/chesspuzzles/chesspuzzles/queens/count/frames"
	"github.com/chesspuzzles/chesspuzzles/queens/count/join"
)

// MaxCountN is the largest N that Count accepts. Q(27) is the largest count known (2016);
// Q(32) would take a very large cluster, so 32 is far enough.
const MaxCountN = count.MaxN

// Counts holds exact solution counts for one board size: Q(N), U(N), P(N) and R(N).
type Counts = count.Counts

// MaxKnownN is the largest N whose solution counts are published: Q(27) was computed by
// the Q27 project at TU Dresden in 2016 (on FPGAs) and confirmed in 2025; Q(28) is unknown.
const MaxKnownN = count.MaxKnownN

// Known returns the published counts of the n×n board — Q(n), U(n), P(n) and R(n) — and
// true, for 1 ≤ n ≤ MaxKnownN; otherwise the zero Counts and false. They are facts from
// the literature (OEIS A000170, A002562, A032522, A033148), never this package's output.
// Each call returns fresh big.Ints, which the caller may change.
func Known(n int) (Counts, bool) { return count.Known(n) }

// CountOptions says how Count counts.
type CountOptions struct {
	// Method is "auto" (or ""), count.MethodFrames or count.MethodJoin (see ChooseMethod).
	Method string
	// MaxMemory is the memory the count may use, in bytes; 0 means no limit.
	MaxMemory uint64
}

// Count counts the solutions of the n×n board exactly, 1 ≤ n ≤ MaxCountN: the total, the
// fundamental ones, and those symmetric under a half and a quarter turn. It takes the
// method ChooseMethod takes for one worker, runs the tasks of its plan one after another
// on the calling goroutine (internal/work runs them on all cores, with checkpoints), and
// returns ctx.Err() if ctx is done first. The sum is checked against the published counts
// where they exist. It takes the plan's CoreSeconds: well under a second to n = 15, about
// 0.1 s for n = 16 by the join, 23 s for n = 19; memory is the plan's Memory (under 10 MB
// to n = 19).
func Count(ctx context.Context, n int, opts CountOptions) (Counts, error) {
	if n < 1 || n > MaxCountN {
		return Counts{}, fmt.Errorf("board size must be a whole number from 1 to %d, got %d", MaxCountN, n)
	}
	method := opts.Method
	if method == "" {
		method = "auto"
	}
	c, err := Choose(n, PlanOptions{Method: method, Workers: 1, MaxMemory: opts.MaxMemory})
	if err != nil {
		return Counts{}, err
	}
	return count.Here(ctx, c.Plan)
}

// NewPlan returns the plan of the n×n board by method (count.MethodFrames or
// count.MethodJoin; "" means the method that version names) with plan version v (0: the
// method's default for n: frames.PlanVersion below frames.FineFromN, the fine plan from
// there; join.DefaultVersion: join.PlanVersion, or join.DemandPlanVersion from
// join.DemandFromN). It is the one way the command, the runners and the
// benchmarks get a plan. It returns at once: a plan builds its task list on first use (see
// count.Plan), so a worker that only counts and checks tasks never builds it.
func NewPlan(n int, method string, v int) (count.Plan, error) {
	switch {
	case method == "" && (v == join.PlanVersion || v == join.DemandPlanVersion):
		method = count.MethodJoin
	case method == "" && (v == frames.PlanVersion || v == frames.FinePlanVersion):
		method = count.MethodFrames
	}
	switch method {
	case count.MethodFrames:
		switch v {
		case 0:
			v = frames.DefaultVersion(n)
		case frames.PlanVersion, frames.FinePlanVersion:
		default:
			return nil, fmt.Errorf("plan version of the frames method must be %d or %d, got %d", frames.PlanVersion, frames.FinePlanVersion, v)
		}
		return frames.New(n, v)
	case count.MethodJoin:
		if v != 0 && v != join.PlanVersion && v != join.DemandPlanVersion {
			return nil, fmt.Errorf("plan version of the join method must be %d or %d, got %d", join.PlanVersion, join.DemandPlanVersion, v)
		}
		return join.NewVersion(n, v)
	case "":
		return nil, fmt.Errorf("plan version %d is not one of this build (%d or %d frames, %d or %d join)", v, frames.PlanVersion, frames.FinePlanVersion, join.PlanVersion, join.DemandPlanVersion)
	}
	return nil, fmt.Errorf("method must be %s or %s, got %q", count.MethodJoin, count.MethodFrames, method)
}

// ChooseMethod returns the method a count of n uses on workers goroutines that may use
// limit bytes (0: no limit), given the method asked for: "auto" takes whichever the cost
// model (the plans' CoreSeconds) says is faster at n among the methods that fit limit
// (the plans' Memory); count.MethodFrames and count.MethodJoin are checked (the join
// counts N from join.MinN to join.MaxN, within limit). Workers ≤ 0 means the tasks
// run elsewhere (slices on a batch scheduler, NATS workers), on machines whose memory is
// not known here: auto then takes frames, which fit any machine, and the join is checked
// for one worker. It is the one place the method is decided: a plan, an estimate and a
// count of the same n with the same options take the same method. It costs nothing but
// arithmetic.
func ChooseMethod(n int, method string, workers int, limit uint64) (string, error) {
	jp, joinErr := join.New(n)
	fp, framesErr := frames.New(n, frames.DefaultVersion(n))
	return decide(n, method, workers, limit, jp, joinErr, fp, framesErr)
}

// decide is the choice of ChooseMethod and Choose between the join plan jp and the frames
// plan fp of n (with the errors of their constructors).
func decide(n int, method string, workers int, limit uint64, jp count.Plan, joinErr error, fp count.Plan, framesErr error) (string, error) {
	fits := false
	var need uint64
	if joinErr == nil {
		need, fits = jp.Memory(max(workers, 1), limit)
	}
	switch method {
	case count.MethodFrames:
		return count.MethodFrames, nil
	case "auto":
		if workers > 0 && fits && framesErr == nil && jp.CoreSeconds() < fp.CoreSeconds() {
			return count.MethodJoin, nil
		}
		return count.MethodFrames, nil
	case count.MethodJoin:
		if joinErr != nil {
			return "", fmt.Errorf("the join method counts N from %d to %d, got %d", join.MinN, join.MaxN, n)
		}
		if !fits {
			return "", &MemoryError{Need: need, Limit: limit}
		}
		return count.MethodJoin, nil
	}
	return "", fmt.Errorf("method must be auto, %s or %s, got %q", count.MethodJoin, count.MethodFrames, method)
}

// A MemoryError says that a count needs more memory than its limit allows.
type MemoryError struct {
	Need, Limit uint64
}

func (e *MemoryError) Error() string {
	return fmt.Sprintf("the count needs %d bytes, more than the limit of %d", e.Need, e.Limit)
}
