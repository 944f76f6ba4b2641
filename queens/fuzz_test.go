package queens_test

import (
	"slices"
	"strings"
	"testing"

	"golang.org/x/tools/txtar"

	"github.com/chesspuzzles/chesspuzzles/queens"
)

// FuzzParse: Parse never panics; a position it returns has N from 1 to MaxParseN and every
// queen on the board; and a position with at most one queen a row, written in code or perm
// notation, reads back as the same position. The seed corpus is testdata/notation.txtar and
// testdata/fuzz/FuzzParse.
func FuzzParse(f *testing.F) {
	ar, err := txtar.ParseFile("testdata/notation.txtar")
	if err != nil {
		f.Fatal(err)
	}
	for _, file := range ar.Files {
		s := strings.TrimSuffix(string(file.Data), "\n")
		f.Add(s, 0)
		_, name, _ := strings.Cut(file.Name, "/")
		f.Add(name+":"+s, 0)
	}
	for _, s := range []string{"", "13572468", "10863724", "(1,1) (9,9)", "a9", "e4 e4", "Q.\n.Q", "board:..\n..", "1,.,6", "0,-,2", "(1,1", "a1000000000"} {
		f.Add(s, 0)
		f.Add(s, 8)
	}
	f.Fuzz(func(t *testing.T, s string, n int) {
		pos, err := queens.Parse(s, n)
		if err != nil {
			if msg := err.Error(); len(msg) > 1000 || strings.Contains(msg, "\n") {
				t.Fatalf("Parse(%q, %d) error is not one short line: %q", s, n, msg)
			}
			return
		}
		if pos.N < 1 || pos.N > queens.MaxParseN {
			t.Fatalf("Parse(%q, %d).N = %d, want 1 to %d", s, n, pos.N, queens.MaxParseN)
		}
		if n > 0 && pos.N != n {
			t.Fatalf("Parse(%q, %d).N = %d, want %d as given", s, n, pos.N, n)
		}
		for _, q := range pos.Queens {
			if q.Row < 0 || q.Row >= pos.N || q.Col < 0 || q.Col >= pos.N {
				t.Fatalf("Parse(%q, %d) has a queen at %+v, off the %d×%d board", s, n, q, pos.N, pos.N)
			}
		}
		if pos.N > 1000 {
			return // Placement and Check allocate in proportion to N
		}
		rep := queens.Check(pos)
		if rep.Queens != len(pos.Queens) {
			t.Fatalf("Check(Parse(%q, %d)).Queens = %d, want %d", s, n, rep.Queens, len(pos.Queens))
		}
		p, ok := pos.Placement()
		if !ok {
			return
		}
		for _, nt := range []queens.Notation{queens.Code, queens.Perm} {
			text := p.Format(nt)
			back, err := queens.Parse(nt.String()+":"+text, pos.N)
			if err != nil {
				t.Fatalf("Parse(%q) of Format(%v) of Parse(%q, %d): %v", text, nt, s, n, err)
			}
			if back.N != pos.N || !slices.Equal(sortedSquares(back.Queens), sortedSquares(pos.Queens)) {
				t.Fatalf("Parse(%q) = %v, want %v (from Parse(%q, %d))", text, back, pos, s, n)
			}
		}
	})
}
