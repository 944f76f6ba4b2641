package join

import (
	"slices"
	"testing"
)

// TestCostModelClasses checks that the cost model of each class of processor covers every
// N from 16 to 29 with a time that grows with N within each parity (odd and even N grow
// differently, and model.Seconds extrapolates each from its own last two), that
// CoreSeconds reads the class of the kernels that run here, and that ClassCoreSeconds
// reads each class by its name.
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
	want := classAVX2
	if haveMatchAVX512 {
		want = classAVX512
	}
	if modelClass != want || ModelClass() != want.String() {
		t.Errorf("modelClass = %v (ModelClass %q), want %v: the AVX-512 kernels run here: %v", modelClass, ModelClass(), want, haveMatchAVX512)
	}
	if got, secs := modelSeconds(28), 3600*measuredCoreHours[modelClass][28]; got != secs {
		t.Errorf("modelSeconds(28) = %g, want %g (the %v model)", got, secs, modelClass)
	}
	for c := range numClasses {
		got, ok := ClassCoreSeconds(28, c.String())
		if secs := 3600 * measuredCoreHours[c][28]; !ok || got != secs {
			t.Errorf("ClassCoreSeconds(28, %q) = %g, %v; want %g, true", c, got, ok, secs)
		}
	}
	if got := ModelClasses(); !slices.Equal(got, []string{"AVX2", "AVX-512"}) {
		t.Errorf("ModelClasses() = %q, want AVX2 and AVX-512", got)
	}
	if got, ok := ClassCoreSeconds(28, "SSE2"); ok {
		t.Errorf("ClassCoreSeconds(28, \"SSE2\") = %g, true; want false", got)
	}
}
