package knight_test

import (
	"context"
	"errors"
	"fmt"
	"os"

	"github.com/chesspuzzles/chesspuzzles/board"
	"github.com/chesspuzzles/chesspuzzles/knight"
)

func ExampleFind() {
	t, err := knight.Find(context.Background(), board.Size{Rows: 5, Cols: 5}, board.Square{Row: 4, Col: 0}, knight.Options{})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(t.Valid(), t.Len(), t.Size().Name(t.Square(0)))
	knight.WriteBoard(context.Background(), os.Stdout, t)
	// Output:
	// true 25 a1
	//  3 24 19 14  5
	// 18 13  4  9 20
	// 25  2 23  6 15
	// 12 17  8 21 10
	//  1 22 11 16  7
}

func ExampleFind_noTour() {
	_, err := knight.Find(context.Background(), board.Size{Rows: 5, Cols: 5}, board.Square{Row: 0, Col: 0}, knight.Options{Closed: true})
	fmt.Println(errors.Is(err, knight.ErrNoTour), err)
	_, err = knight.Find(context.Background(), board.Size{Rows: 4, Cols: 5}, board.Square{Row: 2, Col: 1}, knight.Options{})
	fmt.Println(err)
	// Output:
	// true no closed tour on a 5×5 board: both sides are odd
	// no open tour from b2 on 4×5: on a 4×5 board tours start and end on the two outer lines
}

func ExampleAccessibility() {
	t, _ := knight.Accessibility(board.SquareBoard(4), nil)
	fmt.Println(t)
	// Output:
	// [2 3 3 2 3 4 4 3 3 4 4 3 2 3 3 2]
}
