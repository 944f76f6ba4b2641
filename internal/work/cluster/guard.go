package cluster

import (
	"fmt"
	"strings"
	"sync"
	"time"

	"github.com/nats-io/nats.go"
)

// The coordinator's guard against a worker that holds an identity the operator issued and
// turns it against the count (issue 44). Every message a worker sends passes it before the
// dispatch reads it:
//
//   - answers go only to the sender's own inboxes (InboxPrefix), the only subjects its
//     identity may receive on: a reply subject anywhere else (the results stream's, the
//     jobs bucket's, another identity's inbox or request subject) gets no answer and the
//     message is dropped, so the coordinator, which may publish anywhere, never writes
//     where a worker points it;
//   - the identity must be admitted (Coordinator.Admit: issued and not revoked);
//   - each identity has a rate, in messages a second with a message of more than 256
//     bytes counting as one each 256 bytes, for its requests, its heartbeats and its
//     results (the embedded server shuts out one that floods far past them: flood.go);
//   - it holds at most a few leases per core it says it has (Coordinator.MaxLeases), and a
//     lease lasts at most Coordinator.MaxLease however it beats;
//   - refusals are logged once per identity and kind per refuseEvery, with the count of
//     those not logged, and every string the worker chose is cut short (clipName).
//
// The messages themselves are bounded by the server (MaxMessageBytes) and wait for the
// loop in queues bounded by bytes (queueBytes).

// MaxMessageBytes is the largest message the embedded server takes from any client. The
// protocol's messages are small: a request about 150 bytes, a heartbeat 100, a result 400,
// an assignment 300, a job record a few KiB.
const MaxMessageBytes = 16 << 10

// queueBytes bounds the bytes of the messages of one of the coordinator's subscriptions
// that wait for its loop: past it, the client library drops them (a slow consumer).
const queueBytes = 8 << 20

// DefaultMaxLeases is the Coordinator's MaxLeases unless set, and leasesPerCore the
// leases an identity may hold for each core it says it has.
const (
	DefaultMaxLeases = 256
	leasesPerCore    = 2
)

// DefaultMaxLease is the Coordinator's MaxLease unless set: far longer than any task of
// the plans a cluster runs (N = 28 by the join: minutes), short enough that a worker that
// keeps a task alive without ever handing it in holds it half a day at most.
const DefaultMaxLease = 12 * time.Hour

// refuseEvery is how often one identity's refusals of one kind are logged at most.
const refuseEvery = 10 * time.Second

// The kinds of message a worker sends.
type msgKind int

const (
	kindWant msgKind = iota
	kindBeat
	kindResult
	kinds
)

var kindNames = [kinds]string{"request", "heartbeat", "result"}

// rates are each kind's rate limit per identity: messages a second, and the burst. A
// worker of many cores on tasks of microseconds (a small N) asks and answers some
// thousands of times a second; one beats once a third of the lease per task it holds.
var rates = [kinds]struct{ rate, burst float64 }{
	kindWant:   {10000, 20000},
	kindBeat:   {1000, 2000},
	kindResult: {10000, 20000},
}

// A bucket is a token bucket: tokens left when last taken from, at at.
type bucket struct {
	tokens float64
	at     time.Time
}

// take takes cost tokens if there are that many, refilling at rate up to burst.
func (b *bucket) take(cost, rate, burst float64, now time.Time) bool {
	if b.at.IsZero() {
		b.tokens = burst
	} else {
		b.tokens = min(burst, b.tokens+rate*now.Sub(b.at).Seconds())
	}
	b.at = now
	if b.tokens < cost {
		return false
	}
	b.tokens -= cost
	return true
}

// refusalKey names one identity's refusals of one kind.
type refusalKey struct {
	user, kind string
}

// A refusalLog is when a refusal of one key was last logged and how many since were not.
type refusalLog struct {
	at    time.Time
	quiet int
}

// A guard holds the per-identity state of the checks above. Its pass and refuse are safe
// for concurrent use (the subscriptions' handlers call pass, before a message waits for
// the loop, so that a flood is dropped as it comes); held is the loop's alone.
type guard struct {
	mu      sync.Mutex
	admit   func(user string) bool
	logf    func(format string, args ...any)
	now     func() time.Time
	buckets map[string]*[kinds]bucket
	held    map[string]int // the live leases of each identity
	logged  map[refusalKey]*refusalLog
}

func newGuard(admit func(string) bool, logf func(string, ...any)) *guard {
	return &guard{admit: admit, logf: logf, now: time.Now, buckets: map[string]*[kinds]bucket{},
		held: map[string]int{}, logged: map[refusalKey]*refusalLog{}}
}

// ownReply reports whether subject is one of identity user's inboxes.
func ownReply(user, subject string) bool {
	return strings.HasPrefix(subject, InboxPrefix(user)+".")
}

// pass reports whether the message m of kind k, on the subject of identity user, may be
// read: a valid and admitted identity, a reply subject in its own inboxes (requests and
// results must have one, heartbeats none), within its rate. It logs a refusal as refuse
// does.
func (g *guard) pass(user string, k msgKind, m *nats.Msg) bool {
	g.mu.Lock()
	defer g.mu.Unlock()
	if !ValidIdentity(user) {
		return false // not a worker's subject: nothing the server lets a worker send
	}
	what := kindNames[k]
	if g.admit != nil && !g.admit(user) {
		g.refuseLocked(user, what, "%s of worker %s refused: the identity is not issued, or revoked", what, user)
		return false
	}
	if k == kindBeat && m.Reply != "" {
		g.refuseLocked(user, what, "%s of worker %s refused: it asks for an answer (on %q), which a heartbeat never gets", what, user, clipName(m.Reply))
		return false
	}
	if k != kindBeat && !ownReply(user, m.Reply) {
		g.refuseLocked(user, what, "%s of worker %s refused: it asks for an answer on %q, not in its own inbox %s.*", what, user, clipName(m.Reply), InboxPrefix(user))
		return false
	}
	b := g.buckets[user]
	if b == nil {
		b = &[kinds]bucket{}
		g.buckets[user] = b
	}
	cost := max(1, float64(len(m.Data))/256)
	now := g.now()
	if !b[k].take(cost, rates[k].rate, rates[k].burst, now) {
		g.refuseLocked(user, what+" rate", "%s of worker %s refused: more than %v a second", what, user, rates[k].rate)
		return false
	}
	return true
}

// refusedCost is what a result the coordinator refused costs its identity's rate, on top
// of the message: an honest worker has a result refused rarely (a late one), while a flood
// of made-up results, each read and answered by the coordinator's loop, is held to a
// hundred a second.
const refusedCost = 100

// charge takes cost more from identity user's rate of kind k, down to minus its burst.
func (g *guard) charge(user string, k msgKind, cost float64) {
	g.mu.Lock()
	defer g.mu.Unlock()
	b := g.buckets[user]
	if b == nil {
		return
	}
	b[k].take(0, rates[k].rate, rates[k].burst, g.now()) // refill to now
	b[k].tokens = max(b[k].tokens-cost, -rates[k].burst)
}

// refuse logs a refusal of identity user of kind: at once if none of that identity and
// kind was logged within refuseEvery, else counted and said with the next that is logged.
func (g *guard) refuse(user, kind, format string, args ...any) {
	g.mu.Lock()
	defer g.mu.Unlock()
	g.refuseLocked(user, kind, format, args...)
}

func (g *guard) refuseLocked(user, kind, format string, args ...any) {
	key := refusalKey{user, kind}
	l := g.logged[key]
	now := g.now()
	if l != nil && now.Sub(l.at) < refuseEvery {
		l.quiet++
		return
	}
	line := fmt.Sprintf(format, args...)
	if l != nil && l.quiet > 0 {
		line += fmt.Sprintf(" (and %d more %s refusals of it in the last %v)", l.quiet, kind, now.Sub(l.at).Round(time.Second))
	}
	g.logged[key] = &refusalLog{at: now}
	if g.logf != nil {
		g.logf("%s", line)
	}
}

// leaseCap is how many leases an identity that says it has cores cores (0: not said) may
// hold at once: leasesPerCore a core, at most limit.
func leaseCap(cores, limit int) int {
	if cores <= 0 {
		return limit
	}
	return min(limit, leasesPerCore*cores)
}

// clipLen is the most bytes of a worker-chosen string a log line holds.
const clipLen = 64

// clipName cuts a string a worker chose to clipLen bytes, so that a log line stays short
// whatever the worker wrote.
func clipName(s string) string { return clipText(s, clipLen) }

// clipText cuts s to n bytes (at a rune boundary), with "…" for the rest.
func clipText(s string, n int) string {
	if len(s) <= n {
		return s
	}
	cut := n
	for cut > 0 && s[cut]&0xc0 == 0x80 {
		cut--
	}
	return s[:cut] + "…"
}

// refusalKind names the kind of a refusal by its reason: its first words, without the
// numbers and quoted strings in them, so that a worker cannot make each refusal a kind
// of its own.
func refusalKind(reason string) string {
	var b strings.Builder
	for _, r := range reason {
		if r == '"' || r == ':' || r == '(' || b.Len() >= 24 {
			break
		}
		if r < '0' || r > '9' {
			b.WriteRune(r)
		}
	}
	return strings.TrimSpace(b.String())
}
