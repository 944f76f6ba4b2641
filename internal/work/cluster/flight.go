package cluster

import (
	"context"
	"errors"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"
)

// What an operator's metrics read of a running coordinator besides its progress: the
// tasks in flight, and the size of what the server keeps.

// flight tells the Coordinator's InFlight, if any, how many tasks are leased and not yet
// handed in (Run's loop calls it every quarter second).
func (r *run) flight() {
	if r.c.InFlight != nil {
		r.c.InFlight(len(r.d.firstLease), len(r.d.verifyLease))
	}
}

// StoreBytes returns the bytes the server nc is connected to holds of the results stream
// and the jobs bucket: JetStream's stream state (one copy of a replicated stream), the
// same for the embedded server and a cluster. It makes one small request per stream; a
// stream not created yet counts nothing.
func StoreBytes(ctx context.Context, nc *nats.Conn) (uint64, error) {
	js, err := jetstream.New(nc)
	if err != nil {
		return 0, err
	}
	var n uint64
	for _, name := range []string{ResultsStream, "KV_" + JobsBucket} {
		st, err := js.Stream(ctx, name)
		if errors.Is(err, jetstream.ErrStreamNotFound) {
			continue
		}
		if err != nil {
			return 0, err
		}
		n += st.CachedInfo().State.Bytes
	}
	return n, nil
}
