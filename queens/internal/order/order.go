// Package order gives the order in which a scheduler hands out a plan's tasks: decreasing
// cost, ties by id, so that a run does not end with one big task alone. Both methods of
// queens/count use it. It costs a sort of the ids (n log n) and 4 bytes a task.
package order

import (
	"cmp"
	"slices"
)

// ByCost returns the ids 0…n−1 by decreasing cost(id), ties by increasing id.
func ByCost(n int, cost func(id int) uint64) []uint32 {
	ids := make([]uint32, n)
	for i := range ids {
		ids[i] = uint32(i)
	}
	slices.SortStableFunc(ids, func(a, b uint32) int { return cmp.Compare(cost(int(b)), cost(int(a))) })
	return ids
}
