package main

import (
	"strings"
	"testing"
	"time"

	"github.com/chesspuzzles/chesspuzzles/internal/work/cluster"
)

// TestJobLine: "queens status" says how many identities compute each task of a job: three
// with --replicas 3, two and a third while the pool is small at the default where nothing
// is published, nothing more at --replicas 1 or 2; and nothing of it for a forged record.
func TestJobLine(t *testing.T) {
	rec := func(replicas, below int) cluster.JobStatus {
		return cluster.JobStatus{JobRecord: cluster.JobRecord{Job: "q28v1", N: 28, Tasks: 100, Done: 40, Replicas: replicas, ThirdBelow: below},
			Rate: 2, RateWindow: time.Minute, Left: 30 * time.Second, Checked: true}
	}
	forged := rec(2, cluster.FewIdentities)
	forged.Bad = "sealed by another key"
	for _, tc := range []struct {
		name      string
		j         cluster.JobStatus
		want, not string
	}{
		{"default", rec(2, cluster.FewIdentities), "  two identities a task, a third while fewer than 11 identities have joined: up to 3× the CPU of one computation", "every task by"},
		{"replicas 3", rec(3, 0), "  every task by 3 identities (3× the CPU)", "a third while"},
		{"replicas 2", rec(2, 0), "q28v1  N=28  40/100 tasks (40.0%)", "identit"},
		{"forged", forged, "forged: the record is sealed by another key", "identit"},
	} {
		line := jobLine(tc.j, "/state")
		if !strings.Contains(line, tc.want) || strings.Contains(line, tc.not) {
			t.Errorf("%s: %q, want %q and no %q", tc.name, line, tc.want, tc.not)
		}
	}
}
