package cluster

import (
	"flag"
	"os"
	"testing"
	"time"
)

// testPoolSettle is the settle of the identities seen (poolSettle) in this package's
// tests: most counts here start their workers together and do not test the settling, and
// at 2 s a count nearly every test waited it out (the package took 330 s under -race).
// The collusion counts, which do, set it back (settleFor).
const testPoolSettle = 250 * time.Millisecond

func TestMain(m *testing.M) {
	flag.Parse()
	setParallel()
	hookPublished()
	settleNanos.Store(int64(testPoolSettle))
	os.Exit(m.Run())
}

// settleFor sets poolSettle to d for the rest of test t.
func settleFor(t *testing.T, d time.Duration) {
	serial(t)
	old := settleNanos.Swap(int64(d))
	t.Cleanup(func() { settleNanos.Store(old) })
}
