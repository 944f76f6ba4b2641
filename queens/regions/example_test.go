package regions_test

import (
	"context"
	"fmt"
	"strings"

	"github.com/chesspuzzles/chesspuzzles/queens/regions"
)

func ExampleParse() {
	p, err := regions.Parse(strings.NewReader(`
ABBBC
AABCC
AADCC
AADCC
AEECC
`))
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(regions.Count(p, 2), "solution")
	sol, _ := regions.Solve(p)
	fmt.Println(sol)
	// Output:
	// 1 solution
	// [3 0 2 4 1]
}

func ExampleExplain() {
	p, _ := regions.Parse(strings.NewReader("ABBBC\nAABCC\nAADCC\nAADCC\nAEECC\n"))
	steps, err := regions.Explain(p)
	for _, st := range steps[:3] {
		fmt.Printf("[%s] %s\n", st.Technique, st.Text)
	}
	level, _ := regions.Grade(p)
	fmt.Println(len(steps), "steps,", level, err)
	// Output:
	// [confined unit] The free cells of region E all lie in row 5, so the queen of row 5 is the queen of region E: r5c1, r5c4, r5c5 ruled out.
	// [confined unit] The free cells of region D all lie in column 3, so the queen of column 3 is the queen of region D: r1c3, r2c3, r5c3 ruled out.
	// [last free cell] Row 5 has one free cell left, r5c2, so its queen goes there. It takes its row, column and region E, and the cells around it: r1c2, r2c2, r3c2, r4c1, r4c2, r4c3 ruled out.
	// 7 steps, easy <nil>
}

func ExampleParse_badGrid() {
	_, err := regions.Parse(strings.NewReader("AAB\nAAB\nAAB\n"))
	fmt.Println(err)
	// Output:
	// bad region grid: a 3×3 grid has 3 regions, A to C; missing C
}

func ExampleGenerate() {
	p, err := regions.Generate(context.Background(), 6, 1, regions.Medium)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(regions.Count(p, 2))
	level, _ := regions.Grade(p)
	fmt.Println(level)
	// Output:
	// 1
	// medium
}
