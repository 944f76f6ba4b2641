#!/usr/bin/env bash
# kspill.sh times one open board's count by the forward sweep spilling to disk against the
# same count in memory (issue 48's target: spilling at a quarter of the peak costs at most
# 1.5 times the CPU), in alternated pairs (spill first on odd pairs, memory first on even
# ones), each run alone, and prints each pair's CPU seconds (user + sys), peak RSS, the
# spill directory's largest size, the ratio spilling ÷ in memory, and the median ratio.
# Every count must print the same total.
#
# Usage: bench/kspill.sh [-r PAIRS] [-m MAXMEM] [-b BOARD]
#   -r PAIRS   pairs (default 3)
#   -m MAXMEM  the spilling count's --max-memory (default 220MiB, a quarter of 7×7's 880 MiB)
#   -b BOARD   RxC (default 7x7; 6x8 open in memory peaks near 720 MiB: -m 180MiB)
set -euo pipefail
. "$(dirname "$0")/lib.sh"
pairs=3 maxmem=220MiB board=7x7
flags "[-r PAIRS] [-m MAXMEM] [-b BOARD]" r:pairs m:maxmem b:board -- "$@"
shift $((OPTIND - 1))
build cmd/chesspuzzles chesspuzzles

# run KIND: one timed count, spilling or in memory; appends "KIND cpu-s peak-KiB disk-B count".
run() {
	local kind=$1 args=(knight count --board "$board" --method dp -q) disk=0
	if [ "$kind" = spill ]; then
		rm -rf "$tmp/spill"
		args+=(--workers 2 --spill "$tmp/spill" --max-memory "$maxmem")
		(while sleep 0.5; do du -sb "$tmp/spill" 2>/dev/null | cut -f1; done >"$tmp/du") &
		local watch=$!
	fi
	/usr/bin/time -f "%U %S %M" -o "$tmp/t" "$tmp/chesspuzzles" "${args[@]}" >"$tmp/count"
	if [ "$kind" = spill ]; then
		kill "$watch" 2>/dev/null || true
		wait "$watch" 2>/dev/null || true
		disk=$(sort -g "$tmp/du" | tail -1)
		rm -rf "$tmp/spill"
	fi
	read -r u s m <"$tmp/t"
	echo "$kind $(awk -v u="$u" -v s="$s" 'BEGIN { print u + s }') $m ${disk:-0} $(cut -d' ' -f1 "$tmp/count")" | tee -a "$tmp/out"
}

machine "board $board open, spilling at $maxmem, $(git rev-parse --short HEAD)$(git diff --quiet || echo '+changes')"
echo "kind cpu-s peak-KiB disk-bytes count"
for p in $(seq "$pairs"); do
	order="spill memory"
	if ((p % 2 == 0)); then order="memory spill"; fi
	for k in $order; do
		run "$k"
	done
	awk -v p="$p" 'NR > 2 * (p - 1) { c[$1] = $2 } END { printf "pair %d: spilling ÷ in memory %.3f\n", p, c["spill"] / c["memory"] }' "$tmp/out" | tee -a "$tmp/ratios"
	machine
done
if [ "$(awk '{ print $5 }' "$tmp/out" | sort -u | wc -l)" != 1 ]; then
	echo "COUNTS DIFFER"
	exit 1
fi
echo "median spilling ÷ in memory: $(awk '{ print $NF }' "$tmp/ratios" | median) over $pairs pairs; every count $(awk 'NR == 1 { print $5 }' "$tmp/out")"
