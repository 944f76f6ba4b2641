package main

import (
	"bufio"
	"fmt"
	"os"
	"runtime/debug"
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

// smallCountHeap is the most memory (queens.Choice.Memory) of a count that smallCountGC
// lets run without a garbage collection: the join's counts of N = 16–17 (10.4 MiB on one
// worker, 1.3 MiB more a worker: up to five workers), where the start and the setting up
// are a large share of the count. N = 18–19 (18.2 MiB on one worker) keep the runtime's
// setting: their three collections are a fraction of a per cent of 1.7 and 10 CPU-s, and
// run without them N = 18 was no faster (9 pairs, 1.00) and N = 19 read 1.07× slower (3
// pairs at load 10–11; bench/log/2026-11-29-join.md, Session 11, small).
const smallCountHeap = 16 << 20

// smallCountGC raises the Go runtime's GC percent (GOGC) for a count that needs at most
// smallCountHeap bytes (need, the plan's Memory), so that the heap's first goal, 4 MiB ×
// GOGC/100, holds what the count needs on top of the command's start: such a count, a few
// tenths of a second, then ends without a collection, whose marking and sweeping touched
// some 150–250 pages more (up to a seventh of the page faults of N = 16–17) and took a few
// per cent of its CPU. A larger count keeps the runtime's setting, and so does a user's
// GOGC. Past a first collection the goal is the live heap × (1 + GOGC/100), at most six
// times the live heap (GOGC ≤ 500 at 16 MiB). It returns the function that puts the
// setting back.
func smallCountGC(need uint64) (restore func()) {
	if need == 0 || need > smallCountHeap || os.Getenv("GOGC") != "" {
		return func() {}
	}
	const start = 4 << 20 // the runtime's heap goal at GOGC=100 before the first collection
	pct := int(100 * (need + start) / start)
	prev := debug.SetGCPercent(pct)
	if prev < 0 || prev >= pct {
		debug.SetGCPercent(prev)
		return func() {}
	}
	return func() { debug.SetGCPercent(prev) }
}
