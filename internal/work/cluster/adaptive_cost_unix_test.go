//go:build unix

package cluster

import (
	"context"
	"os"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// cpuTime returns the CPU time (user and system) this process has used.
func cpuTime(t *testing.T) time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		t.Fatal(err)
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// TestAdaptiveCost measures what adaptive replication costs, in CPU time of the whole
// process (server, coordinator and three honest issued workers of one core each), against
// a count of each task once (--replicas 1, nothing verified) and one of every task twice
// (--replicas 2), at an N whose published count the test switches off: the three modes
// in turn, rounds times, each count on a new server and state directory. Only with
// CHESSPUZZLES_LONG=1: Q(16) (3206 tasks), 2 rounds, about a minute of CPU;
// CHESSPUZZLES_ADAPTIVE_N and CHESSPUZZLES_ADAPTIVE_ROUNDS choose another N and number
// of rounds, and CHESSPUZZLES_COST_MODES (comma-separated names of the modes: "replicas
// 1", "adaptive", "replicas 2", "default", "replicas 3") others to measure, the first the
// unit of the ratios. The ratios are logged (bench/log/2026-11-29-trust.md); it fails
// only if a total is wrong or adaptive replication, measured, costs more than replicas 2.
func TestAdaptiveCost(t *testing.T) {
	// Serial, not parallel: it measures the process's CPU time.
	if os.Getenv("CHESSPUZZLES_LONG") != "1" {
		t.Skip("set CHESSPUZZLES_LONG=1 to measure adaptive replication's cost (a minute of CPU)")
	}
	noPublished(t)
	n, rounds := 16, 2
	if v, err := strconv.Atoi(os.Getenv("CHESSPUZZLES_ADAPTIVE_N")); err == nil {
		n = v
	}
	if v, err := strconv.Atoi(os.Getenv("CHESSPUZZLES_ADAPTIVE_ROUNDS")); err == nil {
		rounds = v
	}
	tj := queensJob(t, n)
	type mode struct {
		name string
		set  func(c *Coordinator)
	}
	all := []mode{
		{"replicas 1", func(c *Coordinator) { c.Replicas = 1 }},
		{"adaptive", func(c *Coordinator) { c.Adaptive = &Adaptive{} }},
		{"replicas 2", func(c *Coordinator) { c.Replicas = 2 }},
		{"default", func(c *Coordinator) {}}, // two a task, a third while the pool is small
		{"replicas 3", func(c *Coordinator) { c.Replicas = 3 }},
	}
	modes := all[:3]
	if names := os.Getenv("CHESSPUZZLES_COST_MODES"); names != "" {
		modes = nil
		for name := range strings.SplitSeq(names, ",") {
			i := slices.IndexFunc(all, func(m mode) bool { return m.name == strings.TrimSpace(name) })
			if i < 0 {
				t.Fatalf("CHESSPUZZLES_COST_MODES names %q, not one of the modes", name)
			}
			modes = append(modes, all[i])
		}
	}
	sum := make([]time.Duration, len(modes))
	for round := range rounds {
		for i, m := range modes {
			dir := t.TempDir()
			s, a := authServer(t, dir)
			ctx, cancel := context.WithTimeout(context.Background(), 30*time.Minute)
			c := &Coordinator{Conn: coordConn(t, ctx, s.URL(), a), StateDir: dir, Logf: func(string, ...any) {}}
			m.set(c)
			ws := []*Worker{issuedWorker(t, ctx, s.URL(), a, "h1"), issuedWorker(t, ctx, s.URL(), a, "h2"), issuedWorker(t, ctx, s.URL(), a, "h3")}
			t0 := cpuTime(t)
			stop := runWorkers(ctx, ws...)
			counts, st, err := c.Run(ctx, tj.plan)
			stop()
			used := cpuTime(t) - t0
			cancel()
			s.Shutdown()
			if err != nil {
				t.Fatalf("%s: %v", m.name, err)
			}
			if got := counts.Total.String(); got != tj.total {
				t.Fatalf("%s: Q(%d) = %s, want %s", m.name, n, got, tj.total)
			}
			sum[i] += used
			t.Logf("round %d, %s: %.2f CPU-s, tasks by one identity %d, by two %d, by three %d (%d verified here)", round, m.name, used.Seconds(), st.ByIdentities[1], st.ByIdentities[2], st.ByIdentities[3], st.VerifiedHere)
		}
	}
	one := sum[0].Seconds()
	for i, m := range modes {
		t.Logf("Q(%d), %d rounds, %s: %.1f CPU-s in all, %.3f × %s", n, rounds, m.name, sum[i].Seconds(), sum[i].Seconds()/one, modes[0].name)
	}
	if len(modes) == 3 && modes[1].name == "adaptive" && sum[1] > sum[2] {
		t.Errorf("adaptive replication took %.1f CPU-s, more than replicas 2's %.1f", sum[1].Seconds(), sum[2].Seconds())
	}
}
