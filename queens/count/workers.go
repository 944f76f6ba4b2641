package count

import "context"

// workersKey is the context key of WithWorkers.
type workersKey struct{}

// WithWorkers returns ctx saying that n tasks of a plan run at once in this process (the
// runner's goroutines, --workers), so that a method sizing what a process holds beside
// its workers' buffers (the join's quarter table) plans for n workers, not for every core.
// n ≤ 0 says nothing. It costs an allocation; runners call it once a run.
func WithWorkers(ctx context.Context, n int) context.Context {
	return context.WithValue(ctx, workersKey{}, n)
}

// Workers returns the workers ctx names (WithWorkers), or 0 where it names none: the
// method then plans for runtime.GOMAXPROCS. It costs a context look-up.
func Workers(ctx context.Context) int {
	n, _ := ctx.Value(workersKey{}).(int)
	return max(n, 0)
}
