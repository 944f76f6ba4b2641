#!/bin/sh
# bench/regions.sh [-s SEEDS] [N ...]: CPU time (user + sys) of "queens regions" making
# one puzzle, per size and level, over seeds 1…SEEDS (default 9): median, slowest and the
# largest peak RSS, with the load average. Then the time to count (up to 2) the solutions
# of generated puzzles, from "go test -bench Count".
set -eu
. "$(dirname "$0")/lib.sh"
seeds=9
flags "[-s SEEDS] [N ...]" s:seeds -- "$@"
shift $((OPTIND - 1))
[ $# -gt 0 ] || set -- 8 10 15 20
build cmd/chesspuzzles chesspuzzles
printf '%-4s %-7s %10s %10s %9s   %s\n' N level median_s max_s rss_KiB load
for n in "$@"; do
	for level in easy medium hard; do
		: >"$tmp/times"
		rss=0
		s=1
		while [ "$s" -le "$seeds" ]; do
			/usr/bin/time -f '%U %S %M' -o "$tmp/one" "$tmp/chesspuzzles" queens regions --n "$n" --seed "$s" --level "$level" >/dev/null
			awk '{ printf "%.2f\n", $1 + $2 }' "$tmp/one" >>"$tmp/times"
			m=$(awk '{ print $3 }' "$tmp/one")
			[ "$m" -gt "$rss" ] && rss=$m
			s=$((s + 1))
		done
		sort -n "$tmp/times" | awk -v n="$n" -v level="$level" -v rss="$rss" -v load="$(cut -d' ' -f1-3 /proc/loadavg)" '
			{ t[NR] = $1 }
			END { printf "%-4s %-7s %10.2f %10.2f %9d   %s\n", n, level, t[int((NR + 1) / 2)], t[NR], rss, load }'
	done
done
go test -run '^$' -bench 'Count' -benchtime 400x ./queens/regions | grep '^Benchmark'
