package cluster

import (
	"flag"
	"strconv"
	"sync/atomic"
	"testing"
)

// testParallel is how many of this package's tests marked parallel run at once unless
// -test.parallel is given, without the race detector: they mostly wait (for leases to
// lapse, results to be acknowledged, the pool to settle), not compute: 28 CPU-s in 171 s
// of wall time one at a time with -short (29 Nov). Under -race they compute (about 190
// CPU-s): there -test.parallel keeps its default, GOMAXPROCS, since more at once on two
// cores only stretches each test towards its deadlines (TestFinishedJobAgain's minute
// ran out four at a time at load 16).
const testParallel = 4

// setParallel sets -test.parallel to testParallel, without the race detector, unless the
// command line set it. It runs in TestMain, after flag.Parse and before m.Run reads the
// flag.
func setParallel() {
	if raceEnabled {
		return
	}
	set := false
	flag.Visit(func(f *flag.Flag) { set = set || f.Name == "test.parallel" })
	if !set {
		_ = flag.Set("test.parallel", strconv.Itoa(testParallel))
	}
}

// running counts the parallel tests under way.
var running atomic.Int32

// parallel marks t as a test that runs beside the other parallel ones: it must change no
// package variable (settleNanos, heldGrace, readHook, readIdle, declineFree), which serial
// checks; published is set once, in TestMain, and changed plan by plan (noPublished). The testing package starts the parallel tests only
// once every serial top-level test has ended, so a serial test's change never overlaps
// them.
func parallel(t *testing.T) {
	t.Helper()
	t.Parallel()
	running.Add(1)
	t.Cleanup(func() { running.Add(-1) })
}

// serial fails t if a parallel test is running: t is about to change a package variable
// that the parallel tests read.
func serial(t *testing.T) {
	t.Helper()
	if n := running.Load(); n > 0 {
		t.Fatalf("%s changes a package variable while %d parallel tests run: it must not call parallel", t.Name(), n)
	}
}
