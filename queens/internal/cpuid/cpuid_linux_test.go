//go:build amd64 && !purego

package cpuid

import (
	"os"
	"strings"
	"testing"
)

// TestAgreesWithKernel holds the features to the flags Linux reports in /proc/cpuinfo,
// which the kernel reads from the same CPUID bits and XCR0 (it clears avx2 and avx512*
// where it does not save their registers).
func TestAgreesWithKernel(t *testing.T) {
	b, err := os.ReadFile("/proc/cpuinfo")
	if err != nil {
		t.Skipf("no /proc/cpuinfo to compare with: %v", err)
	}
	var flags map[string]bool
	for line := range strings.Lines(string(b)) {
		if name, value, ok := strings.Cut(line, ":"); ok && strings.TrimSpace(name) == "flags" {
			flags = map[string]bool{}
			for _, f := range strings.Fields(value) {
				flags[f] = true
			}
			break
		}
	}
	if flags == nil {
		t.Fatal("/proc/cpuinfo has no flags line")
	}
	for _, tt := range []struct {
		name string
		got  bool
		want bool
	}{
		{"POPCNT", POPCNT, flags["popcnt"]},
		{"BMI2", BMI2, flags["bmi1"] && flags["bmi2"]},
		{"AVX2", AVX2, flags["avx2"]},
		{"AVX512POPCNT", AVX512POPCNT, flags["avx512f"] && flags["avx512_vpopcntdq"]},
		{"AVX512BYTES", AVX512BYTES, flags["avx512f"] && flags["avx512_vpopcntdq"] && flags["avx512bw"] && flags["avx512_bitalg"]},
	} {
		if tt.got != tt.want {
			t.Errorf("%s = %v, but /proc/cpuinfo says %v", tt.name, tt.got, tt.want)
		}
	}
}
