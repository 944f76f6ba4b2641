#!/usr/bin/env bash
# kcount.sh compares the knight-count methods of `chesspuzzles knight count` on the same
# boards in one run, alternating their order from round to round (dp, search, then search,
# dp, …; on 6×8 closed also the mirror join), and prints the median CPU seconds (user+sys)
# of each and their ratios: how many times less CPU the dp method (frontier dynamic
# programming) takes than the search (backtracking that meets in the middle), and the join
# than dp. Each count runs in one goroutine; CPU time, not wall time, is compared, since the
# machine may be shared.
#
# Usage: bench/kcount.sh [-r ROUNDS] [-8]
#   -r ROUNDS  rounds of the comparison (default 3)
#   -8         also count the closed tours of 8×8 once (13,267,364,410,532, the dp method,
#              --max-memory 8GiB: 42 CPU-minutes and 3.2 GiB measured, see bench/README.md) and
#              print its CPU time and peak memory
set -euo pipefail
. "$(dirname "$0")/lib.sh"
rounds=3 big=0
flags "[-r ROUNDS] [-8]" r:rounds 8+big -- "$@"
build cmd/chesspuzzles chesspuzzles

# NAME:METHODS:ARGS
cases=("6x6 open:dp search:--size 6" "6x6 closed:dp search:--size 6 --closed" "6x8 closed:dp join search:--board 6x8 --closed")

# run NAME METHOD ARGS...: one timed count; appends "NAME METHOD cpu-seconds peak-KiB".
run() {
	local name=$1 method=$2
	shift 2
	/usr/bin/time -f "%U %S %M" -o "$tmp/t" "$tmp/chesspuzzles" knight count -q --method "$method" "$@" >"$tmp/count"
	read -r u s m <"$tmp/t"
	echo "$name $method $(awk -v u="$u" -v s="$s" 'BEGIN { print u + s }') $m $(cut -d' ' -f1 "$tmp/count")" | tee -a "$tmp/out"
}

machine
echo "board method cpu-s peak-KiB count"
for r in $(seq "$rounds"); do
	for c in "${cases[@]}"; do
		name=${c%%:*}
		rest=${c#*:}
		methods=${rest%%:*}
		read -ra args <<<"${rest#*:}"
		read -ra ms <<<"$methods"
		order=$(alternate "$r" "${ms[@]}")
		for m in $order; do
			run "${name// /_}" "$m" "${args[@]}"
		done
	done
done

echo
for c in "${cases[@]}"; do
	name=${c%%:*}
	n=${name// /_}
	dp=$(cpu "$n" dp)
	se=$(cpu "$n" search)
	awk -v n="$name" -v dp="$dp" -v se="$se" \
		'BEGIN { printf "%-11s dp %7.2f s CPU, search %7.2f s CPU, search/dp %.2f\n", n, dp, se, (dp > 0 ? se / dp : 0) }'
	if [[ $c == *join* ]]; then
		jo=$(cpu "$n" join)
		awk -v n="$name" -v dp="$dp" -v jo="$jo" \
			'BEGIN { printf "%-11s join %7.2f s CPU, dp/join %.2f\n", n, jo, (jo > 0 ? dp / jo : 0) }'
	fi
done

if ((big)); then
	echo
	echo "8x8 closed by the dp method (once):"
	/usr/bin/time -v "$tmp/chesspuzzles" knight count --size 8 --closed --method dp --max-memory 8GiB 2>"$tmp/big" | tee "$tmp/bigout" || true
	grep -E 'User time|System time|Maximum resident|Elapsed' "$tmp/big"
fi
