// Command baseline counts N-queens solutions the way a Go developer first writes it:
// recursive bitboard backtracking, with only the left-right mirror symmetry (count the
// first row's left half twice, its middle column once). bench/count.sh times it against
// "chesspuzzles queens count N --workers 1".
//
// Usage: go run ./bench/baseline N
package main

import (
	"fmt"
	"os"
	"strconv"
)

func solve(mask, cols, ld, rd uint64) uint64 {
	if cols == mask {
		return 1
	}
	var n uint64
	for avail := mask &^ (cols | ld | rd); avail != 0; {
		bit := avail & -avail
		avail ^= bit
		n += solve(mask, cols|bit, (ld|bit)<<1, (rd|bit)>>1)
	}
	return n
}

func main() {
	if len(os.Args) != 2 {
		fmt.Fprintln(os.Stderr, "usage: baseline N")
		os.Exit(2)
	}
	n, err := strconv.Atoi(os.Args[1])
	if err != nil || n < 1 || n > 32 {
		fmt.Fprintf(os.Stderr, "baseline: N must be a whole number from 1 to 32, got %q\n", os.Args[1])
		os.Exit(2)
	}
	mask := uint64(1)<<n - 1
	var total uint64
	for c := 0; c < n/2; c++ {
		bit := uint64(1) << c
		total += 2 * solve(mask, bit, bit<<1, bit>>1)
	}
	if n%2 == 1 {
		bit := uint64(1) << (n / 2)
		total += solve(mask, bit, bit<<1, bit>>1)
	}
	fmt.Println(total)
}
