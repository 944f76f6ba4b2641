package work

import "math"

// VerifySample returns how many of total tasks a share f verifies: ⌈f·total⌉, at least
// one when f > 0 and there is a task. The cluster's coordinator and a merge of shard files
// both recompute that many tasks, chosen at random.
func VerifySample(f float64, total int) int {
	if !(f > 0) || total == 0 {
		return 0
	}
	return min(total, max(1, int(math.Ceil(f*float64(total)))))
}
