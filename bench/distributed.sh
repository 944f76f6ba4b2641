#!/usr/bin/env bash
# distributed.sh measures what running a count through NATS costs: it times
# "queens count N --workers W" (the local pool, the baseline) against
# "queens count N --distributed --workers W" (embedded NATS server, W local worker
# goroutines pulling tasks from it, a fresh --state each time), alternating the two in one
# run, and prints the ratio of the medians. The difference is the per-task round trips
# (fetch, result lookup, store, ack), a few milliseconds a task: large for N ≤ 17, whose
# tasks take milliseconds, negligible from N ≈ 20, whose tasks take seconds.
#
# Usage: bench/distributed.sh [-r ROUNDS] [-w WORKERS] [N ...]   (defaults: -r 3 -w 2, N = 16)
set -euo pipefail
. "$(dirname "$0")/lib.sh"
rounds=3 workers=2
flags "[-r ROUNDS] [-w WORKERS] [N ...]" r:rounds w:workers -- "$@"
shift $((OPTIND - 1))
[ $# -gt 0 ] || set -- 16
sizes=("$@")

build cmd/chesspuzzles chesspuzzles

# run LABEL CMD...: runs CMD, appends its wall time to $tmp/LABEL, prints it.
run() {
	local label=$1
	shift
	local start end
	start=$(date +%s.%N)
	"$@" >"$tmp/out" 2>/dev/null
	end=$(date +%s.%N)
	wall=$(awk -v a="$start" -v b="$end" 'BEGIN { printf "%.2f", b - a }')
	echo "$wall" >>"$tmp/$label"
	printf '  %-24s %7.2f s   %s\n' "$label" "$wall" "$(head -1 "$tmp/out")"
}

machine
for n in "${sizes[@]}"; do
	echo "N=$n, --workers $workers, $rounds rounds:"
	for r in $(seq "$rounds"); do
		run "local-$n" "$tmp/chesspuzzles" queens count "$n" --workers "$workers" --quiet
		rm -rf "$tmp/state"
		run "distributed-$n" "$tmp/chesspuzzles" queens count "$n" --distributed --workers "$workers" \
			--state "$tmp/state" --nats-listen 127.0.0.1:0
	done
	l=$(median "$tmp/local-$n")
	d=$(median "$tmp/distributed-$n")
	awk -v n="$n" -v l="$l" -v d="$d" 'BEGIN { printf "N=%d: local %.2f s, distributed %.2f s (medians): distributed/local = %.2f\n", n, l, d, d / l }'
done
