#!/usr/bin/env bash
# coordinator-large.sh measures one coordinator on a plan of over 100,000 tiny tasks (the
# fine plan of N = 14 cut with bound 12: 1.1·10⁵ tasks of about a millisecond), with the
# NATS server, the coordinator and P worker processes of C goroutines each (P·C workers)
# as separate processes on loopback (bench/coordbench). It prints the coordinator's tasks
# per second and the peak RSS and CPU time of the coordinator and of the server.
#
# Usage: bench/coordinator-large.sh [-p PROCS] [-c CORES] [-n N] [-b BOUND] [-w WINDOW]
#        (defaults: 8 processes × 4 goroutines = 32 workers, N = 14, bound 12)
set -euo pipefail
. "$(dirname "$0")/lib.sh"
procs=8 cores=4 n=14 bound=12 window=0
flags "[-p PROCS] [-c CORES] [-n N] [-b BOUND] [-w WINDOW]" p:procs c:cores n:n b:bound w:window -- "$@"
pids=()
cleanup() { for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done; wait 2>/dev/null || true; rm -rf "$tmp"; }
trap cleanup EXIT
build bench/coordbench cb
port=$((20000 + RANDOM % 20000))
url="nats://127.0.0.1:$port"
"$tmp/cb" -role server -listen "127.0.0.1:$port" -state "$tmp/state" -workers "$procs" 2>"$tmp/server.err" &
server=$!
pids+=($server)
sleep 1
for i in $(seq "$procs"); do
	"$tmp/cb" -role worker -nats "$url" -creds "$tmp/state/cb$i.creds" -cores "$cores" -n "$n" -bound "$bound" 2>"$tmp/worker$i.err" &
	pids+=($!)
done
machine "$procs worker processes × $cores goroutines"
/usr/bin/time -f "coordinator: %U s user, %S s sys, %M KiB peak RSS, %e s wall" \
	"$tmp/cb" -role coordinator -nats "$url" -state "$tmp/state" -n "$n" -bound "$bound" -window "$window" 2>"$tmp/coord.err"
grep -E "coordinator:|queued now|assigning the rest" "$tmp/coord.err" || tail -3 "$tmp/coord.err"
# The server's peak RSS and CPU time, from /proc before it stops.
hz=$(getconf CLK_TCK)
read -r utime stime < <(awk '{print $14, $15}' "/proc/$server/stat")
echo "server: $(awk -v u="$utime" -v s="$stime" -v hz="$hz" 'BEGIN { printf "%.2f s user, %.2f s sys", u / hz, s / hz }'), $(awk '/VmHWM/ {print $2}' "/proc/$server/status") KiB peak RSS"
