// Package turn tells whether a placement of queens, one a row (p[row] = col), is fixed by a
// half turn or a quarter turn of the board: the symmetry tests that the puzzle (queens) and
// the frames count (queens/count/frames) share. Each costs a pass over the rows.
package turn

// Half reports whether a half turn maps p onto itself.
func Half(p []int32) bool {
	m := len(p) - 1
	for r := 0; r <= m/2; r++ {
		if p[m-r] != int32(m)-p[r] {
			return false
		}
	}
	return true
}

// Quarter reports whether a quarter turn maps p onto itself. p must be a permutation of
// 0…len(p)−1.
func Quarter(p []int32) bool {
	m := len(p) - 1
	for r, c := range p {
		if int(p[c]) != m-r {
			return false
		}
	}
	return true
}
