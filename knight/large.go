package knight

// blockMinSide is the shortest side for which boards are built from blocks.
const blockMinSide = 10

func buildBlocks(rows, cols int, s int32, closed bool) []int32 { return nil }
