#!/bin/sh
# bench/regread.sh [-r RUNS] [-a]: CPU time (user + sys) and peak RSS of "queens regions
# read" on three pictures — a phone's screenshot (1170×2532 JPEG, the game's look, N = 9),
# a desktop's (1920×1080 PNG, package render's grid with queens, N = 14) and a large picture
# (2.4k×2.4k PNG, N = 20) — each read RUNS times (default 5), the puzzle read checked
# against the one drawn; median and largest CPU seconds, with the load average. -a also runs
# the accuracy check over 1,360 pictures (TestAccuracy, minutes).
set -eu
. "$(dirname "$0")/lib.sh"
runs=5 acc=0
flags "[-r RUNS] [-a]" r:runs a+acc -- "$@"
shift $((OPTIND - 1))
build cmd/chesspuzzles chesspuzzles
CHESSPUZZLES_SCAN_PICTURES=$tmp go test -count=1 -run '^TestWritePictures$' ./queens/regions/scan >/dev/null
machine
printf '%-12s %10s %10s %9s\n' picture median_s max_s rss_KiB
for f in phone.jpg desktop.png large.png; do
	: >"$tmp/times"
	rss=0
	i=0
	while [ "$i" -lt "$runs" ]; do
		/usr/bin/time -f '%U %S %M' -o "$tmp/one" "$tmp/chesspuzzles" queens regions read "$tmp/$f" >"$tmp/out"
		cmp -s "$tmp/out" "$tmp/${f%.*}.txt" || { echo "$f: read a wrong puzzle" >&2; exit 1; }
		awk '{ printf "%.2f\n", $1 + $2 }' "$tmp/one" >>"$tmp/times"
		m=$(awk '{ print $3 }' "$tmp/one")
		[ "$m" -gt "$rss" ] && rss=$m
		i=$((i + 1))
	done
	printf '%-12s %10.2f %10.2f %9d\n' "$f" "$(median "$tmp/times")" "$(sort -g "$tmp/times" | tail -1)" "$rss"
done
machine "after"
if [ "$acc" = 1 ]; then
	CHESSPUZZLES_LONG=1 go test -count=1 -run '^TestAccuracy$' -v ./queens/regions/scan | sed -n 's/^ *accuracy_test.go:[0-9]*: //p'
fi
