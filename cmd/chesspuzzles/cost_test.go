package main

import (
	"syscall"
	"testing"
	"time"
)

// TestCountSaysCost starts a count that would take days (N = 23 by the frames method; N = 25
// says years but takes half a minute under -race to plan),
// waits for the line that says so, and stops it as Ctrl-C does: it must have said the cost
// before any long wait, and stop with exit 130.
func TestCountSaysCost(t *testing.T) {
	p := start(t, "count", "queens", "count", "23", "--method", "frames", "--workers", "2", "--quiet")
	p.waitFor(`(?m)^N = 23: about [0-9.]+ (days|years) on 2 workers by the frames method \(estimated; "queens estimate 23" for more\); Ctrl-C stops, --checkpoint FILE resumes$`, 2*time.Minute)
	p.signal(syscall.SIGINT)
	if code := p.wait(30 * time.Second); code != exitInterrupted {
		t.Errorf("count exited %d after Ctrl-C, want %d", code, exitInterrupted)
	}
	if p.stdout.String() != "" {
		t.Errorf("stdout = %q, want nothing", p.stdout.String())
	}
}

// TestCountSaysCostCheckpoint: with --checkpoint, the line says the same command resumes
// (here by the frames method; the join says "by the join method", TestCountSaysCostJoin).
func TestCountSaysCostCheckpoint(t *testing.T) {
	ckpt := t.TempDir() + "/q22.ckpt"
	p := start(t, "count", "queens", "count", "22", "--method", "frames", "--workers", "1", "--quiet", "--checkpoint", ckpt)
	p.waitFor(`(?m)^N = 22: about .* on 1 worker by the frames method \(estimated; .*\); Ctrl-C stops, the same command resumes from `+ckpt+`$`, 2*time.Minute)
	p.signal(syscall.SIGINT)
	if code := p.wait(30 * time.Second); code != exitInterrupted {
		t.Errorf("count exited %d after Ctrl-C, want %d", code, exitInterrupted)
	}
}

// TestCountSaysCostJoin: a join count over a minute says its cost too, timed on the join's
// own row sets: N = 20 on one worker (its quarter table is 74 MiB), with or without -race.
// Race-built, N = 19 was used from 30 Nov (an estimate of 2.9–3.2 minutes, its table built
// in a sixth of N = 20's time) until the join's AVX-512 assembly (7d9dd70), which the race
// detector does not slow: on an AVX-512 machine N = 19 race-built says 44 s, under the
// minute, so it prints no line and counts to the end (97 s; the test failed so, 30 Nov).
// N = 20 says 5–8 minutes race-built there and prints the line 14 s after the start (load
// 8); on AVX2 over 40 s after it (load 12, 30 Nov), hence 4 minutes for a hang.
func TestCountSaysCostJoin(t *testing.T) {
	const n = "20"
	p := start(t, "count", "queens", "count", n, "--method", "join", "--workers", "1", "--quiet")
	p.waitFor(`(?m)^N = `+n+`: about .* on 1 worker by the join method \(estimated; .*\); Ctrl-C stops, --checkpoint FILE resumes$`, 4*time.Minute)
	p.signal(syscall.SIGINT)
	if code := p.wait(30 * time.Second); code != exitInterrupted {
		t.Errorf("count exited %d after Ctrl-C, want %d", code, exitInterrupted)
	}
}

// TestSolveSaysSlow: a listing in code order of a large board says at once that the first
// solution may be far away and what finds one fast.
func TestSolveSaysSlow(t *testing.T) {
	p := start(t, "solve", "queens", "solve", "40", "--limit", "1", "--quiet")
	p.waitFor(`(?m)^N = 40: listing in code order .* "queens one 40" prints one at once, "queens one 40 --random" a random one$`, time.Minute)
	p.signal(syscall.SIGINT)
	if code := p.wait(30 * time.Second); code != exitInterrupted {
		t.Errorf("solve exited %d after Ctrl-C, want %d", code, exitInterrupted)
	}
}
