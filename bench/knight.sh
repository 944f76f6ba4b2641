#!/bin/sh
# Knight's-tour speed: the block construction against Warnsdorff's rule (the classic linear
# method) on the same machine in the same run, then the 10^8-square board's time and memory.
# Usage: bench/knight.sh   (from the module root)
set -eu
go build -o /tmp/chesspuzzles-bench ./cmd/chesspuzzles
out=$(go test -run '^$' -bench 'Find1000Closed|Find1000Open|Find999x1001|Warnsdorff1000' -benchtime 5x -count 1 ./knight)
echo "$out" | grep -E '^Benchmark'
echo "$out" | awk '
	/^BenchmarkWarnsdorff1000/ { base = $3 }
	/^BenchmarkFind/ { t[$1] = $3 }
	END {
		for (k in t) printf "%-32s %8.1f ms   %.2f× the time of Warnsdorff (baseline %.1f ms)\n", k, t[k] / 1e6, t[k] / base, base / 1e6
	}'
for args in "--size 10000 --start 5000,5000 --closed" "--board 9999x10001 --start 1,1" "--size 1000 --start 500,500"; do
	/usr/bin/time -f "%e s %M KiB" -o /tmp/chesspuzzles-bench.time /tmp/chesspuzzles-bench knight tour $args --format none
	echo "knight tour $args: $(cat /tmp/chesspuzzles-bench.time)"
done
