package join

import "testing"

// TestCostModelClasses checks that the cost model of each class of processor covers every
// N from 16 to 29 with a time that grows with N within each parity (odd and even N grow
// differently, and model.Seconds extrapolates each from its own last two), and that
// CoreSeconds reads the class modelClass.
func TestCostModelClasses(t *testing.T) {
	for c := range numClasses {
		m := measuredCoreHours[c]
		for n := 16; n <= 29; n++ {
			h, ok := m[n]
			if !ok || h <= 0 {
				t.Errorf("%v: measuredCoreHours[%d] = %g, %v; want a positive figure", c, n, h, ok)
				continue
			}
			if n >= 18 && h <= m[n-2] {
				t.Errorf("%v: measuredCoreHours[%d] = %g, not above N = %d's %g", c, n, h, n-2, m[n-2])
			}
		}
		for n, e := range measuredError[c] {
			if _, ok := m[n]; !ok || e <= 0 || e >= 1 {
				t.Errorf("%v: measuredError[%d] = %g for a figure present %v; want a share of it", c, n, e, ok)
			}
		}
	}
	if got, secs := modelSeconds(28), 3600*measuredCoreHours[modelClass][28]; got != secs {
		t.Errorf("modelSeconds(28) = %g, want %g (the %v model)", got, secs, modelClass)
	}
}
