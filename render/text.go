package render

import (
	"bufio"
	"io"
	"os"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/chesspuzzles/chesspuzzles/board"
	"github.com/chesspuzzles/chesspuzzles/queens"
)

// TextOptions chooses how [QueensText] draws a board.
type TextOptions struct {
	// Unicode draws ♛ for a queen, a shaded ░ for an empty dark square and · for an empty
	// light one, with rank numbers and file letters. Without it the board is the plain one
	// of the board notation: Q and ".", no labels.
	Unicode bool
	// Color paints the squares with ANSI 256-colour backgrounds (Unicode boards only), the
	// queens in conflict red. Use [ColorAllowed] to follow NO_COLOR.
	Color bool
	// Attacks, when given, marks the queens in them (red with Color, ♕ without).
	Attacks []queens.Attack
}

// ColorAllowed reports whether colour may be used: not when the NO_COLOR environment
// variable is set to anything but the empty string (no-color.org).
func ColorAllowed() bool { return os.Getenv("NO_COLOR") == "" }

// ANSI 256-colour codes close to the picture's palette.
const (
	ansiLight    = "\x1b[48;5;223m"
	ansiDark     = "\x1b[48;5;137m"
	ansiQueen    = "\x1b[38;5;232m"
	ansiConflict = "\x1b[38;5;160m"
	ansiReset    = "\x1b[0m"
)

// QueensText writes pos as a text board, a line a row from the top, in time O(N²). The
// Unicode board is 2N+2 columns wide and has the file letters under it.
func QueensText(w io.Writer, pos queens.Position, opts TextOptions) error {
	n := pos.N
	bw := bufio.NewWriter(w)
	at := make(map[board.Square]bool, len(pos.Queens))
	for _, q := range pos.Queens {
		at[q] = true
	}
	red := make(map[board.Square]bool)
	for _, a := range opts.Attacks {
		red[a.A], red[a.B] = true, true
	}
	sz := board.SquareBoard(n)
	width := len(strconv.Itoa(n))
	for r := range n {
		if !opts.Unicode {
			for c := range n {
				if at[board.Square{Row: r, Col: c}] {
					bw.WriteByte('Q')
				} else {
					bw.WriteByte('.')
				}
			}
			bw.WriteByte('\n')
			continue
		}
		rank := strconv.Itoa(n - r)
		bw.WriteString(strings.Repeat(" ", width-len(rank)) + rank + " ")
		for c := range n {
			sq := board.Square{Row: r, Col: c}
			dark := isDark(n, r, c)
			if opts.Color {
				bg := ansiLight
				if dark {
					bg = ansiDark
				}
				bw.WriteString(bg)
				switch {
				case at[sq] && red[sq]:
					bw.WriteString(ansiConflict + "♛ ")
				case at[sq]:
					bw.WriteString(ansiQueen + "♛ ")
				default:
					bw.WriteString("  ")
				}
				continue
			}
			switch {
			case at[sq] && red[sq]:
				bw.WriteString("♕")
			case at[sq]:
				bw.WriteString("♛")
			case dark:
				bw.WriteString("░")
			default:
				bw.WriteString("·")
			}
			if c < n-1 {
				bw.WriteByte(' ')
			}
		}
		if opts.Color {
			bw.WriteString(ansiReset)
		}
		bw.WriteByte('\n')
	}
	if opts.Unicode {
		bw.WriteString(strings.Repeat(" ", width+1))
		for c := range n {
			name := strconv.Itoa(c + 1)
			if sz.HasAlgebraic() {
				name = string(rune('a' + c))
			}
			if len(name) > 1 || c == n-1 {
				bw.WriteString(name[:1])
			} else {
				bw.WriteString(name)
			}
			if c < n-1 {
				bw.WriteByte(' ')
			}
		}
		bw.WriteByte('\n')
	}
	return bw.Flush()
}

// Grid writes a table of the squares of sz with chess labels: a line a rank from the top,
// its number at the left, the cells right-aligned in columns a space apart, and the file
// names (a, b, … or 1, 2, … past 26 files) under the last rank. cell gives the short text of
// a square ("Q", ".", "4"). It takes time O(R·C) and writes about (w+1)·R·C bytes for cells
// w wide. The accessibility table and a queens puzzle print themselves this way:
//
//	5  1 3 N 3 2
//	4  2 4 6 3 2
//	…
//	   a b c d e
func Grid(w io.Writer, sz board.Size, cell func(board.Square) string) error {
	cells := make([]string, 0, sz.Squares())
	cw := 1
	for r := range sz.Rows {
		for c := range sz.Cols {
			s := cell(board.Square{Row: r, Col: c})
			cells = append(cells, s)
			cw = max(cw, utf8.RuneCountInString(s))
		}
	}
	files := make([]string, sz.Cols)
	for c := range files {
		if sz.HasAlgebraic() {
			files[c] = string(rune('a' + c))
		} else {
			files[c] = strconv.Itoa(c + 1)
		}
		cw = max(cw, len(files[c]))
	}
	rw := len(strconv.Itoa(sz.Rows))
	bw := bufio.NewWriter(w)
	pad := func(s string, width int) {
		bw.WriteString(strings.Repeat(" ", width-utf8.RuneCountInString(s)))
		bw.WriteString(s)
	}
	for r := range sz.Rows {
		pad(strconv.Itoa(sz.Rows-r), rw)
		bw.WriteByte(' ')
		for c := range sz.Cols {
			bw.WriteByte(' ')
			pad(cells[r*sz.Cols+c], cw)
		}
		bw.WriteByte('\n')
	}
	bw.WriteString(strings.Repeat(" ", rw+1))
	for _, f := range files {
		bw.WriteByte(' ')
		pad(f, cw)
	}
	bw.WriteByte('\n')
	return bw.Flush()
}
