#!/usr/bin/env bash
# public-join.sh times `chesspuzzles queens count N --method join --workers 1` against the
# public quarter-join program (github.com/EvgenyKluev/N-Queens-Count-Sol, C++20, MIT; the
# method our join is described from) built with its author's own per-N tuning, the two
# alternated round by round (public, ours, then ours, public, …). It prints every run (CPU
# seconds = user + sys, peak RSS, the count), then for each N the CPU medians of both, the
# ratio public ÷ ours of every pair and its median: how many times less CPU ours takes.
#
# Usage: bench/public-join.sh -s SRC [-r ROUNDS] [-k REPEAT] [-p "N:PARTS:SHARDS ..."] [N ...]
#   -s SRC     a checkout of the public program (tested at f8561a3, Dec 2022). It is copied
#              and built once per N in a temporary directory (g++ 12 or newer, -std=c++20 -O3
#              -march=native -pthread), never changed where it is, and nothing of it enters
#              this repository.
#   -r ROUNDS  alternated pairs a size (default 3)
#   -k REPEAT  each timed run runs its program REPEAT times in a row, its CPU divided by
#              REPEAT (default 1): /usr/bin/time counts in hundredths of a second, and N = 16
#              takes 0.07–0.09 CPU-s of ours, so one run of it reads 0.07, 0.08 or 0.09 (use
#              -k 20 there)
#   -p SPEC    sizes timed on a part, N:PARTS:SHARDS: the public program's part 0 of PARTS
#              (`nqueens 1 PARTS 0`: every PARTS-th row set, an unbiased 1/PARTS of its
#              work) and ours `--shard 1/SHARDS` (a 1/SHARDS slice of the plan, equal by the
#              cost model), each CPU figure multiplied back to the whole; SHARDS 1 runs our
#              whole count (default "20:8:1 21:16:8 22:64:64")
#   N          default 16 17 18
#
# The author's tuning, the comment table of his solcounter.h (N = 16…22): sieve cut bits 0
# to 19, 3 at 20–21, 6 at 22; the tail left unbatched below 40 patterns, 60 at 20–21, 80 at
# 22; PEXT (bmi2.h) from 19; the prefetch (prefetchx86.h) at every N but 21 (it runs only with
# cut bits); the table by row symmetry (QRowSymmetry) at 22. One thread (`nqueens 1`).
#
# Each round also times `chesspuzzles version`, the start every command of our one binary
# pays (Go's runtime and some 170 packages' initialisers: nats-server, Prometheus' client
# and the rest), and a second table gives public ÷ (ours − start): the engines alone. Where
# a page fault is dear (10 µs a fresh page on one VM of 3 Dec), it is a third of N = 16.
#
# Where ours counts whole (SHARDS 1), each round also times bench/libcount: the same join
# called through the library (queens.Count) by a program that links the engines and
# nothing of the command-line tool, the way a Go program that imports chesspuzzles counts.
# It starts as a Go hello world does; a third table gives public ÷ library by pair.
#
# The machine may be shared: only the ratio of alternated pairs means anything. A whole count
# of N = 19 is about 3 CPU-minutes for the public program, N = 20 about 10.
set -euo pipefail
. "$(dirname "$0")/lib.sh"
src= rounds=3 repeat=1 partspec="20:8:1 21:16:8 22:64:64"
flags '-s SRC [-r ROUNDS] [-k REPEAT] [-p "N:PARTS:SHARDS ..."] [N ...]' s:src r:rounds k:repeat p:partspec -- "$@"
shift $((OPTIND - 1))
[ $# -gt 0 ] || set -- 16 17 18
[ -n "$src" ] && [ -f "$src/solcounter.h" ] || {
	echo "public-join.sh: -s must name a checkout of N-Queens-Count-Sol (with solcounter.h), got \"$src\"" >&2
	exit 2
}
[[ $repeat =~ ^[1-9][0-9]*$ ]] || { echo "public-join.sh: -k must be a whole number from 1 up, got \"$repeat\"" >&2; exit 2; }
[ -x /usr/bin/time ] || { echo "public-join.sh needs /usr/bin/time (Debian: apt-get install time)" >&2; exit 2; }
command -v g++ >/dev/null || { echo "public-join.sh needs g++ 12 or newer" >&2; exit 2; }

# tuning N: "cuts minsize bmi prefetch symmetry", the author's table.
tuning() {
	case $1 in
	16 | 17 | 18) echo 0 40 0 1 QNoSymmetry ;;
	19) echo 0 40 1 1 QNoSymmetry ;;
	20) echo 3 60 1 1 QNoSymmetry ;;
	21) echo 3 60 1 0 QNoSymmetry ;;
	22) echo 6 80 1 1 QRowSymmetry ;;
	*) echo "public-join.sh: the author tuned N = 16 to 22 only, got $1" >&2; exit 2 ;;
	esac
}

# compile N: a copy of SRC with the size and the tuning of N written in, built as $tmp/nqN.
compile() {
	local n=$1 d=$tmp/src$1 cuts minsize bmi prefetch symm
	read -r cuts minsize bmi prefetch symm <<<"$(tuning "$n")"
	cp -r "$src" "$d"
	sed -i -e "s/^inline constexpr int size = [0-9]*;/inline constexpr int size = $n;/" \
		-e "s/\.sieveCuts = [0-9]*/.sieveCuts = $cuts/" \
		-e "s/\.matchMinSize = [0-9]*/.matchMinSize = $minsize/" \
		-e "s/\.bmiIntrin = [a-z]*/.bmiIntrin = $( ((bmi)) && echo true || echo false)/" \
		-e "s/\.prefetch = [a-z]*/.prefetch = $( ((prefetch)) && echo true || echo false)/" \
		-e "s/Subsquare<size \/ 2, Q[A-Za-z]*,/Subsquare<size \/ 2, $symm,/" "$d/solcounter.h"
	if ((bmi)); then sed -i 's|^//#include "bmi2.h"|#include "bmi2.h"|' "$d/bmintrin.h"; fi
	if ((prefetch)); then sed -i 's|^//#include "prefetchx86.h"|#include "prefetchx86.h"|' "$d/prefetch.h"; fi
	grep -q "^inline constexpr int size = $n;" "$d/solcounter.h" || {
		echo "public-join.sh: could not set the size in $src/solcounter.h (not the layout of f8561a3?)" >&2
		exit 2
	}
	g++ -std=c++20 -O3 -march=native -pthread -o "$tmp/nq$n" "$d/main.cpp"
}

# run N SIDE CMD...: one timed run (CMD REPEAT times in a row); appends "N SIDE cpu-s
# peak-KiB count" to $tmp/out, the CPU seconds of one run of CMD.
run() {
	local n=$1 side=$2
	shift 2
	/usr/bin/time -f "%U %S %M" -o "$tmp/t" bash -c 'for ((i = 0; i < $0; i++)); do "$@" || exit; done' "$repeat" "$@" >"$tmp/stdout" 2>/dev/null
	read -r u s m <"$tmp/t"
	u=$(awk -v u="$u" -v k="$repeat" 'BEGIN { printf "%.4f", u / k }')
	s=$(awk -v s="$s" -v k="$repeat" 'BEGIN { printf "%.4f", s / k }')
	count=$(grep -o -m1 -E '^Result: [0-9]+|^[0-9]+ queens: [0-9]+' "$tmp/stdout" | grep -o -E '[0-9]+$' || echo part)
	echo "$n $side $(awk -v u="$u" -v s="$s" 'BEGIN { printf "%.4f", u + s }') $m $count" >>"$tmp/out"
	printf '  N=%-3s %-7s %9.3f CPU-s %8.1f MiB  count %-12s load %s\n' "$n" "$side" \
		"$(awk -v u="$u" -v s="$s" 'BEGIN { print u + s }')" "$(awk -v k="$m" 'BEGIN { print k / 1024 }')" \
		"$count" "$(cut -d' ' -f1 /proc/loadavg)"
}

# column N SIDE COL [K]: column COL of side SIDE's runs at N in $tmp/out, times K (default 1),
# one line a run: COL 3 is CPU seconds, 4 peak KiB.
column() { awk -v n="$1" -v s="$2" -v c="$3" -v k="${4:-1}" '$1 == n && $2 == s { print $c * k }' "$tmp/out"; }

# pairs: the ratios in $tmp/ratio on one line, comma-separated.
pairs() { awk '{ printf("%s%.2f", (NR > 1 ? ", " : ""), $1) }' "$tmp/ratio"; }

for n in "$@"; do tuning "$n" >/dev/null; done
build cmd/chesspuzzles chesspuzzles
build bench/libcount libcount
machine
for n in "$@"; do
	parts=1 shards=1
	for p in $partspec; do
		if [ "${p%%:*}" = "$n" ]; then IFS=: read -r _ parts shards <<<"$p"; fi
	done
	compile "$n"
	ours=("$tmp/chesspuzzles" queens count "$n" --method join --workers 1 -q)
	if ((shards > 1)); then ours+=(--shard "1/$shards" --json); fi
	sides=(public ours)
	if ((shards == 1)); then sides+=(library); fi
	echo "N=$n, $rounds rounds; public part 1 of $parts, ours 1 of $shards:"
	for r in $(seq "$rounds"); do
		for side in $(alternate "$r" "${sides[@]}"); do
			case $side in
			public) run "$n" public "$tmp/nq$n" 1 "$parts" 0 ;;
			ours) run "$n" ours "${ours[@]}" ;;
			library) run "$n" library "$tmp/libcount" "$n" ;;
			esac
		done
		run "$n" start "$tmp/chesspuzzles" version
	done
	echo "$n $parts $shards" >>"$tmp/sizes"
done

echo
echo "| N | public part | ours part | public CPU-s (whole) | ours CPU-s (whole) | public ÷ ours, each pair | median of the pairs | peak RSS public / ours |"
echo "|---:|---:|---:|---:|---:|---:|---:|---:|"
while read -r n parts shards; do
	column "$n" public 3 "$parts" >"$tmp/pub"
	column "$n" ours 3 "$shards" >"$tmp/our"
	paste -d' ' "$tmp/pub" "$tmp/our" | awk '{ print $1 / $2 }' >"$tmp/ratio"
	pm=$(column "$n" public 4 | median)
	om=$(column "$n" ours 4 | median)
	printf '| %s | 1/%s | 1/%s | %.3f | %.3f | %s | %.2f× | %.1f / %.1f MiB |\n' "$n" "$parts" "$shards" \
		"$(median "$tmp/pub")" "$(median "$tmp/our")" \
		"$(pairs)" "$(median "$tmp/ratio")" \
		"$(awk -v k="$pm" 'BEGIN { print k / 1024 }')" "$(awk -v k="$om" 'BEGIN { print k / 1024 }')"
done <"$tmp/sizes"
echo
echo "Our binary's start (\`chesspuzzles version\`, timed once a round after the pair): the"
echo "runtime's and the packages' initialisation, the same for every command. The public"
echo "program's start is a C++ program's (a C++ hello world with a thread: 2.7 ms on 3 Dec),"
echo "not taken off, so the ratio errs about 1 % its way. Without our start, a pair's ratio"
echo "is public ÷ (ours − start), ours per part before it is multiplied back:"
echo
echo "| N | start CPU-s | public ÷ (ours − start), each pair | median |"
echo "|---:|---:|---:|---:|"
while read -r n parts shards; do
	column "$n" public 3 "$parts" >"$tmp/pub"
	column "$n" ours 3 >"$tmp/our"
	column "$n" start 3 >"$tmp/start"
	paste -d' ' "$tmp/pub" "$tmp/our" "$tmp/start" | awk -v k="$shards" '{ print $1 / (($2 - $3) * k) }' >"$tmp/ratio"
	printf '| %s | %.4f | %s | %.2f× |\n' "$n" "$(median "$tmp/start")" \
		"$(pairs)" "$(median "$tmp/ratio")"
done <"$tmp/sizes"
if grep -q ' library ' "$tmp/out"; then
	echo
	echo "The same join through the library (bench/libcount: queens.Count in a program that links"
	echo "the engines alone), where ours ran whole, against the public program of the same round:"
	echo
	echo "| N | library CPU-s | public ÷ library, each pair | median | peak RSS library |"
	echo "|---:|---:|---:|---:|---:|"
	while read -r n parts shards; do
		((shards == 1)) || continue
		column "$n" public 3 "$parts" >"$tmp/pub"
		column "$n" library 3 >"$tmp/lib"
		paste -d' ' "$tmp/pub" "$tmp/lib" | awk '{ print $1 / $2 }' >"$tmp/ratio"
		lm=$(column "$n" library 4 | median)
		printf '| %s | %.3f | %s | %.2f× | %.1f MiB |\n' "$n" "$(median "$tmp/lib")" \
			"$(pairs)" "$(median "$tmp/ratio")" \
			"$(awk -v k="$lm" 'BEGIN { print k / 1024 }')"
	done <"$tmp/sizes"
fi
echo
echo "Counts (whole runs must be Q(N); a part's differs by side):"
awk '$2 != "start" { print "  N=" $1, $2, $5 }' "$tmp/out" | sort -u
