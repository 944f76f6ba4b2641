package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/chesspuzzles/chesspuzzles/queens"
)

// TestCheckBoundedOutput checks "queens check" of a large hostile position (issue 11.5):
// 300,000 queens in random columns, so about a third of them attack along a column or a
// diagonal. The output lists the first --max-attacks pairs and no more, and the count of
// pairs is exact: counted here independently, as the sum over all lines of (queens on the
// line - 1), in slices.
func TestCheckBoundedOutput(t *testing.T) {
	const n = 300_000
	rng := rand.New(rand.NewPCG(11, 5))
	cols := make([]int, n)
	var text strings.Builder
	for r := range cols {
		cols[r] = rng.IntN(n)
		fmt.Fprintf(&text, "%d ", cols[r]+1) // code: 1-based
	}
	// Queens on each column, diagonal (c-r, shifted by n) and anti-diagonal (c+r): slices,
	// not maps, which cost seconds under -race at this size.
	column, diagonal, anti := make([]int, n), make([]int, 2*n), make([]int, 2*n)
	for r, c := range cols {
		column[c]++
		diagonal[c-r+n]++
		anti[c+r]++
	}
	var want int64
	for _, line := range [][]int{column, diagonal, anti} {
		for _, k := range line {
			if k > 0 {
				want += int64(k - 1)
			}
		}
	}

	for _, tt := range []struct {
		name  string
		args  []string
		shown int
	}{
		{"json default", []string{"--json"}, 1000},
		{"json max 7", []string{"--json", "--max-attacks", "7"}, 7},
		{"json count only", []string{"--json", "--max-attacks", "0"}, 0},
	} {
		t.Run(tt.name, func(t *testing.T) {
			var stdout, stderr bytes.Buffer
			code := execute(context.Background(), append([]string{"queens", "check"}, tt.args...), strings.NewReader(text.String()), &stdout, &stderr)
			if code != exitNo {
				t.Fatalf("exit %d, want %d; stderr: %s", code, exitNo, &stderr)
			}
			if stdout.Len() > 200+80*tt.shown {
				t.Errorf("output of %d bytes for %d pairs listed: not bounded", stdout.Len(), tt.shown)
			}
			var got queens.CheckRecord
			if err := json.Unmarshal(stdout.Bytes(), &got); err != nil {
				t.Fatal(err)
			}
			if got.AttacksTotal != want || len(got.Attacks) != tt.shown || got.Queens != n || got.Solved {
				t.Errorf("attacks_total %d, %d listed, %d queens, solved %v; want %d, %d, %d, false", got.AttacksTotal, len(got.Attacks), got.Queens, got.Solved, want, tt.shown, n)
			}
		})
	}
	t.Run("text", func(t *testing.T) {
		var stdout, stderr bytes.Buffer
		code := execute(context.Background(), []string{"queens", "check", "--max-attacks", "3"}, strings.NewReader(text.String()), &stdout, &stderr)
		if code != exitNo {
			t.Fatalf("exit %d, want %d; stderr: %s", code, exitNo, &stderr)
		}
		lines := strings.Split(strings.TrimSpace(stdout.String()), "\n")
		wantLines := []string{
			fmt.Sprintf("on the %d×%d board: %d queens", n, n, n),
			fmt.Sprintf("not a solution: %d pairs of queens attack each other", want),
		}
		if len(lines) != 6 || lines[0] != wantLines[0] || lines[1] != wantLines[1] ||
			lines[5] != fmt.Sprintf("  … and %d more (--max-attacks lists more)", want-3) {
			t.Errorf("output:\n%s\nwant the lines\n%s\nthree pairs and \"… and %d more\"", &stdout, strings.Join(wantLines, "\n"), want-3)
		}
	})
}
