package knight

import (
	"bufio"
	"context"
	"os"
	"strconv"
	"strings"
	"testing"

	"github.com/chesspuzzles/chesspuzzles/board"
)

// TestCountKnownValues compares Count with the counts in testdata/known-values.txt, which
// come from the literature. The 6×6 open count (half a minute, minutes under -race) runs
// only when CHESSPUZZLES_LONG is set; every other line runs always.
func TestCountKnownValues(t *testing.T) {
	f, err := os.Open("testdata/known-values.txt")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := sc.Text()
		if strings.HasPrefix(line, "#") || strings.TrimSpace(line) == "" {
			continue
		}
		fs := strings.Fields(line)
		name := fs[0] + " " + fs[1] + " " + fs[2]
		t.Run(name, func(t *testing.T) {
			sz, err := board.ParseSize(fs[0], 0)
			if err != nil {
				t.Fatal(err)
			}
			want, _ := strconv.ParseInt(fs[3], 10, 64)
			if sz.Squares() == 36 && fs[1] == "open" && os.Getenv("CHESSPUZZLES_LONG") == "" {
				t.Skip("6×6 open count takes minutes under -race; set CHESSPUZZLES_LONG=1")
			}
			opts := CountOptions{Closed: fs[1] == "closed"}
			if fs[2] != "all" && fs[2] != "-" {
				sq, err := sz.ParseSquare(fs[2])
				if err != nil {
					t.Fatal(err)
				}
				opts.Start = &sq
			}
			got, err := Count(context.Background(), sz.Rows, sz.Cols, opts)
			if err != nil || got != want {
				t.Errorf("Count(%s, %s, start %s) = %d, %v; want %d", sz, fs[1], fs[2], got, err, want)
			}
		})
	}
}

// TestCountMinorityColour checks that none of the 12 minority-colour squares of 5×5 starts a
// tour, and that the per-square counts add up to the total.
func TestCountMinorityColour(t *testing.T) {
	var sum int64
	for r := 0; r < 5; r++ {
		for c := 0; c < 5; c++ {
			sq := board.Square{Row: r, Col: c}
			k, err := Count(context.Background(), 5, 5, CountOptions{Start: &sq})
			if err != nil {
				t.Fatal(err)
			}
			if (r+c)%2 == 1 && k != 0 {
				t.Errorf("Count(5×5 from %v) = %d, want 0", sq, k)
			}
			sum += k
		}
	}
	if sum != 1728 {
		t.Errorf("sum of Count(5×5 from each square) = %d, want 1728", sum)
	}
}

// TestCountCancel checks that a cancelled context stops a count.
func TestCountCancel(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := Count(ctx, 6, 6, CountOptions{}); err == nil {
		t.Errorf("Count(cancelled, 6×6) = nil error, want context.Canceled")
	}
}
