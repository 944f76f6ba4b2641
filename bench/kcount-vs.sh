#!/usr/bin/env bash
# kcount-vs.sh times `chesspuzzles knight count` of this tree against a base revision (default
# ed67ae1, before issue 35) on the boards of issue 35's table, alternating the two builds
# from round to round (base, new, then new, base, …), and prints for each board the median
# CPU seconds (user+sys) of each, base ÷ new (how many times less CPU the new tree takes),
# the peak RSS of each and the count, which must agree. Each count runs in one goroutine;
# CPU time, not wall time, is compared, since the machine may be shared.
#
# Usage: bench/kcount-vs.sh [-r ROUNDS] [-b REV] [BOARD ...]
#   -r ROUNDS  rounds (default 2)
#   -b REV     the base revision (default ed67ae1), built in a temporary git worktree
#   BOARD      NAME:ARGS cases, e.g. "5x10_open:--board 5x10 --method dp"; default: every
#              board of issue 35's table, 5×10 and 6×8 open by dp, the rest by the method
#              auto picks
set -euo pipefail
. "$(dirname "$0")/lib.sh"
rounds=2 base=ed67ae1
flags "[-r ROUNDS] [-b REV] [BOARD ...]" r:rounds b:base -- "$@"
shift $((OPTIND - 1))
build cmd/chesspuzzles new
git worktree add -q --detach "$tmp/base-tree" "$base"
trap 'git worktree remove --force "$tmp/base-tree"; rm -rf "$tmp"' EXIT
(cd "$tmp/base-tree" && go build -o "$tmp/base" ./cmd/chesspuzzles)

cases=("$@")
if ((${#cases[@]} == 0)); then
	cases=("5x10_open:--board 5x10 --method dp" "6x8_open:--board 6x8 --method dp"
		"6x6_open:--size 6" "6x8_closed:--board 6x8 --closed" "5x12_closed:--board 5x12 --closed"
		"5x14_closed:--board 5x14 --closed" "6x10_closed:--board 6x10 --closed"
		"6x12_closed:--board 6x12 --closed" "7x8_closed:--board 7x8 --closed")
fi

# run NAME BUILD ARGS...: one timed count; appends "NAME BUILD cpu-seconds peak-KiB count".
run() {
	local name=$1 b=$2
	shift 2
	/usr/bin/time -f "%U %S %M" -o "$tmp/t" "$tmp/$b" knight count -q "$@" >"$tmp/count"
	read -r u s m <"$tmp/t"
	echo "$name $b $(awk -v u="$u" -v s="$s" 'BEGIN { print u + s }') $m $(cut -d' ' -f1 "$tmp/count")" | tee -a "$tmp/out"
}

machine "base $base ($(git rev-parse --short "$base")), new $(git rev-parse --short HEAD)$(git diff --quiet || echo '+changes')"
echo "board build cpu-s peak-KiB count"
for r in $(seq "$rounds"); do
	for c in "${cases[@]}"; do
		read -ra args <<<"${c#*:}"
		order="base new"
		if ((r % 2 == 0)); then order="new base"; fi
		for b in $order; do
			run "${c%%:*}" "$b" "${args[@]}"
		done
	done
done

# col NAME BUILD COL: the median of column COL of that board and build.
col() { awk -v n="$1" -v b="$2" -v c="$3" '$1 == n && $2 == b { print $c }' "$tmp/out" | median; }
echo
echo "machine after: load $(cut -d' ' -f1-3 /proc/loadavg)"
for c in "${cases[@]}"; do
	n=${c%%:*}
	counts=$(awk -v n="$n" '$1 == n { print $5 }' "$tmp/out" | sort -u | wc -l)
	awk -v n="$n" -v b="$(col "$n" base 3)" -v w="$(col "$n" new 3)" -v bm="$(col "$n" base 4)" -v wm="$(col "$n" new 4)" -v same="$counts" \
		'BEGIN { printf "%-12s base %8.2f s CPU, new %8.2f s CPU, base/new %.2f; peak RSS %.0f -> %.0f MiB%s\n", n, b, w, (w > 0 ? b / w : 0), bm / 1024, wm / 1024, (same == 1 ? "" : "; COUNTS DIFFER") }'
done
