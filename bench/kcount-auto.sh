#!/usr/bin/env bash
# kcount-auto.sh times the two methods `knight count --method auto` chooses between on small
# boards, the search (backtracking that meets in the middle) and dp (frontier dynamic
# programming), each board both ways (and by the join too where auto takes it), alternating
# their order from round to round (dp, search, then search, dp, …), and prints for each
# board the median CPU seconds (user+sys) of each, search ÷ dp (above 1: dp takes less CPU)
# and the method auto takes there; the counts must agree. Each count runs in one goroutine; CPU time, not wall time, is
# compared, since the machine may be shared. knight/count's ChooseMethod is set from this.
#
# Usage: bench/kcount-auto.sh [-r ROUNDS] [BOARD ...]
#   -r ROUNDS  rounds (default 3)
#   BOARD      NAME:ARGS cases, e.g. "5x7_open:--board 5x7"; default: the open and closed
#              boards of up to 42 squares where either method takes more than a few
#              hundredths of a second, and 6×6, 5×7 and 5×8 from a start (6×7 open is left out: the
#              search takes minutes there)
set -euo pipefail
. "$(dirname "$0")/lib.sh"
rounds=3
flags "[-r ROUNDS] [BOARD ...]" r:rounds -- "$@"
shift $((OPTIND - 1))
build cmd/chesspuzzles chesspuzzles

cases=("$@")
if ((${#cases[@]} == 0)); then
	cases=("3x14_open:--board 3x14" "4x9_open:--board 4x9" "4x10_open:--board 4x10"
		"5x6_open:--board 5x6" "5x7_open:--board 5x7" "6x6_open:--size 6" "5x8_open:--board 5x8"
		"6x6_a1:--size 6 --start a1" "5x7_a1:--board 5x7 --start a1" "5x7_c3:--board 5x7 --start c3"
		"5x8_a1:--board 5x8 --start a1"
		"5x6_closed:--board 5x6 --closed" "6x6_closed:--size 6 --closed"
		"5x8_closed:--board 5x8 --closed" "6x7_closed:--board 6x7 --closed")
fi

# run NAME METHOD ARGS...: one timed count; appends "NAME METHOD cpu-seconds peak-KiB count".
run() {
	local name=$1 method=$2
	shift 2
	/usr/bin/time -f "%U %S %M" -o "$tmp/t" "$tmp/chesspuzzles" knight count -q --method "$method" "$@" >"$tmp/count"
	read -r u s m <"$tmp/t"
	echo "$name $method $(awk -v u="$u" -v s="$s" 'BEGIN { print u + s }') $m $(cut -d' ' -f1 "$tmp/count")" | tee -a "$tmp/out"
}

# auto ARGS...: the method auto takes, as knight estimate names it.
auto() {
	"$tmp/chesspuzzles" knight estimate --json "$@" | grep -o '"method":"[a-z]*"' | cut -d'"' -f4
}

# methods ARGS...: dp and search, and the join where auto takes it.
methods() {
	if [[ $(auto "$@") == join ]]; then echo "dp search join"; else echo "dp search"; fi
}

machine
echo "board method cpu-s peak-KiB count"
for r in $(seq "$rounds"); do
	for c in "${cases[@]}"; do
		read -ra args <<<"${c#*:}"
		read -ra ms <<<"$(methods "${args[@]}")"
		order=$(alternate "$r" "${ms[@]}")
		for m in $order; do
			run "${c%%:*}" "$m" "${args[@]}"
		done
	done
done

echo
echo "machine after: load $(cut -d' ' -f1-3 /proc/loadavg)"
for c in "${cases[@]}"; do
	n=${c%%:*}
	read -ra args <<<"${c#*:}"
	counts=$(awk -v n="$n" '$1 == n { print $5 }' "$tmp/out" | sort -u | wc -l)
	a=$(auto "${args[@]}")
	jo=
	if [[ $a == join ]]; then jo=$(cpu "$n" join); fi
	awk -v n="$n" -v dp="$(cpu "$n" dp)" -v se="$(cpu "$n" search)" -v jo="$jo" -v a="$a" -v same="$counts" \
		'BEGIN { printf "%-11s dp %7.2f s CPU, search %7.2f s CPU, search/dp %s%s, auto: %s%s\n", n, dp, se, (dp > 0 ? sprintf("%6.2f", se / dp) : "     -"), (jo == "" ? "" : sprintf(", join %.2f s CPU", jo)), a, (same == 1 ? "" : "; COUNTS DIFFER") }'
done
