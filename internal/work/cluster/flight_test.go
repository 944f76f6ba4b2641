package cluster

import (
	"context"
	"sync"
	"testing"
	"time"

	"github.com/chesspuzzles/chesspuzzles/internal/work"
)

// TestCountWatch: a count tells its InFlight hook the tasks leased and not yet handed in
// (never more than its local worker of 2 cores may hold; TestInFlight counts them), and
// gives its Store hook a function that says how many bytes the server holds of the
// results: more once results are stored than at the start.
func TestCountWatch(t *testing.T) {
	parallel(t)
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	plan := mustPlan(t, 10)
	var mu sync.Mutex
	maxFirst, calls := 0, 0
	var bytes func(context.Context) (uint64, error)
	var atStart, atHalf uint64
	opts := CountOptions{Listen: "127.0.0.1:0", StoreDir: t.TempDir(), Workers: 2,
		InFlight: func(first, second int) {
			mu.Lock()
			defer mu.Unlock()
			calls++
			maxFirst = max(maxFirst, first)
		},
		Store: func(b func(context.Context) (uint64, error)) {
			bytes = b
			n, err := b(ctx)
			if err != nil {
				t.Errorf("store bytes at the start: %v", err)
			}
			atStart = n
		},
		Progress: func(s work.Status) {
			if atHalf == 0 && s.Done >= s.Tasks/2 && bytes != nil {
				time.Sleep(300 * time.Millisecond) // a tick of the loop or two, and the stores acknowledged
				n, err := bytes(ctx)
				if err != nil {
					t.Errorf("store bytes half-way: %v", err)
				}
				atHalf = n
			}
		},
	}
	if _, _, err := Count(ctx, plan, opts); err != nil {
		t.Fatal(err)
	}
	if atHalf <= atStart {
		t.Errorf("store bytes %d at the start, %d half-way: want more once results are stored", atStart, atHalf)
	}
	mu.Lock()
	defer mu.Unlock()
	if calls == 0 || maxFirst > 2*leasesPerCore {
		t.Errorf("InFlight told %d times, at most %d first computations in flight; want told, at most %d (2 cores)", calls, maxFirst, 2*leasesPerCore)
	}
}

// TestInFlight: a worker holds two leases without handing them in; the coordinator's
// InFlight hook says two first computations are in flight, none second.
func TestInFlight(t *testing.T) {
	parallel(t)
	s, a := authServer(t, t.TempDir())
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	h := issuedHostile(t, s.URL(), a, "h1")
	type flight struct{ first, second int }
	told := make(chan flight, 1000)
	c := &Coordinator{Conn: coordConn(t, ctx, s.URL(), a), AckWait: time.Minute,
		InFlight: func(first, second int) {
			select {
			case told <- flight{first, second}:
			default:
			}
		}}
	done := make(chan error, 1)
	go func() {
		_, _, err := c.Run(ctx, mustPlan(t, 8))
		done <- err
	}()
	h.ask(ctx)
	h.ask(ctx)
	for seen := false; !seen; {
		select {
		case f := <-told:
			if f.first > 2 || f.second != 0 {
				t.Fatalf("in flight: %+v, want at most the 2 first computations leased, no second", f)
			}
			seen = f.first == 2
		case <-ctx.Done():
			t.Fatal("InFlight never said the 2 leases held")
		}
	}
	cancel()
	<-done
}
