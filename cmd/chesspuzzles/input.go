package main

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"os"
	"strings"
)

// This file holds the reading of a command's input (a position, a tour, a grid) from its
// arguments, a file or standard input: bounded in size, text only, and stopping at once
// on Ctrl-C even while a read blocks.

// positionArgs returns the position a command is given: its arguments joined by spaces,
// or, with none or the one argument "-", standard input (at most limit bytes).
func positionArgs(ctx context.Context, args []string, stdin io.Reader, limit int64) (string, error) {
	if len(args) == 0 || len(args) == 1 && args[0] == "-" {
		return readAllContext(ctx, stdin, limit, "position on standard input")
	}
	return strings.Join(args, " "), nil
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
