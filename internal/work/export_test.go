package work

import "time"

// SetResultDelay sets resultDelay for an external test and returns the old value.
func SetResultDelay(d time.Duration) time.Duration {
	old := resultDelay
	resultDelay = d
	return old
}
