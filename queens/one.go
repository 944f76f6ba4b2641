package queens

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"strconv"

	"github.com/chesspuzzles/chesspuzzles/board"
)

// ErrNoSolution reports a board with no solution: of all sizes, only 2×2 and 3×3.
var ErrNoSolution = errors.New("no solution exists")

// MaxOneN is the largest board [One], [OneColumn] and [WriteColumns] accept: a billion
// queens, about 10 GB written out, where every size still fits an int32.
const MaxOneN = 1_000_000_000

// checkSolvableN reports a board size outside 1…most (what names the request in the
// message, "" for none), or one with no solution.
func checkSolvableN(n, most int, what string) error {
	if n < 1 || n > most {
		return fmt.Errorf("board size must be a whole number from 1 to %d%s, got %d", most, what, n)
	}
	if n == 2 || n == 3 {
		return fmt.Errorf("%w: %d queens cannot be placed on a %d×%d board without attacks", ErrNoSolution, n, n, n)
	}
	return nil
}

// One returns a solution of the n×n board by an explicit construction, for every n that has
// one (n = 1 and n ≥ 4); for n = 2 and 3 it returns an error wrapping [ErrNoSolution], and
// for n outside 1…MaxOneN another error. The solution is the one [OneColumn] describes. One
// takes time and memory proportional to n (4 bytes a queen); for boards of hundreds of
// millions of queens, [WriteColumns] with [OneColumn] streams the same solution in constant
// memory.
func One(n int) (Placement, error) {
	if err := checkSolvableN(n, MaxOneN, ""); err != nil {
		return nil, err
	}
	p := make(Placement, n)
	for r := range p {
		p[r] = int32(OneColumn(n, r))
	}
	return p, nil
}

// OneColumn returns the 0-based column of the queen on row r in the solution [One] builds,
// in constant time, for 0 ≤ r < n; it returns -1 when n has no solution or is outside
// 1…MaxOneN, or r is off the board.
//
// The construction, in 1-based columns read from the top row (the classical one found by
// several authors since the 19th century; see Bernhardsson, "Explicit solutions to the
// N-queens problem for all N", SIGART Bulletin 2(2), 1991, and Hoffman, Loessi and Moore,
// Mathematics Magazine 42, 1969):
//
//   - n mod 6 not 2 or 3: the even columns 2, 4, …, then the odd ones 1, 3, ….
//     Each half is a line of slope 2, so two queens of one half never share a diagonal.
//   - n mod 6 = 2: evens 2, 4, …, n, then odds 3, 1, 7, 9, …, n-1, 5 (the plain layout
//     would put queens of the two halves on a diagonal).
//   - n mod 6 = 3: evens 4, 6, …, n-1, 2, then odds 5, 7, …, n, 1, 3.
//
// The tests check every n from 1 to 2000 with an independent checker, and a few sizes up to
// ten million.
func OneColumn(n, r int) int {
	if n < 1 || n > MaxOneN || n == 2 || n == 3 || r < 0 || r >= n {
		return -1
	}
	h := n / 2 // rows holding even 1-based columns
	switch n % 6 {
	case 2:
		if r < h {
			return 2*r + 1
		}
		switch k := r - h; {
		case k == 0:
			return 2 // column 3
		case k == 1:
			return 0 // column 1
		case k == h-1:
			return 4 // column 5
		default:
			return 2*k + 2 // columns 7, 9, …, n-1
		}
	case 3:
		if r < h {
			if r == h-1 {
				return 1 // column 2
			}
			return 2*r + 3 // columns 4, 6, …, n-1
		}
		switch k := r - h; {
		case k == h-1:
			return 0 // column 1
		case k == h:
			return 2 // column 3
		default:
			return 2*k + 4 // columns 5, 7, …, n
		}
	default:
		if r < h {
			return 2*r + 1
		}
		return 2 * (r - h)
	}
}

// WriteColumns writes the placement of n rows whose row r holds a queen on column
// column(r) (0-based, -1 for an empty row) in notation f, with no trailing newline, exactly
// as [Placement.Format] would write it, but without holding the placement in memory: it
// streams through a buffer, so a hundred million queens take a few seconds and constant
// memory beyond what column needs. Every notation but [Board] streams; Board, a drawing of
// n² squares, is refused above 1000 rows. column is called once a row and a notation
// (JSON, which writes the placement twice, calls it twice a row).
func WriteColumns(w io.Writer, n int, column func(r int) int, f Notation) error {
	if n < 0 || n > MaxOneN {
		return fmt.Errorf("board size must be from 0 to %d, got %d", MaxOneN, n)
	}
	if f == Board && n > maxDrawnN {
		return fmt.Errorf("a drawn board is at most %d×%d, got %d×%d: use code or perm", maxDrawnN, maxDrawnN, n, n)
	}
	bw := bufio.NewWriterSize(w, 1<<16)
	// buf is handed to the writer once it holds flushAt bytes; its spare room beyond that
	// takes the longest row (a few dozen bytes, or a drawn row), so it never grows.
	const flushAt = 1 << 16
	buf := make([]byte, 0, flushAt+2*maxDrawnN+64)
	emit := func() error {
		if len(buf) >= flushAt {
			_, err := bw.Write(buf)
			buf = buf[:0]
			return err
		}
		return nil
	}
	var err error
	if f == JSON {
		buf = append(buf, `{"n":`...)
		buf = strconv.AppendInt(buf, int64(n), 10)
		buf = append(buf, `,"code":"`...)
		if err = writeRows(&buf, n, column, Code, emit); err != nil {
			return err
		}
		buf = append(buf, `","perm":[`...)
		// The perm array of JSON writes -1 for an empty row, as Placement.Format does.
		for r := range n {
			if r > 0 {
				buf = append(buf, ',')
			}
			buf = strconv.AppendInt(buf, int64(column(r)), 10)
			if err = emit(); err != nil {
				return err
			}
		}
		buf = append(buf, "]}"...)
	} else if f == Perm || f == Code && n >= 10 {
		if buf, err = writeList(bw, buf, flushAt, n, column, f); err != nil {
			return err
		}
	} else if err = writeRows(&buf, n, column, f, emit); err != nil {
		return err
	}
	if _, err = bw.Write(buf); err != nil {
		return err
	}
	return bw.Flush()
}

// WriteFormat writes p in notation f, with no trailing newline, exactly as [Placement.Format]
// would write it, but streaming through a buffer as [WriteColumns] does: a hundred million
// queens take a few seconds and no memory beyond p. Board is refused above 1000 rows.
func (p Placement) WriteFormat(w io.Writer, f Notation) error {
	return WriteColumns(w, len(p), func(r int) int { return int(p[r]) }, f)
}

// maxDrawnN is the largest board WriteColumns draws.
const maxDrawnN = 1000

// writeList writes the rows of a placement in perm, or code with commas, handing buf to w
// whenever it holds flushAt bytes, and returns buf holding what is left to write. It is the
// hot loop of streaming a hundred million queens, so it has none of writeRows' switches and
// writes the digits itself.
func writeList(w io.Writer, buf []byte, flushAt, n int, column func(int) int, f Notation) ([]byte, error) {
	base, empty := 0, byte('-')
	if f == Code {
		base, empty = 1, '.'
	}
	for r := range n {
		if r > 0 {
			buf = append(buf, ',')
		}
		c := column(r)
		if c < 0 {
			buf = append(buf, empty)
		} else {
			// The digits go straight into buf, which has room: it is handed on once
			// it holds flushAt bytes, well before its capacity.
			v := uint(c + base)
			k := 1
			for t := v; t >= 10; t /= 10 {
				k++
			}
			l := len(buf)
			buf = buf[:l+k]
			for j := l + k - 1; j > l; j-- {
				buf[j] = byte('0' + v%10)
				v /= 10
			}
			buf[l] = byte('0' + v)
		}
		if len(buf) >= flushAt {
			if _, err := w.Write(buf); err != nil {
				return buf, err
			}
			buf = buf[:0]
		}
	}
	return buf, nil
}

// writeRows appends the rows of a placement to *buf in notation f (not JSON), calling emit
// after each row to pass a full buffer on.
func writeRows(buf *[]byte, n int, column func(int) int, f Notation, emit func() error) error {
	sz := board.SquareBoard(n)
	written := false
	for r := range n {
		c := column(r)
		*buf = appendRow(*buf, f, sz, r, c, written)
		written = written || c >= 0
		if err := emit(); err != nil {
			return err
		}
	}
	return nil
}
