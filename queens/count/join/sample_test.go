package join

import (
	"context"
	"math/rand/v2"
	"os"
	"strconv"
	"strings"
	"testing"
	"time"
)

// BenchmarkJoinSample is a measuring harness, not a check (a benchmark, so no test run
// skips it): with CHESSPUZZLES_JOINSAMPLE=N:M
// (optionally :SEED, and CHESSPUZZLES_JOINSIEVE=k to force k cut bits) it counts M row sets of the join's plan for N drawn uniformly (seed 1
// unless given), after building the quarter table, and logs the process CPU time per row
// set, the whole count it extrapolates to and a checksum of the sampled results (the same
// sample must give the same checksum before and after a change to the join), with the
// sample's task counters (pair tests, stored patterns, queries: the work, which no sieve
// setting changes) and the pair tests of the whole count they extrapolate to. Run it with
// -cpuprofile to see where N's time goes:
//
//	CHESSPUZZLES_JOINSAMPLE=22:200 go test -run '^$' -bench JoinSample -benchtime 1x -cpuprofile cpu.out ./queens/count/join
func BenchmarkJoinSample(b *testing.B) {
	spec := os.Getenv("CHESSPUZZLES_JOINSAMPLE")
	if spec == "" {
		b.Skip("set CHESSPUZZLES_JOINSAMPLE=N:M to run")
	}
	f := strings.Split(spec, ":")
	n, err1 := strconv.Atoi(f[0])
	m, err2 := strconv.Atoi(f[len(f)-1])
	seed := uint64(1)
	if len(f) == 3 {
		m, err2 = strconv.Atoi(f[1])
		s, err3 := strconv.Atoi(f[2])
		if err3 != nil {
			b.Fatalf("CHESSPUZZLES_JOINSAMPLE=%q: seed must be a number", spec)
		}
		seed = uint64(s)
	}
	if len(f) < 2 || err1 != nil || err2 != nil || m < 1 {
		b.Fatalf("CHESSPUZZLES_JOINSAMPLE=%q: want N:M or N:M:SEED", spec)
	}
	if k := os.Getenv("CHESSPUZZLES_JOINSIEVE"); k != "" {
		defer func(f int) { sieveBitsForce = f }(sieveBitsForce)
		if sieveBitsForce, err1 = strconv.Atoi(k); err1 != nil {
			b.Fatalf("CHESSPUZZLES_JOINSIEVE=%q: want a number of cut bits", k)
		}
	}
	if v := os.Getenv("CHESSPUZZLES_JOINCHUNK"); v != "" {
		defer func(f int) { chunkWidthForce = f }(chunkWidthForce)
		if chunkWidthForce, err1 = strconv.Atoi(v); err1 != nil {
			b.Fatalf("CHESSPUZZLES_JOINCHUNK=%q: want a chunk width, 5 or 6", v)
		}
	}
	if v := os.Getenv("CHESSPUZZLES_JOINWIDEMIN"); v != "" {
		defer func(m int) { wideChunkMin = m }(wideChunkMin)
		if wideChunkMin, err1 = strconv.Atoi(v); err1 != nil {
			b.Fatalf("CHESSPUZZLES_JOINWIDEMIN=%q: want a diagonal frame width", v)
		}
	}
	if v := os.Getenv("CHESSPUZZLES_JOINSUBMIN"); v != "" {
		defer func(m int) { sieveMinPerSub = m }(sieveMinPerSub)
		if sieveMinPerSub, err1 = strconv.Atoi(v); err1 != nil {
			b.Fatalf("CHESSPUZZLES_JOINSUBMIN=%q: want a number of patterns", v)
		}
	}
	if v := os.Getenv("CHESSPUZZLES_JOINPERSUB"); v != "" {
		defer func(m, o, pb, ea, o14 int) {
			sievePerSub, sievePerSubOdd, sievePerSubB, sievePerSubEvenA, sievePerSubOdd14 = m, o, pb, ea, o14
		}(sievePerSub, sievePerSubOdd, sievePerSubB, sievePerSubEvenA, sievePerSubOdd14)
		if sievePerSub, err1 = strconv.Atoi(v); err1 != nil {
			b.Fatalf("CHESSPUZZLES_JOINPERSUB=%q: want a number of patterns", v)
		}
		sievePerSubOdd, sievePerSubB, sievePerSubEvenA, sievePerSubOdd14 = sievePerSub, sievePerSub, sievePerSub, sievePerSub // the knob sets every store's figure
	}
	p, err := newJoinPlan(n)
	if err != nil {
		b.Fatal(err)
	}
	tasks := make([]task, p.Len()-1) // without the symmetric-solution task
	var total int
	for id := range tasks {
		tasks[id] = p.taskAt(id)
		total += tasks[id].Run.RowSets
	}
	rng := rand.New(rand.NewPCG(seed, 0))
	sample := make([]task, m)
	for i := range sample {
		r := rng.IntN(total)
		for _, task := range tasks {
			if r < task.Run.RowSets {
				if sample[i], err = task.rowSet(r); err != nil {
					b.Fatal(err)
				}
				break
			}
			r -= task.Run.RowSets
		}
	}
	c0 := cpuTime()
	if _, err := tableFor(context.Background(), n); err != nil {
		b.Fatal(err)
	}
	c1 := cpuTime()
	var sum, pairs, stored, nodes uint64
	for _, s := range sample {
		r, err := s.countJoin(context.Background())
		if err != nil {
			b.Fatal(err)
		}
		sum = sum*31 + r.Solutions
		pairs += r.PairTests
		stored += r.Stored
		nodes += r.Nodes
	}
	c2 := cpuTime()
	per := (c2 - c1) / time.Duration(m)
	b.Logf("N=%d: %d of %d row sets (seed %d): table %.2f CPU-s, %.3f ms a row set, whole %.0f CPU-s; checksum %x, pair tests %d, stored %d, queries %d (whole: %.3g pair tests)",
		n, m, total, seed, (c1 - c0).Seconds(), per.Seconds()*1e3, per.Seconds()*float64(total), sum, pairs, stored, nodes-stored,
		float64(pairs)/float64(m)*float64(total))
}
