package queens_test

import (
	"math/big"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/chesspuzzles/chesspuzzles/queens"
)

// known holds Q(n) and U(n) as published (queens.Known: OEIS A000170, A002562).
type known struct {
	total, unique *big.Int
}

// loadKnown returns the published Q(n) and U(n) for n = 1…27 from queens.Known.
func loadKnown(t testing.TB) map[int]known {
	t.Helper()
	m := make(map[int]known)
	for n := 1; n <= queens.MaxKnownN; n++ {
		c, ok := queens.Known(n)
		if !ok {
			t.Fatalf("queens.Known(%d) is missing", n)
		}
		m[n] = known{c.Total, c.Unique}
	}
	return m
}

// valid is the independent checker: p is a solution when it has one column from 0 to
// len(p)-1 a row and no two queens share a column or a diagonal, tested pair by pair.
func valid(p []int) bool {
	n := len(p)
	for i := 0; i < n; i++ {
		if p[i] < 0 || p[i] >= n {
			return false
		}
		for j := i + 1; j < n; j++ {
			d := p[i] - p[j]
			if d == 0 || d == j-i || d == i-j {
				return false
			}
		}
	}
	return true
}

// safeBelow reports whether a queen in column c of the row below the queens p (p[i] the
// column of row i) is attacked by none of them.
func safeBelow(p []int, c int) bool {
	r := len(p)
	for i, ci := range p {
		if ci == c || ci-c == r-i || c-ci == r-i {
			return false
		}
	}
	return true
}

// bruteSolutions lists every solution of the n×n board in ascending code order by trying
// each column on each row and testing the new queen against all the earlier ones.
func bruteSolutions(n int) [][]int {
	var out [][]int
	p := make([]int, 0, n)
	var rec func()
	rec = func() {
		if len(p) == n {
			out = append(out, slices.Clone(p))
			return
		}
		for c := 0; c < n; c++ {
			if safeBelow(p, c) {
				p = append(p, c)
				rec()
				p = p[:len(p)-1]
			}
		}
	}
	rec()
	return out
}

// bruteNodes counts the non-attacking placements of 1…n queens on the top rows: the nodes
// a backtracking search for the n×n board visits.
func bruteNodes(n int) uint64 {
	var nodes uint64
	p := make([]int, 0, n)
	var rec func()
	rec = func() {
		r := len(p)
		if r == n {
			return
		}
		for c := 0; c < n; c++ {
			if safeBelow(p, c) {
				nodes++
				p = append(p, c)
				rec()
				p = p[:len(p)-1]
			}
		}
	}
	rec()
	return nodes
}

// images returns the eight images of p under the symmetries of the square, in the order of
// board.Symmetries, computed square by square from the formulas (m = n-1):
// identity (r,c), rotate 90° (c,m-r), rotate 180° (m-r,m-c), rotate 270° (m-c,r),
// mirror left-right (r,m-c), mirror top-bottom (m-r,c), transpose (c,r),
// anti-transpose (m-c,m-r).
func images(p []int) [8][]int {
	n := len(p)
	m := n - 1
	var out [8][]int
	for k := range out {
		out[k] = make([]int, n)
	}
	for r, c := range p {
		out[0][r] = c
		out[1][c] = m - r
		out[2][m-r] = m - c
		out[3][m-c] = r
		out[4][r] = m - c
		out[5][m-r] = c
		out[6][c] = r
		out[7][m-c] = m - r
	}
	return out
}

// smallestImage returns the image of p with the smallest code, and how many distinct
// images p has.
func smallestImage(p []int) ([]int, int) {
	ims := images(p)
	best := ims[0]
	var distinct [][]int
	for _, im := range ims {
		if slices.Compare(im, best) < 0 {
			best = im
		}
		if !slices.ContainsFunc(distinct, func(d []int) bool { return slices.Equal(d, im) }) {
			distinct = append(distinct, im)
		}
	}
	return best, len(distinct)
}

// codeOf writes p in code notation by hand: digits for n ≤ 9, else comma-separated.
func codeOf(p []int) string {
	var b strings.Builder
	for r, c := range p {
		if len(p) >= 10 && r > 0 {
			b.WriteByte(',')
		}
		b.WriteString(strconv.Itoa(c + 1))
	}
	return b.String()
}

// fromCode reads a digit code such as "15863724" into 0-based columns.
func fromCode(s string) []int {
	p := make([]int, len(s))
	for i := range len(s) {
		p[i] = int(s[i] - '1')
	}
	return p
}

// ints and placement convert between a queens.Placement and the []int the helpers here
// work on, so that the independent checks share no type with the package.
func ints(p queens.Placement) []int {
	out := make([]int, len(p))
	for r, c := range p {
		out[r] = int(c)
	}
	return out
}

func placement(p []int) queens.Placement {
	out := make(queens.Placement, len(p))
	for r, c := range p {
		out[r] = int32(c)
	}
	return out
}
