package main

import (
	"bufio"
	"fmt"
	"os"
	"strconv"
	"strings"
)

// parseSize reads a memory size, the one reading of --max-memory for every command: a whole
// number of bytes with an optional unit, B, KB, MB, GB, TB (powers of 1000) or K, M, G, T,
// KiB, MiB, GiB, TiB (powers of 1024), in any case, e.g. 512MiB, 8GB or 1048576. Zero,
// fractions, signs and sizes past 2^62 bytes are refused.
func parseSize(s string) (uint64, error) {
	t := strings.TrimSpace(s)
	i := 0
	for i < len(t) && t[i] >= '0' && t[i] <= '9' {
		i++
	}
	num, unit := t[:i], strings.ToUpper(strings.TrimSpace(t[i:]))
	units := map[string]uint64{"": 1, "B": 1, "KB": 1e3, "MB": 1e6, "GB": 1e9, "TB": 1e12,
		"K": 1 << 10, "M": 1 << 20, "G": 1 << 30, "T": 1 << 40, "KIB": 1 << 10, "MIB": 1 << 20, "GIB": 1 << 30, "TIB": 1 << 40}
	mul, ok := units[unit]
	v, err := strconv.ParseUint(num, 10, 64)
	if !ok || err != nil || v == 0 || v > (1<<62)/mul {
		return 0, fmt.Errorf("a size must be a whole number with an optional unit (KB, MB, GB: powers of 1000; K, M, G or KiB, MiB, GiB: powers of 1024), e.g. 512MiB or 8GB, got %q", s)
	}
	return v * mul, nil
}

// machineMemory returns the machine's memory from /proc/meminfo, or 0 if unknown.
func machineMemory() uint64 {
	f, err := os.Open("/proc/meminfo")
	if err != nil {
		return 0
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		var kb uint64
		if _, err := fmt.Sscanf(sc.Text(), "MemTotal: %d kB", &kb); err == nil {
			return kb << 10
		}
	}
	return 0
}

// halfMemory is the default --max-memory: half the machine's memory, 4 GiB if unknown.
func halfMemory() uint64 {
	if m := machineMemory(); m > 0 {
		return m / 2
	}
	return 4 << 30
}
