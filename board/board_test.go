package board_test

import (
	"bufio"
	"errors"
	"os"
	"strconv"
	"strings"
	"testing"

	"github.com/chesspuzzles/chesspuzzles/board"
)

// nameCase is one line of testdata/squares.txt.
type nameCase struct {
	size      board.Size
	sq        board.Square
	alg, num  string
	lineLabel string
}

func loadNames(t testing.TB) []nameCase {
	t.Helper()
	f, err := os.Open("testdata/squares.txt")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var out []nameCase
	sc := bufio.NewScanner(f)
	for line := 1; sc.Scan(); line++ {
		s := strings.TrimSpace(sc.Text())
		if s == "" || strings.HasPrefix(s, "#") {
			continue
		}
		fs := strings.Fields(s)
		if len(fs) != 6 {
			t.Fatalf("squares.txt:%d: want 6 fields, got %q", line, s)
		}
		var v [4]int
		for i := range v {
			if v[i], err = strconv.Atoi(fs[i]); err != nil {
				t.Fatalf("squares.txt:%d: %v", line, err)
			}
		}
		out = append(out, nameCase{board.Size{Rows: v[0], Cols: v[1]}, board.Square{Row: v[2], Col: v[3]}, fs[4], fs[5], "squares.txt:" + strconv.Itoa(line)})
	}
	if len(out) == 0 {
		t.Fatal("squares.txt is empty")
	}
	return out
}

func TestNamesGolden(t *testing.T) {
	for _, tc := range loadNames(t) {
		t.Run(tc.lineLabel, func(t *testing.T) {
			z, sq := tc.size, tc.sq
			wantName := tc.alg
			if tc.alg == "-" {
				wantName = tc.num
			}
			if got := z.Name(sq); got != wantName {
				t.Errorf("%v.Name(%+v) = %q, want %q", z, sq, got, wantName)
			}
			if got := z.Numeric(sq); got != tc.num {
				t.Errorf("%v.Numeric(%+v) = %q, want %q", z, sq, got, tc.num)
			}
			if got := z.HasAlgebraic(); got != (tc.alg != "-") {
				t.Errorf("%v.HasAlgebraic() = %v, want %v", z, got, tc.alg != "-")
			}
			ins := []string{tc.num, " " + tc.num + " "}
			if tc.alg != "-" {
				ins = append(ins, tc.alg, strings.ToUpper(tc.alg))
			}
			for _, in := range ins {
				got, err := z.ParseSquare(in)
				if err != nil || got != sq {
					t.Errorf("%v.ParseSquare(%q) = %+v, %v; want %+v, nil", z, in, got, err, sq)
				}
			}
		})
	}
}

func TestParseSquareErrors(t *testing.T) {
	z8 := board.SquareBoard(8)
	for _, tc := range []struct {
		name    string
		size    board.Size
		in      string
		wantErr string
	}{
		{"empty", z8, "", "empty"},
		{"blank", z8, "   ", "empty"},
		{"file off board", z8, "i1", "off the 8×8 board"},
		{"rank off board", z8, "a9", "off the 8×8 board"},
		{"rank 0", z8, "a0", "off the 8×8 board"},
		{"no rank", z8, "e", "want a file letter and a rank"},
		{"negative rank", z8, "e-4", "want a file letter and a rank"},
		{"plus rank", z8, "e+4", "want a file letter and a rank"},
		{"digit first", z8, "4e", "want a file letter and a rank"},
		{"two letters", z8, "ee4", "want a file letter and a rank"},
		{"numeric off board", z8, "9,1", "off the 8×8 board"},
		{"numeric zero", z8, "0,1", "off the 8×8 board"},
		{"numeric not numbers", z8, "a,1", "two whole numbers"},
		{"numeric three parts", z8, "1,2,3", "two whole numbers"},
		{"non-ASCII", z8, "é4", "want a file letter and a rank"},
		{"rectangular off", board.Size{Rows: 3, Cols: 5}, "a4", "off the 3×5 board"},
		{"huge", z8, strings.Repeat("9", 10<<20), "bad square"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := tc.size.ParseSquare(tc.in)
			if err == nil {
				t.Fatalf("%v.ParseSquare(%q) = %+v, nil; want an error", tc.size, board.Clip(tc.in), got)
			}
			if !errors.Is(err, board.ErrBadSquare) {
				t.Errorf("%v.ParseSquare(%q) error %v is not ErrBadSquare", tc.size, board.Clip(tc.in), err)
			}
			if msg := err.Error(); !strings.Contains(msg, tc.wantErr) || len(msg) > 200 {
				t.Errorf("%v.ParseSquare(%q) error = %q, want a short one containing %q", tc.size, board.Clip(tc.in), msg, tc.wantErr)
			}
		})
	}
}

func TestParseSize(t *testing.T) {
	for _, tc := range []struct {
		name string
		in   string
		max  int
		want board.Size // zero when an error is wanted
	}{
		{"square", "8", 0, board.Size{Rows: 8, Cols: 8}},
		{"rectangle", "6x9", 0, board.Size{Rows: 6, Cols: 9}},
		{"capital X", "6X9", 0, board.Size{Rows: 6, Cols: 9}},
		{"times sign", "6×9", 0, board.Size{Rows: 6, Cols: 9}},
		{"spaces around", "  5x4 \n", 0, board.Size{Rows: 5, Cols: 4}},
		{"one", "1", 0, board.Size{Rows: 1, Cols: 1}},
		{"MaxSide", strconv.Itoa(board.MaxSide), 0, board.Size{Rows: board.MaxSide, Cols: board.MaxSide}},
		{"at max", "12", 12, board.Size{Rows: 12, Cols: 12}},
		{"max above MaxSide", strconv.Itoa(board.MaxSide), board.MaxSide * 4, board.Size{Rows: board.MaxSide, Cols: board.MaxSide}},
		{"leading zero", "08", 0, board.Size{Rows: 8, Cols: 8}},
		{"over max", "13", 12, board.Size{}},
		{"over MaxSide", strconv.Itoa(board.MaxSide + 1), 0, board.Size{}},
		{"over MaxSide with a larger max", strconv.Itoa(board.MaxSide + 1), board.MaxSide * 4, board.Size{}},
		{"zero", "0", 0, board.Size{}},
		{"zero side", "0x5", 0, board.Size{}},
		{"negative", "-8", 0, board.Size{}},
		{"plus", "+8", 0, board.Size{}},
		{"empty", "", 0, board.Size{}},
		{"missing columns", "8x", 0, board.Size{}},
		{"missing rows", "x8", 0, board.Size{}},
		{"two x", "8x8x8", 0, board.Size{}},
		{"word", "eight", 0, board.Size{}},
		{"decimal", "8.0", 0, board.Size{}},
		{"overflow", "99999999999999999999999", 0, board.Size{}},
		{"huge", strings.Repeat("9", 10<<20), 0, board.Size{}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := board.ParseSize(tc.in, tc.max)
			if tc.want == (board.Size{}) {
				if err == nil {
					t.Fatalf("ParseSize(%q, %d) = %v, nil; want an error", board.Clip(tc.in), tc.max, got)
				}
				if !errors.Is(err, board.ErrBadSize) {
					t.Errorf("ParseSize(%q, %d) error %v is not ErrBadSize", board.Clip(tc.in), tc.max, err)
				}
				if len(err.Error()) > 200 {
					t.Errorf("ParseSize(%q, %d) error is %d bytes long", board.Clip(tc.in), tc.max, len(err.Error()))
				}
				return
			}
			if err != nil || got != tc.want {
				t.Errorf("ParseSize(%q, %d) = %v, %v; want %v, nil", tc.in, tc.max, got, err, tc.want)
			}
		})
	}
}

func TestSizeMethods(t *testing.T) {
	z := board.Size{Rows: 6, Cols: 9}
	if got := z.String(); got != "6×9" {
		t.Errorf("%#v.String() = %q, want \"6×9\"", z, got)
	}
	if got := z.Squares(); got != 54 {
		t.Errorf("%v.Squares() = %d, want 54", z, got)
	}
	if got := board.SquareBoard(8); got != (board.Size{Rows: 8, Cols: 8}) {
		t.Errorf("SquareBoard(8) = %#v, want 8×8", got)
	}
	for _, tc := range []struct {
		name string
		sq   board.Square
		want bool
	}{
		{"top left", board.Square{Row: 0, Col: 0}, true},
		{"bottom right", board.Square{Row: 5, Col: 8}, true},
		{"row too large", board.Square{Row: 6, Col: 0}, false},
		{"col too large", board.Square{Row: 0, Col: 9}, false},
		{"negative row", board.Square{Row: -1, Col: 0}, false},
		{"negative col", board.Square{Row: 0, Col: -1}, false},
	} {
		if got := z.Contains(tc.sq); got != tc.want {
			t.Errorf("%v.Contains(%+v) = %v, want %v", z, tc.sq, got, tc.want)
		}
	}
}

func TestClip(t *testing.T) {
	for _, tc := range []struct {
		name string
		in   string
		want string
	}{
		{"short", "abc", "abc"},
		{"40 bytes", strings.Repeat("a", 40), strings.Repeat("a", 40)},
		{"41 bytes", strings.Repeat("a", 41), strings.Repeat("a", 40) + "…"},
		{"10 MB", strings.Repeat("b", 10<<20), strings.Repeat("b", 40) + "…"},
	} {
		if got := board.Clip(tc.in); got != tc.want {
			t.Errorf("Clip(%d bytes) = %q, want %q", len(tc.in), got, tc.want)
		}
	}
}
