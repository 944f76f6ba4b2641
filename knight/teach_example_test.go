package knight_test

import (
	"context"
	"fmt"

	"github.com/chesspuzzles/chesspuzzles/board"
	"github.com/chesspuzzles/chesspuzzles/knight"
)

func ExampleComplete() {
	sz := board.SquareBoard(8)
	var path []board.Square
	for _, name := range []string{"a1", "b3", "c1"} {
		sq, _ := sz.ParseSquare(name)
		path = append(path, sq)
	}
	t, err := knight.Complete(context.Background(), 8, 8, path, true)
	fmt.Println(t.Len(), t.Closed(), err)
	// Output: 64 true <nil>
}

func ExampleExplain() {
	steps, _ := knight.Explain(8, 8, board.Square{Row: 7, Col: 0}) // from a1
	sz := board.SquareBoard(8)
	st := steps[0]
	for _, c := range st.Candidates {
		fmt.Printf("%s: %d onward, look-ahead %d\n", sz.Name(c.Square), c.Onward, c.LookAhead)
	}
	fmt.Println("tie:", st.Tie, "chosen:", sz.Name(st.Candidates[st.Chosen].Square))
	// Output:
	// b3: 5 onward, look-ahead 3
	// c2: 5 onward, look-ahead 3
	// tie: true chosen: b3
}
