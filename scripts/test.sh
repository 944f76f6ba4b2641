#!/usr/bin/env bash
# The project's test command (README.md, "Test it"; .ci/run calls it as it is): installs
# Chromium for the page tests if it is missing (as root, from Debian's packages), then vet,
# staticcheck, gofmt, go.mod's tidiness ("go mod tidy -diff"), the doc links (every [Name]
# in a doc comment resolves: scripts/doclinks, a few seconds), and every test with the race
# detector; vet runs again for Windows. Each phase says when it starts
# and how long it took, and every 30 s that it is still running when it has nothing to print;
# scripts/testlog prints each package's result, failures in full, the ten slowest tests, and
# the verdict: packages ok, failed and skipped with the minutes since this script began, then
# "N passed, N failed" as the last line. The first phase that fails stops the run: exit 1.
#
#	scripts/test.sh            # every package, as CI runs it
#	scripts/test.sh ./web/...  # vet, staticcheck and the tests of these packages only
set -uo pipefail
cd "$(dirname "$0")/.."
start=$(date +%s)
pkgs=("${@:-./...}")
trap 'kill $(jobs -p) 2>/dev/null' EXIT

# since T prints the time since Unix second T as "1m05s" or "42s".
since() {
	local s=$(($(date +%s) - $1))
	if ((s >= 60)); then printf '%dm%02ds' $((s / 60)) $((s % 60)); else printf '%ds' "$s"; fi
}

# phase NAME COMMAND...: runs COMMAND between a line as it starts and a line as it ends.
phase() {
	local name=$1 t0
	shift
	t0=$(date +%s)
	echo "== $name: started $(date -u +%T)"
	(while sleep 30; do echo "… $name: still running, $(since "$t0")"; done) &
	local ticker=$!
	"$@"
	local rc=$?
	kill "$ticker" 2>/dev/null
	wait "$ticker" 2>/dev/null
	if ((rc != 0)); then
		echo "== $name: FAILED after $(since "$t0"); stopped, $(since "$start") in all"
		exit 1
	fi
	echo "== $name: ok in $(since "$t0")"
}

install_chromium() {
	if command -v chromium >/dev/null; then
		echo "chromium is installed: $(command -v chromium)"
		return
	fi
	apt-get update -qq && apt-get install -y -qq chromium >/dev/null
}

unformatted() {
	local files
	files=$(gofmt -l .) || return 1
	if [[ -n $files ]]; then
		echo "not gofmt'd:"
		echo "$files"
		return 1
	fi
}

phase install install_chromium
phase vet go vet "${pkgs[@]}"
# The release's other systems build in .ci/run (scripts/release.sh --check), but that builds no
# test file: a test that calls a Unix-only function broke Windows unseen (29 Nov). Vet for
# Windows type-checks every package and test there (about half a CPU-minute), on 386: a
# constant past an int of 32 bits kept 32-bit systems from building at all (30 Nov).
phase "vet (windows/386)" env CGO_ENABLED=0 GOOS=windows GOARCH=386 go vet "${pkgs[@]}"
phase staticcheck go tool staticcheck "${pkgs[@]}"
phase gofmt unformatted
phase tidy go mod tidy -diff
phase doclinks go run ./scripts/doclinks
# A race-built process that exits with status 0 first sleeps a second (GORACE's
# atexit_sleep_ms, 1000 by default): one a test binary, and one for each command the tests
# start (cmd/chesspuzzles' TestMain sets it too, for a plain go test): no check rests on it.
export GORACE="${GORACE:-atexit_sleep_ms=0}"
# The last phase ends with testlog's verdict, so that "N passed, N failed" is the last line.
echo "== tests: started $(date -u +%T) (go test -race; testlog names what runs after 30 s of quiet)"
go test -race -timeout 60m -json "${pkgs[@]}" | go run ./scripts/testlog -start "$start"
