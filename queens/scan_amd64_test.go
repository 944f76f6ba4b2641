//go:build amd64 && !purego

package queens

import "testing"

// TestCountWithoutAssembly counts with the Go scan on a machine that has the assembly one,
// so that both paths of run are checked against the known values.
func TestCountWithoutAssembly(t *testing.T) {
	if !haveScanAsm {
		t.Log("no POPCNT: the Go scan is the only one here, tested everywhere else")
	}
	saved := haveScanAsm
	haveScanAsm = false
	defer func() { haveScanAsm = saved }()
	known := knownCounts(t)
	for n := 1; n <= 12; n++ {
		c, err := Count(t.Context(), n)
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
