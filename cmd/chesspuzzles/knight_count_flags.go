// The flags "knight count" and "knight estimate" share.

package main

import (
	"github.com/chesspuzzles/chesspuzzles/board"
	kcount "github.com/chesspuzzles/chesspuzzles/knight/count"
	"github.com/spf13/cobra"
)

// knightCountFlags are the flags "knight count" and "knight estimate" share: which tours of
// which board, by which method, in how much memory.
type knightCountFlags struct {
	sizes     sizeFlags
	start     string
	closed    bool
	method    string
	maxMemory string
}

// knightCountHelp is the help of the flags of knightCountFlags, in the words of the
// command that has them.
type knightCountHelp struct {
	start, closed, method, maxMemory string
}

// add binds the flags to cmd (--size 5 by default), with help.
func (f *knightCountFlags) add(cmd *cobra.Command, help knightCountHelp) {
	f.sizes.add(cmd, "5")
	cmd.Flags().StringVar(&f.start, "start", "", help.start)
	cmd.Flags().BoolVar(&f.closed, "closed", false, help.closed)
	cmd.Flags().StringVar(&f.method, "method", kcount.MethodAuto, help.method)
	flagChoices(cmd, "method", kcount.MethodAuto, kcount.MethodDP, kcount.MethodJoin, kcount.MethodSearch)
	cmd.Flags().StringVar(&f.maxMemory, "max-memory", "", help.maxMemory)
}

// options reads the flags: the board and the count's options, MaxMemory set (half this
// machine's memory unless --max-memory says otherwise). Errors are usage errors.
func (f *knightCountFlags) options() (board.Size, kcount.Options, error) {
	sz, _, err := f.sizes.get()
	if err != nil {
		return sz, kcount.Options{}, err
	}
	opts := kcount.Options{Closed: f.closed, Method: f.method, MaxMemory: int64(halfMemory())}
	if f.start != "" {
		if f.closed {
			return sz, opts, usageErrorf("--start counts open tours; a closed tour passes every square")
		}
		sq, err := sz.ParseSquare(f.start)
		if err != nil {
			return sz, opts, usageError(err)
		}
		opts.Start = &sq
	}
	if f.maxMemory != "" {
		size, err := parseSize(f.maxMemory)
		if err != nil {
			return sz, opts, usageErrorf("--max-memory: %v", err)
		}
		opts.MaxMemory = int64(min(size, 1<<62))
	}
	return sz, opts, nil
}
