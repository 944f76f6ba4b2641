// Package bound holds the saturating arithmetic that both methods of queens/count use to
// bound a task's result before they sum it.
package bound

import "math/bits"

// Factorial returns k!, or the largest uint64 if k! does not fit: a bound on the ways to
// fill k empty rows. It costs k multiplications.
func Factorial(k int) uint64 {
	f := uint64(1)
	for i := 2; i <= k; i++ {
		hi, lo := bits.Mul64(f, uint64(i))
		if hi != 0 {
			return ^uint64(0)
		}
		f = lo
	}
	return f
}
