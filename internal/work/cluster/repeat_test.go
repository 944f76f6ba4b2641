package cluster

import (
	"context"
	"os"
	"testing"
	"time"

	"github.com/chesspuzzles/chesspuzzles/queens/count"
	"github.com/chesspuzzles/chesspuzzles/queens/count/frames"
)

// TestFinishedJobAgain: a job run to the end and counted again, with no worker, answers
// from what is stored: the exact total, no task assigned, none computed in the
// coordinator, nothing verified again. The first run's worker is one identity, so the
// coordinator verifies the sampled tasks itself: those second computations must be kept
// as the workers' are, with the snapshot and without it (a state whose snapshot was lost
// reads every result, and must not pick a new sample to verify).
func TestFinishedJobAgain(t *testing.T) {
	parallel(t)
	const n = 10
	want := known(t)[n]
	plan, err := newQueensPlan(n, count.MethodFrames, frames.PlanVersion)
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name     string
		snapshot bool
	}{
		{"snapshot kept", true},
		{"snapshot lost", false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
			defer cancel()
			log := &logger{t: t}
			opts := CountOptions{Listen: "127.0.0.1:0", StoreDir: dir, Workers: 1, Verify: 0.1, Logf: log.Logf}
			_, st, err := Count(ctx, plan, opts)
			if err != nil {
				t.Fatal(err)
			}
			if st.VerifiedHere == 0 || st.ComputedHere != st.VerifiedHere {
				t.Fatalf("first run: %d verified here, %d computed here; want some verified here (one identity), each computed once", st.VerifiedHere, st.ComputedHere)
			}
			if !tc.snapshot {
				if err := os.Remove(snapshotPath(dir, plan.Job())); err != nil {
					t.Fatal(err)
				}
			}
			opts.Workers = 0
			c, st2, err := Count(ctx, plan, opts)
			if err != nil {
				t.Fatalf("second run: %v", err)
			}
			if c.Total.String() != want[0] || unique(plan, c).String() != want[1] {
				t.Errorf("second run: Q(%d) = %v, U = %v; want %s, %s", n, c.Total, unique(plan, c), want[0], want[1])
			}
			if st2.Resumed != plan.Len() || st2.Queued != 0 || st2.ComputedHere != 0 || st2.VerifiedHere != 0 {
				t.Errorf("second run: %d of %d tasks resumed, %d assigned, %d computed here, %d verified here; want all resumed, none assigned or computed",
					st2.Resumed, plan.Len(), st2.Queued, st2.ComputedHere, st2.VerifiedHere)
			}
			if st2.Verified != st.Verified {
				t.Errorf("second run says %d tasks verified, the first %d", st2.Verified, st.Verified)
			}
		})
	}
}
