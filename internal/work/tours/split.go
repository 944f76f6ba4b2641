package tours

import (
	"context"
	"fmt"
	"math/big"
	"strings"

	kcount "github.com/chesspuzzles/chesspuzzles/knight/count"
)

// OpenSplit returns p, a split plan (kcount.NewSplitPlan: p.Split not nil), as a Plan of
// kind "open-split-" and its levels, "8x8 open-split-c18k4f4 v1".
func OpenSplit(p *kcount.OpenPlan) Plan { return openSplit{p} }

// newOpenSplit makes the split plan of a kind "open-split-LEVELS" (NewPlan).
func newOpenSplit(name string, rows, cols int, kind string, version int) (Plan, error) {
	if version != kcount.SplitPlanVersion {
		return nil, fmt.Errorf("plan %q: this build makes open-split plans of version %d only", name, kcount.SplitPlanVersion)
	}
	levels, err := kcount.ParseSplitLevels(strings.TrimPrefix(kind, "open-split-"))
	if err != nil {
		return nil, err
	}
	p, err := kcount.NewSplitPlan(rows, cols, levels)
	if err != nil {
		return nil, err
	}
	if p.Name() != name {
		return nil, fmt.Errorf("plan %q: this build names it %q", name, p.Name())
	}
	return OpenSplit(p), nil
}

type openSplit struct{ p *kcount.OpenPlan }

func (o openSplit) Name() string                        { return o.p.Name() }
func (o openSplit) Size() (int, int)                    { return o.p.Rows, o.p.Cols }
func (o openSplit) Len() int                            { return len(o.p.Tasks) }
func (o openSplit) Check(r Result) error                { return o.p.Check(r) }
func (o openSplit) Total(rs []Result) (*big.Int, error) { return o.p.Total(rs) }
func (o openSplit) Published() (*big.Int, bool)         { return kcount.PublishedOpen(o.p.Rows, o.p.Cols) }

func (o openSplit) Task(id int) Task {
	t := o.p.Tasks[id]
	var b strings.Builder
	b.WriteString("parts")
	for _, s := range t.Split {
		fmt.Fprintf(&b, " %d:%d/%d", s.Cell, s.Part, s.Parts)
	}
	return Task{ID: t.ID, Weight: t.Weight, Label: b.String()}
}

func (o openSplit) RunTask(ctx context.Context, id int, opts TaskOptions) (Result, error) {
	if id < 0 || id >= len(o.p.Tasks) {
		return Result{}, fmt.Errorf("task %d: the plan %s has tasks 0 to %d", id, o.p.Name(), len(o.p.Tasks)-1)
	}
	return kcount.CountOpenTask(ctx, o.p.Rows, o.p.Cols, o.p.Tasks[id], opts.MaxMemory, opts.Status)
}
