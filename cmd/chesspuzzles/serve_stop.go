package main

import (
	"net"
	"net/http"
	"sync"
)

// activeConns follows the state of a server's connections (its http.Server.ConnState
// hook), so that an interrupted serve closes them as soon as no request is under way:
// http.Server.Shutdown notices that only at its next poll, at intervals that double up to
// half a second, which alone could hold serve past the second Ctrl-C is allowed. Each call
// of the hook takes a lock and a map operation.
type activeConns struct {
	mu     sync.Mutex
	active map[net.Conn]bool // the connections reading or answering a request
	quiet  chan struct{}     // made by none, closed once no connection is active
}

// track is the server's ConnState hook.
func (a *activeConns) track(c net.Conn, s http.ConnState) {
	a.mu.Lock()
	defer a.mu.Unlock()
	if s == http.StateActive {
		if a.active == nil {
			a.active = map[net.Conn]bool{}
		}
		a.active[c] = true
	} else {
		delete(a.active, c)
	}
	a.signal()
}

// none returns a channel that is closed once no connection is active, at once if none
// is now. Call it once, after the server stops taking requests.
func (a *activeConns) none() <-chan struct{} {
	a.mu.Lock()
	defer a.mu.Unlock()
	q := make(chan struct{})
	a.quiet = q
	a.signal()
	return q
}

// signal closes quiet if no connection is active; a.mu is held.
func (a *activeConns) signal() {
	if a.quiet != nil && len(a.active) == 0 {
		close(a.quiet)
		a.quiet = nil
	}
}
