#!/usr/bin/env bash
# cost.sh: the cost of counting N = 20…28 on paper, from timed samples of the real plans'
# tasks (bench/cost/main.go says how). One core; about 10 minutes of CPU with the defaults.
#
# Usage: bench/cost.sh [flags of bench/cost]   e.g. bench/cost.sh -from 20 -to 24 -budget 20s
#
# Prints a Markdown table: per N and method, the plan's tasks (= exact, ≈ sampled), the
# core-hours measured on the sample and extrapolated to the plan (± two standard errors of
# the sample), the largest task, the memory a worker needs, and the wall time on 100 and
# 1,000 cores (the plan's CPU time over the cores, but never less than its largest task).
set -euo pipefail
cd "$(dirname "$0")/.."
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
go build -o "$tmp/cost" ./bench/cost
echo "machine: $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //'), load $(cut -d' ' -f1-3 /proc/loadavg)"
/usr/bin/time -f "bench/cost: %U s user, %S s sys, %M KiB peak RSS" "$tmp/cost" "$@"
