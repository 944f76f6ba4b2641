package main

// Tests of issue 25's item 7: -o writes through what is not a regular file, a lost answer
// fails the command, and inputs are bounded and interruptible.

import (
	"bytes"
	"context"
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestOutputWritesThrough: -o to a FIFO with a reader, to a symbolic link, and (as root,
// on a device node made for the test) to a null and a full device leaves each one what it
// was; the full device fails the command with exit 1 and one line.
func TestOutputWritesThrough(t *testing.T) {
	dir := t.TempDir()
	real := filepath.Join(dir, "real")
	link := filepath.Join(dir, "link")
	if err := os.Symlink("real", link); err != nil {
		t.Fatal(err)
	}
	if code, _, stderr := runCLI(t, "queens", "one", "8", "-o", link); code != 0 {
		t.Fatalf("-o a link: exit %d, %q", code, stderr)
	}
	if fi, err := os.Lstat(link); err != nil || fi.Mode()&os.ModeSymlink == 0 {
		t.Errorf("-o %s replaced the link: %v, %v", link, fi.Mode(), err)
	}
	data, _ := os.ReadFile(real)
	if string(data) == "" {
		t.Errorf("-o a link wrote nothing to its target")
	}

	fifo := filepath.Join(dir, "fifo")
	mkfifo(t, fifo)
	code, _, stderr := runCLI(t, "queens", "one", "8", "-o", fifo)
	if code != 2 || !strings.Contains(stderr, "nothing reads from it") || strings.Count(stderr, "\n") != 1 {
		t.Errorf("-o a FIFO without a reader: exit %d, %q; want exit 2, one line", code, stderr)
	}
	got := make(chan string, 1)
	go func() {
		f, err := os.Open(fifo) // waits for the writer
		if err != nil {
			got <- err.Error()
			return
		}
		defer f.Close()
		b, _ := io.ReadAll(f)
		got <- string(b)
	}()
	// The reader's open blocks until a writer opens: try until one does.
	deadline := time.Now().Add(2 * time.Second)
	for {
		code, _, stderr = runCLI(t, "queens", "one", "8", "-o", fifo)
		if code == 0 || time.Now().After(deadline) {
			break
		}
		time.Sleep(10 * time.Millisecond)
	}
	if code != 0 {
		t.Fatalf("-o a FIFO with a reader: exit %d, %q", code, stderr)
	}
	if s := <-got; s != string(data) {
		t.Errorf("the FIFO's reader got %q, want %q", s, data)
	}
	if fi, err := os.Lstat(fifo); err != nil || fi.Mode()&os.ModeNamedPipe == 0 {
		t.Errorf("-o %s replaced the FIFO: %v, %v", fifo, fi.Mode(), err)
	}

	if os.Geteuid() != 0 {
		t.Log("not root: device nodes not made; the FIFO stands for them")
		return
	}
	null, full := filepath.Join(dir, "null"), filepath.Join(dir, "full")
	if err := mkchardev(null, 1, 3); errors.Is(err, errors.ErrUnsupported) {
		t.Log("device nodes made on Linux only; the FIFO stands for them")
		return
	} else if err != nil {
		t.Fatal(err)
	}
	if err := mkchardev(full, 1, 7); err != nil {
		t.Fatal(err)
	}
	if code, _, stderr := runCLI(t, "queens", "one", "8", "-o", null); code != 0 {
		t.Errorf("-o a null device: exit %d, %q", code, stderr)
	}
	code, stdout, stderr := runCLI(t, "queens", "one", "8", "-o", full)
	if code != 1 || stdout != "" || !strings.Contains(stderr, "no space left on device") || strings.Count(stderr, "\n") != 1 {
		t.Errorf("-o a full device: exit %d, %q, %q; want exit 1, one line", code, stdout, stderr)
	}
	for _, p := range []string{null, full} {
		if fi, err := os.Lstat(p); err != nil || fi.Mode()&os.ModeCharDevice == 0 {
			t.Errorf("-o %s replaced the device: %v, %v", p, fi.Mode(), err)
		}
	}
}

// failWriter fails every write, as standard output on a full disk does.
type failWriter struct{}

func (failWriter) Write(p []byte) (int, error) { return 0, errors.New("no space left on device") }

// TestAnswerLost: a count whose answer cannot be written exits 1 with one line (issue 25:
// "queens count 8 > /dev/full" exited 0).
func TestAnswerLost(t *testing.T) {
	var errb bytes.Buffer
	code := execute(context.Background(), []string{"queens", "count", "8", "--quiet"}, strings.NewReader(""), failWriter{}, &errb)
	// --quiet: nothing but the error goes to stderr.
	if code != 1 || errb.String() != "chesspuzzles: queens count: writing the answer: no space left on device\n" {
		t.Errorf("count to a full stdout: exit %d, %q; want exit 1, one error line", code, errb.String())
	}
}

// TestReadersBounded: knight check refuses /dev/zero at its first byte, and stops on Ctrl-C
// while it waits for input that never comes (exit 130).
func TestReadersBounded(t *testing.T) {
	zero, err := os.Open("/dev/zero")
	if err != nil {
		t.Fatal(err)
	}
	defer zero.Close()
	for _, args := range [][]string{{"knight", "check"}, {"queens", "complete", "--n", "8"}, {"queens", "check"}} {
		var out, errb bytes.Buffer
		start := time.Now()
		code := execute(context.Background(), args, zero, &out, &errb)
		if code != 2 || !strings.Contains(errb.String(), "not text") || time.Since(start) > time.Second {
			t.Errorf("%s < /dev/zero: exit %d, %q after %v; want exit 2, not text, at once", strings.Join(args, " "), code, errb.String(), time.Since(start))
		}
	}
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close()
	defer r.Close()
	ctx, cancel := context.WithCancel(context.Background())
	time.AfterFunc(100*time.Millisecond, cancel)
	var out, errb bytes.Buffer
	start := time.Now()
	code := execute(ctx, []string{"knight", "check"}, r, &out, &errb)
	if code != exitInterrupted || time.Since(start) > 1100*time.Millisecond {
		t.Errorf("knight check waiting for input, interrupted: exit %d, %q after %v; want %d within a second", code, errb.String(), time.Since(start), exitInterrupted)
	}
}
