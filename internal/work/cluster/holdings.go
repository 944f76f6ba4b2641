package cluster

import (
	"time"
)

// Leases a worker never got. A worker asks for a task with a request it gives up after a
// few seconds (askWait): an answer that comes later (the coordinator busy, or the request
// kept in the client's buffer while the connection was down and sent on reconnecting) is
// dropped by the worker's client, and its lease would stay with the coordinator, unheld,
// until the ack deadline, when the log would blame the worker's silence. So a worker
// names the process it runs in (WantMsg.Instance) and sends, every third of its lease
// and at once on reconnecting, a heartbeat that lists every lease it holds (BeatMsg.Held)
// up to the last assignment it received (BeatMsg.Seen, an Assignment.Seq: the run's
// serial of leases, which reach a worker in the order they were made). A lease of that
// instance made before, and not listed, never reached it: dropUnheld assigns it again at
// once and says so, blaming nobody.

// heldGrace is how old a lease must be before a heartbeat that does not list it hands it
// back: the moment between a worker's client taking an answer and the worker counting it
// as held (two cores' answers may be counted out of order). A variable for tests.
var heldGrace = 2 * time.Second

// maxInstance bounds the instance name a worker gives (a random token of a few bytes).
const maxInstance = 64

// instance records that lease l went to the worker instance inst (WantMsg.Instance), and
// that its identity, a worker of this build, worked in this run (linger).
func (d *dispatch) instance(l *lease, inst string) {
	if inst == "" || len(inst) > maxInstance {
		return
	}
	l.inst = inst
	if d.worked == nil {
		d.worked = map[string]bool{}
	}
	d.worked[l.user] = true
}

// hold indexes lease l under its identity, for dropUnheld.
func (d *dispatch) hold(l *lease) {
	if d.byUser == nil {
		d.byUser = map[string]map[string]*lease{}
	}
	m := d.byUser[l.user]
	if m == nil {
		m = map[string]*lease{}
		d.byUser[l.user] = m
	}
	m[l.nonce] = l
}

// unhold removes lease l from the index.
func (d *dispatch) unhold(l *lease) {
	if m := d.byUser[l.user]; m != nil {
		delete(m, l.nonce)
		if len(m) == 0 {
			delete(d.byUser, l.user)
		}
	}
}

// dropUnheld takes a Held heartbeat b of identity user: the leases of b's instance made
// up to b.Seen (and more than heldGrace ago) that b does not list are assigned again, in
// one line. It costs a moment per lease the identity holds.
func (d *dispatch) dropUnheld(user string, b BeatMsg) {
	if !b.Held || b.Instance == "" || len(b.Instance) > maxInstance {
		return
	}
	listed := make(map[string]bool, len(b.Nonces))
	for _, n := range b.Nonces {
		listed[n] = true
	}
	var lost []*lease
	now := time.Now()
	for n, l := range d.byUser[user] {
		if l.inst == b.Instance && l.seq <= b.Seen && !listed[n] && now.Sub(l.start) > heldGrace {
			lost = append(lost, l)
		}
	}
	if len(lost) == 0 {
		return
	}
	for _, l := range lost {
		d.release(l)
	}
	what := "task"
	if len(lost) > 1 {
		what = "tasks"
	}
	d.c.logf("job %s: worker %s does not hold %d %s leased to it (the answer never reached it); assigning them again", d.job, user, len(lost), what)
}
