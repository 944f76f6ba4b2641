#!/usr/bin/env bash
# cost.sh: the cost of counting N = 20…28 on paper, from timed samples of the real plans'
# tasks (bench/cost/main.go says how). One core; about 10 minutes of CPU with the defaults.
#
# Usage: bench/cost.sh [flags of bench/cost]   e.g. bench/cost.sh -from 20 -to 28 -budget 20s
# (the run of bench/log/2026-11-25.md, "Run of 25 November": 11 minutes, 490 CPU-s, 2.4 GiB)
#
# Prints a Markdown table: per N and method, the plan's tasks (= exact, ≈ sampled), the
# core-hours measured on the sample and extrapolated to the plan (± two standard errors of
# the sample), the largest task, the memory a worker needs, and the wall time on 100 and
# 1,000 cores (the plan's CPU time over the cores, but never less than its largest task).
#
# Usage: bench/cost.sh -tasks [-from N] [-to N] [-m TASKS] [-seed S] [-budget CPU-S] [-mem LIMIT]
# (defaults 24, 29, 1, 1, 600, 2GiB): the join's real tasks instead. For each N it draws
# TASKS tasks of the join's plan uniformly by id and times each on one core against the cost
# model's figure for it (CoreSeconds·Cost/ΣCost, what queens plan and queens estimate share
# out): whole where the model says at most CPU-S seconds, else by one part of one row set
# (BenchmarkJoinTasks in queens/count/join says how), in a process held to LIMIT (GOMEMLIMIT,
# as --max-memory holds a worker). Each N prints the harness's lines, then the process's
# CPU seconds and peak RSS.
set -euo pipefail
. "$(dirname "$0")/lib.sh"
if [ "${1:-}" != -tasks ]; then
	build bench/cost cost
	machine
	/usr/bin/time -f "bench/cost: %U s user, %S s sys, %M KiB peak RSS" "$tmp/cost" "$@"
	echo "load at the end: $(cut -d' ' -f1-3 /proc/loadavg)"
	exit
fi
shift
from=24 to=29 m=1 seed=1 budget=600 mem=2GiB
while [ $# -gt 0 ]; do
	case $1 in
	-from | -to | -m | -seed | -budget | -mem)
		[ $# -ge 2 ] || { echo "usage: $0 -tasks: $1 needs a value" >&2; exit 2; }
		v=${1#-}
		eval "$v=\$2"
		shift 2
		;;
	*) echo "usage: $0 -tasks [-from N] [-to N] [-m TASKS] [-seed S] [-budget CPU-S] [-mem LIMIT], got \"$1\"" >&2; exit 2 ;;
	esac
done
go test -c -o "$tmp/join.test" ./queens/count/join
machine "the join's real tasks, N = $from–$to, $m a N (seed $seed), whole up to $budget s by the model, GOMEMLIMIT=$mem"
for n in $(seq "$from" "$to"); do
	CHESSPUZZLES_JOINTASKS=$n:$m:$seed CHESSPUZZLES_JOINTASKS_BUDGET=$budget GOMEMLIMIT=$mem \
		/usr/bin/time -f "N=$n: %U s user, %S s sys, %M KiB peak RSS, %e s wall" \
		"$tmp/join.test" -test.run '^$' -test.bench JoinTasks -test.benchtime 1x -test.timeout 6h 2>&1 |
		grep -E 'N=[0-9]+'
done
echo "load at the end: $(cut -d' ' -f1-3 /proc/loadavg)"
