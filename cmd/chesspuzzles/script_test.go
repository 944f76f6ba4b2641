package main

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"testing"

	"github.com/rogpeppe/go-internal/testscript"
)

// TestMain lets the test binary act as the chesspuzzles command inside scripts, and removes
// releaseBinary's build after the tests.
//
// It also sets atexit_sleep_ms=0 in GORACE (unless GORACE already names it) for every process
// the tests start: a race-built process that exits with status 0 otherwise sleeps a second
// (the race runtime's default, 1000 ms) before it exits. The scripts run this binary 592
// times, about 300 of them to a status 0, one after another within a script and two
// scripts at a time: some two and a half minutes of wall time asleep, no CPU and no check
// (contract, queens_solve and knight_tour one at a time: 40 s instead of 99, 30 Nov). Races
// are still reported as they happen, and a child that found one exits with status 66. The
// test binary itself read GORACE at its start and keeps the default.
func TestMain(m *testing.M) {
	if g := os.Getenv("GORACE"); !strings.Contains(g, "atexit_sleep_ms") {
		os.Setenv("GORACE", strings.TrimSpace(g+" atexit_sleep_ms=0"))
	}
	testscript.Main(afterTests{m}, map[string]func(){"chesspuzzles": main})
}

// TestScripts runs the command-line scripts in testdata/script: each runs chesspuzzles and
// checks its output, error lines and exit codes.
func TestScripts(t *testing.T) {
	testscript.Run(t, testscript.Params{
		Dir:                 "testdata/script",
		RequireExplicitExec: true,
		Setup: func(env *testscript.Env) error {
			env.Setenv("NO_COLOR", "1")
			if v := os.Getenv("CHESSPUZZLES_LONG"); v != "" {
				env.Setenv("CHESSPUZZLES_LONG", v)
			}
			return nil
		},
		Cmds: map[string]func(*testscript.TestScript, bool, []string){"status": cmdStatus},
		// [long] runs a line only with CHESSPUZZLES_LONG=1 or all: checks of minutes under
		// -race, each beside a cheaper one of the same kind that always runs.
		Condition: func(cond string) (bool, error) {
			if cond != "long" {
				return false, fmt.Errorf("unknown condition %q", cond)
			}
			v := os.Getenv("CHESSPUZZLES_LONG")
			return v == "1" || v == "all", nil
		},
	})
}

// cmdStatus runs a command and checks its exit code, which exec alone cannot tell apart:
//
//	status 2 chesspuzzles queens count abc
//
// Its stdout and stderr are kept for the stdout and stderr commands that follow.
func cmdStatus(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) < 2 {
		ts.Fatalf("usage: status CODE command [args...]")
	}
	want, err := strconv.Atoi(args[0])
	if err != nil {
		ts.Fatalf("status: bad exit code %q", args[0])
	}
	got := 0
	if err := ts.Exec(args[1], args[2:]...); err != nil {
		var ee *exec.ExitError
		if !errors.As(err, &ee) {
			ts.Fatalf("status: %v", err)
		}
		got = ee.ExitCode()
	}
	if got != want {
		ts.Fatalf("%s exited with %d, want %d", args[1], got, want)
	}
}
