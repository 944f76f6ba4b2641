package count_test

import (
	"context"
	"strings"
	"testing"

	"github.com/chesspuzzles/chesspuzzles/queens/count"
	"github.com/chesspuzzles/chesspuzzles/queens/count/frames"
)

// TestFinalRefusesPublishedMismatch: a whole plan's results sum to the published Q(N) and
// U(N); one result raised by one solution — a forgery that a result's own checks can let
// through — makes Final and Sum refuse the total, naming the published value.
func TestFinalRefusesPublishedMismatch(t *testing.T) {
	for _, n := range []int{8, 10} {
		p, err := frames.New(n, frames.PlanVersion)
		if err != nil {
			t.Fatal(err)
		}
		var rs []count.Result
		for id := range p.Len() {
			task, _ := p.Task(id)
			r, err := p.CountTask(context.Background(), task)
			if err != nil {
				t.Fatal(err)
			}
			rs = append(rs, r)
		}
		k, _ := count.Known(n)
		c, err := count.Sum(p, rs)
		if err != nil || c.Total.Cmp(k.Total) != 0 {
			t.Fatalf("N=%d: Sum = %v, %v; want Q = %v", n, c.Total, err, k.Total)
		}
		for i := range rs {
			if rs[i].Solutions > 0 {
				rs[i].Solutions++
				break
			}
		}
		if _, err := count.Sum(p, rs); err == nil || !strings.Contains(err.Error(), "published value is "+k.Total.String()) {
			t.Errorf("N=%d: Sum with one result raised by one = %v; want a refusal naming %v", n, err, k.Total)
		}
	}
}
