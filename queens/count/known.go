package count

import (
	"math/big"
)

// MaxKnownN is the largest N whose solution counts are published: Q(27) was computed by
// the Q27 project at TU Dresden in 2016 (on FPGAs) and confirmed in 2025; Q(28) is unknown.
const MaxKnownN = 27

// knownTable holds, for n = 1…MaxKnownN, the published counts as decimal strings:
// Q(n) all solutions (OEIS A000170), U(n) fundamental solutions (OEIS A002562), P(n)
// solutions a half turn maps onto themselves (OEIS A032522) and R(n) those a quarter turn
// does (OEIS A033148). They are facts from the literature, never this package's output;
// the tests hold every count this package computes against them, and check that each row
// satisfies Burnside's lemma, 8·U = Q + P + 2·R (n ≥ 2).
var knownTable = [MaxKnownN + 1][4]string{
	1:  {"1", "1", "1", "1"},
	2:  {"0", "0", "0", "0"},
	3:  {"0", "0", "0", "0"},
	4:  {"2", "1", "2", "2"},
	5:  {"10", "2", "2", "2"},
	6:  {"4", "1", "4", "0"},
	7:  {"40", "6", "8", "0"},
	8:  {"92", "12", "4", "0"},
	9:  {"352", "46", "16", "0"},
	10: {"724", "92", "12", "0"},
	11: {"2680", "341", "48", "0"},
	12: {"14200", "1787", "80", "8"},
	13: {"73712", "9233", "136", "8"},
	14: {"365596", "45752", "420", "0"},
	15: {"2279184", "285053", "1240", "0"},
	16: {"14772512", "1846955", "3000", "64"},
	17: {"95815104", "11977939", "8152", "128"},
	18: {"666090624", "83263591", "18104", "0"},
	19: {"4968057848", "621012754", "44184", "0"},
	20: {"39029188884", "4878666808", "144620", "480"},
	21: {"314666222712", "39333324973", "375664", "704"},
	22: {"2691008701644", "336376244042", "1250692", "0"},
	23: {"24233937684440", "3029242658210", "3581240", "0"},
	24: {"227514171973736", "28439272956934", "11675080", "3328"},
	25: {"2207893435808352", "275986683743434", "34132592", "3264"},
	26: {"22317699616364044", "2789712466510289", "115718268", "0"},
	27: {"234907967154122528", "29363495934315694", "320403024", "0"},
}

// Known returns the published counts of the n×n board — Q(n), U(n), P(n) and R(n) as
// [Counts] — and true, for 1 ≤ n ≤ MaxKnownN; otherwise the zero Counts and false. The
// 1×1 board's single queen is fixed by every symmetry, so its P and R are 1. Each call
// returns fresh big.Ints, which the caller may change.
func Known(n int) (Counts, bool) {
	if n < 1 || n > MaxKnownN {
		return Counts{}, false
	}
	row := knownTable[n]
	v := func(s string) *big.Int {
		x, _ := new(big.Int).SetString(s, 10) // the table holds only decimal literals
		return x
	}
	return Counts{N: n, Total: v(row[0]), Unique: v(row[1]), HalfTurn: v(row[2]), QuarterTurn: v(row[3])}, true
}
