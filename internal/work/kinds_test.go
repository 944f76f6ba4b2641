package work_test

import (
	"slices"
	"testing"

	"github.com/chesspuzzles/chesspuzzles/internal/work"
	"github.com/chesspuzzles/chesspuzzles/internal/work/worktest"
)

// TestOpenJob: every build makes queens and knight plans again from their job ids, and a
// registered kind's; a job id of no kind, or one its kind's function refuses, is an error.
func TestOpenJob(t *testing.T) {
	work.RegisterKind("toy", worktest.ParseToy)
	if ks := work.Kinds(); !slices.Contains(ks, "q") || !slices.Contains(ks, "k") || !slices.Contains(ks, "toy") {
		t.Errorf("Kinds() = %q, want q, k and toy among them", ks)
	}
	for _, job := range []string{"q8v1", "q20v102", "k5x5-open-ends-v1", "k5x6-open-split-c10k4f3-c20k2f0-v1", "toy12-5-v1", "toy10-4-x60-v1"} {
		p, err := work.OpenJob(job)
		if err != nil || p.Job() != job {
			t.Errorf("OpenJob(%q) = %v, %v", job, p, err)
		}
	}
	for _, job := range []string{"", "q", "q8", "q08v1", "q8v0", "q0v1", "k5x5-open-ends", "k5x5-closed-v1", "k5x5-open-ends-v9", "zz1", "toy30-5-v1", "Q8v1"} {
		if p, err := work.OpenJob(job); err == nil {
			t.Errorf("OpenJob(%q) = %v, want an error", job, p.Job())
		}
	}
}

// TestKnightJobs: a knight plan's job id and its name are each other's inverse.
func TestKnightJobs(t *testing.T) {
	for name, job := range map[string]string{"8x8 open-ends v1": "k8x8-open-ends-v1", "5x10 open-ends v1": "k5x10-open-ends-v1", "6x6 split9 v2": "k6x6-split9-v2",
		"5x6 open-split-c10k4f3-c20k2f0 v1": "k5x6-open-split-c10k4f3-c20k2f0-v1", "8x8 open-split-v2 v3": "k8x8-open-split-v2-v3"} {
		back, err := work.ParseKnightJob(job)
		if err != nil || back != name {
			t.Errorf("ParseKnightJob(%q) = %q, %v; want %q", job, back, err, name)
		}
	}
	for _, job := range []string{"", "k", "k8x8", "k8x8-open-ends", "k8x8-open-ends-v", "k8x8--v1", "q8v1", "k08x8-open-ends-v1", "k8x8-open.ends-v1", "k8x8-open ends-v1", "k8x8-Open-v1"} {
		if name, err := work.ParseKnightJob(job); err == nil {
			t.Errorf("ParseKnightJob(%q) = %q, want an error", job, name)
		}
	}
	if _, _, err := work.ParseQueensJob("k8x8-open-ends-v1"); err == nil {
		t.Errorf("a knight job id parsed as a queens one")
	}
}
