package join

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"
)

// randomRun returns the cells of a run (cellJob) and the pieces they point into: nc cells
// of 0 to maxN north and 0 to maxS south pieces each (with more of the small ones, and
// empty lists on either side), prepared for half A or B of h rows under one frame.
func randomRun(rng *rand.Rand, h, nc, maxN, maxS int, isB, forbid bool) ([]cellJob, [][]uint64, []pieceList, pairFrame) {
	var jobs []cellJob
	var norths [][]uint64
	var souths []pieceList
	var f pairFrame
	size := func(m int) int {
		if rng.IntN(3) == 0 {
			return rng.IntN(m + 1)
		}
		return rng.IntN(min(m, 9) + 1)
	}
	for c := range nc {
		north, south, fc := randomCell(rng, h, size(maxN), size(maxS), isB, forbid)
		if c == 0 {
			f = fc
		}
		norths, souths = append(norths, north), append(souths, south)
		j := cellJob{nn: len(north), ns: south.len()}
		if len(north) > 0 {
			j.north = &north[0]
		}
		if south.len() > 0 {
			j.clash, j.sig = &south.clash[0], &south.sig[0]
		}
		jobs = append(jobs, j)
	}
	return jobs, norths, souths, f
}

// TestJoinCellRun holds runCells (cellRunAVX512 where the processor has AVX-512) to
// cellRunGo and to cellPairs cell by cell: runs of 0 to 300 cells of 0 to 40 pieces a
// side (cells with no north or no south pieces among them), the frames of half A and B,
// with and without forbidden masks, in the room cellRun.flush makes (the candidates and
// cellSlack), nothing stored past it: the same multiset of signatures (a kernel may
// make a cell's pairs north piece by north piece or south piece by south piece).
func TestJoinCellRun(t *testing.T) {
	if !haveCellAVX512 {
		t.Log("no AVX-512: runCells is cellRunGo, held here to cellPairs cell by cell")
	}
	rng := rand.New(rand.NewPCG(11, 49))
	for _, nc := range []int{0, 1, 2, 3, 5, 17, 64, 300} {
		for _, h := range []int{5, 8, 13} {
			for _, isB := range []bool{false, true} {
				for _, forbid := range []bool{false, true} {
					jobs, norths, souths, f := randomRun(rng, h, nc, 40, 40, isB, forbid)
					checkRun(t, jobs, norths, souths, &f, fmt.Sprintf("%d cells, h %d, half B %v, forbidden %#x", nc, h, isB, f.forbid))
				}
			}
		}
	}
}

func checkRun(t *testing.T, jobs []cellJob, norths [][]uint64, souths []pieceList, f *pairFrame, what string) {
	t.Helper()
	prefix := []uint64{3, 1, 4}
	cand := 0
	for _, j := range jobs {
		cand += j.nn * j.ns
	}
	room := len(prefix) + cand + cellSlack
	// cellPairs cell by cell, each in the room appendPairs makes.
	var byCell []uint64
	for i := range jobs {
		if len(norths[i]) == 0 || souths[i].len() == 0 {
			continue
		}
		out := make([]uint64, 0, len(norths[i])*souths[i].len()+cellSlack)
		byCell = append(byCell, cellPairs(out, norths[i], souths[i].clash, souths[i].sig, f)...)
	}
	goRun := cellRunGo(append(make([]uint64, 0, room), prefix...), jobs, f)
	buf := make([]uint64, room+4)
	for i := range buf {
		buf[i] = 0xdead
	}
	got := runCells(append(buf[:0:room], prefix...), jobs, f)
	if tail := buf[room:]; !slices.Equal(tail, []uint64{0xdead, 0xdead, 0xdead, 0xdead}) {
		t.Fatalf("%s: runCells stored past the room: %x", what, tail)
	}
	if !slices.Equal(got[:len(prefix)], prefix) || !slices.Equal(goRun[:len(prefix)], prefix) {
		t.Fatalf("%s: what out held changed: runCells %x, cellRunGo %x", what, got[:len(prefix)], goRun[:len(prefix)])
	}
	got, goRun = got[len(prefix):], goRun[len(prefix):]
	slices.Sort(got)
	slices.Sort(goRun)
	slices.Sort(byCell)
	if !slices.Equal(got, byCell) || !slices.Equal(goRun, byCell) {
		t.Fatalf("%s: runCells gives %d signatures, cellRunGo %d, cellPairs cell by cell %d", what, len(got), len(goRun), len(byCell))
	}
}

// TestJoinCellRunAdd holds a list made through cellRun (add, flush) to one made by
// appendPairs cell by cell, the same multiset: cells small and large (more than
// runMaxCand candidates, made at once), more than runMaxJobs of them (a full run is
// flushed), and empty ones, into a list that starts with some signatures and little room;
// and one made by push where it takes a cell, add where not.
func TestJoinCellRunAdd(t *testing.T) {
	rng := rand.New(rand.NewPCG(12, 50))
	for _, isB := range []bool{false, true} {
		jobs, norths, souths, f := randomRun(rng, 9, runMaxJobs+runMaxJobs/2, 12, 12, isB, isB)
		// Two large cells among the small ones.
		for _, at := range []int{3, 200} {
			north, south, _ := randomCell(rng, 9, 200, 100, isB, false)
			norths[at], souths[at] = north, south
			jobs[at] = cellJob{north: &north[0], nn: len(north), clash: &south.clash[0], sig: &south.sig[0], ns: south.len()}
		}
		if c := len(norths[3]) * souths[3].len(); c <= runMaxCand {
			t.Fatalf("a large cell has %d candidates, want more than runMaxCand %d", c, runMaxCand)
		}
		want := []uint64{5, 6}
		for i := range jobs {
			want = appendPairs(want, norths[i], souths[i].clash, souths[i].sig, &f)
		}
		var r cellRun
		got := []uint64{5, 6}
		for i := range jobs {
			got = r.add(got, norths[i], souths[i].clash, souths[i].sig, &f)
		}
		got = r.flush(got, &f)
		if r.n != 0 || r.cand != 0 {
			t.Fatalf("half B %v: after flush the run holds %d cells, %d candidates", isB, r.n, r.cand)
		}
		// push where it takes the cell, add where it does not, as evenBRuns does.
		pushed, taken := []uint64{5, 6}, 0
		for i := range jobs {
			n0, c0 := r.n, r.cand
			if r.push(norths[i], souths[i].clash, souths[i].sig) {
				taken++
				if c := len(norths[i]) * souths[i].len(); c > 0 && (r.n != n0+1 || r.cand != c0+c) || c == 0 && (r.n != n0 || r.cand != c0) {
					t.Fatalf("half B %v: push took cell %d of %d candidates: the run went from %d cells, %d candidates to %d, %d", isB, i, c, n0, c0, r.n, r.cand)
				}
				continue
			}
			if r.n != n0 || r.cand != c0 {
				t.Fatalf("half B %v: push refused cell %d but changed the run", isB, i)
			}
			pushed = r.add(pushed, norths[i], souths[i].clash, souths[i].sig, &f)
		}
		pushed = r.flush(pushed, &f)
		if taken == 0 || taken == len(jobs) {
			t.Fatalf("half B %v: push took %d of %d cells; the test wants some taken and some refused", isB, taken, len(jobs))
		}
		slices.Sort(got)
		slices.Sort(pushed)
		slices.Sort(want)
		if !slices.Equal(got, want) {
			t.Fatalf("half B %v: through cellRun %d signatures, appendPairs %d", isB, len(got), len(want))
		}
		if !slices.Equal(pushed, want) {
			t.Fatalf("half B %v: through push and add %d signatures, appendPairs %d", isB, len(pushed), len(want))
		}
	}
}
