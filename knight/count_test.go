package knight

import (
	"bufio"
	"context"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"testing"

	"github.com/chesspuzzles/chesspuzzles/board"
)

// TestCountKnownValues compares Count with the counts in testdata/known-values.txt, which
// come from the literature. The 6×6 open count takes about 10 s of CPU, but many times
// that under the race detector, so under -race that line is checked by
// TestCount6x6OpenNoRace instead; every other line runs here.
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
			if sz.Squares() == 36 && fs[1] == "open" && raceEnabled {
				t.Skip("6×6 open is checked without -race by TestCount6x6OpenNoRace")
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

// TestCount6x6OpenNoRace makes sure the 6×6 open count of testdata/known-values.txt is
// checked in every run: without -race TestCountKnownValues does it; under -race this test
// runs TestCountKnownValues/6x6_open in a child "go test" without -race and requires it to
// report PASS (not SKIP).
func TestCount6x6OpenNoRace(t *testing.T) {
	if !raceEnabled {
		return // TestCountKnownValues counts 6×6 itself
	}
	goBin, err := exec.LookPath("go")
	if err != nil {
		t.Fatalf("running the 6×6 count without -race needs the go command: %v", err)
	}
	cmd := exec.Command(goBin, "test", "-count=1", "-v", "-run", "^TestCountKnownValues$/^6x6_open", ".")
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("go test -run TestCountKnownValues/6x6_open (without -race): %v\n%s", err, out)
	}
	if !strings.Contains(string(out), "--- PASS: TestCountKnownValues/6x6_open") || strings.Contains(string(out), "--- SKIP") {
		t.Fatalf("go test -run TestCountKnownValues/6x6_open (without -race) did not pass:\n%s", out)
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
