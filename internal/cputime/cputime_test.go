package cputime

import (
	"runtime"
	"testing"
	"time"
)

// TestRunThreadClock checks the thread clock on Linux: it advances by the work the
// thread does (a spin until it has advanced 20 ms, which must end) and hardly at all
// while the thread sleeps, however loaded the machine. Elsewhere Run gives the wall clock
// (nil) and says so.
func TestRunThreadClock(t *testing.T) {
	threadCPU, err := Run(func(clock func() float64) error {
		if clock == nil {
			return nil
		}
		start := clock()
		deadline := time.Now().Add(30 * time.Second)
		for clock()-start < 0.020 {
			if time.Now().After(deadline) {
				t.Fatalf("30 s of spinning gave %.3f s of thread CPU time, want 0.020", clock()-start)
			}
		}
		before := clock()
		time.Sleep(100 * time.Millisecond)
		if slept := clock() - before; slept > 0.010 {
			t.Errorf("sleeping 100 ms used %.3f s of thread CPU time, want under 0.010", slept)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if want := runtime.GOOS == "linux"; threadCPU != want {
		t.Errorf("Run on %s: threadCPU = %v, want %v", runtime.GOOS, threadCPU, want)
	}
}
