package main

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/chesspuzzles/chesspuzzles/queens"
)

// This file holds what lets a long step of a command end at once on Ctrl-C (exit 130)
// when the engine call it makes takes no context.

// newPlan is newMethodPlan(n, method, version) that returns ctx.Err() as soon as ctx is done. Building the
// plan of N = 32 takes seconds and NewPlan takes no context: it runs aside, and is left to
// finish on its own when ctx ends first (the command is ending then).
func newPlan(ctx context.Context, n int, method string, version int) (*queens.Plan, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	type result struct {
		p   *queens.Plan
		err error
	}
	done := make(chan result, 1)
	go func() {
		p, err := newMethodPlan(n, method, version)
		done <- result{p, err}
	}()
	select {
	case r := <-done:
		if r.err != nil {
			return nil, usageError(r.err)
		}
		return r.p, nil
	case <-ctx.Done():
		return nil, ctx.Err()
	}
}

// readAllContext reads r to its end, at most limit bytes, into a string held once (a
// Builder's String does not copy); what names the input in errors ("position on standard
// input"). A read blocks until input comes, so it runs aside: Ctrl-C while waiting for a
// terminal or a slow pipe, or while reading an endless one (/dev/zero), returns ctx.Err()
// at once. More than limit bytes is a usage error: every input of a command has a size it
// cannot need to exceed.
func readAllContext(ctx context.Context, r io.Reader, limit int64, what string) (string, error) {
	type result struct {
		s   string
		err error
	}
	done := make(chan result, 1)
	go func() {
		var b strings.Builder
		// Read in pieces so that an interrupted read of an endless input stops within a
		// piece, not at limit; every input read so is text, so a NUL byte (/dev/zero, a
		// binary file) ends it at once.
		lr := io.LimitReader(r, limit+1)
		buf := make([]byte, 64<<10)
		var err error
		for err == nil && ctx.Err() == nil {
			var n int
			n, err = lr.Read(buf)
			if i := bytes.IndexByte(buf[:n], 0); i >= 0 {
				err = usageErrorf("%s is not text (a NUL byte at offset %d)", what, b.Len()+i)
				break
			}
			b.Write(buf[:n])
		}
		switch {
		case ctx.Err() != nil:
			err = ctx.Err()
		case err != nil && err != io.EOF:
			if _, ok := err.(*exitError); !ok {
				err = fmt.Errorf("reading %s: %w", what, err)
			}
		case int64(b.Len()) > limit:
			err = usageErrorf("%s is larger than %d bytes", what, limit)
		default:
			err = nil
		}
		done <- result{b.String(), err}
	}()
	select {
	case r := <-done:
		return r.s, r.err
	case <-ctx.Done():
		return "", ctx.Err()
	}
}

// readFileContext is readAllContext for the file name ("-": stdin if it is not nil), whose open is also
// aside (opening a FIFO waits for a writer).
func readFileContext(ctx context.Context, name string, stdin io.Reader, limit int64, what string) (string, error) {
	if name == "-" && stdin != nil {
		return readAllContext(ctx, stdin, limit, what)
	}
	var f *os.File
	err := aside(ctx, func() error {
		var err error
		f, err = os.Open(name)
		return err
	})
	if err != nil {
		if ctx.Err() != nil {
			return "", ctx.Err()
		}
		return "", usageError(fmt.Errorf("reading %s: %w", what, pathErr(err)))
	}
	defer f.Close()
	if fi, err := f.Stat(); err == nil && fi.IsDir() {
		return "", usageErrorf("reading %s: a directory, want a file name", what)
	}
	return readAllContext(ctx, f, limit, what)
}

// aside runs f on another goroutine and returns its error, or ctx.Err() as soon as ctx is
// done; f is then left to finish on its own (the command is ending), so whatever it writes
// to must stand that: a ctxWriter, or a file the caller removes.
func aside(ctx context.Context, f func() error) error {
	done := make(chan error, 1)
	go func() { done <- f() }()
	select {
	case err := <-done:
		return err
	case <-ctx.Done():
		return ctx.Err()
	}
}

// ctxWriter fails every write once ctx is done, so that Ctrl-C stops a stream of a billion
// queens within one buffer (WriteColumns writes 64 KB at a time).
type ctxWriter struct {
	ctx context.Context
	w   io.Writer
}

func (c ctxWriter) Write(p []byte) (int, error) {
	if err := c.ctx.Err(); err != nil {
		return 0, err
	}
	return c.w.Write(p)
}
