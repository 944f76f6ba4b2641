package tours

import (
	"context"
	"slices"
	"testing"
)

// TestOpenSplitPlan makes split plans by name, runs one and sums it to the published 5×5
// count, and refuses names this build does not make.
func TestOpenSplitPlan(t *testing.T) {
	p, err := NewPlan("5x5 open-split-c8k3f4-c12k2f0 v1")
	if err != nil {
		t.Fatal(err)
	}
	if p.Len() != 6 || p.Name() != "5x5 open-split-c8k3f4-c12k2f0 v1" {
		t.Fatalf("NewPlan: %d tasks named %q, want 6 named as asked", p.Len(), p.Name())
	}
	if got := p.Task(5).Label; got != "parts 8:2/3 12:1/2" {
		t.Errorf("task 5's label %q, want %q", got, "parts 8:2/3 12:1/2")
	}
	rs, err := Run(context.Background(), p, Options{})
	if err != nil {
		t.Fatal(err)
	}
	total, err := p.Total(rs)
	if err != nil {
		t.Fatal(err)
	}
	if want, _ := p.Published(); total.Cmp(want) != 0 {
		t.Errorf("5×5 by a split plan: %v directed open tours, want %v", total, want)
	}
	if got := Family("open-split-c8k3f4-c12k2f0"); got != KindOpenSplit {
		t.Errorf("Family(open-split-c8k3f4-c12k2f0) = %q, want %q", got, KindOpenSplit)
	}
	if ks := Kinds(); !slices.Contains(ks, "open-split v1") {
		t.Errorf("Kinds() = %q, want open-split v1 among them", ks)
	}
	for _, name := range []string{"5x5 open-split-c8k3f4 v2", "5x5 open-split-c8k3 v1", "5x5 open-split-c30k3f4 v1", "5x5 open-split- v1", "5x5 open-split-c08k3f4 v1"} {
		if _, err := NewPlan(name); err == nil {
			t.Errorf("NewPlan(%q): no error", name)
		}
	}
}
