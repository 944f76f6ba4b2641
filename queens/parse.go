package queens

import (
	"fmt"
	"iter"
	"math"
	"strconv"
	"strings"

	"github.com/chesspuzzles/chesspuzzles/board"
)

// MaxParseN is the largest board Parse accepts: a hundred million rows, as far as a
// permutation written out by a program goes, and small enough that [Check]'s per-line counts
// (about 48 bytes a row) fit in memory.
const MaxParseN = 100_000_000

// Position is a set of queens on an N×N board, in any number and arrangement: several may
// share a row, and rows may be empty. It is what [Parse] reads and [Check] judges.
type Position struct {
	N      int
	Queens []board.Square
}

// Placement returns the position as a Placement (-1 for an empty row) and true, or nil and
// false when some row holds two queens or a queen is off the board.
func (pos Position) Placement() (Placement, bool) {
	if pos.N < 0 || pos.N > math.MaxInt32 {
		return nil, false
	}
	p := make(Placement, pos.N)
	for i := range p {
		p[i] = -1
	}
	for _, q := range pos.Queens {
		if q.Row < 0 || q.Row >= pos.N || q.Col < 0 || q.Col >= pos.N || p[q.Row] >= 0 {
			return nil, false
		}
		p[q.Row] = int32(q.Col)
	}
	return p, true
}

// Position returns the queens of p as a Position on the len(p)×len(p) board.
func (p Placement) Position() Position {
	pos := Position{N: len(p), Queens: make([]board.Square, 0, len(p))}
	for r, c := range p {
		if c >= 0 {
			pos.Queens = append(pos.Queens, board.Square{Row: r, Col: int(c)})
		}
	}
	return pos
}

// NotationError reports a position that cannot be read.
type NotationError struct {
	Input  string // the text, or the part of it, that could not be read
	Reason string // what was wrong and what is allowed
}

func (e *NotationError) Error() string {
	return fmt.Sprintf("cannot read position %q: %s", board.Clip(e.Input), e.Reason)
}

// Parse reads a position written in any notation and detects which:
//   - code: "15863724" (one digit a row, 1-based, "." for an empty row) or, for ten rows
//     or more, "1,3,5,…" (numbers separated by commas or spaces, no 0);
//   - perm: 0-based columns separated by commas or spaces ("0,4,7,5,2,6,1,3"); a list
//     holding a 0 is read as perm, and "-" marks an empty row;
//   - coords: "(1,1) (5,2) …", x the 1-based column, y the 1-based row from the top;
//   - algebraic: "a8 e7 h6 …", or "file,rank" squares for boards beyond 26 files;
//   - board: a drawing, a line a row, "Q" for a queen and "." for an empty square.
//
// A prefix "code:", "perm:", "coords:", "algebraic:" or "board:" forces the notation. n is
// the board size; 0 means to infer it (the number of rows written, or for squares and
// coordinates the larger of the number of queens and the farthest file or rank). Parse
// takes time linear in the length of s and never panics: any text that is not a position
// gives a *NotationError.
func Parse(s string, n int) (Position, error) {
	t := strings.TrimSpace(s)
	if n < 0 || n > MaxParseN {
		return Position{}, &NotationError{Input: s, Reason: fmt.Sprintf("board size must be from 1 to %d, got %d", MaxParseN, n)}
	}
	if t == "" {
		return Position{}, &NotationError{Input: s, Reason: "empty: want a placement such as 15863724, 0,4,7,5,2,6,1,3, (1,1) (5,2) … or a8 e7 …"}
	}
	f, body, forced := detect(t)
	if forced {
		t = strings.TrimSpace(body)
	}
	var pos Position
	var err error
	switch f {
	case Board:
		pos, err = parseDrawing(t, n)
	case Coords:
		pos, err = parseCoords(t, n)
	case Algebraic:
		pos, err = parseAlgebraic(t, n)
	case Perm:
		pos, err = parseRows(t, n, 0, forced)
	default:
		pos, err = parseRows(t, n, 1, forced)
	}
	if err != nil {
		return Position{}, err
	}
	if pos.N < 1 || pos.N > MaxParseN {
		return Position{}, &NotationError{Input: s, Reason: fmt.Sprintf("board size must be from 1 to %d", MaxParseN)}
	}
	return pos, nil
}

// detect picks the notation of t, and reports whether a prefix forced it.
func detect(t string) (f Notation, body string, forced bool) {
	if i := strings.IndexByte(t, ':'); i > 0 && i < 12 {
		if g, err := ParseNotation(strings.ToLower(strings.TrimSpace(t[:i]))); err == nil && g != JSON {
			return g, t[i+1:], true
		}
	}
	switch {
	case strings.ContainsAny(t, "qQ") && (strings.Contains(t, "\n") || strings.Trim(t, "qQ. \t\r") == ""):
		return Board, t, false
	case strings.ContainsRune(t, '('):
		return Coords, t, false
	case strings.ContainsFunc(t, isLetter) || numericSquares(t):
		return Algebraic, t, false
	case t == "0":
		return Perm, t, false
	case strings.ContainsAny(t, ", \t\n-"):
		for fld := range listFields(t) {
			if fld == "0" || fld == "-" {
				return Perm, t, false
			}
		}
		return Code, t, false
	}
	return Code, t, false
}

// numericSquares reports whether t is a list of "file,rank" squares separated by white space,
// as Algebraic notation writes them on boards beyond 26 files: "1,27 3,26 …".
func numericSquares(t string) bool {
	fields := strings.Fields(t)
	if len(fields) < 2 {
		return false
	}
	for _, f := range fields {
		a, b, ok := strings.Cut(f, ",")
		if !ok || !allDigits(a) || !allDigits(b) {
			return false
		}
	}
	return true
}

func allDigits(s string) bool {
	if s == "" {
		return false
	}
	for i := range len(s) {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return true
}

func isLetter(r rune) bool { return r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' }

// parseRows reads code (base 1) or perm (base 0) notation: a column a row. It walks the
// text once without splitting it, so a permutation of ten million queens costs no more than
// its Position.
func parseRows(t string, n, base int, forced bool) (Position, error) {
	digits := base == 1 && !strings.ContainsAny(t, ", \t\n\r;")
	rows := 0
	if digits {
		rows = len(t)
	} else {
		for range listFields(t) {
			rows++
		}
	}
	if n == 0 {
		n = rows
	}
	if digits && n > 9 {
		return Position{}, &NotationError{Input: t, Reason: fmt.Sprintf("code without commas is for boards up to 9×9, this is %d×%d: separate the columns with commas, e.g. 1,3,6,8,10,5,9,2,4,7", n, n)}
	}
	name := "code"
	if base == 0 {
		name = "perm"
	}
	if rows > n {
		return Position{}, &NotationError{Input: t, Reason: fmt.Sprintf("%d rows written for a %d×%d board", rows, n, n)}
	}
	pos := Position{N: n, Queens: make([]board.Square, 0, rows)}
	r := 0
	read := func(fld string) error {
		defer func() { r++ }()
		if fld == "." || fld == "-" || fld == "_" {
			return nil
		}
		v, err := strconv.Atoi(fld)
		if err != nil || fld[0] == '+' || fld[0] == '-' {
			return &NotationError{Input: t, Reason: fmt.Sprintf("row %d: %q is not a column number (reading as %s)", r+1, board.Clip(fld), name)}
		}
		c := v - base
		if base == 1 && v == 0 {
			return &NotationError{Input: t, Reason: fmt.Sprintf("row %d: 0 is not a column in code notation (1-based); write 0-based columns with commas, e.g. 0,4,7,5,2,6,1,3", r+1)}
		}
		if c < 0 || c >= n {
			return &NotationError{Input: t, Reason: fmt.Sprintf("row %d: column %d is off the %d×%d board (%s columns are %d to %d)", r+1, v, n, n, name, base, n-1+base)}
		}
		pos.Queens = append(pos.Queens, board.Square{Row: r, Col: c})
		return nil
	}
	if digits {
		for i := range len(t) {
			if err := read(t[i : i+1]); err != nil {
				return Position{}, err
			}
		}
	} else {
		for fld := range listFields(t) {
			if err := read(fld); err != nil {
				return Position{}, err
			}
		}
	}
	return pos, nil
}

// listFields yields the items of a list separated by commas, semicolons or white space.
func listFields(t string) iter.Seq[string] {
	return func(yield func(string) bool) {
		start := -1
		for i := 0; i <= len(t); i++ {
			sep := i == len(t) || isListSep(t[i])
			switch {
			case sep && start >= 0:
				if !yield(t[start:i]) {
					return
				}
				start = -1
			case !sep && start < 0:
				start = i
			}
		}
	}
}

func isListSep(b byte) bool {
	return b == ',' || b == ' ' || b == '\t' || b == '\n' || b == '\r' || b == ';'
}

// parseCoords reads "(x,y)" pairs, x the 1-based column and y the 1-based row from the top.
func parseCoords(t string, n int) (Position, error) {
	var qs []board.Square
	most := 0
	rest := t
	for {
		rest = strings.TrimLeft(rest, " \t\r\n,;")
		if rest == "" {
			break
		}
		if rest[0] != '(' {
			return Position{}, &NotationError{Input: t, Reason: fmt.Sprintf("unexpected %q: want (x,y) pairs such as (1,1) (5,2)", board.Clip(rest))}
		}
		end := strings.IndexByte(rest, ')')
		if end < 0 {
			return Position{}, &NotationError{Input: t, Reason: "a pair is not closed with ')'"}
		}
		pair := rest[1:end]
		rest = rest[end+1:]
		xs, ys, ok := strings.Cut(pair, ",")
		x, err1 := strconv.Atoi(strings.TrimSpace(xs))
		y, err2 := strconv.Atoi(strings.TrimSpace(ys))
		if !ok || err1 != nil || err2 != nil || x < 1 || y < 1 || x > MaxParseN || y > MaxParseN {
			return Position{}, &NotationError{Input: t, Reason: fmt.Sprintf("%q is not a pair (x,y) of whole numbers from 1 up", "("+board.Clip(pair)+")")}
		}
		if n > 0 && (x > n || y > n) {
			return Position{}, &NotationError{Input: t, Reason: fmt.Sprintf("(%d,%d) is off the %d×%d board (x and y run from 1 to %d)", x, y, n, n, n)}
		}
		qs = append(qs, board.Square{Row: y - 1, Col: x - 1})
		most = max(most, x, y)
	}
	return place(t, qs, n, max(most, len(qs)), "x and y")
}

// parseAlgebraic reads chess squares separated by spaces or commas.
func parseAlgebraic(t string, n int) (Position, error) {
	var fields []string
	switch {
	case numericSquares(t) || strings.ContainsAny(t, " \t\n"):
		// Squares separated by white space; each may be "e4" or "5,4".
		fields = strings.Fields(strings.ReplaceAll(t, ";", " "))
	default:
		// "a8,e7,…" is squares separated by commas.
		fields = strings.Split(t, ",")
	}
	type fr struct {
		name       string
		file, rank int
	}
	parsed := make([]fr, 0, len(fields))
	most := 0
	for _, f := range fields {
		if len(f) < 2 {
			return Position{}, &NotationError{Input: t, Reason: fmt.Sprintf("%q is not a square: want a file letter and a rank, e.g. e4", board.Clip(f))}
		}
		if fs, rs, ok := strings.Cut(f, ","); ok {
			file, err1 := strconv.Atoi(fs)
			rank, err2 := strconv.Atoi(rs)
			if !allDigits(fs) || !allDigits(rs) || err1 != nil || err2 != nil || file < 1 || rank < 1 || file > MaxParseN || rank > MaxParseN {
				return Position{}, &NotationError{Input: t, Reason: fmt.Sprintf("%q is not a square: want file,rank as two whole numbers from 1 up, e.g. 5,4", board.Clip(f))}
			}
			parsed = append(parsed, fr{f, file, rank})
			most = max(most, file, rank)
			continue
		}
		c := f[0] | 0x20
		rank, err := strconv.Atoi(f[1:])
		if c < 'a' || c > 'z' || err != nil || len(f) < 2 || f[1] == '+' || f[1] == '-' || rank < 1 || rank > MaxParseN {
			return Position{}, &NotationError{Input: t, Reason: fmt.Sprintf("%q is not a square: want a file letter and a rank, e.g. e4", board.Clip(f))}
		}
		file := int(c-'a') + 1
		parsed = append(parsed, fr{f, file, rank})
		most = max(most, file, rank)
	}
	if n == 0 {
		n = max(most, len(parsed))
	}
	qs := make([]board.Square, len(parsed))
	for i, q := range parsed {
		if q.file > n || q.rank > n {
			return Position{}, &NotationError{Input: t, Reason: fmt.Sprintf("%s is off the %d×%d board (files a-%c, ranks 1-%d)", q.name, n, n, 'a'+min(n, 26)-1, n)}
		}
		qs[i] = board.Square{Row: n - q.rank, Col: q.file - 1}
	}
	return place(t, qs, n, n, "files and ranks")
}

// parseDrawing reads a drawn board: one line a row, 'Q' a queen, '.' an empty square.
func parseDrawing(t string, n int) (Position, error) {
	lines := strings.Split(strings.ReplaceAll(t, "\r", ""), "\n")
	if n == 0 {
		n = len(lines)
	}
	if len(lines) != n {
		return Position{}, &NotationError{Input: t, Reason: fmt.Sprintf("a drawn %d×%d board needs %d lines, got %d", n, n, n, len(lines))}
	}
	pos := Position{N: n}
	for r, line := range lines {
		cells := strings.ReplaceAll(strings.TrimSpace(line), " ", "")
		if len(cells) != n {
			return Position{}, &NotationError{Input: t, Reason: fmt.Sprintf("line %d has %d squares, want %d ('Q' or '.')", r+1, len(cells), n)}
		}
		for c := range len(cells) {
			switch cells[c] {
			case 'Q', 'q':
				pos.Queens = append(pos.Queens, board.Square{Row: r, Col: c})
			case '.':
			default:
				return Position{}, &NotationError{Input: t, Reason: fmt.Sprintf("line %d: %q is neither 'Q' nor '.'", r+1, cells[c])}
			}
		}
	}
	return pos, nil
}

// place checks squares against the board size n (or the inferred one when n is 0).
func place(t string, qs []board.Square, n, inferred int, what string) (Position, error) {
	if n == 0 {
		n = inferred
	}
	for _, q := range qs {
		if q.Row < 0 || q.Row >= n || q.Col < 0 || q.Col >= n {
			return Position{}, &NotationError{Input: t, Reason: fmt.Sprintf("a queen is off the %d×%d board (%s run from 1 to %d)", n, n, what, n)}
		}
	}
	return Position{N: n, Queens: qs}, nil
}
