#!/usr/bin/env bash
# rehearsal.sh is the dress rehearsal of a long distributed count on one machine: a
# coordinator ("queens count N --method join --distributed --workers 0", its own embedded
# NATS server) and W worker processes, each under an identity issued with "worker add". After
# KILL seconds the first worker is killed with SIGKILL (its leased tasks go to the others when
# the ack deadline lapses); after RESTART seconds the coordinator gets SIGINT, and once it has
# exited (130, its snapshot written) the same command starts again on the same --state and
# finishes the job. The total must be the published Q(N) (known.go); the coordinator holds it
# against that too.
#
# It prints the machine, each step with its time, the lines the coordinator and the workers
# logged around the kill and the restart, each process's CPU seconds (user+sys) and peak RSS
# (/usr/bin/time -v), the wall time and the total. Every process runs under nice -n 10.
#
# Usage: bench/rehearsal.sh [-n N] [-w WORKERS] [-c CORES] [-k KILL] [-r RESTART] [-p PORT] [-d DIR]
#   -n N        the board (default 21; 22 is about 2.6 core-hours on the 2-core EPYC, 23 ten times that)
#   -w WORKERS  worker processes (default 3)
#   -c CORES    tasks each worker runs at once (default 1)
#   -k KILL     seconds after the start when worker 1 is killed with SIGKILL (default 240)
#   -r RESTART  seconds after the start when the coordinator is interrupted and started again (default 420)
#   -p PORT     loopback port of the embedded NATS server (default 14222)
#   -d DIR      keep the logs and the state in DIR (default: a temporary directory, removed)
set -euo pipefail
. "$(dirname "$0")/lib.sh"
n=21 workers=3 cores=1 kill=240 restart=420 port=14222 dir=
flags "[-n N] [-w WORKERS] [-c CORES] [-k KILL] [-r RESTART] [-p PORT] [-d DIR]" \
	n:n w:workers c:cores k:kill r:restart p:port d:dir -- "$@"
shift $((OPTIND - 1))
[ $# -eq 0 ] || { echo "usage: $0: no operands, got $*" >&2; exit 2; }
((kill < restart)) || { echo "$0: -k KILL ($kill) must come before -r RESTART ($restart)" >&2; exit 2; }
if [ -n "$dir" ]; then
	mkdir -p "$dir"
	dir=$(cd "$dir" && pwd)
else
	dir=$tmp
fi

want=$(awk -v n="$n" '$1 == n ":" { gsub(/[{",]/, "", $2); print $2 }' queens/count/known.go)
[ -n "$want" ] || { echo "$0: no published Q($n) in queens/count/known.go" >&2; exit 2; }

pids=()
stop() {
	for p in "${pids[@]}"; do kill -INT "$p" 2>/dev/null || true; done
	wait 2>/dev/null || true
	rm -rf "$tmp"
}
trap stop EXIT

build cmd/chesspuzzles chesspuzzles
bin=$tmp/chesspuzzles
state=$dir/state
rm -rf "$state"
mkdir -m 700 "$state"
start=$(date +%s.%N)
at() { awk -v a="$start" -v b="$(date +%s.%N)" 'BEGIN { printf "%7.1f s", b - a }'; }
say() { echo "$(at)  $*"; }

# child PID: the process /usr/bin/time started (nice execs the binary in place).
child() { pgrep -P "$1" | head -1; }

machine "rehearsal N=$n, $workers workers of $cores core(s), kill at ${kill}s, restart at ${restart}s"
for i in $(seq "$workers"); do
	"$bin" worker add "w$i" --state "$state" -o "$dir/w$i.creds" >/dev/null 2>&1
done
coord=("$bin" queens count "$n" --method join --distributed --workers 0 --state "$state"
	--nats-listen "127.0.0.1:$port" --json --quiet)
echo "coordinator: ${coord[*]#"$tmp/"}"
/usr/bin/time -v -o "$dir/coord1.time" nice -n 10 "${coord[@]}" >"$dir/coord1.out" 2>"$dir/coord1.log" &
c1=$!
pids+=("$c1")
for _ in $(seq 100); do [ -s "$state/server.url" ] && break; sleep 0.1; done
say "coordinator started (pid $(child "$c1"))"
wpids=()
for i in $(seq "$workers"); do
	/usr/bin/time -v -o "$dir/w$i.time" nice -n 10 "$bin" worker --nats "nats://127.0.0.1:$port" \
		--creds "$dir/w$i.creds" --name "w$i" --cores "$cores" --every 60s >"$dir/w$i.log" 2>&1 &
	wpids+=($!)
	pids+=($!)
done
say "$workers workers started"

sleep "$kill"
kill -KILL "$(child "${wpids[0]}")"
say "worker w1 killed (SIGKILL)"
sleep $((restart - kill))
c1child=$(child "$c1" || true)
if [ -z "$c1child" ]; then
	say "the coordinator ended before the restart: $(cat "$dir/coord1.out")"
	echo "$0: the job ended before -r RESTART ($restart s): give a smaller -r" >&2
	exit 2
fi
kill -INT "$c1child"
rc=0
wait "$c1" || rc=$?
say "coordinator interrupted (SIGINT): exit $rc"
sed -n '$p' "$dir/coord1.log" | sed 's/^/    /'
/usr/bin/time -v -o "$dir/coord2.time" nice -n 10 "${coord[@]}" >"$dir/coord2.out" 2>"$dir/coord2.log" &
c2=$!
pids+=("$c2")
say "coordinator started again (pid $(child "$c2"))"
rc=0
wait "$c2" || rc=$?
end=$(date +%s.%N)
say "coordinator done: exit $rc"
for p in "${wpids[@]:1}"; do kill -INT "$(child "$p")" 2>/dev/null || true; done
for p in "${wpids[@]}"; do wait "$p" 2>/dev/null || true; done
pids=()

echo "the coordinator's log, first run:"
grep -vE '^N=|NATS server on|workers join with' "$dir/coord1.log" | sed 's/^/    /' | head -20
echo "the coordinator's log, second run:"
grep -vE '^N=|NATS server on|workers join with' "$dir/coord2.log" | sed 's/^/    /' | head -20
# figure FILE: "CPU user+sys s, peak RSS kB" from a /usr/bin/time -v file.
figure() {
	awk -F': ' '/User time/ { u = $2 } /System time/ { s = $2 } /Maximum resident/ { m = $2 }
		/terminated by signal/ { x = $0; sig = 1 } /Exit status/ && !sig { x = $0 }
		END { printf "%8.1f CPU-s (user %.1f + sys %.1f), peak RSS %d kB  [%s]\n", u + s, u, s, m, x }' "$1"
}
total=0
for f in coord1 coord2 $(seq -f 'w%g' "$workers"); do
	printf '  %-7s %s' "$f" "$(figure "$dir/$f.time")"
	echo
	total=$(awk -v t="$total" -F': ' '/User time|System time/ { t += $2 } END { printf "%.1f", t }' "$dir/$f.time")
done
got=$(sed -n 's/.*"total":\([0-9]*\).*/\1/p' "$dir/coord2.out")
awk -v a="$start" -v b="$end" -v c="$total" 'BEGIN { printf "wall %.1f s (%.1f min), CPU %.1f s in all\n", b - a, (b - a) / 60, c }'
echo "result: $(cat "$dir/coord2.out")"
if [ "$got" = "$want" ]; then
	echo "Q($n) = $got: exact (published $want)"
else
	echo "Q($n) = ${got:-none}, want $want: WRONG" >&2
	exit 1
fi
