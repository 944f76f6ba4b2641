package main

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/chesspuzzles/chesspuzzles/queens/count/join"
)

// TestEstimateModelClass: beyond what it times (the join from N = 24), queens estimate
// reads the cost model of this processor's class, names it, and gives the other class's
// figure beside it; the JSON carries both.
func TestEstimateModelClass(t *testing.T) {
	code, out, errs := runCLI(t, "queens", "estimate", "24", "--workers", "1", "--max-memory", "8GiB", "--json")
	if code != 0 {
		t.Fatalf("queens estimate 24 --json: exit %d, %s", code, errs)
	}
	var rec estimateRecord
	if err := json.Unmarshal([]byte(out), &rec); err != nil {
		t.Fatalf("queens estimate 24 --json: %v\n%s", err, out)
	}
	class := join.ModelClass()
	if rec.Method != "join" || rec.ModelClass != class {
		t.Fatalf("method %q, model class %q; want join and this processor's %q", rec.Method, rec.ModelClass, class)
	}
	for _, c := range join.ModelClasses() {
		want, _ := join.ClassCoreSeconds(24, c)
		if got := rec.ModelJoinByClass[c]; got != want || got <= 0 {
			t.Errorf("model_join_core_seconds_by_class[%q] = %g, want %g", c, got, want)
		}
	}
	if rec.ModelJoin != rec.ModelJoinByClass[class] || rec.Seconds1 != rec.ModelJoin {
		t.Errorf("model_join_core_seconds %g, seconds_1_worker %g; want both this class's %g", rec.ModelJoin, rec.Seconds1, rec.ModelJoinByClass[class])
	}
	if rec.ModelJoinByClass["AVX-512"] >= rec.ModelJoinByClass["AVX2"] {
		t.Errorf("the AVX-512 model (%g core-seconds) is not below the AVX2 one (%g)", rec.ModelJoinByClass["AVX-512"], rec.ModelJoinByClass["AVX2"])
	}

	code, out, errs = runCLI(t, "queens", "estimate", "24", "--workers", "1", "--max-memory", "8GiB")
	if code != 0 {
		t.Fatalf("queens estimate 24: exit %d, %s", code, errs)
	}
	other := "AVX2"
	if class == "AVX2" {
		other = "AVX-512"
	}
	wantLine := "join " + humanDuration(rec.ModelJoin) + " on this processor's class, " + class + " (" + humanDuration(rec.ModelJoinByClass[other]) + " on " + other + ")"
	if !strings.Contains(out, wantLine) {
		t.Errorf("queens estimate 24 does not say %q:\n%s", wantLine, out)
	}
}
