package queens_test

import (
	"context"
	"fmt"

	"github.com/chesspuzzles/chesspuzzles/board"
	"github.com/chesspuzzles/chesspuzzles/queens"
)

func ExampleSolutions() {
	k := 0
	for p := range queens.Solutions(8) {
		if k < 3 {
			fmt.Println(p.Format(queens.Code))
		}
		k++
	}
	fmt.Println(k, "solutions")
	// Output:
	// 15863724
	// 16837425
	// 17468253
	// 92 solutions
}

func ExampleFundamental() {
	var first []string
	k := 0
	for p := range queens.Fundamental(8) {
		if k < 2 {
			first = append(first, p.Format(queens.Code))
		}
		k++
	}
	fmt.Println(first, k, "fundamental solutions")
	// Output:
	// [15863724 16837425] 12 fundamental solutions
}

// A listing resumes after a cursor, usually the last solution shown on a page.
func ExampleList() {
	cursor, _ := queens.Parse("16837425", 0)
	after, _ := cursor.Placement()
	k := 0
	for p := range queens.List(context.Background(), 8, queens.ListOptions{After: after}) {
		fmt.Println(p)
		if k++; k == 2 {
			break
		}
	}
	// Output:
	// 17468253
	// 17582463
}

func ExampleCount() {
	c, err := queens.Count(context.Background(), 8, queens.CountOptions{})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println("total", c.Total, "unique", c.Unique)
	// Output:
	// total 92 unique 12
}

func ExampleCheck() {
	pos, _ := queens.Parse("13572468", 0)
	rep := queens.Check(pos)
	sz := board.SquareBoard(pos.N)
	fmt.Println("solved:", rep.Solved)
	for _, a := range rep.Attacks {
		fmt.Println(sz.Name(a.A), sz.Name(a.B), a.Line)
	}
	// Output:
	// solved: false
	// a8 h1 diagonal
}

func ExampleParse() {
	for _, s := range []string{"a8 e7 h6 f5 c4 g3 b2 d1", "0,4,7,5,2,6,1,3", "(1,1) (5,2) (8,3) (6,4) (3,5) (7,6) (2,7) (4,8)"} {
		pos, err := queens.Parse(s, 0)
		if err != nil {
			fmt.Println(err)
			continue
		}
		p, _ := pos.Placement()
		fmt.Println(pos.N, p.Format(queens.Code))
	}
	_, err := queens.Parse("10863724", 0)
	fmt.Println(err != nil)
	// Output:
	// 8 15863724
	// 8 15863724
	// 8 15863724
	// true
}

func ExampleCanonical() {
	pos, _ := queens.Parse("84136275", 0)
	p, _ := pos.Placement()
	fmt.Println(queens.Canonical(p), queens.IsCanonical(p), queens.ClassSize(p))
	// Output:
	// 15863724 false 8
}

func ExamplePlacement_Format() {
	p := queens.Placement{0, 4, 7, 5, 2, 6, 1, 3}
	for _, f := range []queens.Notation{queens.Code, queens.Perm, queens.Coords, queens.Algebraic, queens.JSON} {
		fmt.Println(p.Format(f))
	}
	fmt.Println(queens.Placement{1, 3, 0, 2}.Format(queens.Board))
	// Output:
	// 15863724
	// 0,4,7,5,2,6,1,3
	// (1,1) (5,2) (8,3) (6,4) (3,5) (7,6) (2,7) (4,8)
	// a8 e7 h6 f5 c4 g3 b2 d1
	// {"n":8,"code":"15863724","perm":[0,4,7,5,2,6,1,3]}
	// . Q . .
	// . . . Q
	// Q . . .
	// . . Q .
}
