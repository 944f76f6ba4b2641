#!/bin/sh
# knight-8x8-open.sh: count tasks of the 8×8 open-tour plan (knight count --size 8 --plan, 136 tasks,
# one a slice: --shard I/136), one after another, each into bench/knight-8x8-open/slice-I.json with its
# checksum and its /usr/bin/time -v report into slice-I.time. A slice whose file exists is
# skipped, so sessions continue where the last stopped; "knight merge slice-*.json" sums
# them once all 136 are here (and refuses a total unlike OEIS A165134).
#
#	bench/knight-8x8-open.sh [-m MAXMEM] I...     e.g. bench/knight-8x8-open.sh 4 0 1 2
#
# Runs under nice -n 10; each task is bounded by -m (default 8GiB, the issue's bound).
. "$(dirname "$0")/lib.sh"
maxmem=8GiB
flags "[-m MAXMEM] I..." m:maxmem -- "$@"
shift $((OPTIND - 1))
build cmd/chesspuzzles chesspuzzles
dir=bench/knight-8x8-open
machine
for i in "$@"; do
	out=$dir/slice-$i.json
	if [ -e "$out" ]; then
		echo "slice $i: $out is there, skipped"
		continue
	fi
	echo "slice $i/136: started $(date -u +%FT%TZ)"
	nice -n 10 /usr/bin/time -v -o "$dir/slice-$i.time" \
		"$tmp/chesspuzzles" knight count --size 8 --plan --shard "$i/136" --max-memory "$maxmem" -o "$out" \
		2>"$dir/slice-$i.log" || { echo "slice $i: failed (see $dir/slice-$i.log)"; exit 1; }
	echo "slice $i: $(grep -h '^task' "$dir/slice-$i.log")"
	grep -E 'User time|System time|Maximum resident' "$dir/slice-$i.time"
	machine
done
