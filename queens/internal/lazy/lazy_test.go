package lazy

import (
	"errors"
	"sync"
	"testing"
)

// TestOnce checks that Do retries after a failed call and, called from eight goroutines
// at once, runs f once in all, one call at a time.
func TestOnce(t *testing.T) {
	var o Once
	fail := errors.New("ended")
	if err := o.Do(func() error { return fail }); err != fail {
		t.Fatalf("Do(failing) = %v, want %v", err, fail)
	}
	var calls, running int
	var mu sync.Mutex
	var wg sync.WaitGroup
	for range 8 {
		wg.Go(func() {
			err := o.Do(func() error {
				mu.Lock()
				calls++
				running++
				if running > 1 {
					t.Error("two calls of f at once")
				}
				mu.Unlock()
				mu.Lock()
				running--
				mu.Unlock()
				return nil
			})
			if err != nil {
				t.Error(err)
			}
		})
	}
	wg.Wait()
	if calls != 1 {
		t.Errorf("f ran %d times after the failed call, want once", calls)
	}
}
