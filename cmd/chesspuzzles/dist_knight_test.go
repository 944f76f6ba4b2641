package main

import (
	"regexp"
	"strings"
	"testing"
	"time"
)

// TestDistributedKnight: a knight plan's job runs on workers that "chesspuzzles worker"
// starts, as a queens job does: the coordinator ("knight count --plan --split LEVELS
// --distributed", no local worker) admits two identities "worker add" issued, which read
// the plan back from the job id (the split's kind, hyphens and all), each task is computed
// by both (replicas 2), "queens status" lists the job while it runs, and the total is 5×5's
// 1,728 directed open tours (twice the 864 undirected paths; knight/count's
// testdata/known-values.txt). 5×5, not the 5×6 it was: a task is a whole forward sweep, and
// with the coordinator's own verification each runs three times; 5×6 took minutes under
// -race on a loaded machine, 5×5 seconds, by the same code.
func TestDistributedKnight(t *testing.T) {
	state := t.TempDir()
	coord := start(t, "coordinator", "knight", "count", "--size", "5x5", "--plan", "--split", "c10k4f3-c20k2f0", "--distributed", "--state", state,
		"--nats-listen", "0.0.0.0:0", "--workers", "0", "--replicas", "2", "--json")
	url := workerURL(coord)
	waitStatus(t, state, `(?m)^k5x5-open-split-c10k4f3-c20k2f0-v1  0/8 tasks`)
	// Both identities are issued before either worker starts: the coordinator verifies a
	// job itself when its results all came from one identity and no new one joined for 2 s,
	// and issuing w2 (a process under -race) between the two starts took longer than that on
	// a loaded CI machine.
	creds1, creds2 := addWorker(t, state, "w1"), addWorker(t, state, "w2")
	start(t, "worker 1", "worker", "--nats", url, "--creds", creds1, "--cores", "1")
	start(t, "worker 2", "worker", "--nats", url, "--creds", creds2, "--cores", "1")
	if code := coord.wait(5 * time.Minute); code != 0 {
		t.Fatalf("coordinator exit code %d, want 0; stderr:\n%s", code, coord.stderr.String())
	}
	var total string
	if m := regexp.MustCompile(`"tours":(\d+)`).FindStringSubmatch(coord.stdout.String()); m != nil {
		total = m[1]
	}
	if total != "1728" {
		t.Errorf("5×5 open by two workers: stdout %q, want 1728 tours", coord.stdout.String())
	}
	if !strings.Contains(coord.stderr.String(), "8 tasks by 2 distinct identities; 2 worker identities in all") {
		t.Errorf("coordinator log does not say both identities computed every task:\n%s", coord.stderr.String())
	}
}
