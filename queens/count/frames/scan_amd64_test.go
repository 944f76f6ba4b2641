//go:build amd64 && !purego

package frames

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/chesspuzzles/chesspuzzles/queens/count"
)

// TestCountWithoutAssembly counts with the Go scan on a machine that has the assembly one,
// so that both paths of run are checked against the known values.
func TestCountWithoutAssembly(t *testing.T) {
	if !haveScanAsm {
		t.Log("no POPCNT: the Go scan is the only one here, tested everywhere else")
	}
	savedScan, savedSettle := haveScanAsm, haveSettleAsm
	haveScanAsm, haveSettleAsm = false, false
	defer func() { haveScanAsm, haveSettleAsm = savedScan, savedSettle }()
	known := knownCounts(t)
	for n := 1; n <= 12; n++ {
		c, err := count.Here(t.Context(), mustPlan(t, n))
		if err != nil {
			t.Fatal(err)
		}
		if want := known[n]; c.Total.Cmp(want[0]) != 0 || c.Unique.Cmp(want[1]) != 0 {
			t.Errorf("Count(%d) with the Go scan = %v total, %v unique; want %v, %v", n, c.Total, c.Unique, want[0], want[1])
		}
	}
}

// TestScanRowsWithoutBMI2 checks the plain assembly loop, which processors with BMI2 do not
// take.
func TestScanRowsWithoutBMI2(t *testing.T) {
	saved := haveBMI2
	haveBMI2 = false
	defer func() { haveBMI2 = saved }()
	checkScans(t)
}

// TestRunFollowsExpandWithoutSettleAsm checks run's Go path for the forced queens, over the
// BMI2 scan and over the plain one (a processor with POPCNT but no BMI2).
func TestRunFollowsExpandWithoutSettleAsm(t *testing.T) {
	savedSettle, savedBMI2 := haveSettleAsm, haveBMI2
	defer func() { haveSettleAsm, haveBMI2 = savedSettle, savedBMI2 }()
	haveSettleAsm = false
	for _, bmi2 := range []bool{savedBMI2, false} {
		haveBMI2 = bmi2
		t.Run(fmt.Sprintf("bmi2=%v", bmi2), checkRunFollowsExpand)
	}
}

// TestSettleAsm compares settleAsm with settleGo on random nodes, from the start of real
// searches and from random states.
func TestSettleAsm(t *testing.T) {
	if !haveSettleAsm {
		t.Skip("this processor has no BMI1/BMI2: settleAsm never runs here")
	}
	rng := rand.New(rand.NewPCG(3, 4))
	moved := 0
	for i := range 20000 {
		n := 4 + i%(count.MaxN-3)
		cols, d1, d2, rem := randomNode(rng, n)
		in := settleState{cols: cols, d1: d1, d2: d2, rem: rem, mask: uint64(1)<<n - 1, tie: &tieBreak[n]}
		if rem&(rem-1) == 0 {
			continue // run never settles a node with fewer than two empty rows
		}
		a, g := in, in
		settleAsm(&a)
		settleGo(&g)
		if a != g {
			t.Fatalf("n=%d from %+v:\nsettleAsm: %+v\nsettleGo:  %+v", n, in, a, g)
		}
		if g.forced > 0 {
			moved++
		}
	}
	if moved < 1000 {
		t.Errorf("only %d of the random nodes had a forced queen: the test says little", moved)
	}
}
