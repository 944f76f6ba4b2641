package board_test

import (
	"fmt"

	"github.com/chesspuzzles/chesspuzzles/board"
)

func ExampleParseSize() {
	for _, s := range []string{"8", "6x9", "0"} {
		z, err := board.ParseSize(s, 0)
		fmt.Println(z, err)
	}
	// Output:
	// 8×8 <nil>
	// 6×9 <nil>
	// 0×0 bad board size: want N or RxC with sides from 1 to 134217728, got "0"
}

func ExampleSize_ParseSquare() {
	z := board.SquareBoard(8)
	for _, s := range []string{"e4", "5,4", "a8", "i9"} {
		sq, err := z.ParseSquare(s)
		fmt.Println(sq, err)
	}
	// Output:
	// {4 4} <nil>
	// {4 4} <nil>
	// {0 0} <nil>
	// {0 0} bad square "i9": off the 8×8 board (files a-h, ranks 1-8)
}

func ExampleSize_Name() {
	fmt.Println(board.SquareBoard(8).Name(board.Square{Row: 7, Col: 0}))
	fmt.Println(board.Size{Rows: 6, Cols: 9}.Name(board.Square{Row: 4, Col: 2}))
	fmt.Println(board.SquareBoard(30).Name(board.Square{Row: 0, Col: 29}))
	// Output:
	// a1
	// c2
	// 30,30
}

func ExampleSymmetry_Apply() {
	b8 := board.Square{Row: 0, Col: 1}
	for _, s := range board.Symmetries {
		fmt.Printf("%s: %s\n", s, board.SquareBoard(8).Name(s.Apply(8, b8)))
	}
	// Output:
	// identity: b8
	// rotate 90°: h7
	// rotate 180°: g1
	// rotate 270°: a2
	// mirror left-right: g8
	// mirror top-bottom: b1
	// transpose: a7
	// anti-transpose: h2
}
