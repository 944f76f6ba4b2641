package knight

import (
	"bytes"
	"context"
	"errors"
	"io"
	"slices"
	"strings"
	"testing"

	"github.com/chesspuzzles/chesspuzzles/board"
)

// TestRoundTrip writes tours in every notation and reads them back.
func TestRoundTrip(t *testing.T) {
	tests := []struct {
		name       string
		rows, cols int
		closed     bool
	}{
		{"8x8 closed", 8, 8, true},
		{"5x5 open", 5, 5, false},
		{"3x4 open", 3, 4, false},
		{"6x30 closed", 6, 30, true},
		{"1x1", 1, 1, false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			tour, err := Find(context.Background(), board.Size{Rows: tc.rows, Cols: tc.cols}, board.Square{Row: tc.rows - 1, Col: 0}, Options{Closed: tc.closed})
			if err != nil {
				t.Fatal(err)
			}
			for _, w := range []struct {
				name  string
				write func(*bytes.Buffer, Tour) error
			}{
				{"squares", func(b *bytes.Buffer, t Tour) error { return WriteSquares(context.Background(), b, t) }},
				{"json", func(b *bytes.Buffer, t Tour) error { return WriteJSON(context.Background(), b, t) }},
				{"board", func(b *bytes.Buffer, t Tour) error { return WriteBoard(context.Background(), b, t) }},
			} {
				var buf bytes.Buffer
				if err := w.write(&buf, tour); err != nil {
					t.Fatalf("%s: %v", w.name, err)
				}
				got, err := ParseTour(context.Background(), buf.String(), tour.Size())
				if err != nil {
					t.Fatalf("ParseTour(%s) = %v", w.name, err)
				}
				if got.Rows != tour.Rows || got.Cols != tour.Cols || !equal(got.Path, tour.Path) {
					t.Errorf("ParseTour(Write%s(tour)) differs from tour", w.name)
				}
				cancelled, cancel := context.WithCancel(context.Background())
				cancel()
				if _, err := ParseTour(cancelled, buf.String(), tour.Size()); !errors.Is(err, context.Canceled) {
					t.Errorf("ParseTour(cancelled, %s) = %v, want context.Canceled", w.name, err)
				}
			}
		})
	}
}

func equal(a, b []int32) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// TestCheckErrors checks that Tour.Check names the first bad step.
func TestCheckErrors(t *testing.T) {
	tests := []struct {
		name, text, want string
	}{
		{"not a move", "a1 a2 a3 a4", "step 2: a1 to a2 is not a knight's move"},
		{"twice", "a1 b3 a1 b3", "step 3: a1 visited twice"},
		{"short", "a1 b3 c1 a2", "4 squares visited, a tour of 3×3 visits 9"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			sz := board.Size{Rows: 3, Cols: 3}
			if tc.name != "short" {
				sz = board.Size{Rows: 4, Cols: 4}
			}
			tour, err := ParseTour(context.Background(), tc.text, sz)
			if err != nil {
				t.Fatal(err)
			}
			if err := tour.Check(); err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("Check(%q) = %v, want %q", tc.text, err, tc.want)
			}
		})
	}
}

// TestParseErrors checks that unreadable input gives ErrSyntax.
func TestParseErrors(t *testing.T) {
	for _, text := range []string{"", "hello", "a1 b2 c3", "{", `{"rows":0,"cols":3}`, `{"rows":3,"cols":3,"path":[[5,5]]}`, "1 2\n3", "1 2\n3 9", "z9 a1 a2 a3",
		`{"rows":2,"cols":2,"squares":[[0,0],[1]]}`, `{"rows":2,"cols":2,"squares":[[0,0],[1,1,1],[0,1]]}`, `{"rows":2,"cols":2,"path":["a1",[0,1]]}`,
		`{"rows":2,"cols":2,"squares":[[0,0],[1,1]`} {
		if _, err := ParseTour(context.Background(), text, board.Size{}); !errors.Is(err, ErrSyntax) {
			t.Errorf("ParseTour(%q) = %v, want ErrSyntax", text, err)
		}
	}
}

// TestParseJSONSquaresFirst checks that "squares", even empty, is read in place of "path",
// and that the keys may come in any order and any case.
func TestParseJSONSquaresFirst(t *testing.T) {
	for _, tc := range []struct {
		text string
		want []int32
	}{
		{`{"path":["a1","b3"],"squares":[],"rows":3,"cols":2}`, []int32{}},
		{`{"Squares":[[2,0],[0,1]],"path":["a2"],"ROWS":3,"cols":2}`, []int32{4, 1}},
		{`{"rows":3,"cols":2,"squares":null,"path":[[2,0],[0,1]]}`, []int32{4, 1}},
		{`{"rows":3,"cols":2,"path":["a1","b3"]}`, []int32{4, 1}},
	} {
		got, err := ParseTour(context.Background(), tc.text, board.Size{})
		if err != nil || got.Rows != 3 || got.Cols != 2 || !equal(got.Path, tc.want) {
			t.Errorf("ParseTour(%s) = %v, %v; want 3×2 path %v", tc.text, got, err, tc.want)
		}
	}
}

// FuzzParseTour checks that ParseTour never panics and that what it reads is checked
// without panicking and written back the same way.
func FuzzParseTour(f *testing.F) {
	for _, s := range []string{"a1 b3 c1", " 3  6  9 12\n 8 11  2  5\n 1  4  7 10\n", `{"rows":3,"cols":4,"path":[[2,0],[1,2]]}`, "1,1 2,3", "1"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		tour, err := ParseTour(context.Background(), s, board.Size{})
		if err != nil {
			return
		}
		if tour.Check() == nil {
			var buf bytes.Buffer
			if err := WriteSquares(t.Context(), &buf, tour); err != nil {
				t.Fatal(err)
			}
			back, err := ParseTour(context.Background(), buf.String(), tour.Size())
			if err != nil || !equal(back.Path, tour.Path) {
				t.Fatalf("round trip of %q failed: %v", s, err)
			}
		}
	})
}

// TestAccessibility compares the 8×8 table with the classic one: 2 in the corners, 8 in the
// middle 4×4, 3 next to the corners along the edge.
func TestAccessibility(t *testing.T) {
	want := []int{
		2, 3, 4, 4, 4, 4, 3, 2,
		3, 4, 6, 6, 6, 6, 4, 3,
		4, 6, 8, 8, 8, 8, 6, 4,
		4, 6, 8, 8, 8, 8, 6, 4,
		4, 6, 8, 8, 8, 8, 6, 4,
		4, 6, 8, 8, 8, 8, 6, 4,
		3, 4, 6, 6, 6, 6, 4, 3,
		2, 3, 4, 4, 4, 4, 3, 2,
	}
	got, err := Accessibility(board.SquareBoard(8), nil)
	if err != nil {
		t.Fatal(err)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("Accessibility(8×8)[%d] = %d, want %d", i, got[i], want[i])
		}
	}
	if _, err := Accessibility(board.SquareBoard(8), []board.Square{{Row: 7, Col: 0}, {Row: 7, Col: 1}}); err == nil {
		t.Errorf("Accessibility with a non-move = nil error")
	}
}

// failAfter accepts n bytes, then fails every write.
type failAfter struct{ n int }

var errWriteFailed = errors.New("write failed")

func (w *failAfter) Write(p []byte) (int, error) {
	if w.n <= 0 {
		return 0, errWriteFailed
	}
	w.n -= len(p)
	return len(p), nil
}

// TestWritersStopAtFailedWrite checks that each writer of a tour returns the first write
// error and stops writing: a closed pipe or Ctrl-C must not wait for the rest of the tour.
func TestWritersStopAtFailedWrite(t *testing.T) {
	tour, err := Find(t.Context(), board.Size{Rows: 300, Cols: 300}, board.Square{}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	for _, tt := range []struct {
		name   string
		write  func(context.Context, io.Writer, Tour) error
		allocs bool // whether writing allocates a square, which shows going on
	}{{"squares", WriteSquares, true}, {"json", WriteJSON, false}, {"board", WriteBoard, true}} {
		t.Run(tt.name, func(t *testing.T) {
			w := &failAfter{n: 1 << 16}
			if err := tt.write(t.Context(), w, tour); !errors.Is(err, errWriteFailed) {
				t.Fatalf("error %v, want %v", err, errWriteFailed)
			}
			if !tt.allocs {
				return
			}
			// Going on after the failure formats the rest of the 90,000 squares, allocating
			// as much as writing them all; stopping after the first 64 KB allocates a
			// small part of that.
			failed := testing.AllocsPerRun(1, func() { tt.write(t.Context(), &failAfter{n: 1 << 16}, tour) })
			all := testing.AllocsPerRun(1, func() { tt.write(t.Context(), io.Discard, tour) })
			if failed > all/2 {
				t.Errorf("%.0f allocations after a failed write, %.0f writing it all: it went on after the write failed", failed, all)
			}
		})
	}
}

// TestWritersStopWhenCancelled holds each writer of a tour to returning ctx.Err(), having
// written nothing, when its context is done before it starts.
func TestWritersStopWhenCancelled(t *testing.T) {
	tour, err := Find(t.Context(), board.Size{Rows: 300, Cols: 300}, board.Square{}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(t.Context())
	cancel()
	for _, tt := range []struct {
		name  string
		write func(context.Context, io.Writer, Tour) error
	}{{"squares", WriteSquares}, {"json", WriteJSON}, {"board", WriteBoard}} {
		var b bytes.Buffer
		if err := tt.write(ctx, &b, tour); !errors.Is(err, context.Canceled) || b.Len() > 0 {
			t.Errorf("%s with a cancelled context: error %v after %d bytes, want context.Canceled after none", tt.name, err, b.Len())
		}
	}
}

// TestWriteBoardBands holds writeBoard to the same board whether it finds the move numbers
// in one pass or in bands of rows (as a board of more than 2^24 squares is written), down
// to a band of one row, and to a board that reads back as the tour.
func TestWriteBoardBands(t *testing.T) {
	tour, err := Find(t.Context(), board.Size{Rows: 13, Cols: 17}, board.Square{Row: 4, Col: 6}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	var whole bytes.Buffer
	if err := writeBoard(t.Context(), &whole, tour, boardBand); err != nil {
		t.Fatal(err)
	}
	back, err := ParseTour(context.Background(), whole.String(), board.Size{})
	if err != nil || !slices.Equal(back.Path, tour.Path) {
		t.Fatalf("the board written in one pass reads back as %v, %v, want the tour", back.Path, err)
	}
	for _, band := range []int{1, 17, 18, 40, 13*17 - 1} {
		var b bytes.Buffer
		if err := writeBoard(t.Context(), &b, tour, band); err != nil {
			t.Fatal(err)
		}
		if b.String() != whole.String() {
			t.Errorf("writeBoard in bands of %d squares wrote\n%s\nwant\n%s", band, b.String(), whole.String())
		}
	}
}
