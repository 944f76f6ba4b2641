//go:build amd64 && !purego

package cpuid

// The features, read once at start-up from CPUID leaves 1 and 7 and, for the vector
// registers, from XCR0 (what the operating system saves on a context switch).
var (
	// POPCNT reports the POPCNT bit of CPUID leaf 1 (every x86-64 processor since 2008).
	POPCNT bool
	// BMI2 reports both the BMI1 and BMI2 instructions (Intel since 2013, AMD since
	// 2015): CPUID leaf 7, EBX bits 3 and 8.
	BMI2 bool
	// AVX2 reports AVX2 (CPUID leaf 7, EBX bit 5) and an operating system that saves the
	// 256-bit registers (XCR0 bits 1 and 2).
	AVX2 bool
	// AVX512POPCNT reports AVX-512 F and VPOPCNTDQ (CPUID leaf 7, EBX bit 16 and ECX
	// bit 14: Intel Ice Lake and later, AMD Zen 4 and later) and an operating system that
	// saves the 512-bit registers (XCR0 bits 1, 2 and 5–7).
	AVX512POPCNT bool
	// AVX512BYTES reports AVX512POPCNT's needs and AVX-512 BW (CPUID leaf 7, EBX bit 30:
	// byte and word operations on 512-bit registers, VPMADDUBSW) and BITALG (ECX bit 12:
	// VPOPCNTB, the popcount of each byte; Intel Ice Lake and later, AMD Zen 4 and later).
	AVX512BYTES bool
	// Intel reports the vendor string GenuineIntel (CPUID leaf 0). The join's AVX-512
	// kernels take their ternlog twins only where it is set: they were measured faster
	// on an Intel Xeon and not on AMD Zen 5.
	Intel bool
)

func init() {
	bit := func(x uint32, i uint) bool { return x>>i&1 == 1 }
	maxLeaf, _, _, _ := cpuid(0, 0)
	Intel = vendor() == "GenuineIntel"
	_, _, ecx1, _ := cpuid(1, 0)
	POPCNT = bit(ecx1, 23)
	if maxLeaf < 7 {
		return
	}
	_, ebx7, ecx7, _ := cpuid(7, 0)
	BMI2 = bit(ebx7, 3) && bit(ebx7, 8)
	// OSXSAVE (leaf 1, ECX bit 27) says that XGETBV may be asked; AVX (bit 28) is the
	// base of AVX2.
	if !bit(ecx1, 27) || !bit(ecx1, 28) {
		return
	}
	xcr0 := xgetbv()
	AVX2 = bit(ebx7, 5) && xcr0&0x6 == 0x6
	AVX512POPCNT = bit(ebx7, 16) && bit(ecx7, 14) && xcr0&0xe6 == 0xe6
	AVX512BYTES = AVX512POPCNT && bit(ebx7, 30) && bit(ecx7, 12)
}

// vendor returns the processor's vendor string (GenuineIntel, AuthenticAMD, …): CPUID
// leaf 0's EBX, EDX and ECX, four little-endian bytes each.
func vendor() string {
	_, ebx, ecx, edx := cpuid(0, 0)
	var b [12]byte
	for i, r := range [3]uint32{ebx, edx, ecx} {
		for j := range 4 {
			b[4*i+j] = byte(r >> (8 * j))
		}
	}
	return string(b[:])
}

// cpuid returns the four registers CPUID leaves in leaf, subleaf sub.
func cpuid(leaf, sub uint32) (eax, ebx, ecx, edx uint32)

// xgetbv returns the low half of XCR0; only when CPUID says OSXSAVE.
func xgetbv() (eax uint32)
