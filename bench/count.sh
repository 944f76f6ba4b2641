#!/usr/bin/env bash
# count.sh times "chesspuzzles queens count N --workers 1" against the plain baseline
# (bench/baseline: recursive bitboards, mirror symmetry only), alternating the two in one
# run, several rounds, and prints the ratio of the medians; then 1 against 2 workers.
#
# Usage: bench/count.sh [-r ROUNDS] [-s SCALE_N] [N ...]    (defaults: -r 3 -s 17, N = 16 17)
#
# The machine may be shared: each program's CPU time (user+sys) is reported beside its wall
# time, and only ratios within this run mean anything.
set -euo pipefail
rounds=3
scale=17
while getopts "r:s:" opt; do
	case $opt in
	r) rounds=$OPTARG ;;
	s) scale=$OPTARG ;;
	*) echo "usage: $0 [-r ROUNDS] [-s SCALE_N] [N ...]" >&2; exit 2 ;;
	esac
done
shift $((OPTIND - 1))
sizes=("$@")
[ ${#sizes[@]} -gt 0 ] || sizes=(16 17)

cd "$(dirname "$0")/.."
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
go build -o "$tmp/baseline" ./bench/baseline
go build -o "$tmp/chesspuzzles" ./cmd/chesspuzzles
[ -x /usr/bin/time ] || { echo "count.sh needs /usr/bin/time (Debian: apt-get install time)" >&2; exit 2; }

# run LABEL CMD...: runs CMD, appends "wall cpu" to $tmp/LABEL, prints them.
run() {
	local label=$1
	shift
	/usr/bin/time -f "%e %U %S" -o "$tmp/t" "$@" >"$tmp/out" 2>/dev/null
	read -r wall user sys <"$tmp/t"
	cpu=$(awk -v u="$user" -v s="$sys" 'BEGIN { printf "%.2f", u + s }')
	echo "$wall $cpu" >>"$tmp/$label"
	printf '  %-28s %7.2f s wall %7.2f s cpu   %s\n' "$label" "$wall" "$cpu" "$(head -c 60 "$tmp/out" | head -1)"
}

# median FILE COLUMN
median() { awk -v c="$2" '{ print $c }' "$1" | sort -g | awk '{ a[NR] = $1 } END { print (NR % 2) ? a[(NR + 1) / 2] : (a[NR / 2] + a[NR / 2 + 1]) / 2 }'; }

echo "machine: $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //'), load $(cut -d' ' -f1-3 /proc/loadavg)"
for n in "${sizes[@]}"; do
	echo "N=$n, $rounds rounds:"
	for r in $(seq "$rounds"); do
		run "baseline-$n" "$tmp/baseline" "$n"
		run "count-$n-w1" "$tmp/chesspuzzles" queens count "$n" --workers 1 --quiet
	done
done
echo "N=$scale, 1 and 2 workers, $rounds rounds:"
for r in $(seq "$rounds"); do
	run "scale-$scale-w1" "$tmp/chesspuzzles" queens count "$scale" --workers 1 --quiet
	run "scale-$scale-w2" "$tmp/chesspuzzles" queens count "$scale" --workers 2 --quiet
done

echo
echo "| N | baseline s (cpu) | count --workers 1 s (cpu) | speed-up wall | speed-up cpu |"
echo "|---:|---:|---:|---:|---:|"
for n in "${sizes[@]}"; do
	bw=$(median "$tmp/baseline-$n" 1); bc=$(median "$tmp/baseline-$n" 2)
	cw=$(median "$tmp/count-$n-w1" 1); cc=$(median "$tmp/count-$n-w1" 2)
	awk -v n="$n" -v bw="$bw" -v bc="$bc" -v cw="$cw" -v cc="$cc" \
		'BEGIN { printf "| %d | %.2f (%.2f) | %.2f (%.2f) | %.2f× | %.2f× |\n", n, bw, bc, cw, cc, bw / cw, bc / cc }'
done
w1=$(median "$tmp/scale-$scale-w1" 1); w2=$(median "$tmp/scale-$scale-w2" 1)
awk -v n="$scale" -v a="$w1" -v b="$w2" 'BEGIN { printf "\nN=%d: 1 worker %.2f s, 2 workers %.2f s wall: %.2f× (medians)\n", n, a, b, a / b }'
