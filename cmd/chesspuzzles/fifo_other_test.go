//go:build !unix

package main

import (
	"runtime"
	"testing"
)

// mkfifo skips the test where the system has no named pipes (Windows): the checks that
// need a FIFO run on Unix only.
func mkfifo(t *testing.T, path string) {
	t.Helper()
	t.Skipf("%s has no named pipes (mkfifo %s): this test runs on Unix only", runtime.GOOS, path)
}
