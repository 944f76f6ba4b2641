package queens

import (
	"context"
	"strings"
	"testing"
)

// TestFinalRefusesPublishedMismatch: a whole plan's results sum to the published Q(N) and
// U(N); one result raised by one solution — a forgery that a result's own checks can let
// through — makes Final and Plan.Sum refuse the total, naming the published value.
func TestFinalRefusesPublishedMismatch(t *testing.T) {
	for _, n := range []int{8, 10} {
		p, err := NewPlan(n)
		if err != nil {
			t.Fatal(err)
		}
		var rs []TaskResult
		for task := range p.All() {
			r, err := task.CountContext(context.Background())
			if err != nil {
				t.Fatal(err)
			}
			rs = append(rs, r)
		}
		k, _ := Known(n)
		c, err := p.Sum(rs)
		if err != nil || c.Total.Cmp(k.Total) != 0 {
			t.Fatalf("N=%d: Sum = %v, %v; want Q = %v", n, c.Total, err, k.Total)
		}
		for i := range rs {
			if rs[i].Solutions > 0 {
				rs[i].Solutions++
				break
			}
		}
		if _, err := p.Sum(rs); err == nil || !strings.Contains(err.Error(), "published value is "+k.Total.String()) {
			t.Errorf("N=%d: Sum with one result raised by one = %v; want a refusal naming %v", n, err, k.Total)
		}
	}
}
