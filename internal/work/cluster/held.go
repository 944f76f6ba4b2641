package cluster

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"sync"
	"time"
)

// The worker's side of the Held heartbeats (see holdings.go for the coordinator's): one
// heartbeat for every lease the worker holds, every third of its lease, listing them all
// with the highest Assignment.Seq received; sent at once on reconnecting, so that a worker
// that lost the server for a moment keeps its leases.

// errNotConnected is why a worker does not ask for a task while its connection is down.
var errNotConnected = errors.New("not connected to the server")

// holdings are the leases a worker process holds. Safe for concurrent use.
type holdings struct {
	instance string        // this process's name for the coordinator (WantMsg.Instance)
	kick     chan struct{} // a heartbeat now

	mu     sync.Mutex
	nonces map[string]bool // held: being computed, or the result being handed in
	seen   int             // the highest Assignment.Seq received
	every  time.Duration   // between two heartbeats: a third of the last lease
}

// defaultBeatEvery is the time between two Held heartbeats before any lease says it.
const defaultBeatEvery = 10 * time.Second

// start gives the holdings a new instance name.
func (h *holdings) start() {
	var b [8]byte
	_, _ = rand.Read(b[:])
	h.mu.Lock()
	defer h.mu.Unlock()
	h.instance = hex.EncodeToString(b[:])
	h.kick = make(chan struct{}, 1)
	h.nonces = map[string]bool{}
	h.every = defaultBeatEvery
}

// kickNow asks for a heartbeat at once.
func (h *holdings) kickNow() {
	if h.kick == nil {
		return
	}
	select {
	case h.kick <- struct{}{}:
	default:
	}
}

// take records assignment a as held; a lease whose third is shorter or longer than the
// heartbeats' period sets it (and a heartbeat goes at once, on the new period).
func (h *holdings) take(a Assignment) {
	every := max(time.Duration(a.Lease*float64(time.Second))/3, 10*time.Millisecond)
	h.mu.Lock()
	h.nonces[a.Nonce] = true
	h.seen = max(h.seen, a.Seq)
	changed := a.Lease > 0 && every != h.every
	if changed {
		h.every = every
	}
	h.mu.Unlock()
	if changed {
		h.kickNow()
	}
}

// done records that the assignment of nonce n is no longer held: its result taken or
// refused, or handed back (the hand-back sent first).
func (h *holdings) done(n string) {
	h.mu.Lock()
	delete(h.nonces, n)
	h.mu.Unlock()
}

// beat returns the heartbeat of what is held now, and the time to the next.
func (h *holdings) beat() (BeatMsg, time.Duration) {
	h.mu.Lock()
	defer h.mu.Unlock()
	b := BeatMsg{Held: true, Instance: h.instance, Seen: h.seen}
	for n := range h.nonces {
		b.Nonces = append(b.Nonces, n)
	}
	return b, h.every
}

// beatHeld sends the Held heartbeats until ctx is done.
func (w *Worker) beatHeld(ctx context.Context) {
	_, every := w.held.beat()
	t := time.NewTimer(every)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-w.held.kick:
		case <-t.C:
		}
		b, every := w.held.beat()
		for _, part := range b.parts() {
			data, _ := json.Marshal(part)
			_ = w.Conn.Publish(beatSubject(w.Identity), data)
		}
		t.Reset(every)
	}
}

// maxHeldList is the most nonces a Held heartbeat lists (about 55 bytes each: 11 KiB, under
// MaxMessageBytes).
const maxHeldList = 200

// parts returns b as it is sent: itself, or, if it lists more than maxHeldList nonces
// (a worker of hundreds of cores), plain heartbeats of maxHeldList nonces each, which
// keep the leases without saying they are all.
func (b BeatMsg) parts() []BeatMsg {
	if len(b.Nonces) <= maxHeldList {
		return []BeatMsg{b}
	}
	var out []BeatMsg
	for i := 0; i < len(b.Nonces); i += maxHeldList {
		out = append(out, BeatMsg{Nonces: b.Nonces[i:min(i+maxHeldList, len(b.Nonces))]})
	}
	return out
}
