#!/usr/bin/env bash
# kcount.sh runs the knight-count benchmarks of Count (meet in the middle) and of the old
# plain backtracking counter (countSearch) in one run, alternating, and prints the ratio of
# the medians: how many times faster Count is. Both run on one goroutine (GOMAXPROCS=1).
#
# Usage: bench/kcount.sh [-r ROUNDS]    (default 3)
#
# The machine may be shared: only ratios within this run mean anything.
set -euo pipefail
rounds=3
while getopts "r:" opt; do
	case $opt in
	r) rounds=$OPTARG ;;
	*) echo "usage: $0 [-r ROUNDS]" >&2; exit 2 ;;
	esac
done
cd "$(dirname "$0")/.."
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
go test -c -o "$tmp/knight.test" ./knight

echo "machine: $(nproc) cores, load $(cut -d' ' -f1-3 /proc/loadavg)"
for r in $(seq "$rounds"); do
	GOMAXPROCS=1 "$tmp/knight.test" -test.run '^$' -test.benchtime 1x \
		-test.bench '^BenchmarkCount6x6(Search|Closed|ClosedSearch)?$' | grep '^Benchmark' | tee -a "$tmp/out"
done

# median NAME: the median ns/op of benchmark NAME.
median() {
	awk -v n="$1" '$1 == n || $1 ~ "^"n"-" { print $3 }' "$tmp/out" | sort -g |
		awk '{ a[NR] = $1 } END { print (NR % 2) ? a[(NR + 1) / 2] : (a[NR / 2] + a[NR / 2 + 1]) / 2 }'
}
for pair in "BenchmarkCount6x6 BenchmarkCount6x6Search" "BenchmarkCount6x6Closed BenchmarkCount6x6ClosedSearch"; do
	set -- $pair
	new=$(median "$1")
	old=$(median "$2")
	awk -v a="$1" -v b="$2" -v new="$new" -v old="$old" \
		'BEGIN { printf "%s: %.2f s, baseline %s: %.2f s, ratio %.1f×\n", a, new / 1e9, b, old / 1e9, old / new }'
done
