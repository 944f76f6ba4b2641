package cluster

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"os"
	"slices"
	"strings"
	"time"

	"github.com/chesspuzzles/chesspuzzles/internal/work"
	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"
)

// A Coordinator runs one count plan through a NATS server: it leases each task to a
// worker identity that asks for one, with a nonce that binds the lease to that identity,
// accepts a result only for a live lease of this run held by the identity it comes from,
// picks the identity of each second computation itself, stores what it accepts (sealed, see [Sealer]) in the results stream, and sums
// the results once per task id.
type Coordinator struct {
	Conn *nats.Conn
	// AckWait is how long the coordinator waits for a word from the worker of an
	// assignment (a heartbeat or the result) before it assigns the task again
	// (DefaultAckWait if zero).
	AckWait time.Duration
	// Logf, if not nil, gets one line per event worth knowing: a resumed job, a refused
	// result.
	Logf func(format string, args ...any)
	// Progress, if not nil, is called after each new result with the tally so far.
	Progress func(t *tally)
	// CaughtUp, if not nil, is called once, when the run has read the results stored
	// before it started (from its snapshot and the stream), with the tally then.
	CaughtUp func(t *tally)
	// InFlight, if not nil, is told every quarter second how many tasks are leased and
	// not yet handed in: first computations and second ones. It must return quickly.
	InFlight func(first, second int)
	// Verify is the share of tasks, chosen at random, that are computed a second time, by
	// an identity other than the first's, as soon as the first result is in; the count is
	// refused with a [DisagreeError] if the two differ. Zero verifies none; the command
	// line's default is [DefaultVerify]. When every result came from one identity, or no
	// other identity has done them within VerifyWait (a minute if zero) of the last
	// first result, the coordinator computes them itself and says so.
	Verify     float64
	VerifyWait time.Duration
	// MinIdentities is the fewest distinct identities seen in the run (the first's
	// included) among which the verifier of a task is drawn (DefaultMinIdentities if
	// zero): with fewer, the task waits, and once every task has a first result the
	// coordinator verifies it itself. The verifier is drawn among every identity seen in
	// the run, not only the live ones: c colluding identities confirm one lie with
	// probability at most (c−1)/(K−1), K ≥ MinIdentities the identities seen at the draw.
	MinIdentities int
	// Replicas, if 2, has every task computed by two distinct identities (Verify 1, said
	// as such): the mode for a fleet of workers none of which is trusted. 3 has a third
	// identity drawn as well, a task counted only when all three agree (replicas.go): no
	// coalition of two confirms a lie, for 1.5 times the CPU of 2. Zero means, at an N
	// with no published count (nothing else would hold a lie back), 2 and a third for
	// each task whose second is drawn while fewer than [FewIdentities] identities have
	// been seen in the run ([FewThird]: up to 3 times the CPU of one computation, 2 once
	// the fleet is larger); else 1 with Verify.
	Replicas int
	// Adaptive, if not nil, is adaptive replication (opt-in; see [Adaptive]): every task
	// is a candidate for a second computation as with Replicas 2, but once an identity
	// has a record of confirmed results only a random share of its first results, drawn
	// by the coordinator, is computed again. It overrides Verify and Replicas.
	Adaptive *Adaptive
	// StreamReplicas is the number of copies the servers keep of the results stream and
	// the jobs bucket (JetStream replicas, 1 to MaxStreamReplicas): 3 on a cluster of three
	// servers survives the loss of one. Zero keeps the copies they have (1 when new).
	StreamReplicas int
	// Window is the most tasks assigned at once whose results have not come
	// (DefaultWindow if zero).
	Window int
	// StateDir, if not empty, is the directory where the coordinator keeps a snapshot of
	// the job (<job>.snapshot: the tally, the verifier's state and the results stream's
	// revision they were read up to), written every SnapshotEvery (30 seconds if zero)
	// while results come and when the run ends or is interrupted, and its secret
	// (AdminFile) unless Sealer is set. A run that finds a snapshot of its plan and server
	// reads only the results stored after it; one that does not match, or is damaged, is
	// ignored with a logged line, and every result read.
	StateDir      string
	SnapshotEvery time.Duration
	// Admit, if not nil, says whether identity user may take part: issued and not revoked.
	// A message of an identity it does not admit is dropped (and logged, once an
	// interval), so that no name but an issued one is ever live, holds a lease or verifies.
	Admit func(user string) bool
	// MaxLeases bounds the leases one identity holds at once (DefaultMaxLeases if zero):
	// two for each core its worker says it has, at most this many. MaxLease bounds how long
	// a lease lasts however often its worker beats (DefaultMaxLease if zero): past it the
	// task goes to another.
	MaxLeases int
	MaxLease  time.Duration
	// Sealer seals what the coordinator stores and the nonces of its assignments. Nil:
	// the one of the secret in StateDir, or without StateDir a new one, with which a
	// coordinator started again trusts nothing stored before.
	Sealer *Sealer
}

// DefaultWindow is the Coordinator's Window unless set: enough to keep some thousands of
// cores busy.
const DefaultWindow = 16384

// DefaultAckWait is how long a coordinator waits for a word from the worker of an
// assignment (its heartbeat or its result) before it assigns the task again.
const DefaultAckWait = 30 * time.Second

// Stats says what a run found and did.
type Stats struct {
	Job string
	// Resumed is the number of tasks that had a result when the run started.
	Resumed int
	// Queued is the number of assignments the run made (first and second computations).
	Queued int
	// Rejected is the number of stored results rejected (not sealed by this coordinator,
	// not of the job, impossible for their task); Refused the results handed in and
	// refused (no outstanding assignment of the task to that identity, or impossible);
	// Requeued the tasks assigned again for these reasons or because their worker fell
	// silent.
	Rejected int
	Refused  int
	Requeued int
	// Declined is the number of leases of second computations that ended without a
	// result taken (lapsed, handed back, refused), each given back to the task's drawn
	// verifier or, at its verifyDeclines-th, verified by the coordinator.
	Declined int
	// Verified is the number of tasks computed twice, by two distinct identities, and
	// found to agree; VerifiedHere those of them the coordinator computed itself.
	Verified     int
	VerifiedHere int
	// ComputedHere is the number of task computations the coordinator ran itself in
	// this run, for any reason (a verification, a disagreement, orphaned tasks).
	ComputedHere int
	// Identities is the number of distinct worker identities whose results the count
	// holds; ByIdentities[k] the number of tasks computed by k distinct identities (the
	// coordinator counting as one).
	Identities   int
	ByIdentities map[int]int
	// Snapshot is the number of tasks whose results the run took from its snapshot, Read
	// the number of entries it read from the results stream, Snapshots the snapshots it
	// wrote.
	Snapshot  int
	Read      int
	Snapshots int
}

// Here is the name of the coordinator in results it computed itself.
const Here = "the coordinator"

func (c *Coordinator) logf(format string, args ...any) {
	if c.Logf != nil {
		c.Logf(format, args...)
	}
}

// A lease is one outstanding assignment.
type lease struct {
	id     int
	user   string
	verify bool
	nonce  string
	start  time.Time // when it was leased
	until  time.Time
	seq    int    // the run's serial of leases (Assignment.Seq)
	inst   string // the worker instance it went to (WantMsg.Instance), if named
}

// identitiesLine says how many tasks were computed by how many distinct identities.
func identitiesLine(st Stats) string {
	var parts []string
	for _, k := range slices.Sorted(maps.Keys(st.ByIdentities)) {
		word := "identities"
		if k == 1 {
			word = "identity"
		}
		parts = append(parts, fmt.Sprintf("%d tasks by %d distinct %s", st.ByIdentities[k], k, word))
	}
	return fmt.Sprintf("%s; %d worker identities in all", strings.Join(parts, ", "), st.Identities)
}

// dropSnapshot removes the job's snapshot, which may hold a result now refused and would
// count it again on the next start.
func (c *Coordinator) dropSnapshot(snap *snapshotter, job string) {
	if snap == nil {
		return
	}
	if err := os.Remove(snapshotPath(c.StateDir, job)); err != nil && !errors.Is(err, os.ErrNotExist) {
		c.logf("removing the snapshot of job %s, which may hold a result now refused: %v; remove it before counting again", job, err)
	}
}

// recordEvery is how often a running coordinator writes the job's progress into its
// JobRecord, for "queens status".
const recordEvery = time.Second

// A snapshotter is what a coordinator with a StateDir knows to write and check snapshots.
type snapshotter struct {
	digest  uint64        // planDigest of the plan
	stream  int64         // creation time of the results stream
	lastSeq uint64        // the stream's last sequence when the run started
	every   time.Duration // between two snapshots, at least
	rev     uint64        // revision of the last snapshot written or loaded
	at      time.Time     // when the last snapshot was written
	took    time.Duration // how long writing it took
}

// snapshotShare bounds the share of a run's time that writing snapshots takes: the next
// waits at least this many times as long as the last took to write (at N = 28, a snapshot
// of 205 MB written in a second or two waits a minute or more; the run stops answering
// workers while it writes).
const snapshotShare = 50

// due reports whether a snapshot is due now, if not forced.
func (s *snapshotter) due() bool {
	return time.Since(s.at) >= max(s.every, snapshotShare*s.took)
}

// snapshotter returns the snapshotter of a run, or nil if the coordinator has no StateDir
// or cannot read the results stream (said in the log).
func (c *Coordinator) snapshotter(ctx context.Context, js jetstream.JetStream, plan work.Plan) *snapshotter {
	if c.StateDir == "" {
		return nil
	}
	st, err := js.Stream(ctx, ResultsStream)
	if err != nil {
		c.logf("reading the results stream: %v; no snapshot", err)
		return nil
	}
	info := st.CachedInfo()
	every := c.SnapshotEvery
	if every <= 0 {
		every = 30 * time.Second
	}
	return &snapshotter{digest: planDigest(plan), stream: info.Created.UnixNano(), lastSeq: info.State.LastSeq, every: every, at: time.Now()}
}

// forget deletes both results of a task whose two computations disagree, so that the next
// run computes it again instead of trusting either.
func (c *Coordinator) forget(ctx context.Context, results *resultStore, job string, id int) {
	hist, err := results.history(ctx, resultKey(job, id), verifyKey(job, id))
	if err != nil {
		c.logf("deleting the results of task %d of job %s: %v", id, job, err)
	}
	for _, e := range hist {
		if err := results.remove(ctx, e.seq); err != nil {
			c.logf("deleting %s: %v", e.key, err)
		}
	}
	c.logf("deleted both results of task %d of job %s: a new run computes it again", id, job)
}

// taskMsg returns the message of task id of plan, with the task's description.
func taskMsg(plan work.Plan, id int) TaskMsg {
	m := TaskMsg{Job: plan.Job(), ID: id}
	if t, err := plan.Task(id); err == nil {
		m.Task = &t
	}
	return m
}

// sleep waits d or until ctx is done.
func sleep(ctx context.Context, d time.Duration) error {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-t.C:
		return nil
	}
}
