// The board size flags (--size, --board) the knight commands share.

package main

import (
	"github.com/chesspuzzles/chesspuzzles/board"
	"github.com/chesspuzzles/chesspuzzles/knight"
	"github.com/spf13/cobra"
)

// sizeFlags are the --size and --board flags shared by the knight commands.
type sizeFlags struct {
	size, board string
}

func (f *sizeFlags) add(cmd *cobra.Command, def string) {
	cmd.Flags().StringVar(&f.size, "size", def, "board size N for an N×N board")
	cmd.Flags().StringVar(&f.board, "board", "", "board size RxC: R rows, C columns")
}

// get returns the board size asked for; set reports whether one was given at all.
func (f *sizeFlags) get() (sz board.Size, set bool, err error) {
	s := f.size
	if f.board != "" {
		s = f.board
	}
	if s == "" {
		return board.Size{}, false, nil
	}
	sz, err = board.ParseSize(s, 0)
	if err != nil {
		return sz, true, usageError(err)
	}
	if sz.Squares() > knight.MaxSquares {
		return sz, true, usageErrorf("board %s has %d squares, at most %d are allowed, got %q", sz, sz.Squares(), knight.MaxSquares, board.Clip(s))
	}
	return sz, true, nil
}
