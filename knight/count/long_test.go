package count

import (
	"os"
	"testing"
)

// longTests reports whether CHESSPUZZLES_LONG asks for the long checks: "1" for those of
// minutes (the weekly job in README.md), "all" for those and the CPU-hours of TestCountLong.
// The default run keeps a cheaper instance of each property a long check tests.
func longTests() bool {
	v := os.Getenv("CHESSPUZZLES_LONG")
	return v == "1" || v == "all"
}

// skipUnlessLong skips t, saying what it leaves out, what covers it meanwhile and how to run
// it, unless CHESSPUZZLES_LONG is set.
func skipUnlessLong(t *testing.T, what string) {
	t.Helper()
	if !longTests() {
		t.Skipf("%s; CHESSPUZZLES_LONG=1 runs it", what)
	}
}
