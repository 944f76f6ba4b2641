// Package lazy holds Once, the build-on-first-use of a count plan's task list that a
// context may stop: unlike sync.Once, a call that fails (the context ended) leaves it
// undone, and the next call tries again.
package lazy

import (
	"sync"
	"sync/atomic"
)

// A Once runs a build until it succeeds once. The zero Once is ready to use; a Once must
// not be copied after first use.
type Once struct {
	done atomic.Bool
	mu   sync.Mutex
}

// Do calls f, one call at a time, unless a call of f has returned nil, and returns f's
// error. Once a call has succeeded Do costs an atomic load.
func (o *Once) Do(f func() error) error {
	if o.done.Load() {
		return nil
	}
	o.mu.Lock()
	defer o.mu.Unlock()
	if o.done.Load() {
		return nil
	}
	if err := f(); err != nil {
		return err
	}
	o.done.Store(true)
	return nil
}
