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

// readAllContext reads r to its end, at most limit bytes, into a string held once; what
// names the input in errors ("position on standard input"). A read blocks until input
// comes, so it runs aside: Ctrl-C while waiting for a terminal or a slow pipe, or while
// reading an endless one (/dev/zero), returns ctx.Err() at once. More than limit bytes is a
// usage error: every input of a command has a size it cannot need to exceed.
//
// Memory: the input is read into blocks that grow with it (64 KiB up to 8 MiB), never
// into a buffer that doubles and copies, and joined once at the end; so reading holds at
// most the bytes read and one block, about limit when the input is refused for its size,
// and the join at most twice the input. A limit of L bytes never takes much more than 2L
// (a doubling buffer took 3L and more: 2 GB of "yes 1" for a 1 GiB limit).
func readAllContext(ctx context.Context, r io.Reader, limit int64, what string) (string, error) {
	type result struct {
		s   string
		err error
	}
	done := make(chan result, 1)
	go func() {
		s, err := readBlocks(ctx, r, limit, what)
		done <- result{s, err}
	}()
	select {
	case r := <-done:
		return r.s, r.err
	case <-ctx.Done():
		return "", ctx.Err()
	}
}

// readBlocks is readAllContext without the goroutine.
func readBlocks(ctx context.Context, r io.Reader, limit int64, what string) (string, error) {
	const first, most = 64 << 10, 8 << 20
	var blocks [][]byte
	var total int64
	for size := int64(first); ; size = min(2*size, most) {
		// Each block is filled before the next is made; reading stops within a block on
		// Ctrl-C, and every input read so is text, so a NUL byte (/dev/zero, a binary
		// file) ends it at once.
		b := make([]byte, min(size, limit+1-total))
		n, err := readBlock(ctx, r, b)
		if i := bytes.IndexByte(b[:n], 0); i >= 0 {
			return "", usageErrorf("%s is not text (a NUL byte at offset %d)", what, total+int64(i))
		}
		blocks = append(blocks, b[:n])
		total += int64(n)
		switch {
		case ctx.Err() != nil:
			return "", ctx.Err()
		case total > limit:
			return "", usageErrorf("%s is larger than %d bytes", what, limit)
		case err == io.EOF:
			var sb strings.Builder
			sb.Grow(int(total))
			for i, b := range blocks {
				sb.Write(b)
				blocks[i] = nil // free as it goes: the join holds at most 2× the input
			}
			return sb.String(), nil
		case err != nil:
			return "", fmt.Errorf("reading %s: %w", what, err)
		}
	}
}

// readBlock fills b from r, and returns how much it read and io.EOF if r ended first; it
// stops early, with what it read, when ctx ends.
func readBlock(ctx context.Context, r io.Reader, b []byte) (int, error) {
	n := 0
	for n < len(b) {
		if ctx.Err() != nil {
			return n, nil
		}
		// A read of at most 64 KiB, so that Ctrl-C stops a fast endless input quickly.
		k, err := r.Read(b[n:min(len(b), n+64<<10)])
		n += k
		if err != nil {
			return n, err
		}
	}
	return n, nil
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
	} else if err == nil && fi.Mode().IsRegular() && fi.Size() > limit {
		return "", usageErrorf("%s is larger than %d bytes", what, limit) // told by its size, before reading it
	}
	return readAllContext(ctx, f, limit, what)
}

// countFields counts the fields of a position's text: the runs of bytes between white
// space, commas, semicolons and parentheses, an upper bound of its queens in every
// notation ("(1,1)" is two fields, "a1" one, a drawn board's cell one when spaced). It
// takes one pass over the text.
func countFields(text string) int {
	n := 0
	in := false
	for i := range len(text) {
		switch text[i] {
		case ' ', '\t', '\n', '\r', ',', ';', '(', ')':
			in = false
		default:
			if !in {
				n++
			}
			in = true
		}
	}
	return n
}
