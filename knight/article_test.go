package knight_test

import (
	"bufio"
	"errors"
	"fmt"
	"os"
	"strings"
	"testing"

	"github.com/chesspuzzles/chesspuzzles/board"
	"github.com/chesspuzzles/chesspuzzles/knight"
)

// articleBoards reads testdata/article.txt: what the article's program prints from each
// start, keyed by [x, y] (x the printed column, y the printed row).
func articleBoards(t *testing.T) map[[2]int][8][8]int {
	t.Helper()
	f, err := os.Open("testdata/article.txt")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	out := map[[2]int][8][8]int{}
	sc := bufio.NewScanner(f)
	var key [2]int
	row := -1
	var b [8][8]int
	for sc.Scan() {
		line := sc.Text()
		switch {
		case strings.HasPrefix(line, "#"), strings.TrimSpace(line) == "":
		case strings.HasPrefix(line, "start"):
			if _, err := fmt.Sscanf(line, "start x=%d y=%d", &key[0], &key[1]); err != nil {
				t.Fatalf("bad line %q", line)
			}
			row = 0
		default:
			fs := strings.Fields(line)
			if len(fs) != 8 || row < 0 || row > 7 {
				t.Fatalf("bad line %q", line)
			}
			for c, f := range fs {
				fmt.Sscan(f, &b[row][c])
			}
			row++
			if row == 8 {
				out[key] = b
				row = -1
			}
		}
	}
	if len(out) != 64 {
		t.Fatalf("article.txt has %d boards, want 64", len(out))
	}
	return out
}

// articleProgram does what the article's program does, written the way it is (b[x][y],
// moves as (dx, dy), a chosen square kept across steps, no dead-end check), and returns the
// board it prints, row y, column x.
func articleProgram(x0, y0 int) (printed [8][8]int) {
	dx := [8]int{2, 1, -1, -2, -2, -1, 1, 2}
	dy := [8]int{-1, -2, -2, -1, 1, 2, 2, 1}
	var b, acc [8][8]int
	in := func(x, y int) bool { return x >= 0 && x < 8 && y >= 0 && y < 8 }
	for x := range 8 {
		for y := range 8 {
			for m := range 8 {
				if in(x+dx[m], y+dy[m]) {
					acc[x][y]++
				}
			}
		}
	}
	x, y := x0, y0
	cx, cy := x0, y0
	for k := 1; k <= 64; k++ {
		b[x][y] = k
		minAcc, minA, minB := 8, 8, 8
		for m := range 8 {
			tx, ty := x+dx[m], y+dy[m]
			if !in(tx, ty) {
				continue
			}
			acc[tx][ty]--
			if acc[tx][ty] < minAcc && b[tx][ty] == 0 {
				minAcc = acc[tx][ty]
				cx, cy = tx, ty
				wx, wy := tx, ty
				for mm := range 8 {
					wx, wy = wx+dx[mm], wy+dy[mm]
					if in(wx, wy) && b[wx][wy] == 0 && acc[wx][wy] <= minA {
						minA = acc[wx][wy]
					}
				}
			}
			if acc[tx][ty] == minAcc && b[tx][ty] == 0 {
				wx, wy := tx, ty
				for mm := range 8 {
					wx, wy = wx+dx[mm], wy+dy[mm]
					if in(wx, wy) && b[wx][wy] == 0 && acc[wx][wy] <= minB {
						minB = acc[wx][wy]
					}
				}
				if minB < minA {
					cx, cy = tx, ty
				}
			}
		}
		x, y = cx, cy
	}
	for x := range 8 {
		for y := range 8 {
			printed[y][x] = b[x][y]
		}
	}
	return printed
}

func TestArticleProgramReading(t *testing.T) {
	// The rule as read from the reference reproduces every printed board, the broken one too.
	for key, want := range articleBoards(t) {
		if got := articleProgram(key[0], key[1]); got != want {
			t.Errorf("program from x=%d y=%d prints %v, reference %v", key[0], key[1], got, want)
		}
	}
}

func TestArticleMethod(t *testing.T) {
	boards := articleBoards(t)
	tours := 0
	for key, want := range boards {
		start := board.Square{Row: key[1], Col: key[0]}
		name := board.SquareBoard(8).Name(start)
		tour, err := knight.Find(t.Context(), board.Size{Rows: 8, Cols: 8}, start, knight.Options{Method: knight.Article})
		if key == [2]int{1, 3} {
			// The program's broken board: 1…59 in place, the 60th square overwritten by
			// 61…64, four squares never visited.
			if !errors.Is(err, knight.ErrDeadEnd) || !strings.Contains(err.Error(), "after 60 of 64 squares") || !strings.Contains(err.Error(), "4 squares left") {
				t.Errorf("Find(%s, article) = %v, want a dead end after 60 of 64 squares, 4 left", name, err)
			}
			continue
		}
		if err != nil {
			t.Errorf("Find(%s, article): %v", name, err)
			continue
		}
		if err := tour.Check(); err != nil {
			t.Fatalf("Find(%s, article) is not a tour: %v", name, err)
		}
		var got [8][8]int
		for i := range tour.Len() {
			sq := tour.Square(i)
			got[sq.Row][sq.Col] = i + 1
		}
		if got != want {
			t.Errorf("Find(%s, article) = %v, the program prints %v", name, got, want)
		}
		tours++
	}
	if tours != 63 {
		t.Errorf("%d tours, want 63", tours)
	}
}

func TestArticleDeadEndPath(t *testing.T) {
	// Where the program dead-ends, the method's path is the program's 60 squares: 1…59 as
	// printed, the 60th (e1) overwritten with 64 by the program.
	want := articleBoards(t)[[2]int{1, 3}]
	_, err := knight.Find(t.Context(), board.Size{Rows: 8, Cols: 8}, board.Square{Row: 3, Col: 1}, knight.Options{Method: knight.Article})
	var de *knight.DeadEndError
	if !errors.As(err, &de) {
		t.Fatalf("error %v, want a *DeadEndError", err)
	}
	if !strings.Contains(err.Error(), "stuck on e1") {
		t.Errorf("error %q, want it to say stuck on e1", err)
	}
	if de.Stuck.Len() != 60 {
		t.Fatalf("stuck after %d squares, want 60", de.Stuck.Len())
	}
	for i := range 60 {
		sq := de.Stuck.Square(i)
		w := i + 1
		if i == 59 {
			w = 64
		}
		if want[sq.Row][sq.Col] != w {
			t.Errorf("square %d of the path is %v, which the program numbers %d", i+1, sq, want[sq.Row][sq.Col])
		}
	}
}
