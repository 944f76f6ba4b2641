package main

import (
	"github.com/chesspuzzles/chesspuzzles/board"
	"github.com/chesspuzzles/chesspuzzles/knight"
	"github.com/spf13/cobra"
)

func newKnightCmd() *cobra.Command {
	return group(&cobra.Command{
		Use:   "knight",
		Short: "Knight's tours: find, check, count; the accessibility table",
		Long: `Knight's tours on any board from 1×1 to 10000×10000.

Boards are --size N (N×N) or --board RxC (R rows, C columns). Squares are algebraic
(e4, a1 is bottom left) or file,rank counted from 1 (5,4 is e4), which works on any board.`,
	},
		newKnightTourCmd(),
		newKnightCheckCmd(),
		newKnightAccessCmd(),
		newKnightCountCmd(),
		newKnightCompleteCmd(),
		newKnightEstimateCmd(),
	)
}

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
