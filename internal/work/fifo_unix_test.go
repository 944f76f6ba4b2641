//go:build unix

package work

import (
	"syscall"
	"testing"
)

// mkfifo makes a named pipe at path, or fails the test.
func mkfifo(t *testing.T, path string) {
	t.Helper()
	if err := syscall.Mkfifo(path, 0o600); err != nil {
		t.Fatal(err)
	}
}
