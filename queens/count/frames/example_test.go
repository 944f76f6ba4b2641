package frames_test

import (
	"context"
	"fmt"

	"github.com/chesspuzzles/chesspuzzles/queens/count"
	"github.com/chesspuzzles/chesspuzzles/queens/count/frames"
)

// The frames plan of 8×8: a task per class of border frames, weighted by the class's
// size; each task's description names its frame: the columns of the queens on the top
// and bottom rows, the rows of those on the left and right columns (a corner queen twice).
func ExampleNew() {
	p, _ := frames.New(8, frames.PlanVersion)
	t, _ := p.Task(0)
	fmt.Println(p.Len(), "tasks; the first:", t.Desc, "weight", t.Weight)
	c, _ := count.Here(context.Background(), p)
	fmt.Println(c.Total, "solutions,", c.Unique, "fundamental")
	// Output:
	// 78 tasks; the first: 0,1,0,2 weight 8
	// 92 solutions, 12 fundamental
}
