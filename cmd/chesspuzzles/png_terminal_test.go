//go:build linux

package main

import (
	"bytes"
	"errors"
	"io"
	"os"
	"os/exec"
	"strings"
	"syscall"
	"testing"
	"time"
)

// A PNG image written to a terminal garbles it: every command that draws one refuses with
// exit 2 when standard output is a terminal and there is no -o. knight tour wrote the
// image anyway (its writer was wrapped, so the check inside tourPicture never saw the
// terminal); knight complete refused only after the search.
func TestKnightPNGNotToTerminal(t *testing.T) {
	bin := chesspuzzlesBin(t)
	cases := [][]string{
		{"knight", "tour", "--size", "5", "--format", "png"},
		{"knight", "complete", "a1", "b3", "--format", "png"},
	}
	for i, args := range cases {
		if i > 0 && raceEnabled && os.Getenv("CHESSPUZZLES_LONG") == "" {
			t.Logf("under -race only the first case runs without CHESSPUZZLES_LONG: a process takes over a second")
			break
		}
		code, out := runOnTerminalCode(t, bin, args...)
		head := out[:min(len(out), 200)]
		if code != 2 {
			t.Errorf("chesspuzzles %s on a terminal: exit %d, want 2\n%q", strings.Join(args, " "), code, head)
		}
		if bytes.Contains(out, []byte("PNG\r\n")) || bytes.Contains(out, []byte("IHDR")) {
			t.Errorf("chesspuzzles %s wrote a PNG image to the terminal", strings.Join(args, " "))
		}
		if !bytes.Contains(out, []byte("will not write a PNG image to a terminal")) {
			t.Errorf("chesspuzzles %s: no refusal on the terminal:\n%q", strings.Join(args, " "), head)
		}
	}
}

// runOnTerminalCode runs bin with args on a new pseudo-terminal of 120 columns and 30 rows
// in a fresh directory, and returns its exit code and all it wrote (stdout and stderr, as
// the terminal got them), whatever the code. The master reads EIO once the child is gone.
func runOnTerminalCode(t *testing.T, bin string, args ...string) (int, []byte) {
	t.Helper()
	master, slave, err := openPTY(30, 120)
	if err != nil {
		t.Fatalf("opening a pseudo-terminal: %v", err)
	}
	defer master.Close()
	cmd := exec.Command(bin, args...)
	cmd.Dir = t.TempDir()
	cmd.Env = append(os.Environ(), "TERM=xterm-256color")
	cmd.Stdin, cmd.Stdout, cmd.Stderr = slave, slave, slave
	cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true, Setctty: true, Ctty: 0}
	if err := cmd.Start(); err != nil {
		slave.Close()
		t.Fatal(err)
	}
	slave.Close()
	read := make(chan []byte)
	go func() {
		b, _ := io.ReadAll(master)
		read <- b
	}()
	waited := make(chan error, 1)
	go func() { waited <- cmd.Wait() }()
	select {
	case err = <-waited:
	case <-time.After(2 * time.Minute):
		cmd.Process.Kill()
		t.Fatalf("chesspuzzles %s did not end in 2 minutes", strings.Join(args, " "))
	}
	out := <-read
	var ee *exec.ExitError
	switch {
	case err == nil:
		return 0, out
	case errors.As(err, &ee):
		return ee.ExitCode(), out
	}
	t.Fatalf("chesspuzzles %s: %v", strings.Join(args, " "), err)
	return 0, nil
}
