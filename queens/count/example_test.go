package count_test

import (
	"context"
	"fmt"

	"github.com/chesspuzzles/chesspuzzles/queens/count"
	"github.com/chesspuzzles/chesspuzzles/queens/count/join"
)

// A plan's tasks run anywhere, in any order, each from its description alone; a Tally
// sums their results once per task id and checks the total against the published counts.
func Example() {
	p, _ := join.New(10)
	tally := count.NewTally(p)
	for id := range p.Order() { // costliest first, as a scheduler hands them out
		task, _ := p.Task(id)
		r, _ := p.CountTask(context.Background(), task) // on any machine
		if err := p.CheckResult(task, r); err != nil {  // back on the coordinator
			fmt.Println(err)
			return
		}
		tally.Add(r)
	}
	c, err := tally.Final()
	fmt.Println(p.Method(), p.Len() > 1, c.Total, c.Unique, err)
	// Output: join true 724 92 <nil>
}
