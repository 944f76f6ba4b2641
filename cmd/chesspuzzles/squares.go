// Names of a board's ranks and files as reports print them.

package main

import (
	"fmt"

	"github.com/chesspuzzles/chesspuzzles/board"
)

func rankName(sz board.Size, row int) string { return fmt.Sprint(sz.Rows - row) }

func fileName(sz board.Size, col int) string {
	if sz.HasAlgebraic() {
		return string(rune('a' + col))
	}
	return fmt.Sprint(col + 1)
}
