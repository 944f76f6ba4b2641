package join_test

import (
	"context"
	"fmt"

	"github.com/chesspuzzles/chesspuzzles/queens/count"
	"github.com/chesspuzzles/chesspuzzles/queens/count/join"
)

// The join's plan of 12×12: runs of row sets, then the symmetric-solution task last.
// A worker checks a task it received against the plan's rules without building the plan.
func ExampleNew() {
	p, _ := join.New(12)
	last, _ := p.Task(p.Len() - 1)
	fmt.Println("last task:", last.Desc)
	worker, _ := join.New(12) // another process: never builds the plan
	first, _ := p.Task(0)
	_, err := worker.CheckTask(first)
	fmt.Println("first task checked:", err == nil)
	c, _ := count.Here(context.Background(), p)
	fmt.Println(c.Total, "solutions,", c.Unique, "fundamental")
	// Output:
	// last task: -1:0:0
	// first task checked: true
	// 14200 solutions, 1787 fundamental
}
