package queens_test

import (
	"cmp"
	"errors"
	"slices"
	"strconv"
	"strings"
	"testing"

	"golang.org/x/tools/txtar"

	"github.com/chesspuzzles/chesspuzzles/board"
	"github.com/chesspuzzles/chesspuzzles/queens"
)

// parsePermName reads a golden file's placement: 0-based columns, '-' for an empty row.
func parsePermName(t *testing.T, s string) queens.Placement {
	t.Helper()
	var p queens.Placement
	for _, f := range strings.Split(s, ",") {
		if f == "-" {
			p = append(p, -1)
			continue
		}
		c, err := strconv.Atoi(f)
		if err != nil {
			t.Fatalf("bad placement %q in a golden file name", s)
		}
		p = append(p, int32(c))
	}
	return p
}

func TestFormatGolden(t *testing.T) {
	ar, err := txtar.ParseFile("testdata/notation.txtar")
	if err != nil {
		t.Fatal(err)
	}
	if len(ar.Files) < 20 {
		t.Fatalf("testdata/notation.txtar has %d files, want at least 20", len(ar.Files))
	}
	for _, f := range ar.Files {
		t.Run(f.Name, func(t *testing.T) {
			perm, name, ok := strings.Cut(f.Name, "/")
			if !ok {
				t.Fatalf("golden file name %q is not PERM/NOTATION", f.Name)
			}
			p := parsePermName(t, perm)
			nt, err := queens.ParseNotation(name)
			if err != nil {
				t.Fatalf("ParseNotation(%q): %v", name, err)
			}
			want := strings.TrimSuffix(string(f.Data), "\n")
			if got := p.Format(nt); got != want {
				t.Errorf("%v.Format(%v) =\n%s\nwant\n%s", ints(p), nt, got, want)
			}
			if got := string(p.AppendFormat([]byte("x"), nt)); got != "x"+want {
				t.Errorf("%v.AppendFormat(\"x\", %v) = %q, want %q", ints(p), nt, got, "x"+want)
			}
			if nt == queens.Code {
				if got := p.String(); got != want {
					t.Errorf("%v.String() = %q, want %q", ints(p), got, want)
				}
			}
		})
	}
}

func TestParseNotation(t *testing.T) {
	for _, tc := range []struct {
		name string
		want queens.Notation
	}{
		{"code", queens.Code}, {"perm", queens.Perm}, {"coords", queens.Coords},
		{"algebraic", queens.Algebraic}, {"board", queens.Board}, {"json", queens.JSON},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := queens.ParseNotation(tc.name)
			if err != nil || got != tc.want {
				t.Errorf("ParseNotation(%q) = %v, %v; want %v, nil", tc.name, got, err, tc.want)
			}
			if s := tc.want.String(); s != tc.name {
				t.Errorf("%d.String() = %q, want %q", int(tc.want), s, tc.name)
			}
		})
	}
	for _, bad := range []string{"", "Code", "svg", "code ", strings.Repeat("x", 1000)} {
		if _, err := queens.ParseNotation(bad); err == nil || len(err.Error()) > 200 {
			t.Errorf("ParseNotation(%q) error = %v, want a short error", board.Clip(bad), err)
		}
	}
	if got := queens.NotationNames(); !slices.Equal(got, []string{"code", "perm", "coords", "algebraic", "board", "json"}) {
		t.Errorf("NotationNames() = %v", got)
	}
}

// sortedSquares returns the squares of a position in row-then-column order.
func sortedSquares(qs []board.Square) []board.Square {
	s := slices.Clone(qs)
	slices.SortFunc(s, func(a, b board.Square) int {
		return cmp.Or(cmp.Compare(a.Row, b.Row), cmp.Compare(a.Col, b.Col))
	})
	return s
}

// placementSquares lists the queens of p by hand.
func placementSquares(p []int) []board.Square {
	var qs []board.Square
	for r, c := range p {
		if c >= 0 {
			qs = append(qs, board.Square{Row: r, Col: c})
		}
	}
	return qs
}

var parsedNotations = []queens.Notation{queens.Code, queens.Perm, queens.Coords, queens.Algebraic, queens.Board}

func roundTrip(t *testing.T, p []int) {
	t.Helper()
	n := len(p)
	want := placementSquares(p)
	for _, nt := range parsedNotations {
		s := placement(p).Format(nt)
		for _, in := range []struct {
			text string
			n    int
		}{{s, 0}, {s, n}, {nt.String() + ":" + s, 0}, {"  " + s + "\n", n}} {
			pos, err := queens.Parse(in.text, in.n)
			if err != nil {
				t.Errorf("Parse(%q, %d) [%v of %v] error: %v", board.Clip(in.text), in.n, nt, p, err)
				continue
			}
			if pos.N != n || !slices.Equal(sortedSquares(pos.Queens), want) {
				t.Errorf("Parse(%q, %d) [%v of %v] = N %d, %v; want N %d, %v", board.Clip(in.text), in.n, nt, p, pos.N, pos.Queens, n, want)
			}
		}
	}
}

func TestParseRoundTrip(t *testing.T) {
	for n := 1; n <= 10; n++ {
		t.Run("n="+itoa(n), func(t *testing.T) {
			for _, p := range bruteSolutions(n) {
				roundTrip(t, p)
			}
		})
	}
	for _, n := range []int{10, 11, 12, 15, 20} {
		t.Run("n="+itoa(n)+" sample", func(t *testing.T) {
			k := 0
			for p := range queens.Solutions(n) {
				for _, im := range images(ints(p)) {
					roundTrip(t, im)
				}
				if k++; k == 5 {
					break
				}
			}
		})
	}
	t.Run("partial", func(t *testing.T) {
		for _, p := range [][]int{{-1, 2, -1}, {1, -1, 3, -1, 0}, {-1, -1, -1, -1, 4}, {0, 0, 0, 0}, {3, -1, 11, -1, -1, -1, -1, -1, -1, -1, -1, 5}} {
			want := placementSquares(p)
			// Board and the row notations keep the rows; coords and algebraic infer
			// the size from the squares, so give it.
			for _, nt := range parsedNotations {
				s := placement(p).Format(nt)
				pos, err := queens.Parse(s, len(p))
				if err != nil {
					t.Errorf("Parse(%q, %d) [%v of %v] error: %v", s, len(p), nt, p, err)
					continue
				}
				if pos.N != len(p) || !slices.Equal(sortedSquares(pos.Queens), want) {
					t.Errorf("Parse(%q, %d) [%v of %v] = N %d, %v; want %v", s, len(p), nt, p, pos.N, pos.Queens, want)
				}
			}
		}
	})
}

// TestParseNumericSquares: beyond 26 files the algebraic notation writes "file,rank", and Parse
// reads it back ("algebraic: … or "file,rank" squares for boards beyond 26 files").
func TestParseNumericSquares(t *testing.T) {
	const n = 27
	var p []int
	for s := range queens.Solutions(n) {
		p = ints(s)
		break
	}
	s := placement(p).Format(queens.Algebraic)
	for _, in := range []string{s, "algebraic:" + s} {
		pos, err := queens.Parse(in, n)
		if err != nil {
			t.Errorf("Parse(%q, %d) error: %v", board.Clip(in), n, err)
			continue
		}
		if !slices.Equal(sortedSquares(pos.Queens), placementSquares(p)) {
			t.Errorf("Parse(%q, %d) = %v, want %v", board.Clip(in), n, pos.Queens, placementSquares(p))
		}
	}
}

// alg converts algebraic names on an n×n board to squares, by hand: file letter from the
// left, rank from the bottom.
func alg(n int, names string) []board.Square {
	qs := []board.Square{}
	for _, f := range strings.Fields(names) {
		rank, _ := strconv.Atoi(f[1:])
		qs = append(qs, board.Square{Row: n - rank, Col: int(f[0] - 'a')})
	}
	return qs
}

func TestParseDetect(t *testing.T) {
	first := "a8 e7 h6 f5 c4 g3 b2 d1"
	for _, tc := range []struct {
		name    string
		in      string
		n       int
		wantN   int
		want    string // algebraic names of the queens, on the wantN board
		wantErr string // a substring of the error; "" when no error is wanted
	}{
		{name: "code digits", in: "15863724", wantN: 8, want: first},
		{name: "code digits with n", in: "15863724", n: 8, wantN: 8, want: first},
		{name: "code partial, dot rows", in: "1.8.....", wantN: 8, want: "a8 h6"},
		{name: "code all empty", in: "...", wantN: 3, want: ""},
		{name: "code short with n", in: "15", n: 8, wantN: 8, want: "a8 e7"},
		{name: "code commas", in: "1,3,6,8,10,5,9,2,4,7", wantN: 10, want: "a10 c9 f8 h7 j6 e5 i4 b3 d2 g1"},
		{name: "code spaces", in: "1 3 6 8 10 5 9 2 4 7", wantN: 10, want: "a10 c9 f8 h7 j6 e5 i4 b3 d2 g1"},
		{name: "code commas partial", in: "1,.,6", n: 10, wantN: 10, want: "a10 f8"},
		{name: "code conflicts are readable", in: "11111111", wantN: 8, want: "a8 a7 a6 a5 a4 a3 a2 a1"},
		{name: "code with 0", in: "10863724", wantErr: "0 is not a column in code notation"},
		{name: "code forced with 0", in: "code:0,4,7", wantErr: "0 is not a column"},
		{name: "code off board", in: "19", wantErr: "off the 2×2 board"},
		{name: "code off given board", in: "9", n: 8, wantErr: "off the 8×8 board"},
		{name: "code too many rows", in: "123", n: 2, wantErr: "3 rows written for a 2×2 board"},
		{name: "code sign", in: "+1,2", wantErr: "not a column number"},
		{name: "code bad character", in: "1*3", wantErr: "not a column number"},
		{name: "perm", in: "0,4,7,5,2,6,1,3", wantN: 8, want: first},
		{name: "perm spaces", in: "0 4 7 5 2 6 1 3", wantN: 8, want: first},
		{name: "perm empty rows", in: "0,-,2", wantN: 3, want: "a3 c1"},
		{name: "perm partial with n", in: "0,4", n: 8, wantN: 8, want: "a8 e7"},
		{name: "perm forced", in: "perm: 1 3 0 2", wantN: 4, want: "b4 d3 a2 c1"},
		{name: "perm off board", in: "0,4,8,5,2,6,1,3", wantErr: "off the 8×8 board"},
		{name: "perm negative", in: "0,-2,1", wantErr: "not a column number"},
		{name: "coords", in: "(1,1) (5,2) (8,3) (6,4) (3,5) (7,6) (2,7) (4,8)", wantN: 8, want: first},
		{name: "coords commas between", in: "(1,1),(5,2),(8,3),(6,4),(3,5),(7,6),(2,7),(4,8)", wantN: 8, want: first},
		{name: "coords partial infers size", in: "(2,3)", wantN: 3, want: "b1"},
		{name: "coords partial with n", in: "(2,3)", n: 8, wantN: 8, want: "b6"},
		{name: "coords two on a row", in: "(1,1) (2,1)", wantN: 2, want: "a2 b2"},
		{name: "coords forced", in: "coords:(1,1)", wantN: 1, want: "a1"},
		{name: "coords off board", in: "(9,1)", n: 8, wantErr: "off the 8×8 board"},
		{name: "coords zero", in: "(0,1)", wantErr: "is not a pair (x,y) of whole numbers from 1 up"},
		{name: "coords unclosed", in: "(1,1", wantErr: "not closed"},
		{name: "coords junk between", in: "(1,1) x (2,3)", wantErr: "unexpected"},
		{name: "algebraic", in: first, wantN: 8, want: first},
		{name: "algebraic commas", in: "a8,e7,h6,f5,c4,g3,b2,d1", wantN: 8, want: first},
		{name: "algebraic upper case", in: "A8 E7 H6 F5 C4 G3 B2 D1", wantN: 8, want: first},
		{name: "algebraic partial with n", in: "e4", n: 8, wantN: 8, want: "e4"},
		{name: "algebraic one square twice", in: "e4 e4", n: 8, wantN: 8, want: "e4 e4"},
		{name: "algebraic forced", in: "algebraic: a1 b3", wantN: 3, want: "a1 b3"},
		{name: "algebraic off board file", in: "i1", n: 8, wantErr: "off the 8×8 board"},
		{name: "algebraic off board rank", in: "a9", n: 8, wantErr: "off the 8×8 board"},
		{name: "algebraic rank 0", in: "a0", wantErr: "not a square"},
		{name: "algebraic no rank", in: "e", wantErr: "not a square"},
		{name: "algebraic two letters", in: "ee4", wantErr: "not a square"},
		{name: "drawn board", in: "..Q.\nQ...\n...Q\n.Q..", wantN: 4, want: "c4 a3 d2 b1"},
		{name: "drawn board spaced", in: ". Q . .\n. . . Q\nQ . . .\n. . Q .", wantN: 4, want: "b4 d3 a2 c1"},
		{name: "drawn board CRLF", in: "Q.\r\n..\r\n", wantN: 2, want: "a2"},
		{name: "drawn board lower case", in: "q.\n.q", wantN: 2, want: "a2 b1"},
		{name: "drawn board forced empty", in: "board:...\n...\n...", wantN: 3, want: ""},
		{name: "drawn board short line", in: "Q..\n..\n...", wantErr: "line 2 has 2 squares, want 3"},
		{name: "drawn board wrong size", in: "Q..\n...\n...", n: 4, wantErr: "needs 4 lines, got 3"},
		{name: "drawn board bad square", in: "Q.x\n...\n...", wantErr: "neither 'Q' nor '.'"},
		{name: "empty", in: "", wantErr: "empty"},
		{name: "blank", in: "  \n\t ", wantErr: "empty"},
		{name: "only separators", in: ",,,", wantErr: "board size"},
		{name: "negative n", in: "1", n: -1, wantErr: "board size must be from 1"},
		{name: "n too large", in: "1", n: queens.MaxParseN + 1, wantErr: "board size must be from 1"},
		{name: "json is not read", in: `json:{"n":1,"code":"1","perm":[0]}`, wantErr: "cannot read position"},
		{name: "words", in: "hello world", wantErr: "not a square"},
		{name: "unicode", in: "é8", wantErr: "cannot read position"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			pos, err := queens.Parse(tc.in, tc.n)
			if tc.wantErr != "" {
				if err == nil {
					t.Fatalf("Parse(%q, %d) = N %d, %v; want an error containing %q", tc.in, tc.n, pos.N, pos.Queens, tc.wantErr)
				}
				if !strings.Contains(err.Error(), tc.wantErr) {
					t.Errorf("Parse(%q, %d) error = %q, want it to contain %q", tc.in, tc.n, err, tc.wantErr)
				}
				if strings.Contains(err.Error(), "\n") {
					t.Errorf("Parse(%q, %d) error %q has more than one line", tc.in, tc.n, err)
				}
				var ne *queens.NotationError
				if !errors.As(err, &ne) {
					t.Errorf("Parse(%q, %d) error %T, want *queens.NotationError", tc.in, tc.n, err)
				}
				return
			}
			if err != nil {
				t.Fatalf("Parse(%q, %d) error: %v", tc.in, tc.n, err)
			}
			want := sortedSquares(alg(tc.wantN, tc.want))
			if pos.N != tc.wantN || !slices.Equal(sortedSquares(pos.Queens), want) {
				t.Errorf("Parse(%q, %d) = N %d, %v; want N %d, %v", tc.in, tc.n, pos.N, sortedSquares(pos.Queens), tc.wantN, want)
			}
		})
	}
}

// TestParseHugeLine: a 10 MB line that is not a position gives one short error, quickly (a
// hang shows as the test binary's timeout).
func TestParseHugeLine(t *testing.T) {
	const size = 10 << 20
	for _, tc := range []struct {
		name string
		in   string
	}{
		{"letters", strings.Repeat("x", size)},
		{"one long square", "a" + strings.Repeat("9", size)},
		{"open parens", strings.Repeat("(", size)},
		{"queens without newline", strings.Repeat("Q", size)},
		{"drawn rows", strings.Repeat("Q.\n", size/3)},
		{"digits with a 0 at the end", strings.Repeat("1", size) + "0"},
		{"number", strings.Repeat("7", size) + ",1"},
		// Code as digits is for boards of at most 9 rows (shared/DESIGN.md: "as digits when
		// N ≤ 9"); ten million digits are not a position.
		{"ten million digits", strings.Repeat("1", size)},
	} {
		t.Run(tc.name, func(t *testing.T) {
			pos, err := queens.Parse(tc.in, 0)
			if err == nil {
				t.Fatalf("Parse(10 MB %s) = a position with N %d and %d queens, want an error", tc.name, pos.N, len(pos.Queens))
			}
			if msg := err.Error(); len(msg) > 300 || strings.Contains(msg, "\n") {
				t.Errorf("Parse(10 MB %s) error is %d bytes, want one short line: %.300q", tc.name, len(msg), msg)
			}
		})
	}
}

// TestPositionPlacement checks Position.Placement and Placement.Position against each other.
func TestPositionPlacement(t *testing.T) {
	p := queens.Placement{1, -1, 3, -1, 0}
	pos := p.Position()
	if pos.N != 5 || !slices.Equal(pos.Queens, alg(5, "b5 d3 a1")) {
		t.Errorf("%v.Position() = %+v, want N 5, b5 d3 a1", ints(p), pos)
	}
	back, ok := pos.Placement()
	if !ok || !slices.Equal(back, p) {
		t.Errorf("Position.Placement() = %v, %v; want %v, true", back, ok, p)
	}
	two := queens.Position{N: 3, Queens: alg(3, "a1 b1")}
	if got, ok := two.Placement(); ok {
		t.Errorf("Placement() of two queens on one row = %v, true; want nil, false", got)
	}
}
