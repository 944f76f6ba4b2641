package web

// knownCounts[n] holds Q(n), the number of solutions of the n-queens problem (OEIS
// A000170), and U(n), the number of fundamental solutions (OEIS A002562), as published;
// Q(27) was computed by the Q27 project at TU Dresden in 2016, and no larger value is
// known. They are strings because Q(27) > 2^53 and JSON numbers are doubles in browsers.
var knownCounts = [...][2]string{
	1:  {"1", "1"},
	2:  {"0", "0"},
	3:  {"0", "0"},
	4:  {"2", "1"},
	5:  {"10", "2"},
	6:  {"4", "1"},
	7:  {"40", "6"},
	8:  {"92", "12"},
	9:  {"352", "46"},
	10: {"724", "92"},
	11: {"2680", "341"},
	12: {"14200", "1787"},
	13: {"73712", "9233"},
	14: {"365596", "45752"},
	15: {"2279184", "285053"},
	16: {"14772512", "1846955"},
	17: {"95815104", "11977939"},
	18: {"666090624", "83263591"},
	19: {"4968057848", "621012754"},
	20: {"39029188884", "4878666808"},
	21: {"314666222712", "39333324973"},
	22: {"2691008701644", "336376244042"},
	23: {"24233937684440", "3029242658210"},
	24: {"227514171973736", "28439272956934"},
	25: {"2207893435808352", "275986683743434"},
	26: {"22317699616364044", "2789712466510289"},
	27: {"234907967154122528", "29363495934315694"},
}

// maxKnownN is the largest N whose counts are known.
const maxKnownN = len(knownCounts) - 1

// KnownCount returns Q(n) and U(n), the numbers of all and of fundamental solutions of the
// n-queens problem, as decimal strings, from the table of published values (n from 1 to
// 27), and false for any other n. It takes constant time.
func KnownCount(n int) (total, unique string, ok bool) {
	if n < 1 || n > maxKnownN {
		return "", "", false
	}
	return knownCounts[n][0], knownCounts[n][1], true
}
