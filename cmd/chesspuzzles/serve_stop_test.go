package main

import (
	"net"
	"net/http"
	"regexp"
	"testing"
	"time"
)

// TestSignalServeBusy: serve interrupted while it draws a large picture (a tour of 200×200
// found and drawn at 7.9 M pixels, seconds of work) still exits 130 within a second: the
// request's context ends with the server's (issue 25).
func TestSignalServeBusy(t *testing.T) {
	url := regexp.MustCompile(`serving on (http://\S+/)`)
	var asked time.Time
	ready := func(out string) bool {
		m := url.FindStringSubmatch(out)
		if m == nil {
			return false
		}
		if asked.IsZero() {
			asked = time.Now()
			go func() {
				res, err := http.Get(m[1] + "api/knight/picture.png?size=200&square=14")
				if err == nil {
					res.Body.Close()
				}
			}()
		}
		return time.Since(asked) > 300*time.Millisecond
	}
	code, reaction, stderr := interrupt(t, nil, ready, "serve", "--addr", "127.0.0.1:0")
	wantInterrupted(t, code, stderr, "serve")
	if reaction > time.Second {
		t.Errorf("serve busy drawing stopped %v after SIGINT, want within a second", reaction)
	}
}

// TestActiveConnsNone: an interrupted serve closes its connections once none is reading or
// answering a request, at once when none is, and not while one still is.
func TestActiveConnsNone(t *testing.T) {
	closed := func(c <-chan struct{}) bool {
		select {
		case <-c:
			return true
		default:
			return false
		}
	}
	var idle activeConns
	idle.track(nil, http.StateNew)
	if !closed(idle.none()) {
		t.Errorf("none() with no request under way is not closed")
	}
	var a activeConns
	c1, c2 := &net.TCPConn{}, &net.TCPConn{}
	a.track(c1, http.StateActive)
	a.track(c2, http.StateActive)
	q := a.none()
	a.track(c1, http.StateIdle)
	if closed(q) {
		t.Fatalf("none() closed while a second connection still answers a request")
	}
	a.track(c2, http.StateClosed)
	if !closed(q) {
		t.Errorf("none() not closed once every request was answered")
	}
	a.track(c1, http.StateActive) // a request that came in after: no second close
	a.track(c1, http.StateClosed)
}
