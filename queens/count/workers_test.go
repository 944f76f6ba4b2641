package count

import (
	"context"
	"testing"
)

func TestWorkers(t *testing.T) {
	ctx := context.Background()
	if got := Workers(ctx); got != 0 {
		t.Errorf("Workers(Background) = %d, want 0", got)
	}
	for _, tc := range []struct {
		name string
		n    int
		want int
	}{
		{"one", 1, 1},
		{"several", 7, 7},
		{"none", 0, 0},
		{"negative", -2, 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := Workers(WithWorkers(ctx, tc.n)); got != tc.want {
				t.Errorf("Workers(WithWorkers(ctx, %d)) = %d, want %d", tc.n, got, tc.want)
			}
		})
	}
}
