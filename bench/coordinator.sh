#!/usr/bin/env bash
# coordinator.sh measures a distributed count's coordinator throughput in tasks per second:
# "queens count N --method frames --distributed --workers W" (embedded NATS server on
# loopback, W worker goroutines, a fresh --state each time) on a plan of tiny tasks, so
# that the time is the per-task traffic through the coordinator (enqueue, fetch, result,
# check, ack), not the search. It prints tasks/s for each W and what it implies: with tasks
# of T seconds, one coordinator keeps about throughput × T workers busy.
#
# It runs the v1 frame plan of N (1,632 tasks at N = 14, 3,206 at 16; "queens plan N"
# prints the count). bench/coordinator-large.sh measures a plan of 136,976 tasks with the
# server, the coordinator and 32 workers in processes of their own.
#
# Usage: bench/coordinator.sh [-w "W1 W2 ..."] [N]   (defaults: -w "4 16", N = 14)
#
# "count --distributed" runs at most 4 worker goroutines a core (16 on this 2-core machine);
# bench/coordinator-large.sh runs 32 and more in separate processes.
set -euo pipefail
. "$(dirname "$0")/lib.sh"
workers="4 16"
flags '[-w "W1 W2 ..."] [N]' w:workers -- "$@"
shift $((OPTIND - 1))
n=${1:-14}

build cmd/chesspuzzles chesspuzzles
tasks=$("$tmp/chesspuzzles" queens plan "$n" --json | sed 's/.*"tasks":\([0-9]*\).*/\1/')

machine "N=$n, $tasks tasks (frames, plan version 1)"
for w in $workers; do
	rm -rf "$tmp/state"
	start=$(date +%s.%N)
	"$tmp/chesspuzzles" queens count "$n" --method frames --distributed --workers "$w" \
		--state "$tmp/state" --nats-listen 127.0.0.1:0 >"$tmp/out" 2>"$tmp/err" || {
		echo "workers $w: $(tail -1 "$tmp/err")" >&2
		continue
	}
	end=$(date +%s.%N)
	awk -v w="$w" -v t="$tasks" -v a="$start" -v b="$end" -v out="$(head -1 "$tmp/out")" 'BEGIN {
		s = b - a; r = t / s
		printf "workers %3d: %6.2f s, %7.0f tasks/s  (%s)\n", w, s, r, out
		printf "             with tasks of 60 s one coordinator feeds about %.0f workers, of 1 h about %.0f\n", r * 60, r * 3600
	}'
done
