package frames

import "os"

// longTests reports whether CHESSPUZZLES_LONG asks for the long checks ("1", or "all" for
// those and the CPU-hours of other packages): the weekly job in README.md. The default run
// keeps a cheaper instance of each property a long check tests.
func longTests() bool {
	v := os.Getenv("CHESSPUZZLES_LONG")
	return v == "1" || v == "all"
}
