package render

import (
	"bytes"
	"context"
	"encoding/xml"
	"flag"
	"fmt"
	"image"
	"image/color"
	"image/png"
	"io"
	"os"
	"strconv"
	"strings"
	"testing"

	"github.com/chesspuzzles/chesspuzzles/board"
	"github.com/chesspuzzles/chesspuzzles/queens"
	"golang.org/x/tools/txtar"
)

var update = flag.Bool("update", false, "rewrite testdata/svg.txtar from the current output")

// knight5 is the first eight moves of a tour of the 5×5 board from a5, all knight's moves:
//
//	1 . . . 3
//	. . 2 . .
//	. 8 . 4 .
//	. . 6 . .
//	7 . . . 5
var knight5 = sqs(0, 0, 1, 2, 0, 4, 2, 3, 4, 4, 3, 2, 4, 0, 2, 1)

// sqs returns the squares (row, col) given as pairs.
func sqs(rc ...int) []board.Square {
	out := make([]board.Square, 0, len(rc)/2)
	for i := 0; i+1 < len(rc); i += 2 {
		out = append(out, board.Square{Row: rc[i], Col: rc[i+1]})
	}
	return out
}

func mustParse(t testing.TB, s string, n int) queens.Position {
	t.Helper()
	pos, err := queens.Parse(s, n)
	if err != nil {
		t.Fatalf("Parse(%q): %v", s, err)
	}
	return pos
}

// svgCases are the pictures kept as golden files.
func svgCases(t testing.TB) []struct {
	name string
	draw func(io.Writer) error
} {
	return []struct {
		name string
		draw func(io.Writer) error
	}{
		{"queens4.svg", func(w io.Writer) error {
			return SVG(w, CheckedQueens(mustParse(t, "2413", 0)), Options{Square: 20})
		}},
		{"conflict3.svg", func(w io.Writer) error {
			return SVG(w, CheckedQueens(mustParse(t, "a3 c3", 3)), Options{Square: 20})
		}},
		{"attacked3.svg", func(w io.Writer) error {
			q := CheckedQueens(mustParse(t, "b2", 3))
			q.Attacked = true
			return SVG(w, q, Options{Square: 20})
		}},
		{"tour5.svg", func(w io.Writer) error {
			return SVG(w, Tour{Size: board.SquareBoard(5), Path: knight5[:4], Closed: true}, Options{Square: 20})
		}},
		{"path40.svg", func(w io.Writer) error {
			return SVG(w, Tour{Size: board.SquareBoard(40), Path: sqs(0, 0, 1, 2, 0, 4)}, Options{Square: 4})
		}},
	}
}

// TestSVGGolden compares each picture with its copy in testdata/svg.txtar, written by
// "go test -update" and checked by eye (and by the tests below) when it was made.
func TestSVGGolden(t *testing.T) {
	const file = "testdata/svg.txtar"
	ar, err := txtar.ParseFile(file)
	if err != nil && !*update {
		t.Fatal(err)
	}
	want := map[string]string{}
	if ar != nil {
		for _, f := range ar.Files {
			want[f.Name] = string(f.Data)
		}
	}
	out := &txtar.Archive{Comment: []byte("Golden SVG pictures of package render; regenerate with go test ./render -update.\n")}
	for _, c := range svgCases(t) {
		var b bytes.Buffer
		if err := c.draw(&b); err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		out.Files = append(out.Files, txtar.File{Name: c.name, Data: b.Bytes()})
		if !*update && b.String() != want[c.name] {
			t.Errorf("%s differs from %s:\ngot:\n%s\nwant:\n%s", c.name, file, b.String(), want[c.name])
		}
	}
	if *update {
		if err := os.WriteFile(file, txtar.Format(out), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// svgCount parses an SVG document with encoding/xml and counts its elements by class word.
func svgCount(t *testing.T, doc []byte) map[string]int {
	t.Helper()
	d := xml.NewDecoder(bytes.NewReader(doc))
	counts := map[string]int{}
	root := ""
	for {
		tok, err := d.Token()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatalf("SVG does not parse as XML: %v\n%s", err, doc)
		}
		if se, ok := tok.(xml.StartElement); ok {
			if root == "" {
				root = se.Name.Local
				if se.Name.Space != "http://www.w3.org/2000/svg" {
					t.Errorf("root namespace %q, want the SVG namespace", se.Name.Space)
				}
			}
			for _, a := range se.Attr {
				if a.Name.Local == "class" {
					for _, w := range strings.Fields(a.Value) {
						counts[w]++
					}
				}
			}
			counts["<"+se.Name.Local+">"]++
		}
	}
	if root != "svg" {
		t.Errorf("root element %q, want svg", root)
	}
	return counts
}

func TestSVGContents(t *testing.T) {
	tests := []struct {
		name string
		draw func(io.Writer) error
		want map[string]int
	}{
		{"8 queens, solution", func(w io.Writer) error {
			return SVG(w, CheckedQueens(mustParse(t, "15863724", 0)), Options{})
		}, map[string]int{"queen": 8, "conflict": 0, "attack": 0, "dark": 32, "file": 8, "rank": 8}},
		{"row and diagonal conflicts", func(w io.Writer) error {
			// a8 and e8 share a row; a8 and h1 a diagonal.
			return SVG(w, CheckedQueens(mustParse(t, "a8 e8 h1", 8)), Options{})
		}, map[string]int{"queen": 3, "conflict": 3, "attack": 2}},
		{"tour of 8 moves, closed", func(w io.Writer) error {
			return SVG(w, Tour{Size: board.SquareBoard(5), Path: knight5, Closed: true}, Options{})
		}, map[string]int{"move": 8, "start": 1, "end": 1, "closing": 1, "path": 1, "dark": 13}},
		{"tour open", func(w io.Writer) error {
			return SVG(w, Tour{Size: board.Size{Rows: 5, Cols: 5}, Path: knight5}, Options{})
		}, map[string]int{"move": 8, "closing": 0}},
		{"large board: path alone", func(w io.Writer) error {
			return SVG(w, Tour{Size: board.SquareBoard(33), Path: knight5}, Options{})
		}, map[string]int{"move": 0, "dark": 0, "file": 0, "path": 1, "start": 1, "end": 1}},
		{"large queens board: dots", func(w io.Writer) error {
			return SVG(w, CheckedQueens(mustParse(t, "1,3", 40)), Options{})
		}, map[string]int{"queen": 2, "<use>": 0, "file": 0}},
		{"text is escaped", func(w io.Writer) error {
			s := &scene{w: 10, h: 10}
			s.add(shape{kind: kindText, text: `<&">`, size: 5})
			return writeSVG(w, s)
		}, map[string]int{"<text>": 1}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var b bytes.Buffer
			if err := tt.draw(&b); err != nil {
				t.Fatal(err)
			}
			got := svgCount(t, b.Bytes())
			for k, v := range tt.want {
				if got[k] != v {
					t.Errorf("%d elements %q, want %d", got[k], k, v)
				}
			}
		})
	}
}

func TestErrors(t *testing.T) {
	tests := []struct {
		name string
		draw func(io.Writer) error
	}{
		{"N zero", func(w io.Writer) error { return SVG(w, Queens{N: 0}, Options{}) }},
		{"N too large", func(w io.Writer) error { return PNG(context.Background(), w, Queens{N: MaxSide + 1}, Options{}) }},
		{"queen off board", func(w io.Writer) error {
			return SVG(w, Queens{N: 4, Queens: sqs(4, 0)}, Options{})
		}},
		{"square too large", func(w io.Writer) error { return SVG(w, Queens{N: 4}, Options{Square: 1000}) }},
		{"path off board", func(w io.Writer) error {
			return SVG(w, Tour{Size: board.SquareBoard(3), Path: sqs(0, 0, 3, 1)}, Options{})
		}},
		{"path too long", func(w io.Writer) error {
			return PNG(context.Background(), w, Tour{Size: board.SquareBoard(1), Path: sqs(0, 0, 0, 0)}, Options{})
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if err := tt.draw(io.Discard); err == nil {
				t.Errorf("drawing succeeded, want an error")
			}
		})
	}
}

func decodePNG(t *testing.T, draw func(io.Writer) error) image.Image {
	t.Helper()
	var b bytes.Buffer
	if err := draw(&b); err != nil {
		t.Fatal(err)
	}
	img, err := png.Decode(&b)
	if err != nil {
		t.Fatalf("png.Decode: %v", err)
	}
	return img
}

func near(a, b color.Color, tol int) bool {
	r1, g1, b1, _ := a.RGBA()
	r2, g2, b2, _ := b.RGBA()
	d := func(x, y uint32) bool { return abs(int(x>>8)-int(y>>8)) <= tol }
	return d(r1, r2) && d(g1, g2) && d(b1, b2)
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}

func TestPNGQueens(t *testing.T) {
	const sq = 40
	// 2413 on 4×4: queens b4, d3, a2, c1.
	img := decodePNG(t, func(w io.Writer) error {
		return PNG(context.Background(), w, CheckedQueens(mustParse(t, "2413", 0)), Options{Square: sq})
	})
	margin, pad := sq*3/5, sq/8
	if got, want := img.Bounds().Size(), image.Pt(margin+4*sq+pad, pad+4*sq+margin); got != want {
		t.Fatalf("size %v, want %v", got, want)
	}
	// The pixel near the top-left corner of each square shows the square's colour: a4
	// (row 0, col 0) is light, b4 dark, a1 dark.
	corner := func(r, c int) color.Color { return img.At(margin+c*sq+3, pad+r*sq+3) }
	for r := range 4 {
		for c := range 4 {
			want := colorLight
			if (r+c)%2 == 1 {
				want = colorDark
			}
			if got := corner(r, c); !near(got, want, 2) {
				t.Errorf("square row %d col %d: colour %v, want %v", r, c, got, want)
			}
		}
	}
	// The middle of the crown of each queen is the queen's colour; the middle of an empty
	// square is the square's.
	mid := func(r, c int) color.Color { return img.At(margin+c*sq+sq/2, pad+r*sq+sq*65/100) }
	for r, c := range []int{1, 3, 0, 2} {
		if got := mid(r, c); !near(got, colorQueen, 8) {
			t.Errorf("queen at row %d col %d: colour %v, want %v", r, c, got, colorQueen)
		}
	}
	if got := mid(0, 0); !near(got, colorLight, 2) {
		t.Errorf("empty square a4: colour %v, want %v", got, colorLight)
	}
}

func TestPNGConflict(t *testing.T) {
	const sq = 40
	// a3 and c3 attack along the top row of a 3×3 board: red queens, a red line between.
	img := decodePNG(t, func(w io.Writer) error {
		return PNG(context.Background(), w, CheckedQueens(mustParse(t, "a3 c3", 3)), Options{Square: sq})
	})
	margin, pad := sq*3/5, sq/8
	midLine := img.At(margin+sq+sq/2, pad+sq/2) // centre of b3, on the line
	if !near(midLine, colorConflict, 8) {
		t.Errorf("between the queens: colour %v, want red %v", midLine, colorConflict)
	}
	queen := img.At(margin+sq/2, pad+sq*65/100)
	if !near(queen, colorConflict, 8) {
		t.Errorf("queen a3: colour %v, want red %v", queen, colorConflict)
	}
}

func TestPNGTour(t *testing.T) {
	const sq = 40
	img := decodePNG(t, func(w io.Writer) error {
		return PNG(context.Background(), w, Tour{Size: board.Size{Rows: 5, Cols: 5}, Path: knight5}, Options{Square: sq})
	})
	margin, pad := sq*3/5, sq/8
	// The start ring crosses the middle of a5's left edge region; the end ring b3's.
	ring := sq*42/100 - sq*8/100/2
	start := img.At(margin+sq/2-ring, pad+sq/2)
	if !near(start, colorStart, 20) {
		t.Errorf("start ring: colour %v, want green %v", start, colorStart)
	}
	end := img.At(margin+sq+sq/2-ring, pad+2*sq+sq/2)
	if !near(end, colorEnd, 20) {
		t.Errorf("end ring: colour %v, want red %v", end, colorEnd)
	}
	// The number in the start square is drawn: some pixel in its middle is dark.
	dark := false
	for y := pad + sq/3; y < pad+sq*2/3; y++ {
		for x := margin + sq/3; x < margin+sq*2/3; x++ {
			r, g, b, _ := img.At(x, y).RGBA()
			if r>>8 < 80 && g>>8 < 80 && b>>8 < 80 {
				dark = true
			}
		}
	}
	if !dark {
		t.Errorf("no move number drawn in the start square")
	}
}

func TestPNGLarge(t *testing.T) {
	img := decodePNG(t, func(w io.Writer) error {
		return PNG(context.Background(), w, Tour{Size: board.SquareBoard(100), Path: knight5}, Options{})
	})
	if w := img.Bounds().Dx(); w < 100 || w > 2000 {
		t.Errorf("100×100 picture is %d pixels wide, want 100 to 2000", w)
	}
}

func TestQueensText(t *testing.T) {
	pos := mustParse(t, "2413", 0)
	tests := []struct {
		name string
		opts TextOptions
		want string
	}{
		{"plain", TextOptions{}, ".Q..\n...Q\nQ...\n..Q.\n"},
		{"unicode", TextOptions{Unicode: true}, "4 · ♛ · ░\n3 ░ · ░ ♛\n2 ♛ ░ · ░\n1 ░ · ♛ ·\n  a b c d\n"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var b strings.Builder
			if err := QueensText(&b, pos, tt.opts); err != nil {
				t.Fatal(err)
			}
			if b.String() != tt.want {
				t.Errorf("QueensText =\n%s\nwant\n%s", b.String(), tt.want)
			}
		})
	}
	t.Run("color", func(t *testing.T) {
		var b strings.Builder
		QueensText(&b, pos, TextOptions{Unicode: true, Color: true})
		if !strings.Contains(b.String(), "\x1b[48;5;") || strings.Count(b.String(), "♛") != 4 {
			t.Errorf("colour board lacks ANSI backgrounds or queens:\n%q", b.String())
		}
	})
	t.Run("conflict", func(t *testing.T) {
		p := mustParse(t, "a2 b1", 2)
		var b strings.Builder
		QueensText(&b, p, TextOptions{Unicode: true, Attacks: queens.Check(p).Attacks})
		if want := "2 ♕ ░\n1 ░ ♕\n  a b\n"; b.String() != want {
			t.Errorf("QueensText =\n%s\nwant\n%s", b.String(), want)
		}
	})
}

func TestColorAllowed(t *testing.T) {
	t.Setenv("NO_COLOR", "1")
	if ColorAllowed() {
		t.Errorf("ColorAllowed() = true with NO_COLOR=1")
	}
	t.Setenv("NO_COLOR", "")
	if !ColorAllowed() {
		t.Errorf("ColorAllowed() = false with NO_COLOR empty")
	}
}

func BenchmarkQueensPNG8(b *testing.B) {
	pos, _ := queens.Parse("15863724", 0)
	q := CheckedQueens(pos)
	for b.Loop() {
		if err := PNG(context.Background(), io.Discard, q, Options{}); err != nil {
			b.Fatal(err)
		}
	}
}

func ExampleQueensText() {
	pos, _ := queens.Parse("2413", 0)
	QueensText(os.Stdout, pos, TextOptions{Unicode: true})
	// Output:
	// 4 · ♛ · ░
	// 3 ░ · ░ ♛
	// 2 ♛ ░ · ░
	// 1 ░ · ♛ ·
	//   a b c d
}

func ExampleSVG() {
	pos, _ := queens.Parse("2413", 0)
	var b bytes.Buffer
	SVG(&b, CheckedQueens(pos), Options{})
	fmt.Println(strings.Count(b.String(), `class="queen"`), "queens")
	// Output: 4 queens
}

// TestGrid: rank numbers right-aligned at the left, cells right-aligned in columns, file
// names under them; numbered files past 26 columns widen every column.
func TestGrid(t *testing.T) {
	for _, c := range []struct {
		name string
		sz   board.Size
		cell func(board.Square) string
		want string
	}{
		{"3x4", board.Size{Rows: 3, Cols: 4}, func(sq board.Square) string { return strconv.Itoa(sq.Row*4 + sq.Col) },
			"3   0  1  2  3\n2   4  5  6  7\n1   8  9 10 11\n    a  b  c  d\n"},
		{"10x2", board.Size{Rows: 10, Cols: 2}, func(sq board.Square) string { return "." },
			"10  . .\n 9  . .\n 8  . .\n 7  . .\n 6  . .\n 5  . .\n 4  . .\n 3  . .\n 2  . .\n 1  . .\n    a b\n"},
		{"1x27", board.Size{Rows: 1, Cols: 27}, func(sq board.Square) string { return "N" },
			"1 " + strings.Repeat("  N", 27) + "\n    1  2  3  4  5  6  7  8  9 10 11 12 13 14 15 16 17 18 19 20 21 22 23 24 25 26 27\n"},
	} {
		t.Run(c.name, func(t *testing.T) {
			var b strings.Builder
			if err := Grid(&b, c.sz, c.cell); err != nil {
				t.Fatal(err)
			}
			if got := b.String(); got != c.want {
				t.Errorf("Grid =\n%s\nwant\n%s", got, c.want)
			}
		})
	}
}
