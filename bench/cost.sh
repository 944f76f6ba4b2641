#!/usr/bin/env bash
# cost.sh: the cost of counting N = 20…28 on paper, from timed samples of the real plans'
# tasks (bench/cost/main.go says how). One core; about 10 minutes of CPU with the defaults.
#
# Usage: bench/cost.sh [flags of bench/cost]   e.g. bench/cost.sh -from 20 -to 28 -budget 20s
# (the run of bench/README.md, "Run of 25 November": 11 minutes, 490 CPU-s, 2.4 GiB)
#
# Prints a Markdown table: per N and method, the plan's tasks (= exact, ≈ sampled), the
# core-hours measured on the sample and extrapolated to the plan (± two standard errors of
# the sample), the largest task, the memory a worker needs, and the wall time on 100 and
# 1,000 cores (the plan's CPU time over the cores, but never less than its largest task).
set -euo pipefail
. "$(dirname "$0")/lib.sh"
build bench/cost cost
machine
/usr/bin/time -f "bench/cost: %U s user, %S s sys, %M KiB peak RSS" "$tmp/cost" "$@"
echo "load at the end: $(cut -d' ' -f1-3 /proc/loadavg)"
