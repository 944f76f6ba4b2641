package queens_test

import (
	"bufio"
	"context"
	"os"
	"strconv"
	"strings"
	"testing"

	"github.com/chesspuzzles/chesspuzzles/queens"
)

// loadSymmetric reads testdata/symmetric-values.tsv: n, P(n), R(n) (OEIS A032522, A033148).
func loadSymmetric(t testing.TB) map[int][2]uint64 {
	t.Helper()
	f, err := os.Open("testdata/symmetric-values.tsv")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	m := make(map[int][2]uint64)
	sc := bufio.NewScanner(f)
	for line := 1; sc.Scan(); line++ {
		s := strings.TrimSpace(sc.Text())
		if s == "" || strings.HasPrefix(s, "#") {
			continue
		}
		fs := strings.Split(s, "\t")
		if len(fs) != 3 {
			t.Fatalf("symmetric-values.tsv:%d: want 3 tab-separated fields, got %q", line, s)
		}
		n, err1 := strconv.Atoi(fs[0])
		p, err2 := strconv.ParseUint(fs[1], 10, 64)
		r, err3 := strconv.ParseUint(fs[2], 10, 64)
		if err1 != nil || err2 != nil || err3 != nil {
			t.Fatalf("symmetric-values.tsv:%d: bad line %q", line, s)
		}
		m[n] = [2]uint64{p, r}
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	for n := 2; n <= 27; n++ {
		if _, ok := m[n]; !ok {
			t.Fatalf("symmetric-values.tsv has no line for n = %d", n)
		}
	}
	return m
}

// TestCountJoinKnown checks Q(n) and U(n) by the join against the published values.
func TestCountJoinKnown(t *testing.T) {
	k := loadKnown(t)
	top := 17
	if testing.Short() {
		top = 15
	}
	for n := queens.MinJoinN; n <= top; n++ {
		t.Run(strconv.Itoa(n), func(t *testing.T) {
			c, err := queens.CountJoin(context.Background(), n)
			if err != nil {
				t.Fatal(err)
			}
			if c.Total.Cmp(k[n].total) != 0 || c.Unique.Cmp(k[n].unique) != 0 {
				t.Errorf("CountJoin(%d) = %v, %v fundamental; want %v, %v", n, c.Total, c.Unique, k[n].total, k[n].unique)
			}
		})
	}
}

// TestSymmetricCountsKnown checks P(n) and R(n) against the published values.
func TestSymmetricCountsKnown(t *testing.T) {
	k := loadSymmetric(t)
	top := 20
	if testing.Short() {
		top = 16
	}
	for n := 2; n <= top; n++ {
		p, r, err := queens.SymmetricCounts(context.Background(), n)
		if err != nil {
			t.Fatal(err)
		}
		if p != k[n][0] || r != k[n][1] {
			t.Errorf("SymmetricCounts(%d) = %d, %d; want %d, %d", n, p, r, k[n][0], k[n][1])
		}
	}
}
