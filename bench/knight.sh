#!/bin/sh
# Knight's-tour speed: the block construction against Warnsdorff's rule (the classic linear
# method) on the same machine in the same run, then the 10^8-square boards' time and memory
# (10000×10000, the long thin boards 3×33333333 and 4×25000000 from a corner and the middle,
# and long boards of 5, 8 and 11 rows), each also as a ratio to the 10000×10000 closed tour of
# the same run.
# Usage: bench/knight.sh
set -eu
. "$(dirname "$0")/lib.sh"
build cmd/chesspuzzles chesspuzzles
machine
out=$(go test -run '^$' -bench 'Find1000Closed|Find1000Open|Find999x1001|Find3xLong|Find4xLong|Warnsdorff1000' -benchtime 5x -count 1 ./knight)
echo "$out" | grep -E '^Benchmark'
echo "$out" | awk '
	/^BenchmarkWarnsdorff1000/ { base = $3 }
	/^BenchmarkFind/ { t[$1] = $3 }
	END {
		for (k in t) printf "%-32s %8.1f ms   %.2f× the time of Warnsdorff (baseline %.1f ms)\n", k, t[k] / 1e6, t[k] / base, base / 1e6
	}'
base=
for args in "--size 10000 --start 5000,5000 --closed" "--board 9999x10001 --start 1,1" "--size 1000 --start 500,500" \
	"--board 3x33333333 --start a1" "--board 3x33333333 --start 16666667,1" "--board 3x33333332 --start 16666667,2 --closed" \
	"--board 4x25000000 --start a1" "--board 4x25000000 --start 12500000,4" "--board 25000000x4 --start 4,12500000" \
	"--board 5x20000001 --start 10000001,3" "--board 8x12500000 --start 6250000,4 --closed" "--board 11x9090909 --start 4545455,5"; do
	/usr/bin/time -f "%e %M" -o "$tmp/time" "$tmp/chesspuzzles" knight tour $args --format none
	read -r secs kib <"$tmp/time"
	base=${base:-$secs}
	awk -v a="$args" -v s="$secs" -v k="$kib" -v b="$base" 'BEGIN {
		printf "knight tour %-50s %6.2f s %5.0f MiB   %.2f× the time of the 10000×10000 closed tour\n", a, s, k / 1024, s / b }'
done
