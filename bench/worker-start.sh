#!/usr/bin/env bash
# worker-start.sh measures what a worker needs before its first task of a big plan: it
# starts a coordinator of N (plan version 2 from N = 25) with no worker of its own, then
# each given chesspuzzles binary as a worker with one core, twice, alternated, and prints
# for each the wall and CPU time until the worker logs its first task started, and its
# peak RSS then (VmHWM). The workers are stopped with SIGINT at once: a task of N = 26
# takes up to an hour. Linux only (/proc).
#
# Usage: bench/worker-start.sh [-n N] BINARY...
#        (default N = 26; e.g. a build of main as the "before" and this tree's as "after")
set -euo pipefail
. "$(dirname "$0")/lib.sh"
n=26
usage="[-n N] BINARY..."
flags "$usage" n:n -- "$@"
shift $((OPTIND - 1))
[ $# -gt 0 ] || { echo "usage: $0 $usage" >&2; exit 2; }
pids=()
cleanup() { for p in "${pids[@]}"; do kill -INT "$p" 2>/dev/null || true; done; wait 2>/dev/null || true; rm -rf "$tmp"; }
trap cleanup EXIT
build cmd/chesspuzzles chesspuzzles
port=$((20000 + RANDOM % 20000))
"$tmp/chesspuzzles" queens count "$n" --distributed --workers 0 --quiet --state "$tmp/state" \
	--nats-listen "127.0.0.1:$port" >/dev/null 2>"$tmp/coordinator.err" &
coordinator=$!
pids+=($coordinator)
until grep -qE "queued now|assigning the rest" "$tmp/coordinator.err" 2>/dev/null; do
	kill -0 "$coordinator" 2>/dev/null || { cat "$tmp/coordinator.err" >&2; exit 1; }
	sleep 0.5
done
grep -o "job .*" "$tmp/coordinator.err" | head -1
for round in 1 2; do
	for bin in "$@"; do
		id="start-$round-$(basename "$bin")-$RANDOM"
		"$tmp/chesspuzzles" worker add "$id" --state "$tmp/state" -o "$tmp/$id.creds" >/dev/null 2>&1
		"$bin" worker --nats "nats://127.0.0.1:$port" --creds "$tmp/$id.creds" --cores 1 -v \
			--name "start-$round" >"$tmp/worker.err" 2>&1 &
		w=$!
		t0=$(date +%s.%N)
		until grep -qE ' started( |"|$)' "$tmp/worker.err"; do
			kill -0 "$w" 2>/dev/null || { cat "$tmp/worker.err" >&2; exit 1; }
			sleep 0.05
		done
		t1=$(date +%s.%N)
		hwm=$(awk '/VmHWM/ {print $2}' "/proc/$w/status")
		cpu=$(awk '{print ($14 + $15) / 100}' "/proc/$w/stat")
		kill -INT "$w"
		wait "$w" || true
		awk -v b="$bin" -v w="$(echo "$t1 - $t0" | bc)" -v c="$cpu" -v m="$hwm" \
			'BEGIN { printf "%s: first task after %.2f s wall, %.2f s CPU, peak RSS %.1f MiB\n", b, w, c, m / 1024 }'
	done
done
