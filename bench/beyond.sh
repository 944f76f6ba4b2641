#!/usr/bin/env bash
# Speed of the queens commands beyond search: one solution of a huge board, random solutions,
# checking a huge placement, and completing partial placements.
#
# Each figure is printed with the baseline it is compared against, measured in the same run
# on the same machine (absolute times on a shared machine are noise; ratios are not):
#   one 100000000 to a file      vs writing as many bytes with head -c to a file
#   one N --random               vs one N (the construction: same output, no search)
#   check of 10^7 queens         vs cat of the same file (reading it)
#   ParseColumns+Check           vs Parse+Check (go test -bench, in process)
#   complete, N = 8…30           vs starting the program (one 8)
#
# Usage: bench/beyond.sh [SAMPLES]   (SAMPLES positions a board size for complete, default 20)
set -euo pipefail
samples=${1:-20}
. "$(dirname "$0")/lib.sh"
build cmd/chesspuzzles chesspuzzles
bin=$tmp/chesspuzzles

# secs CMD...: run CMD, print its wall time in seconds (3 decimals).
secs() {
	local t0 t1
	t0=$(date +%s%N)
	"$@" >/dev/null 2>&1 || true
	t1=$(date +%s%N)
	awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.3f", (b - a) / 1e9 }'
}
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { if (b > 0) printf "%.1f", a / b; else print "inf" }'; }
row() { printf '%-44s %9ss   %-34s %9ss   %6s×\n' "$1" "$2" "$3" "$4" "$(ratio "$2" "$4")"; }

machine "$(go version | cut -d' ' -f3)"
printf '%-44s %10s   %-34s %10s   %7s\n' "command" "time" "baseline" "time" "ratio"

# 1. A hundred million queens, streamed to a file.
t=$(secs "$bin" queens one 100000000 -o "$tmp/one.txt")
size=$(stat -c %s "$tmp/one.txt")
rm -f "$tmp/one.txt"
b=$(secs sh -c "head -c $size /dev/zero > '$tmp/zero.txt'")
rm -f "$tmp/zero.txt"
row "one 100000000 -o FILE ($((size / 1000000)) MB)" "$t" "head -c $size > FILE" "$b"

# 2. Random solutions.
for n in 1000000 10000000; do
	t=$(secs "$bin" queens one $n --random --seed 1 -o "$tmp/r.txt")
	b=$(secs "$bin" queens one $n -o "$tmp/c.txt")
	row "one $n --random --seed 1 -o FILE" "$t" "one $n -o FILE" "$b"
done

# 3. Checking ten million queens read from stdin.
"$bin" queens one 10000000 --random --seed 2 --format perm -o "$tmp/q7.txt"
t=$(secs sh -c "'$bin' queens check < '$tmp/q7.txt'")
b=$(secs sh -c "cat '$tmp/q7.txt' > /dev/null")
"$bin" queens check <"$tmp/q7.txt" | head -2 | sed 's/^/    check says: /' | cut -c1-100
row "check < 10^7 queens (perm, $(($(stat -c %s "$tmp/q7.txt") / 1000000)) MB)" "$t" "cat FILE > /dev/null" "$b"
rm -f "$tmp/q7.txt"
# The fast path for huge lists (queens.ParseColumns + Placement.Check) against Parse +
# Check, in process, on a million queens.
go test -run '^$' -bench 'BenchmarkCheckLarge' -benchtime 5x ./queens/ | awk '
	/ParseColumns/ { fast = $3 } /Parse\+Check/ { slow = $3 }
	END { printf "%-44s %9.3fs   %-34s %9.3fs   %6.1f×\n", "ParseColumns+Check, 10^6 (in process)", fast / 1e9, "Parse+Check, 10^6", slow / 1e9, fast / slow }'

# 4. Completing partial placements, N = 8…30, three kinds in turn: k random queens
# (1 ≤ k ≤ N/2) of a random solution (always completable); the same with one of them then
# moved to a random square no other attacks (often not); and k queens dropped one by one
# on random squares no queen so far attacks (mostly not completable, and the hardest).
base=$(secs "$bin" queens one 8)
echo
echo "complete --timeout 1s on $samples positions a size (start-up of the program: ${base}s):"
printf '%4s %9s %6s %6s %10s %10s %10s\n' N decided yes no median max 'median/start'
for n in 8 10 12 14 16 18 20 22 24 26 28 30; do
	times=()
	yes=0 no=0 undecided=0
	for s in $(seq 1 "$samples"); do
		sol=$("$bin" queens one $n --random --seed $((n * 1000 + s)) --format perm)
		pos=$(echo "$sol" | awk -v n=$n -v seed=$((n * 7919 + s)) -v seedkind=$s -F, '
			BEGIN { srand(seed) }
			{
				for (r = 1; r <= n; r++) col[r] = $r
				k = 1 + int(rand() * int(n / 2))
				for (r = 1; r <= n; r++) keep[r] = 0
				for (i = 0; i < k; ) { r = 1 + int(rand() * n); if (!keep[r]) { keep[r] = 1; i++ } }
				kind = seedkind % 3
				if (kind == 2) {
					for (r = 1; r <= n; r++) keep[r] = 0
					placed = 0
					for (try = 0; try < 100 * k && placed < k; try++) {
						r = 1 + int(rand() * n); c = int(rand() * n)
						if (keep[r]) continue
						ok = 1
						for (q = 1; q <= n; q++) {
							if (!keep[q]) continue
							d = col[q] - c; e = q - r
							if (d == 0 || d == e || d == -e) { ok = 0; break }
						}
						if (ok) { keep[r] = 1; col[r] = c; placed++ }
					}
				}
				if (kind == 1) {
					for (r = 1; r <= n && !keep[r]; r++) ;
					for (try = 0; try < 200; try++) {
						c = int(rand() * n); ok = 1
						for (q = 1; q <= n; q++) {
							if (q == r || !keep[q]) continue
							d = col[q] - c; e = q - r
							if (d == 0 || d == e || d == -e) { ok = 0; break }
						}
						if (ok) { col[r] = c; break }
					}
				}
				out = ""
				for (r = 1; r <= n; r++) out = out (r > 1 ? "," : "") (keep[r] ? col[r] : "-")
				print "perm:" out
			}')
		t0=$(date +%s%N)
		code=0
		"$bin" queens complete "$pos" --n $n --timeout 1s >/dev/null 2>&1 || code=$?
		t1=$(date +%s%N)
		times+=("$(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.3f", (b - a) / 1e9 }')")
		case $code in
		0) yes=$((yes + 1)) ;;
		1) no=$((no + 1)) ;;
		3) undecided=$((undecided + 1)) ;;
		*) echo "complete $pos --n $n: exit $code" >&2 ;;
		esac
	done
	sorted=$(printf '%s\n' "${times[@]}" | sort -n)
	median=$(echo "$sorted" | awk '{ a[NR] = $1 } END { print a[int((NR + 1) / 2)] }')
	maxt=$(echo "$sorted" | tail -1)
	printf '%4d %8d%% %6d %6d %9ss %9ss %9s×\n' $n $(((yes + no) * 100 / samples)) $yes $no "$median" "$maxt" "$(ratio "$median" "$base")"
done
