package knight

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"iter"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/chesspuzzles/chesspuzzles/board"
)

// ErrSyntax reports a tour that cannot be read at all (as opposed to one that reads but is
// not a tour, which Tour.Check reports).
var ErrSyntax = errors.New("cannot read tour")

// ctxStride is how many squares the writers and the check handle between two looks at
// their context: about a millisecond's work.
const ctxStride = 1 << 16

// WriteSquares writes the tour as square names separated by spaces, Cols names to a line:
// algebraic names ("a1 c2 …") on boards of at most 26 files, "file,rank" otherwise. It
// streams through a buffer, so huge tours take no extra memory, and stops at the first
// write that fails, returning its error, or with ctx.Err() once ctx is done (looking every
// 64 Ki squares), as WriteJSON and WriteBoard do.
func WriteSquares(ctx context.Context, w io.Writer, t Tour) error {
	bw := bufio.NewWriterSize(w, 1<<16)
	sz := t.Size()
	for i := range t.Path {
		if i%ctxStride == 0 {
			if err := ctx.Err(); err != nil {
				return err
			}
		}
		if i > 0 {
			if i%t.Cols == 0 {
				bw.WriteByte('\n')
			} else {
				bw.WriteByte(' ')
			}
		}
		// The first failed write ends the loop: a closed pipe must not wait for the rest of
		// a tour of millions of squares.
		if _, err := bw.WriteString(sz.Name(t.Square(i))); err != nil {
			return err
		}
	}
	bw.WriteByte('\n')
	return bw.Flush()
}

// WriteJSON writes the tour as one JSON object, the same shape the web API's
// /api/knight/tour answers with:
//
//	{"rows":R,"cols":C,"start":"a1","closed":B,"found":true,"path":["a1","b3",…],"squares":[[7,0],[5,1],…]}
//
// path holds square names as [board.Size.Name] writes them (algebraic up to 26 files,
// "file,rank" beyond), squares the same squares as 0-based (row, col) pairs, row 0 at the
// top; start is the first square and closed tells whether the last square is a knight's
// move from it. It streams, so huge tours take no extra memory; Closed is checked in linear
// time. It stops as WriteSquares does.
func WriteJSON(ctx context.Context, w io.Writer, t Tour) error {
	closed, err := t.closed(ctx)
	if err != nil {
		return err
	}
	bw := bufio.NewWriterSize(w, 1<<16)
	sz := t.Size()
	start := ""
	if len(t.Path) > 0 {
		start = sz.Name(t.Square(0))
	}
	fmt.Fprintf(bw, `{"rows":%d,"cols":%d,"start":%q,"closed":%v,"found":true,"path":[`, t.Rows, t.Cols, start, closed)
	for i := range t.Path {
		if i%ctxStride == 0 {
			if err := ctx.Err(); err != nil {
				return err
			}
		}
		if i > 0 {
			bw.WriteByte(',')
		}
		// Square names hold only letters, digits and a comma: no JSON escaping needed.
		bw.WriteByte('"')
		bw.WriteString(sz.Name(t.Square(i)))
		bw.WriteByte('"')
	}
	bw.WriteString(`],"squares":[`)
	var buf []byte
	for i, v := range t.Path {
		if i%ctxStride == 0 {
			if err := ctx.Err(); err != nil {
				return err
			}
		}
		buf = buf[:0]
		if i > 0 {
			buf = append(buf, ',')
		}
		buf = append(buf, '[')
		buf = strconv.AppendInt(buf, int64(int(v)/t.Cols), 10)
		buf = append(buf, ',')
		buf = strconv.AppendInt(buf, int64(int(v)%t.Cols), 10)
		buf = append(buf, ']')
		if _, err := bw.Write(buf); err != nil {
			return err // as in WriteSquares
		}
	}
	bw.WriteString("]}\n")
	return bw.Flush()
}

// boardBand is how many squares' move numbers WriteBoard holds at once: 64 MiB of int32.
const boardBand = 1 << 24

// WriteBoard writes the board with move numbers 1…R·C, one board row per line, numbers
// right-aligned in columns, the classic printout of a tour. t must be a valid tour; it is
// only read. The move numbers of a band of rows, at most 2^24 squares (64 MiB), are found
// by one pass over the path; a board of 10^8 squares takes 6 passes, and no second 400 MB
// array. It stops as WriteSquares does, looking at ctx every 64 Ki squares of a pass and
// every row written.
func WriteBoard(ctx context.Context, w io.Writer, t Tour) error {
	return writeBoard(ctx, w, t, boardBand)
}

// writeBoard is WriteBoard holding the move numbers of band squares at once (at least a
// row's).
func writeBoard(ctx context.Context, w io.Writer, t Tour, band int) error {
	if err := t.check(ctx); err != nil {
		return err
	}
	bw := bufio.NewWriterSize(w, 1<<16)
	width := len(strconv.Itoa(len(t.Path)))
	bandRows := max(1, band/t.Cols)
	move := make([]int32, min(bandRows, t.Rows)*t.Cols) // move[i]: the move on square lo+i
	var buf []byte
	for r0 := 0; r0 < t.Rows; r0 += bandRows {
		r1 := min(r0+bandRows, t.Rows)
		lo, n := int32(r0*t.Cols), uint32((r1-r0)*t.Cols)
		for k, v := range t.Path {
			if k%ctxStride == 0 {
				if err := ctx.Err(); err != nil {
					return err
				}
			}
			if i := uint32(v - lo); i < n {
				move[i] = int32(k)
			}
		}
		for r := r0; r < r1; r++ {
			if err := ctx.Err(); err != nil {
				return err
			}
			buf = buf[:0]
			for c, k := range move[(r-r0)*t.Cols : (r-r0+1)*t.Cols] {
				if c > 0 {
					buf = append(buf, ' ')
				}
				num := strconv.Itoa(int(k) + 1)
				for range width - len(num) {
					buf = append(buf, ' ')
				}
				buf = append(buf, num...)
			}
			buf = append(buf, '\n')
			if _, err := bw.Write(buf); err != nil {
				return err // as in WriteSquares
			}
			if len(buf) > 1<<16 {
				buf = nil
			}
		}
	}
	return bw.Flush()
}

// ParseTour reads a claimed tour in any of three forms: square names separated by spaces,
// commas between pairs not needed ("a1 c2 e1 …", or "1,1 3,2 …"); the JSON that WriteJSON
// writes; or a numbered board as WriteBoard writes it. The board size comes from the JSON or
// the numbered board; for square names it is sz if sz.Rows > 0, else n×n when there are n²
// names. ParseTour does not check that the result is a tour (see Tour.Check); it returns an
// error wrapping ErrSyntax when the text cannot be read, quoting the offending piece. It
// takes time and memory linear in the length of text, and returns ctx.Err() once ctx is
// done (looking every 64 Ki squares, about a millisecond's work).
func ParseTour(ctx context.Context, text string, sz board.Size) (Tour, error) {
	t := strings.TrimSpace(text)
	if t == "" {
		return Tour{}, fmt.Errorf("%w: empty input", ErrSyntax)
	}
	if t[0] == '{' {
		return parseJSON(ctx, t)
	}
	numeric, count := true, 0
	for f := range strings.FieldsSeq(t) {
		if count%ctxStride == 0 {
			if err := ctx.Err(); err != nil {
				return Tour{}, err
			}
		}
		count++
		if numeric {
			_, err := strconv.Atoi(f)
			numeric = err == nil
		}
	}
	if numeric {
		return parseNumbered(ctx, t)
	}
	if sz.Rows <= 0 {
		n := int(math.Sqrt(float64(count)))
		for n*n > count {
			n--
		}
		for (n+1)*(n+1) <= count {
			n++
		}
		if n*n != count {
			return Tour{}, fmt.Errorf("%w: %d squares is not a square board; give the board size", ErrSyntax, count)
		}
		sz = board.SquareBoard(n)
	}
	if sz.Rows*sz.Cols > MaxSquares {
		return Tour{}, fmt.Errorf("%w: board %s is too large", ErrSyntax, sz)
	}
	path, err := parseNames(ctx, strings.FieldsSeq(t), count, sz, "")
	if err != nil {
		return Tour{}, err
	}
	return Tour{Rows: sz.Rows, Cols: sz.Cols, Path: path}, nil
}

// parseNames reads count square names of a board of size sz into square numbers; what,
// when not empty, names the list in an error ("path entry 3: …").
func parseNames(ctx context.Context, names iter.Seq[string], count int, sz board.Size, what string) ([]int32, error) {
	path := make([]int32, 0, count)
	i := 0
	for name := range names {
		i++
		if i%ctxStride == 0 {
			if err := ctx.Err(); err != nil {
				return nil, err
			}
		}
		sq, err := sz.ParseSquare(name)
		if err != nil && what != "" {
			return nil, fmt.Errorf("%w: %s %d: %w", ErrSyntax, what, i, err)
		}
		if err != nil {
			return nil, fmt.Errorf("%w: %w", ErrSyntax, err)
		}
		path = append(path, int32(sq.Row*sz.Cols+sq.Col))
	}
	return path, nil
}

// jsonTour is what parseJSON reads from a tour's JSON object: the board size, the
// "squares" ([row, col] pairs) and the "path" (pairs, the shape before squares existed, or
// square names). Keys match without regard to case, as encoding/json matches them.
type jsonTour struct {
	rows, cols   int
	squares      pairList
	pathPairs    pairList
	pathNames    []string
	pathAreNames bool
}

// pairList is a JSON array of [row, col] pairs as decodePairs reads it: flat holds the two
// numbers of each pair in turn, up to the first element that is not two numbers, which is
// kept in bad (and its 0-based index in badAt) when hasBad. given is false when there was
// no array.
type pairList struct {
	given  bool
	flat   []int
	hasBad bool
	bad    []int
	badAt  int
}

// parseJSON reads the JSON object t streaming, element by element, so that it can look at
// ctx while it reads a huge path.
func parseJSON(ctx context.Context, t string) (Tour, error) {
	dec := json.NewDecoder(strings.NewReader(t))
	bad := func(err error) (Tour, error) {
		if ctx.Err() != nil {
			return Tour{}, ctx.Err()
		}
		return Tour{}, fmt.Errorf("%w: bad JSON: %v", ErrSyntax, err)
	}
	var v jsonTour
	if _, err := dec.Token(); err != nil { // the '{' that ParseTour saw
		return bad(err)
	}
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			return bad(err)
		}
		key, _ := tok.(string)
		switch {
		case strings.EqualFold(key, "rows"):
			err = dec.Decode(&v.rows)
		case strings.EqualFold(key, "cols"):
			err = dec.Decode(&v.cols)
		case strings.EqualFold(key, "squares"):
			v.squares, err = decodePairs(ctx, dec, nil)
		case strings.EqualFold(key, "path"):
			err = v.decodePath(ctx, dec)
		default:
			var skip json.RawMessage
			err = dec.Decode(&skip)
		}
		if err != nil {
			return bad(err)
		}
	}
	if _, err := dec.Token(); err != nil { // the closing '}'
		return bad(err)
	}
	if v.rows < 1 || v.cols < 1 || v.rows > board.MaxSide || v.cols > board.MaxSide || v.rows*v.cols > MaxSquares {
		return Tour{}, fmt.Errorf("%w: JSON rows and cols must be from 1 to %d, got %d and %d", ErrSyntax, board.MaxSide, v.rows, v.cols)
	}
	tour := Tour{Rows: v.rows, Cols: v.cols}
	pairs := v.squares
	if !pairs.given && v.pathAreNames {
		path, err := parseNames(ctx, slices.Values(v.pathNames), len(v.pathNames), tour.Size(), "path entry")
		tour.Path = path
		return tour, err
	}
	if !pairs.given {
		pairs = v.pathPairs
	}
	tour.Path = make([]int32, 0, len(pairs.flat)/2)
	for i := 0; i < len(pairs.flat); i += 2 {
		r, c := pairs.flat[i], pairs.flat[i+1]
		if r < 0 || r >= v.rows || c < 0 || c >= v.cols {
			return Tour{}, fmt.Errorf("%w: path entry %d is %v, want [row, col] on the %d×%d board", ErrSyntax, i/2+1, []int{r, c}, v.rows, v.cols)
		}
		tour.Path = append(tour.Path, int32(r*v.cols+c))
	}
	if pairs.hasBad {
		return Tour{}, fmt.Errorf("%w: path entry %d is %v, want [row, col] on the %d×%d board", ErrSyntax, pairs.badAt+1, pairs.bad, v.rows, v.cols)
	}
	return tour, nil
}

// decodePairs reads a JSON array of [row, col] pairs (or null: none) from dec, looking at
// ctx every 64 Ki pairs. When first is not nil it is the array's first element, already
// read.
func decodePairs(ctx context.Context, dec *json.Decoder, first json.RawMessage) (pairList, error) {
	var pl pairList
	var p []int // reused: Decode sets its length and keeps its array
	add := func(i int) {
		switch {
		case pl.hasBad:
		case len(p) == 2:
			pl.flat = append(pl.flat, p[0], p[1])
		default:
			pl.hasBad, pl.bad, pl.badAt = true, slices.Clone(p), i
		}
	}
	i := 0
	if first != nil {
		if err := json.Unmarshal(first, &p); err != nil {
			return pl, err
		}
		add(i)
		i++
	} else if ok, err := openArray(dec); !ok {
		return pl, err
	}
	pl.given = true
	for ; dec.More(); i++ {
		if i%ctxStride == 0 {
			if err := ctx.Err(); err != nil {
				return pl, err
			}
		}
		if err := dec.Decode(&p); err != nil {
			return pl, err
		}
		add(i)
	}
	_, err := dec.Token() // the closing ']'
	return pl, err
}

// openArray reads the '[' that opens an array from dec: false with no error for null.
func openArray(dec *json.Decoder) (bool, error) {
	tok, err := dec.Token()
	if err != nil {
		return false, err
	}
	if tok == nil {
		return false, nil
	}
	if d, ok := tok.(json.Delim); !ok || d != '[' {
		return false, errors.New("want an array")
	}
	return true, nil
}

// decodePath reads the "path" array: square names or [row, col] pairs, as its first element
// says.
func (v *jsonTour) decodePath(ctx context.Context, dec *json.Decoder) error {
	v.pathPairs, v.pathNames, v.pathAreNames = pairList{}, nil, false
	if ok, err := openArray(dec); !ok {
		return err
	}
	if !dec.More() {
		_, err := dec.Token()
		return err
	}
	var first json.RawMessage
	if err := dec.Decode(&first); err != nil {
		return err
	}
	if len(first) == 0 || first[0] != '"' {
		pairs, err := decodePairs(ctx, dec, first)
		if err != nil {
			return errors.New("path must be square names or [row, col] pairs")
		}
		v.pathPairs = pairs
		return nil
	}
	v.pathAreNames = true
	var name string
	for err := json.Unmarshal(first, &name); ; err = dec.Decode(&name) {
		if err != nil {
			return errors.New("path must be square names or [row, col] pairs")
		}
		if len(v.pathNames)%ctxStride == 0 {
			if err := ctx.Err(); err != nil {
				return err
			}
		}
		v.pathNames = append(v.pathNames, name)
		if !dec.More() {
			break
		}
	}
	_, err := dec.Token()
	return err
}

// parseNumbered reads a board of move numbers: each line a board row, each number the move
// at which the knight visits that square. Numbers outside 1…R·C cannot be read; a number
// used twice or missing makes a StepError, since the text is a readable board but no tour.
// It reads t twice (the board's size, then its numbers), looking at ctx every 64 Ki numbers.
func parseNumbered(ctx context.Context, t string) (Tour, error) {
	r, c, seen := 0, 0, 0
	for line := range strings.Lines(t) {
		k := 0
		for range strings.FieldsSeq(line) {
			if seen%ctxStride == 0 {
				if err := ctx.Err(); err != nil {
					return Tour{}, err
				}
			}
			seen++
			k++
		}
		if k == 0 {
			continue
		}
		if r++; r == 1 {
			c = k
		}
		if k != c {
			return Tour{}, fmt.Errorf("%w: board row %d has %d numbers, row 1 has %d", ErrSyntax, r, k, c)
		}
	}
	if r > board.MaxSide || c > board.MaxSide || r*c > MaxSquares {
		return Tour{}, fmt.Errorf("%w: board %d×%d is too large", ErrSyntax, r, c)
	}
	n := r * c
	path := make([]int32, n)
	for i := range path {
		path[i] = -1
	}
	var dup *StepError
	i, seen := 0, 0
	for line := range strings.Lines(t) {
		j := 0
		for f := range strings.FieldsSeq(line) {
			if seen%ctxStride == 0 {
				if err := ctx.Err(); err != nil {
					return Tour{}, err
				}
			}
			seen++
			k, err := strconv.Atoi(f)
			if err != nil || k < 1 || k > n {
				return Tour{}, fmt.Errorf("%w: board row %d has %q, want move numbers from 1 to %d", ErrSyntax, i+1, board.Clip(f), n)
			}
			if path[k-1] >= 0 && dup == nil {
				dup = &StepError{Step: k, Why: fmt.Sprintf("move number %d appears twice", k)}
			}
			path[k-1] = int32(i*c + j)
			j++
		}
		if j > 0 {
			i++
		}
	}
	if dup != nil {
		return Tour{}, dup
	}
	return Tour{Rows: r, Cols: c, Path: path}, nil
}
