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
	vendorID := ""
	for line := range strings.Lines(string(b)) {
		name, value, ok := strings.Cut(line, ":")
		if !ok {
			continue
		}
		switch strings.TrimSpace(name) {
		case "vendor_id":
			if vendorID == "" {
				vendorID = strings.TrimSpace(value)
			}
		case "flags":
			if flags == nil {
				flags = map[string]bool{}
				for _, f := range strings.Fields(value) {
					flags[f] = true
				}
			}
		}
	}
	if flags == nil || vendorID == "" {
		t.Fatal("/proc/cpuinfo has no flags or vendor_id line")
	}
	if got := vendor(); got != vendorID {
		t.Errorf("vendor() = %q, but /proc/cpuinfo says %q", got, vendorID)
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
		{"Intel", Intel, vendorID == "GenuineIntel"},
		{"AVX512BYTES", AVX512BYTES, flags["avx512f"] && flags["avx512_vpopcntdq"] && flags["avx512bw"] && flags["avx512_bitalg"]},
	} {
		if tt.got != tt.want {
			t.Errorf("%s = %v, but /proc/cpuinfo says %v", tt.name, tt.got, tt.want)
		}
	}
}
