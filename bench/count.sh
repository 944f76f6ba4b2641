#!/usr/bin/env bash
# count.sh times the two counting methods of "chesspuzzles queens count N --workers 1",
# --method join against --method frames, and the plain baseline (bench/baseline: recursive
# bitboards, mirror symmetry only) where it is quick (N ≤ 17), alternating them in one run,
# several rounds, and prints the CPU-time ratio of every alternated pair and their median,
# with join's peak memory (frames only up to -f FRAMES_MAX: it needs 270 s at N = 19); then
# the join on 1 against 2 workers at each -s size, alternated, with the wall-time ratio of
# every pair and of the medians. Every run line shows the load average.
#
# Usage: bench/count.sh [-r ROUNDS] [-s "SCALE_N ..."] [-f FRAMES_MAX] [-b BASELINE_MAX] [N ...]
#        (defaults: -r 3 -s "18 19" -f 18 -b 17, N = 16 17 18; the baseline takes 25 s at
#        N = 17, -b 16 leaves it out there)
#
# The machine may be shared: each program's CPU time (user+sys) is reported beside its wall
# time, and only ratios within this run mean anything. The 1 → 2 workers ratio is of wall
# time, so it needs two otherwise idle cores.
set -euo pipefail
. "$(dirname "$0")/lib.sh"
rounds=3 scales="18 19" framesmax=18 basemax=17
flags '[-r ROUNDS] [-s "SCALE_N ..."] [-f FRAMES_MAX] [-b BASELINE_MAX] [N ...]' \
	r:rounds s:scales f:framesmax b:basemax -- "$@"
shift $((OPTIND - 1))
[ $# -gt 0 ] || set -- 16 17 18
sizes=("$@")

build bench/baseline baseline
build cmd/chesspuzzles chesspuzzles
[ -x /usr/bin/time ] || { echo "count.sh needs /usr/bin/time (Debian: apt-get install time)" >&2; exit 2; }

# run LABEL CMD...: runs CMD, appends "wall cpu maxrss_kb" to $tmp/LABEL, prints them with
# the load average. Wall and CPU time come from bash's time (milliseconds: /usr/bin/time
# rounds to 10 ms, a tenth of the join at N = 16), peak RSS from /usr/bin/time, whose own
# CPU (under a millisecond) is in the figure.
run() {
	local label=$1
	shift
	local TIMEFORMAT='%3R %3U %3S'
	{ time /usr/bin/time -f "%M" -o "$tmp/rss" "$@" >"$tmp/out" 2>/dev/null; } 2>"$tmp/t"
	read -r wall user sys <"$tmp/t"
	rss=$(tail -1 "$tmp/rss")
	cpu=$(awk -v u="$user" -v s="$sys" 'BEGIN { printf "%.3f", u + s }')
	echo "$wall $cpu $rss" >>"$tmp/$label"
	printf '  %-20s %8.3f s wall %8.3f s cpu %7.1f MiB  load %s  %s\n' "$label" "$wall" "$cpu" "$(awk -v k="$rss" 'BEGIN { print k / 1024 }')" "$(cut -d' ' -f1 /proc/loadavg)" "$(head -c 60 "$tmp/out" | head -1)"
}

machine
for n in "${sizes[@]}"; do
	echo "N=$n, $rounds rounds:"
	for r in $(seq "$rounds"); do
		if [ "$n" -le "$basemax" ]; then
			run "baseline-$n" "$tmp/baseline" "$n"
		fi
		if [ "$n" -le "$framesmax" ]; then
			run "frames-$n" "$tmp/chesspuzzles" queens count "$n" --method frames --workers 1 --quiet
		fi
		run "join-$n" "$tmp/chesspuzzles" queens count "$n" --method join --workers 1 --quiet
	done
done
for scale in $scales; do
	echo "N=$scale, join on 1 and 2 workers, $rounds rounds:"
	for r in $(seq "$rounds"); do
		run "scale-$scale-w1" "$tmp/chesspuzzles" queens count "$scale" --method join --workers 1 --quiet
		run "scale-$scale-w2" "$tmp/chesspuzzles" queens count "$scale" --method join --workers 2 --quiet
	done
done
echo
echo "| N | baseline CPU s | frames CPU s | join CPU s | frames ÷ join, each pair | median of the pairs | join ÷ baseline | join peak RSS |"
echo "|---:|---:|---:|---:|---:|---:|---:|---:|"
for n in "${sizes[@]}"; do
	bc=0
	[ -f "$tmp/baseline-$n" ] && bc=$(median "$tmp/baseline-$n" 2)
	jc=$(median "$tmp/join-$n" 2)
	jm=$(median "$tmp/join-$n" 3)
	pairs="–"
	pm="–"
	fs="–"
	if [ -f "$tmp/frames-$n" ]; then
		paste -d' ' "$tmp/frames-$n" "$tmp/join-$n" | awk '{ print $2 / $5 }' >"$tmp/ratio-$n"
		pairs=$(awk '{ printf("%s%.1f×", (NR > 1 ? ", " : ""), $1) }' "$tmp/ratio-$n")
		pm=$(awk -v m="$(median "$tmp/ratio-$n" 1)" 'BEGIN { printf "%.2f×", m }')
		fs=$(awk '{ printf("%s%.3f", (NR > 1 ? ", " : ""), $2) }' "$tmp/frames-$n")
	fi
	js=$(awk '{ printf("%s%.3f", (NR > 1 ? ", " : ""), $2) }' "$tmp/join-$n")
	awk -v n="$n" -v bc="$bc" -v fs="$fs" -v js="$js" -v jc="$jc" -v jm="$jm" -v pairs="$pairs" -v pm="$pm" 'BEGIN {
		b = bc > 0 ? sprintf("%.2f", bc) : "–"; rb = bc > 0 ? sprintf("%.1f× faster", bc / jc) : "–"
		printf "| %d | %s | %s | %s | %s | %s | %s | %.1f MiB |\n", n, b, fs, js, pairs, pm, rb, jm / 1024 }'
done
echo
echo "| N | 1 worker wall s (CPU s) | 2 workers wall s (CPU s) | speed-up, each pair | speed-up of the medians |"
echo "|---:|---:|---:|---:|---:|"
for scale in $scales; do
	paste -d' ' "$tmp/scale-$scale-w1" "$tmp/scale-$scale-w2" | awk -v n="$scale" '
		{ w1[NR] = $1; c1[NR] = $2; w2[NR] = $4; c2[NR] = $5; pairs = pairs sprintf("%s%.2f×", NR > 1 ? ", " : "", $1 / $4) }
		END {
			s1 = ""; s2 = ""
			for (i = 1; i <= NR; i++) { s1 = s1 sprintf("%s%.2f (%.2f)", i > 1 ? ", " : "", w1[i], c1[i]); s2 = s2 sprintf("%s%.2f (%.2f)", i > 1 ? ", " : "", w2[i], c2[i]) }
			printf "| %d | %s | %s | %s |", n, s1, s2, pairs }'
	w1=$(median "$tmp/scale-$scale-w1" 1)
	w2=$(median "$tmp/scale-$scale-w2" 1)
	awk -v a="$w1" -v b="$w2" 'BEGIN { printf " %.2f× |\n", a / b }'
done
echo
echo "load average at the end: $(cut -d' ' -f1-3 /proc/loadavg)"
