package join

import (
	"context"
	"fmt"
	"math"
	"math/bits"
	"math/rand/v2"
	"os"
	"runtime"
	"strconv"
	"strings"
	"testing"
)

// BenchmarkJoinLists is a measuring harness, not a check: with CHESSPUZZLES_JOINLISTS=N:M:SEED
// it draws M counted row sets of N uniformly (each sub-problem with the chance of its
// share of row sets), builds for each the four table rows it reads, its half-boards and the
// matcher's store (everything a row set holds before its queries run), without counting
// its pairs, and logs the largest lists (whole, and as held), table rows and Go heap seen, and the mean pair
// tests of a row set (|A|·|B| summed as the task's counters define them). It is how the
// memory of a worker at N = 28–29 is known without hours of counting.
//
//	CHESSPUZZLES_JOINLISTS=28:5:1 go test -run '^$' -bench JoinLists -benchtime 1x ./queens/count/join
func BenchmarkJoinLists(b *testing.B) {
	spec := os.Getenv("CHESSPUZZLES_JOINLISTS")
	if spec == "" {
		b.Skip("set CHESSPUZZLES_JOINLISTS=N:M:SEED to run")
	}
	f := strings.Split(spec, ":")
	if len(f) != 3 {
		b.Fatalf("CHESSPUZZLES_JOINLISTS=%q: want N:M:SEED", spec)
	}
	n, err1 := strconv.Atoi(f[0])
	m, err2 := strconv.Atoi(f[1])
	seed, err3 := strconv.Atoi(f[2])
	if err1 != nil || err2 != nil || err3 != nil || n < MinN || n > MaxN || m < 1 {
		b.Fatalf("CHESSPUZZLES_JOINLISTS=%q: want N:M:SEED, N from %d to %d", spec, MinN, MaxN)
	}
	rng := rand.New(rand.NewPCG(uint64(seed), 0))
	subs := make([]subproblem, subproblemCount(n))
	var shares []float64
	var all float64
	for s := range subs {
		subs[s] = newSubproblem(n, s)
		c := binomial(bits.OnesCount64(subs[s].free), subs[s].k)
		shares = append(shares, c)
		all += c
	}
	tab, err := tableFor(context.Background(), n)
	if err != nil {
		b.Fatal(err)
	}
	w := new(worker)
	w.t = tab
	if v := os.Getenv("CHESSPUZZLES_JOINPERSUB"); v != "" {
		defer func(m, o, pb, ea, o14 int) {
			sievePerSub, sievePerSubOdd, sievePerSubB, sievePerSubEvenA, sievePerSubOdd14 = m, o, pb, ea, o14
		}(sievePerSub, sievePerSubOdd, sievePerSubB, sievePerSubEvenA, sievePerSubOdd14)
		if sievePerSub, err = strconv.Atoi(v); err != nil {
			b.Fatalf("CHESSPUZZLES_JOINPERSUB=%q: want a number of patterns", v)
		}
		sievePerSubOdd, sievePerSubB, sievePerSubEvenA, sievePerSubOdd14 = sievePerSub, sievePerSub, sievePerSub, sievePerSub // the knob sets every store's figure
	}
	// CHESSPUZZLES_JOINSTOREMAX=S holds at most S stored half-boards a class (listMax's
	// storeMax) from h = 13; CHESSPUZZLES_JOINMAXK=K caps the cut bits of a sieve
	// (maxSieveBits).
	if v := os.Getenv("CHESSPUZZLES_JOINSTOREMAX"); v != "" {
		sm, err := strconv.Atoi(v)
		if err != nil || sm < 1 {
			b.Fatalf("CHESSPUZZLES_JOINSTOREMAX=%q: want a number of half-boards", v)
		}
		for s := range subs {
			if subs[s].h >= 13 {
				subs[s].storeMax = sm
			}
		}
	}
	if v := os.Getenv("CHESSPUZZLES_JOINMAXK"); v != "" {
		defer func(k int) { maxSieveBits = k }(maxSieveBits)
		if maxSieveBits, err = strconv.Atoi(v); err != nil || maxSieveBits < 0 || maxSieveBits > 20 {
			b.Fatalf("CHESSPUZZLES_JOINMAXK=%q: want cut bits from 0 to 20", v)
		}
	}
	// CHESSPUZZLES_JOINSTATS=dry tallies each row set's sieves (sieveStats: stores, cut
	// bits, (batch, query) pairs, lanes) without matching a pair; =count counts the row
	// set whole as well, and says its lanes per solution.
	stats := os.Getenv("CHESSPUZZLES_JOINSTATS")
	if stats != "" && stats != "dry" && stats != "count" {
		b.Fatalf("CHESSPUZZLES_JOINSTATS=%q: want dry or count", stats)
	}
	var statPairs []float64
	timing := os.Getenv("CHESSPUZZLES_JOINLISTS_TIME") != ""
	// CHESSPUZZLES_JOINLISTS_TIME=uniform draws the class timed uniformly, as before
	// 29 November, not by its size.
	uniform := os.Getenv("CHESSPUZZLES_JOINLISTS_TIME") == "uniform"
	// CHESSPUZZLES_JOINLISTS_TIME=check also counts each row set of classes whole after
	// its sample, and compares the two: the estimator checked against what it estimates.
	check := os.Getenv("CHESSPUZZLES_JOINLISTS_TIME") == "check"
	// CHESSPUZZLES_JOINLISTS_TIME=whole times each row set whole, as the count runs it
	// (countRowSet, after the row set before it: buffers grown once a process), not by
	// a class: the figure to trust most, where the CPU allows it (N = 24–27).
	whole := os.Getenv("CHESSPUZZLES_JOINLISTS_TIME") == "whole"
	var checked [2][]float64
	// CHESSPUZZLES_JOINCUTS=fixed takes the cut bits from the middle out, as before
	// cutByOccupancy; =both times each row set whole (from h = 13) both ways, in
	// alternating order, and checks that the counts agree. With
	// CHESSPUZZLES_JOINPERSUB_B=S2 as well, =both compares sub-stores of S2 (in place of
	// the fixed cut bits) against CHESSPUZZLES_JOINPERSUB's or the default, both by occupancy.
	cuts := os.Getenv("CHESSPUZZLES_JOINCUTS")
	perSubA, perSubOdd, perSubStoreB, perSubEvenA, perSubOdd14, perSubB := sievePerSub, sievePerSubOdd, sievePerSubB, sievePerSubEvenA, sievePerSubOdd14, 0
	if v := os.Getenv("CHESSPUZZLES_JOINPERSUB_B"); v != "" {
		if perSubB, err = strconv.Atoi(v); err != nil {
			b.Fatalf("CHESSPUZZLES_JOINPERSUB_B=%q: want a number of patterns", v)
		}
	}
	// CHESSPUZZLES_JOINSUBB=S sets sievePerSubB alone (sievePerSub stays the coarse
	// figure, so the rule of sieveExtraByPairs judges the last cut bit of sub-stores of S
	// against one bit fewer; CHESSPUZZLES_JOINPERSUB_B sets all three and so takes every
	// bit); with CHESSPUZZLES_JOINCUTS=both it compares sub-stores of S (in place of the
	// fixed cut bits) against the default.
	subB := 0
	if v := os.Getenv("CHESSPUZZLES_JOINSUBB"); v != "" {
		if subB, err = strconv.Atoi(v); err != nil || subB < 1 {
			b.Fatalf("CHESSPUZZLES_JOINSUBB=%q: want a number of patterns", v)
		}
		defer func(pb int) { sievePerSubB = pb }(sievePerSubB)
		if cuts != "both" {
			sievePerSubB = subB
		}
	}
	defer func(c, g bool) { cutByOccupancy, cutGreedy = c, g }(cutByOccupancy, cutGreedy)
	if cuts == "fixed" {
		cutByOccupancy = false
	}
	// CHESSPUZZLES_JOINCUTS=greedy takes the cut bits in greedyOrder's order (cutGreedy);
	// CHESSPUZZLES_JOINGREEDY=both with CHESSPUZZLES_JOINCUTS=both compares that order (in
	// place of the fixed cut bits) against occupancyOrder's, whole row sets only (the two
	// cut other classes); =off takes occupancyOrder's where cutGreedy is the default.
	greedyWay := os.Getenv("CHESSPUZZLES_JOINGREEDY")
	// CHESSPUZZLES_JOINGREEDYMINH=H takes greedyOrder's order (where cutGreedy is set,
	// by the knobs above or by default) from h = H on both paths, half B stored
	// (cutGreedyMinH) and half A stored (cutGreedyOddMinH: odd N).
	defer func(h, o int) { cutGreedyMinH, cutGreedyOddMinH = h, o }(cutGreedyMinH, cutGreedyOddMinH)
	if v := os.Getenv("CHESSPUZZLES_JOINGREEDYMINH"); v != "" {
		h, err := strconv.Atoi(v)
		if err != nil || h < 0 {
			b.Fatalf("CHESSPUZZLES_JOINGREEDYMINH=%q: want an h, 0 or more", v)
		}
		cutGreedyMinH, cutGreedyOddMinH = h, h
	}
	switch {
	case cuts == "greedy":
		cutGreedy = true
	case greedyWay == "off":
		cutGreedy = false
	}
	// CHESSPUZZLES_JOINTREE=on takes each class's sieve bits in its own order (cutTree);
	// =off the row set's; =both with CHESSPUZZLES_JOINCUTS=both compares the two (in
	// place of the fixed cut bits; way 0 the tree), whole row sets only (the classes are
	// the same both ways, but compared whole as greedyOrder was), and with
	// CHESSPUZZLES_JOINSTATS (without CHESSPUZZLES_JOINCUTS=both) tallies each row set
	// both ways, the row set's order first.
	treeWay := os.Getenv("CHESSPUZZLES_JOINTREE")
	defer func(t bool) { cutTree = t }(cutTree)
	switch treeWay {
	case "on":
		cutTree = true
	case "off":
		cutTree = false
	case "both", "":
	default:
		b.Fatalf("CHESSPUZZLES_JOINTREE=%q: want on, off or both", treeWay)
	}
	// CHESSPUZZLES_JOINKMAX=split takes greedyOrder's bits after the class split as
	// many as the classes take (greedyAfterSplit), =before all before it; =both compares
	// the two as CHESSPUZZLES_JOINTREE=both does (way 0, and the tallies' second, split).
	kmaxWay := os.Getenv("CHESSPUZZLES_JOINKMAX")
	defer func(g bool) { greedyAfterSplit = g }(greedyAfterSplit)
	switch kmaxWay {
	case "split":
		greedyAfterSplit = true
	case "before":
		greedyAfterSplit = false
	case "both", "":
	default:
		b.Fatalf("CHESSPUZZLES_JOINKMAX=%q: want split, before or both", kmaxWay)
	}
	if treeWay == "both" && kmaxWay == "both" {
		b.Fatal("CHESSPUZZLES_JOINTREE=both and CHESSPUZZLES_JOINKMAX=both: one comparison at a time")
	}
	// CHESSPUZZLES_JOINKERNEL=X:Y with CHESSPUZZLES_JOINCUTS=both compares the AVX-512
	// kernels' settings X (way 0) and Y (way 1), each old or a "+"-joined list of tern
	// (kernelTernlog), pairs (kernelPairs) and mixed (mixedOn: the mixed layouts), whole
	// row sets (each way counts the same classes).
	var kernelWays [2]struct{ tern, pairs, mixed bool }
	kernelWay := os.Getenv("CHESSPUZZLES_JOINKERNEL")
	defer func(t, p, m bool) { kernelTernlog, kernelPairs, mixedOn = t, p, m }(kernelTernlog, kernelPairs, mixedOn)
	if kernelWay != "" {
		xy := strings.Split(kernelWay, ":")
		if len(xy) != 2 {
			b.Fatalf("CHESSPUZZLES_JOINKERNEL=%q: want X:Y, each old or tern, pairs and mixed joined by +", kernelWay)
		}
		for i, x := range xy {
			if x == "old" {
				continue
			}
			for _, f := range strings.Split(x, "+") {
				switch f {
				case "tern":
					kernelWays[i].tern = true
				case "pairs":
					kernelWays[i].pairs = true
				case "mixed":
					kernelWays[i].mixed = true
				default:
					b.Fatalf("CHESSPUZZLES_JOINKERNEL=%q: want X:Y, each old or tern, pairs and mixed joined by +", kernelWay)
				}
			}
		}
	}
	// CHESSPUZZLES_JOINMIXEDMAX=K sets mixedMaxBits (31…35).
	defer func(k int) { mixedMaxBits = k }(mixedMaxBits)
	if v := os.Getenv("CHESSPUZZLES_JOINMIXEDMAX"); v != "" {
		k, err := strconv.Atoi(v)
		if err != nil || k < 31 || k > 35 {
			b.Fatalf("CHESSPUZZLES_JOINMIXEDMAX=%q: want 31 to 35", v)
		}
		mixedMaxBits = k
	}
	statsClock = cpuTime
	defer func() { statsClock = nil }()
	// CHESSPUZZLES_JOINTREESAMPLE=S and CHESSPUZZLES_JOINTREECAND=C set treeSample and
	// treeExtraCand.
	defer func(s, c int) { treeSample, treeExtraCand = s, c }(treeSample, treeExtraCand)
	for _, v := range []struct {
		name string
		p    *int
	}{{"CHESSPUZZLES_JOINTREESAMPLE", &treeSample}, {"CHESSPUZZLES_JOINTREECAND", &treeExtraCand}} {
		if x := os.Getenv(v.name); x != "" {
			if *v.p, err = strconv.Atoi(x); err != nil || *v.p < 1 {
				b.Fatalf("%s=%q: want a positive number", v.name, x)
			}
		}
	}
	var both [2][]float64
	var sizeDiffs []float64 // CHESSPUZZLES_JOINSTORE=size: by size less half B, every row set
	// CHESSPUZZLES_JOINSTORE=A stores half A at even N, as before storeLarger; =both
	// with CHESSPUZZLES_JOINCUTS=both compares storing half A (in place of the fixed cut
	// bits) against half B, both by occupancy; =size with CHESSPUZZLES_JOINCUTS=both
	// compares the half chosen by size (storeBySize, in place of the fixed cut bits)
	// against half B always, timing only the row sets where storesA chooses half A (the
	// others run the same code both ways and count as no difference), and logs the mean
	// difference over every row set drawn.
	store := os.Getenv("CHESSPUZZLES_JOINSTORE")
	defer func(s bool) { storeLarger = s }(storeLarger)
	if store == "A" {
		storeLarger = false
	}
	// CHESSPUZZLES_JOINEXTRA=off takes sievePerSubB's extra cut bit always, as before
	// sieveExtraByPairs; =both with CHESSPUZZLES_JOINCUTS=both compares taking it always
	// (in place of the fixed cut bits) against only where it pays, both by occupancy.
	// CHESSPUZZLES_JOINVISITCOST sets sieveVisitCost.
	extra := os.Getenv("CHESSPUZZLES_JOINEXTRA")
	defer func(e bool, c float64) { sieveExtraByPairs, sieveVisitCost = e, c }(sieveExtraByPairs, sieveVisitCost)
	if extra == "off" {
		sieveExtraByPairs = false
	}
	// CHESSPUZZLES_JOINGRAIN=64 pads each weight's run of a weighted store to a word on
	// AVX-512, as before countBatchesAVX512IndexWeighted (weightByByte); =both with
	// CHESSPUZZLES_JOINCUTS=both compares runs of 64 lanes (in place of the fixed cut bits)
	// against runs of 8, both by occupancy.
	grainWay := os.Getenv("CHESSPUZZLES_JOINGRAIN")
	defer func(g bool) { weightByByte = g }(weightByByte)
	if grainWay == "64" {
		weightByByte = false
	}
	if v := os.Getenv("CHESSPUZZLES_JOINVISITCOST"); v != "" {
		if sieveVisitCost, err = strconv.ParseFloat(v, 64); err != nil {
			b.Fatalf("CHESSPUZZLES_JOINVISITCOST=%q: want a number", v)
		}
	}
	// CHESSPUZZLES_JOINVISITCOST_B=X with CHESSPUZZLES_JOINCUTS=both compares the rule with
	// sieveVisitCost X (in place of the fixed cut bits) against the default (or
	// CHESSPUZZLES_JOINVISITCOST's), both by occupancy; with CHESSPUZZLES_JOINCLASS=1 a
	// class is first run dry both ways, and timed only where the two cut it differently.
	visitA, visitB := sieveVisitCost, -1.0
	if v := os.Getenv("CHESSPUZZLES_JOINVISITCOST_B"); v != "" {
		if visitB, err = strconv.ParseFloat(v, 64); err != nil || visitB < 0 {
			b.Fatalf("CHESSPUZZLES_JOINVISITCOST_B=%q: want a number, 0 or more", v)
		}
	}
	// CHESSPUZZLES_JOINVERDICTS=C1,C2,… with CHESSPUZZLES_JOINCUTS=both and
	// CHESSPUZZLES_JOINCLASS=1 runs the drawn class dry with sieveVisitCost at each Ci and
	// prints what the rule kept and dropped, the visits and the (batch, query) pairs; it
	// times nothing.
	var verdicts []float64
	if v := os.Getenv("CHESSPUZZLES_JOINVERDICTS"); v != "" {
		for _, f := range strings.Split(v, ",") {
			c, err := strconv.ParseFloat(f, 64)
			if err != nil || c < 0 {
				b.Fatalf("CHESSPUZZLES_JOINVERDICTS=%q: want visit costs, 0 or more, by commas", v)
			}
			verdicts = append(verdicts, c)
		}
	}
	// dryClass runs class only of row set e dry (sieveStats) and returns its tally.
	dryClass := func(j *subproblem, e uint64, only int) *sieveTally {
		t := &sieveTally{dry: true}
		sieveStats = t
		w.classParts(j, e, only)
		sieveStats = nil
		return t
	}
	var times []float64
	var maxA, maxB, maxRow, maxHeap uint64
	var maxPart, maxChunk int
	var pairs, pairsMax float64
	// CHESSPUZZLES_JOINSKIP=K with CHESSPUZZLES_JOINCLASS=1 (or CHESSPUZZLES_JOINGREEDY=both)
	// draws the first K row sets and their classes but times none of them, so that a long
	// series of draws can be run in parts (N:K:SEED, then N:M:SEED skipping K) and give
	// the same classes (row sets).
	skip := 0
	if v := os.Getenv("CHESSPUZZLES_JOINSKIP"); v != "" {
		if skip, err = strconv.Atoi(v); err != nil || skip < 0 {
			b.Fatalf("CHESSPUZZLES_JOINSKIP=%q: want a number of row sets", v)
		}
	}
	// CHESSPUZZLES_JOINCUTSTUDY=1 prints for each row set what the first K cut bits leave
	// in occupancyOrder's order and in greedyCuts's (cutStudy).
	study := os.Getenv("CHESSPUZZLES_JOINCUTSTUDY") == "1"
	t0 := cpuTime()
	for i := range m {
		x := rng.Float64() * all
		s := 0
		for s < len(subs)-1 && x >= shares[s] {
			x -= shares[s]
			s++
		}
		j := subs[s]
		var e uint64
		for {
			e = randomSubset(rng, j.free, j.k)
			if wE, _ := j.rowSetWeight(e); wE != 0 {
				break
			}
		}
		if v := os.Getenv("CHESSPUZZLES_JOINROWSET"); v != "" {
			// CHESSPUZZLES_JOINROWSET=SUB:E runs row set E of sub-problem SUB (a task's
			// description "sub:first:1" names one) every time instead of drawing one.
			var fixed uint64
			if _, err := fmt.Sscanf(v, "%d:%d", &s, &fixed); err != nil || s < 0 || s >= len(subs) {
				b.Fatalf("CHESSPUZZLES_JOINROWSET=%q: want SUB:E", v)
			}
			j, e = subs[s], fixed
		}
		r := j.rowSet(e)
		rows := r.tableRows()
		if err := tab.acquire(context.Background(), rows[:]); err != nil {
			b.Fatal(err)
		}
		for _, r := range rows {
			maxRow = max(maxRow, tab.rows[r].bytes())
		}
		var c counters
		part, chunk, starts := w.lists(&j, e, &c)
		if study {
			w.cutStudy(os.Stderr, &j, e)
		}
		if cuts == "both" && j.storeMax < math.MaxInt {
			var got [2]uint64
			var dt [2]float64
			// CHESSPUZZLES_JOINCLASS=1 compares one class of the row set, drawn by its
			// size, instead of the whole row set: each way counts it once untimed, then
			// timed, less the passes over the lists that every class makes (timed once,
			// with no class matched).
			only, once := -1, 0.0
			if (greedyWay == "both" || treeWay == "both" || kmaxWay == "both") && i < skip {
				// CHESSPUZZLES_JOINSKIP=K: the first K row sets drawn, not timed.
				fmt.Fprintf(os.Stderr, "row set %#x skipped (CHESSPUZZLES_JOINSKIP)\n", e)
				tab.release(rows[:])
				continue
			}
			if os.Getenv("CHESSPUZZLES_JOINCLASS") == "1" {
				if greedyWay == "both" || treeWay == "both" || kmaxWay == "both" {
					b.Fatal("CHESSPUZZLES_JOINGREEDY=both, CHESSPUZZLES_JOINTREE=both and CHESSPUZZLES_JOINKMAX=both compare whole row sets (leave CHESSPUZZLES_JOINCLASS out)")
				}
				if perSubB == 0 && subB == 0 && extra != "both" && grainWay != "both" && visitB < 0 && verdicts == nil || store == "both" || store == "size" {
					// Fixed cut bits against occupancy, or half A stored against half
					// B, cut the row set into other classes: "class i" is not the same
					// set of half-boards both ways, so its counts cannot be compared.
					b.Fatal("CHESSPUZZLES_JOINCLASS=1 compares one class both ways only where both cut the same classes (CHESSPUZZLES_JOINPERSUB_B, CHESSPUZZLES_JOINSUBB, CHESSPUZZLES_JOINEXTRA=both, CHESSPUZZLES_JOINGRAIN=both, CHESSPUZZLES_JOINVISITCOST_B or CHESSPUZZLES_JOINVERDICTS, without CHESSPUZZLES_JOINSTORE=both); leave it out to compare whole row sets")
				}
				w.classSizes = w.classSizes[:0]
				c0 := cpuTime()
				w.classParts(&j, e, -2)
				once = (cpuTime() - c0).Seconds()
				var all int
				only, all = drawBySize(rng, w.classSizes)
				if i < skip {
					fmt.Fprintf(os.Stderr, "row set %#x: class %d of %d skipped (CHESSPUZZLES_JOINSKIP)\n", e, only, len(w.classSizes))
					continue
				}
				if verdicts != nil {
					cutByOccupancy = true
					for _, c := range verdicts {
						sieveVisitCost = c
						t := dryClass(&j, e, only)
						fmt.Fprintf(os.Stderr, "row set %#x of sub-problem %d: class %d of %d (×%.1f of the row set), visit cost %g: extra cut bits kept %d, dropped %d; %d stores, %d visits, %.4g (batch, query) pairs\n",
							e, s, only, len(w.classSizes), float64(all)/float64(w.classSizes[only]), c, t.extra[1], t.extra[0], t.builds, t.visits, float64(t.pairs))
					}
					sieveVisitCost = visitA
					tab.release(rows[:])
					continue
				}
				if subB > 0 && os.Getenv("CHESSPUZZLES_JOINSUBB_DRY") == "1" {
					// CHESSPUZZLES_JOINSUBB_DRY=1: the class run dry both ways first, and
					// timed only where sub-stores of S cut it otherwise than the default
					// (other stores' cut bits, visits or (batch, query) pairs).
					cutByOccupancy = true
					sievePerSubB = subB
					tB := dryClass(&j, e, only)
					sievePerSubB = perSubStoreB
					tA := dryClass(&j, e, only)
					if tA.byK == tB.byK && tA.visits == tB.visits && tA.pairs == tB.pairs {
						fmt.Fprintf(os.Stderr, "row set %#x: class %d of %d cut alike by sub-stores of %d and %d (visits %d): not timed\n", e, only, len(w.classSizes), subB, perSubStoreB, tA.visits)
						tab.release(rows[:])
						continue
					}
					fmt.Fprintf(os.Stderr, "row set %#x: class %d of %d: sub-stores of %d: visits %d, (batch, query) pairs %.4g; of %d: %d, %.4g\n",
						e, only, len(w.classSizes), subB, tB.visits, float64(tB.pairs), perSubStoreB, tA.visits, float64(tA.pairs))
				}
				if visitB >= 0 {
					cutByOccupancy = true
					sieveVisitCost = visitB
					tB := dryClass(&j, e, only)
					sieveVisitCost = visitA
					tA := dryClass(&j, e, only)
					if tA.extra == tB.extra {
						fmt.Fprintf(os.Stderr, "row set %#x: class %d of %d cut alike at visit costs %g and %g (extra cut bits kept %d, dropped %d): not timed\n", e, only, len(w.classSizes), visitB, visitA, tA.extra[1], tA.extra[0])
						tab.release(rows[:])
						continue
					}
					fmt.Fprintf(os.Stderr, "row set %#x: class %d of %d: extra cut bits kept/dropped %d/%d at visit cost %g, %d/%d at %g; visits %d, %d; (batch, query) pairs %.4g, %.4g\n",
						e, only, len(w.classSizes), tB.extra[1], tB.extra[0], visitB, tA.extra[1], tA.extra[0], visitA, tB.visits, tA.visits, float64(tB.pairs), float64(tA.pairs))
				}
				fmt.Fprintf(os.Stderr, "row set %#x: class %d of %d timed (×%.1f of the row set)\n", e, only, len(w.classSizes), float64(all)/float64(w.classSizes[only]))
			}
			if store == "size" && only < 0 {
				a := w.storesA(&j, j.rowSet(e))
				w.occReady = false
				if !a {
					sizeDiffs = append(sizeDiffs, 0)
					fmt.Fprintf(os.Stderr, "row set %#x of sub-problem %d: half B stored either way (half A %d, half B %d): not timed\n", e, s, w.sizeA, w.sizeB)
					tab.release(rows[:])
					continue
				}
				fmt.Fprintf(os.Stderr, "row set %#x of sub-problem %d: half A stored by size (half A %d, half B %d)\n", e, s, w.sizeA, w.sizeB)
			}
			if len(both[0]) == 0 && os.Getenv("CHESSPUZZLES_JOINWARM") != "" {
				// CHESSPUZZLES_JOINWARM=1: the first row set counted once untimed, so
				// that neither way pays for the process's first (its heap grown, its
				// pages touched): counted first, it took 1.09–1.12 times as long.
				w.classParts(&j, e, only)
			}
			for r := range 2 {
				way := (r + len(both[0])) % 2 // 0: fixed, 1: by occupancy
				cutByOccupancy = way == 1
				if perSubB > 0 {
					cutByOccupancy = true
					sievePerSub = [2]int{perSubB, perSubA}[way]
					sievePerSubOdd = [2]int{perSubB, perSubOdd}[way]
					sievePerSubB = [2]int{perSubB, perSubStoreB}[way]
					sievePerSubEvenA = [2]int{perSubB, perSubEvenA}[way]
					sievePerSubOdd14 = [2]int{perSubB, perSubOdd14}[way]
				}
				if subB > 0 {
					cutByOccupancy = true
					sievePerSubB = [2]int{subB, perSubStoreB}[way]
				}
				if store == "both" {
					cutByOccupancy = true
					storeLarger = way == 1
				}
				if store == "size" {
					cutByOccupancy = true
					storeBySize = way == 0
				}
				if extra == "both" {
					cutByOccupancy = true
					sieveExtraByPairs = way == 1
				}
				if greedyWay == "both" {
					cutByOccupancy = true
					cutGreedy = way == 0
				}
				if treeWay == "both" {
					cutByOccupancy = true
					cutTree = way == 0
				}
				if kmaxWay == "both" {
					cutByOccupancy = true
					greedyAfterSplit = way == 0
				}
				if grainWay == "both" {
					cutByOccupancy = true
					weightByByte = way == 1
				}
				if kernelWay != "" {
					cutByOccupancy = true
					kernelTernlog, kernelPairs, mixedOn = kernelWays[way].tern, kernelWays[way].pairs, kernelWays[way].mixed
				}
				if visitB >= 0 {
					cutByOccupancy = true
					sieveVisitCost = [2]float64{visitB, visitA}[way]
				}
				if only >= 0 {
					w.classParts(&j, e, only)
				}
				c0 := cpuTime()
				got[way], _ = w.classParts(&j, e, only)
				dt[way] = max(0, (cpuTime()-c0).Seconds()-once)
			}
			if got[0] != got[1] {
				b.Fatalf("row set %#x of sub-problem %d: %d with fixed cut bits, %d by occupancy", e, s, got[0], got[1])
			}
			both[0], both[1] = append(both[0], dt[0]), append(both[1], dt[1])
			if store == "size" {
				sizeDiffs = append(sizeDiffs, dt[0]-dt[1])
			}
			sievePerSub, sievePerSubOdd, sievePerSubB, sievePerSubEvenA, sievePerSubOdd14 = perSubA, perSubOdd, perSubStoreB, perSubEvenA, perSubOdd14
			if extra == "both" {
				sieveExtraByPairs = true
			}
			if store == "size" {
				storeBySize = true
			}
			if greedyWay == "both" {
				cutGreedy = false
			}
			if treeWay == "both" {
				cutTree = false
			}
			if kmaxWay == "both" {
				greedyAfterSplit = false
			}
			if grainWay == "both" {
				weightByByte = true
			}
			sieveVisitCost = visitA
			ways0, ways1 := "fixed (or sub-stores of CHESSPUZZLES_JOINPERSUB_B)", "by occupancy"
			if store == "size" {
				ways0, ways1 = "the half by size", "half B"
			}
			fmt.Fprintf(os.Stderr, "row set %#x of sub-problem %d: %.2f CPU-s %s, %.2f %s (%.3f×)\n", e, s, dt[0], ways0, dt[1], ways1, dt[0]/dt[1])
		}
		// CHESSPUZZLES_JOINTREE=both or CHESSPUZZLES_JOINKMAX=both: off, then on.
		statWays := []bool{false}
		if (treeWay == "both" || kmaxWay == "both") && cuts != "both" {
			statWays = []bool{false, true}
		}
		for _, on := range statWays {
			if stats == "" || j.storeMax == math.MaxInt {
				break
			}
			if len(statWays) == 2 && treeWay == "both" {
				cutTree = on
			}
			if len(statWays) == 2 && kmaxWay == "both" {
				greedyAfterSplit = on
			}
			t := &sieveTally{dry: stats == "dry"}
			sieveStats = t
			var c counters
			c0 := cpuTime()
			var got uint64
			var classes int
			if j.kind == subEven && storeLarger {
				got, classes, err = w.countRowSetEven(context.Background(), &j, j.rowSet(e), &c, -1)
			} else {
				got, classes, err = w.countRowSetClasses(context.Background(), &j, j.rowSet(e), &c, -1)
			}
			sieveStats = nil
			storedN, queriedN := c.stored, c.queries
			if j.kind == subEven && storeLarger && t.storedA[1] == 0 {
				storedN, queriedN = c.queries, c.stored
			}
			if err != nil {
				b.Fatal(err)
			}
			dt := (cpuTime() - c0).Seconds()
			var ks []string
			var kStored float64
			for k, nb := range t.byK {
				if nb > 0 {
					ks = append(ks, fmt.Sprintf("k%d×%d", k, nb))
					kStored += float64(k * t.storedByK[k])
				}
			}
			ks = append(ks, fmt.Sprintf("(class bits %d, sieve bits %.2f a stored pattern)", t.classBits, kStored/float64(max(1, t.stored))))
			lanes := float64(t.pairs) * float64(64*matchWords)
			if t.extra != [2]int{} {
				ks = append(ks, fmt.Sprintf("(extra cut bit kept %d, dropped %d)", t.extra[1], t.extra[0]))
			}
			fmt.Fprintf(os.Stderr, "row set %#x of sub-problem %d: stored side %d, queried side %d, %d classes, %d stores (mean %.0f) %s; %d query visits (mean sub-store met %.0f), %.4g (batch, query) pairs, lanes %.4g (%.1f%% holding a counted pattern, %.1f%% the padding of weight runs), raw pair tests %.3g; lanes met ÷ pair tests %.4f; %.2f CPU-s",
				e, s, storedN, queriedN, classes, t.builds, float64(t.stored)/float64(max(1, t.builds)), strings.Join(ks, " "),
				t.visits, float64(t.subLen)/float64(max(1, t.visits)), float64(t.pairs), lanes, 100*float64(t.valid)/max(1, lanes), 100*float64(t.runs-t.valid)/max(1, lanes), float64(t.raw),
				(lanes+float64(t.raw))/float64(c.pairTests), dt)
			if !t.dry {
				fmt.Fprintf(os.Stderr, "; %d solutions, %.4g lanes a solution", got, (lanes+float64(t.raw))/float64(got))
			}
			if t.trees > 0 {
				fmt.Fprintf(os.Stderr, "; tree: %d stores, sample pairs left own ÷ row set's order %.3f (%.4g / %.4g), %.3f s",
					t.trees, t.treeOwn/t.treeRowSet, t.treeOwn, t.treeRowSet, t.treeTime.Seconds())
			}
			for k, n := range t.pairsByLen {
				if n > 0 {
					fmt.Fprintf(os.Stderr, " len%d:%.3f", k, float64(n)/float64(max(1, t.pairs)))
				}
			}
			if t.greedyBits > 0 {
				fmt.Fprintf(os.Stderr, "; greedyOrder %d bits %.3f CPU-s", t.greedyBits, t.greedyTime.Seconds())
			}
			fmt.Fprintf(os.Stderr, " [tree %v, greedy bits after the split %v]", cutTree, greedyAfterSplit)
			fmt.Fprintln(os.Stderr)
			statPairs = append(statPairs, float64(t.pairs))
		}
		if whole {
			var c counters
			c0 := cpuTime()
			got, err := w.countRowSet(context.Background(), &j, j.rowSet(e), &c)
			if err != nil {
				b.Fatal(err)
			}
			dt := (cpuTime() - c0).Seconds()
			times = append(times, dt)
			fmt.Fprintf(os.Stderr, "row set %#x of sub-problem %d: whole %.2f CPU-s (%d solutions, %.3g pair tests; half A %d, half B %d)\n", e, s, dt, got, float64(c.pairTests), c.stored, c.queries)
		} else if timing {
			// One part of the row set's store, drawn uniformly, met by all its queries:
			// the row set's time is about the number of parts times this part's (an
			// unbiased estimate where parts are drawn uniformly).
			// From h = 13 a row set stores its classes (countRowSetClasses): one of them,
			// drawn uniformly, is timed with its parts, and multiplied by their number
			// (the class's own passes over both halves counted once a class).
			// The passes a row set makes once before its classes (the cut bits'
			// occupancy, the classes' sizes) are what classParts takes with no class
			// matched: timed once, they are counted once, not once a class.
			// Even N from h = storeBMinH stores half B (countRowSetStoreB), in one class
			// below h = 13: timed so, as the count runs it, not by half A's parts.
			// A class is drawn with a chance in proportion to its stored half-boards
			// (w.classSizes) and its time taken over that chance: unbiased as a uniform
			// draw is, but the classes' times follow their sizes, so one sample tells
			// more (a uniform draw of N = 28 gave 110 and 2,693 CPU-s for two row sets).
			classes := j.storeMax < math.MaxInt || j.kind == subEven && storeLarger && j.h >= storeBMinH
			parts := len(starts)
			var once float64
			if classes {
				w.classSizes = w.classSizes[:0]
				c0 := cpuTime()
				_, parts = w.classParts(&j, e, -2)
				once = (cpuTime() - c0).Seconds()
			}
			i, scale := rng.IntN(parts), float64(parts)
			if classes && len(w.classSizes) == parts && !uniform {
				var all int
				i, all = drawBySize(rng, w.classSizes)
				scale = float64(all) / float64(w.classSizes[i])
			}
			if classes {
				// The class counted once untimed: counted first, a class took 1.1–1.9
				// times its share of the whole row set's time at N = 26 (its buffers
				// grown and their pages touched once a row set, not once a class).
				w.classParts(&j, e, i)
			}
			c0 := cpuTime()
			if classes {
				w.classParts(&j, e, i)
			} else {
				w.countPart(&j, e, wE0(&j, e), starts[i])
			}
			dt := (cpuTime() - c0).Seconds()
			dt = once + max(0, dt-once)*scale
			times = append(times, dt)
			fmt.Fprintf(os.Stderr, "row set %#x of sub-problem %d: %d parts, part %d timed (×%.1f; %.2f CPU-s of passes made once): row set about %.2f CPU-s\n", e, s, parts, i, scale, once, dt)
			if check && classes {
				// The same row set counted whole, as countRowSet counts it.
				c0 := cpuTime()
				w.classParts(&j, e, -1)
				whole := (cpuTime() - c0).Seconds()
				checked[0], checked[1] = append(checked[0], dt), append(checked[1], whole)
				fmt.Fprintf(os.Stderr, "row set %#x: whole %.2f CPU-s, sampled %.2f (%.3f×)\n", e, whole, dt, dt/whole)
			}
		}
		maxA, maxB = max(maxA, c.stored), max(maxB, c.queries)
		maxPart, maxChunk = max(maxPart, part), max(maxChunk, chunk)
		pairs += float64(c.pairTests)
		pairsMax = max(pairsMax, float64(c.pairTests))
		var ms runtime.MemStats
		runtime.ReadMemStats(&ms)
		maxHeap = max(maxHeap, ms.HeapInuse)
		tab.release(rows[:])
	}
	b.Logf("N=%d: %d row sets (seed %d) in %.1f CPU-s: largest half A %d (part held %d), largest half B %d (chunk held %d), largest table row %.1f MiB, Go heap in use up to %.0f MiB; pair tests a row set %.3g mean, %.3g largest",
		n, m, seed, (cpuTime() - t0).Seconds(), maxA, maxPart, maxB, maxChunk, float64(maxRow)/(1<<20), float64(maxHeap)/(1<<20), pairs/float64(m), pairsMax)
	if len(statPairs) > 0 {
		m, se := meanSE(statPairs)
		b.Logf("N=%d: (batch, query) pairs a row set %.4g ± %.2g (%d row sets)", n, m, se, len(statPairs))
	}
	if len(both[0]) > 0 {
		m0, s0 := meanSE(both[0])
		m1, s1 := meanSE(both[1])
		b.Logf("N=%d: whole row sets, fixed cut bits %.2f ± %.2f CPU-s, by occupancy %.2f ± %.2f (%.3f×)", n, m0, s0, m1, s1, m0/m1)
	}
	if len(sizeDiffs) > 0 {
		m, se := meanSE(sizeDiffs)
		b.Logf("N=%d: the half stored by size less half B always: %.2f ± %.2f CPU-s a row set over %d row sets drawn (%d timed)", n, m, se, len(sizeDiffs), len(both[0]))
	}
	if timing {
		mean, se := meanSE(times)
		rowSets := countedRowSets(n)
		b.Logf("N=%d: a row set %.3g ± %.2g CPU-s (%d timed parts); %d counted row sets: the whole count %.3g ± %.2g core-hours", n, mean, se, len(times), rowSets, mean*float64(rowSets)/3600, se*float64(rowSets)/3600)
		if len(checked[0]) > 0 {
			ms, ss := meanSE(checked[0])
			mw, sw := meanSE(checked[1])
			b.Logf("N=%d: %d row sets sampled %.2f ± %.2f CPU-s, whole %.2f ± %.2f (%.3f×)", n, len(checked[0]), ms, ss, mw, sw, ms/mw)
		}
	}
}

// lists makes row set e's half-boards as countRowSet does, a store part and a chunk of
// queries at a time (listMax), and builds the matcher's store of its first part, adding
// the row set's counters to c and returning the largest part and chunk, without running
// a query. (For a cross, half B is made for every middle-row queen.)
func (w *worker) lists(j *subproblem, e uint64, c *counters) (part, chunk int, starts []int) {
	h := uint(j.h)
	lm := uint32(1)<<h - 1
	an, as := uint32(e)&lm, uint32(e>>h)&lm
	rest := j.free &^ e
	bn, bs := uint32(rest)&lm, uint32(rest>>h)&lm
	var stored, queries uint64
	for from, first := 0, true; from >= 0; first = false {
		starts = append(starts, from)
		w.sideA, from = w.halfFrom(j, w.sideA[:0], qNW, an, as, j.colsA, false, southRowOf(j, &w.southA), from, j.storeMax)
		stored += uint64(len(w.sideA))
		part = max(part, len(w.sideA))
		if first {
			w.m.build(w.sideA, 2*j.h-1, j.sieve)
		}
	}
	jb := *j
	jb.forbid(qNE, qSE, j.fdB, j.fuB)
	switch j.kind {
	case subEven:
		for from := 0; from >= 0; {
			from = w.evenBFrom(j, bn, bs, true, from, j.queryMax)
			n := len(w.q[0]) + len(w.q[1]) + len(w.q[2])
			queries += uint64(n)
			chunk = max(chunk, n)
		}
	case subCross:
		for a, from := 1, 0; a != 0; {
			a, from = w.crossBFrom(j, &jb, bn, bs, a, from, j.queryMax)
			queries += uint64(len(w.sideB))
			chunk = max(chunk, len(w.sideB))
		}
	default:
		for from := 0; from >= 0; {
			w.sideB, from = w.halfFrom(j, w.sideB[:0], qNE, bn, bs, j.colsB, true, southRowOf(j, &w.southB[0]), from, j.queryMax)
			queries += uint64(len(w.sideB))
			chunk = max(chunk, len(w.sideB))
		}
	}
	c.stored += stored
	c.queries += queries
	c.pairTests += stored * queries
	return part, chunk, starts
}

// countPart counts one part of row set e's store, the one from the from-th north column
// set on, against all its queries, as countRowSet does.
func (w *worker) countPart(j *subproblem, e uint64, w180 uint64, from int) uint64 {
	h := uint(j.h)
	lm := uint32(1)<<h - 1
	an, as := uint32(e)&lm, uint32(e>>h)&lm
	rest := j.free &^ e
	bn, bs := uint32(rest)&lm, uint32(rest>>h)&lm
	w.sideA, _ = w.halfFrom(j, w.sideA[:0], qNW, an, as, j.colsA, false, southRowOf(j, &w.southA), from, j.storeMax)
	w.m.build(w.sideA, 2*j.h-1, j.sieve)
	var sum uint64
	jb := *j
	jb.forbid(qNE, qSE, j.fdB, j.fuB)
	switch j.kind {
	case subEven:
		for from := 0; from >= 0; {
			from = w.evenBFrom(j, bn, bs, w180 != 0, from, j.queryMax)
			for k := range w.q {
				sum += w.m.countAll(w.q[k])
			}
		}
	case subCross:
		for a, from := 1, 0; a != 0; {
			a, from = w.crossBFrom(j, &jb, bn, bs, a, from, j.queryMax)
			sum += w.m.countAll(w.sideB)
		}
	default:
		for from := 0; from >= 0; {
			w.sideB, from = w.halfFrom(j, w.sideB[:0], qNE, bn, bs, j.colsB, true, southRowOf(j, &w.southB[0]), from, j.queryMax)
			sum += w.m.countAll(w.sideB)
		}
	}
	return sum
}

// classParts runs countRowSetClasses on row set e matching only its only-th class that
// holds half-boards (none for −2), and returns its count and the number of such classes.
func (w *worker) classParts(j *subproblem, e uint64, only int) (uint64, int) {
	var c counters
	count := w.countRowSetClasses
	if j.kind == subEven && storeLarger {
		count = w.countRowSetEven
	}
	n, parts, err := count(context.Background(), j, j.rowSet(e), &c, only)
	if err != nil {
		panic(err)
	}
	return n, parts
}

func wE0(j *subproblem, e uint64) uint64 {
	_, w180 := j.rowSetWeight(e)
	return w180
}

func meanSE(x []float64) (mean, se float64) {
	for _, v := range x {
		mean += v
	}
	mean /= float64(len(x))
	if len(x) < 2 {
		return mean, math.Inf(1)
	}
	var ss float64
	for _, v := range x {
		ss += (v - mean) * (v - mean)
	}
	return mean, math.Sqrt(ss / float64(len(x)-1) / float64(len(x)))
}

// countedRowSets returns the number of row sets the join of n counts (a walk of them all:
// about a second at n = 28).
func countedRowSets(n int) uint64 {
	var c uint64
	for sub := range subproblemCount(n) {
		j := newSubproblem(n, sub)
		for e := j.firstRowSet(); e != 0; e = j.nextRowSet(e) {
			if w, _ := j.rowSetWeight(e); w != 0 {
				c++
			}
		}
	}
	return c
}

// randomSubset returns a uniformly random k-subset of the bits of free.
func randomSubset(rng *rand.Rand, free uint64, k int) uint64 {
	var pos []int
	for f := free; f != 0; f &= f - 1 {
		pos = append(pos, bits.TrailingZeros64(f))
	}
	rng.Shuffle(len(pos), func(i, j int) { pos[i], pos[j] = pos[j], pos[i] })
	var e uint64
	for _, p := range pos[:k] {
		e |= 1 << p
	}
	return e
}

func binomial(n, k int) float64 {
	c := 1.0
	for i := range k {
		c = c * float64(n-i) / float64(i+1)
	}
	return c
}

// drawBySize draws an index of sizes with probability sizes[i] ÷ their sum (all), as the
// class sampler draws a class by its size; sizes must sum to more than 0.
func drawBySize(rng *rand.Rand, sizes []int) (i, all int) {
	for _, z := range sizes {
		all += z
	}
	x := rng.IntN(all)
	for i = 0; x >= sizes[i]; i++ {
		x -= sizes[i]
	}
	return i, all
}
