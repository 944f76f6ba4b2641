package knight

import "sync"

// remembered holds the results of a deterministic search per key (a block's path, a lane,
// the crossing protocols of a height), so that each is searched once per process and shared
// by every tour built after. It is safe for concurrent use; two goroutines that ask for a
// new key at the same moment may both search it, and get equal results. The zero value is
// empty and ready.
type remembered[K comparable, V any] struct {
	mu sync.Mutex
	m  map[K]V
}

// get returns the result for k, from search(k) the first time.
func (r *remembered[K, V]) get(k K, search func(K) V) V {
	r.mu.Lock()
	v, ok := r.m[k]
	r.mu.Unlock()
	if ok {
		return v
	}
	v = search(k)
	r.mu.Lock()
	if r.m == nil {
		r.m = map[K]V{}
	}
	r.m[k] = v
	r.mu.Unlock()
	return v
}
