package knight

import (
	"context"
	"testing"
)

// TestEstimateMeasured checks that a sweep short enough to run whole is reported as
// measured, with the peak states the count itself reports.
func TestEstimateMeasured(t *testing.T) {
	ctx := context.Background()
	opts := CountOptions{Closed: true, Method: MethodDP}
	est, err := estimate(ctx, 6, 6, opts, 0)
	if err != nil {
		t.Fatal(err)
	}
	peak := 0
	opts.Status = func(s CountStatus) { peak = max(peak, s.States) }
	if _, err := Count(ctx, 6, 6, opts); err != nil {
		t.Fatal(err)
	}
	if !est.Exact || est.Method != MethodDP || est.Cells != 36 || est.Measured != 36 || int(est.PeakStates) != peak || est.PeakBytes <= 0 || est.CPU <= 0 {
		t.Errorf("Estimate(6×6 closed, dp) = %+v; want exact, 36 cells, peak %d", est, peak)
	}
}

// TestEstimateExtrapolated checks 8×8 closed: only the first cells run, and the expected
// peak is not below what the plain sweep was measured to hold after cell 37 (159 million
// states, bench/README.md), nor its memory below that of the run store at the 3.8 bytes a
// state measured on 7×8's largest layers. The budget is of states
// only, so that the cells measured do not depend on the machine's speed.
func TestEstimateExtrapolated(t *testing.T) {
	est, err := estimate(context.Background(), 8, 8, CountOptions{Closed: true, Method: MethodDP}, 0)
	if err != nil {
		t.Fatal(err)
	}
	if est.Exact || est.Measured >= est.Cells || est.Cells != 64 || est.PeakStates < 159e6 || float64(est.PeakBytes) < 3.8*est.PeakStates {
		t.Errorf("Estimate(8×8 closed) = %+v; want extrapolated, peak ≥ 159 million states, ≥ 3.8 bytes a state", est)
	}
}

// TestEstimateOther checks the search method's answer, a board without closed tours and
// bad input.
func TestEstimateOther(t *testing.T) {
	ctx := context.Background()
	est, err := Estimate(ctx, 5, 5, CountOptions{})
	if err != nil || est.Method != MethodSearch || est.Cells != 0 || est.How == "" {
		t.Errorf("Estimate(5×5 open) = %+v, %v; want the search method, no cells", est, err)
	}
	est, err = Estimate(ctx, 7, 7, CountOptions{Closed: true, Method: MethodDP})
	if err != nil || !est.Exact || est.PeakStates != 0 {
		t.Errorf("Estimate(7×7 closed) = %+v, %v; want exact, no states", est, err)
	}
	for _, tt := range []struct {
		rows, cols int
		opts       CountOptions
	}{{0, 3, CountOptions{}}, {6, 6, CountOptions{Method: MethodJoin}}, {9, 9, CountOptions{Method: MethodDP}}, {5, 5, CountOptions{Method: "x"}}} {
		if _, err := Estimate(ctx, tt.rows, tt.cols, tt.opts); err == nil {
			t.Errorf("Estimate(%d×%d, %+v) = nil error, want one", tt.rows, tt.cols, tt.opts)
		}
	}
}
