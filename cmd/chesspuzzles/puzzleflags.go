// The flags the two puzzle commands (puzzle, regions) share.

package main

import (
	"github.com/chesspuzzles/chesspuzzles/board"
	"github.com/chesspuzzles/chesspuzzles/queens"
)

// puzzleFlags checks the flags the two puzzle commands (puzzle, regions) share: --n from
// minN to maxN, --level and --format; it returns the level.
func puzzleFlags(n, minN, maxN int, level, format string) (queens.Level, error) {
	if n < minN || n > maxN {
		return 0, usageErrorf("--n must be a whole number from %d to %d, got %d", minN, maxN, n)
	}
	l, err := queens.ParseLevel(level)
	if err != nil {
		return 0, usageErrorf("--level must be easy, medium or hard, got %q", board.Clip(level))
	}
	switch format {
	case "text", "svg", "png", "json":
	default:
		return 0, usageErrorf("--format must be text, svg, png or json, got %q", board.Clip(format))
	}
	return l, nil
}
