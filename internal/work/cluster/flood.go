package cluster

import (
	"context"
	"maps"
	"slices"
	"time"

	"github.com/nats-io/nats-server/v2/server"
)

// A flood: an identity that sends far more than any worker does is shut out for a while.
// The coordinator's guard drops what goes past an identity's rates, but only once it
// reached the coordinator: the coordinator's one connection carries the flood with the
// honest messages, and past its queue (queueBytes) the client library drops both alike,
// so honest requests wait out their time limit (a count of 2 s took 43 s under a flood of
// large messages). So the embedded server's own counters are read every floodEvery, and
// an identity whose connections sent more than floodMsgs messages or floodBytes bytes a
// second over that time has its connections closed and new ones refused for shunFirst,
// twice as long at each flood after, at most shunMost.
//
// A worker sends at most what the guard's rates let through: some 20,000 requests and
// results a second on tasks of microseconds, of a few hundred bytes each.
const (
	floodEvery = 250 * time.Millisecond
	floodMsgs  = 25000
	floodBytes = 8 << 20
	shunFirst  = 10 * time.Second
	shunMost   = 10 * time.Minute
)

// A connCount is what a server says of one connection: the messages and bytes it sent.
type connCount struct {
	id          connID
	msgs, bytes int64
}

// serverCounts returns the counters of the connections of account on the embedded server
// s.
func serverCounts(s *server.Server, account string) func(context.Context) ([]connCount, error) {
	return func(context.Context) ([]connCount, error) {
		cz, err := s.Connz(&server.ConnzOptions{Account: account, Limit: 1 << 20})
		if err != nil {
			return nil, err
		}
		id := s.ID()
		out := make([]connCount, 0, len(cz.Conns))
		for _, c := range cz.Conns {
			out = append(out, connCount{connID{id, c.Cid}, c.InMsgs, c.InBytes})
		}
		return out, nil
	}
}

// watchFloods reads the connection counters counts gives every floodEvery until ctx
// ends, and shuts out the identities (of cc, the account's connections) that flood.
func watchFloods(ctx context.Context, counts func(context.Context) ([]connCount, error), cc *connCap) {
	last := map[connID][2]int64{} // messages and bytes in, by connection, at the last look
	next := map[string]time.Duration{}
	t := time.NewTicker(floodEvery)
	defer t.Stop()
	at := time.Now()
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
		conns, err := counts(ctx)
		if err != nil {
			continue
		}
		now := time.Now()
		secs := now.Sub(at).Seconds()
		at = now
		msgs, bytes := map[string]int64{}, map[string]int64{}
		seen := map[connID][2]int64{}
		for _, c := range conns {
			seen[c.id] = [2]int64{c.msgs, c.bytes}
			user := cc.user(c.id)
			if user == "" {
				continue
			}
			before := last[c.id]
			msgs[user] += c.msgs - before[0]
			bytes[user] += c.bytes - before[1]
		}
		last = seen
		for _, user := range slices.Sorted(maps.Keys(msgs)) {
			m, b := float64(msgs[user])/secs, float64(bytes[user])/secs
			if m <= floodMsgs && b <= floodBytes {
				continue
			}
			d := next[user]
			if d == 0 {
				d = shunFirst
			}
			next[user] = min(2*d, shunMost)
			if cc.logf != nil {
				cc.logf("worker %s sent %.0f messages and %.1f MB a second (a worker sends at most %d and %.1f MB): its connections are closed, and it cannot connect again for %v",
					clipName(user), m, b/1e6, floodMsgs, floodBytes/1e6, d)
			}
			cc.shun(user, d)
		}
	}
}

// user returns the identity of connection cid, "" if it is not counted.
func (c *connCap) user(cid connID) string {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.who[cid]
}
