package cluster

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"math/big"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/chesspuzzles/chesspuzzles/internal/work"
)

// The names and messages of the protocol between a coordinator and its workers: the
// subjects and keys on the server, what travels on them, and what the coordinator stores.

// Names of the objects on the server; see the package comment.
const (
	SubjectPrefix = "chesspuzzles"
	JobsBucket    = "chesspuzzles_jobs"
)

// JobID returns the id of the queens count of the n×n board with plan version v:
// "q<n>v<v>" (work.QueensJob).
func JobID(n, v int) string { return work.QueensJob(n, v) }

// ParseJobID is the inverse of [JobID].
func ParseJobID(job string) (n, v int, err error) { return work.ParseQueensJob(job) }

// The subjects of a worker of identity user: it asks for a task on wantSubject, says it
// still works on its assignments on beatSubject, and hands in a result of job on
// resultSubject. Only that worker may publish on them (WorkerPermissions).
func wantSubject(user string) string        { return SubjectPrefix + ".want." + user }
func beatSubject(user string) string        { return SubjectPrefix + ".beat." + user }
func resultSubject(user, job string) string { return SubjectPrefix + ".result." + user + "." + job }

// subjectUser returns the identity a worker's subject names (its third token).
func subjectUser(subject string) string {
	_, rest, ok := strings.Cut(subject, ".")
	if !ok {
		return ""
	}
	if _, rest, ok = strings.Cut(rest, "."); !ok {
		return ""
	}
	user, _, _ := strings.Cut(rest, ".")
	return user
}

// coordinatorQueue is the queue group of the coordinators' subscriptions to requests for
// tasks: each request goes to one coordinator.
const coordinatorQueue = "coordinators"

// resultKey is the results-bucket key of one task of a job.
func resultKey(job string, id int) string { return job + "." + strconv.Itoa(id) }

// TaskMsg describes a task: task ID of the plan whose id is Job (work.Plan.Job). Verify
// says it is a second computation of a task that has a result, by another identity, whose
// result is stored under the task's key with ".v" appended.
//
// Task is the task itself (work.Task: its weight, cost and the plan's description of it).
// A worker makes the plan again from the job id (work.OpenJob) and checks the task against
// it: a plan that takes a task from its description alone (work.TaskChecker: a queens plan,
// whose fine task list of N = 27 takes minutes and 290 MB to make) checks it so, never
// building its task list; any other is made and its task of that id compared. The worker
// names the task in its result by its digest (Result.Task), which the coordinator compares
// with its own plan's task of that id.
type TaskMsg struct {
	Job    string     `json:"job"`
	ID     int        `json:"id"`
	Verify bool       `json:"verify,omitempty"`
	Task   *work.Task `json:"task,omitempty"`
}

// MessageVersion names the shape of the messages between a coordinator and its workers:
// a worker's WantMsg and a coordinator's every Assignment carry it, and each side refuses
// the other's version if it is not its own, in one line, instead of taking tasks it cannot
// read. Version 3: a task travels as a work.Task of any kind of plan, and a result carries
// its count in decimal and the plan's named counters; version 2 carried queens tasks and
// results (count.Task, count.Result: a count below 2⁶⁴), version 1 (no field: builds
// before it) the frames' and join's own fields.
const MessageVersion = 3

// WantMsg is a worker's request for a task: its self-chosen name (for logs only: the
// identity is the subject's), its MessageVersion and the kinds of plans its build makes
// from their job ids (work.Kinds: "k", "q"), of which the coordinator gives it tasks.
type WantMsg struct {
	Name     string   `json:"name,omitempty"`
	Messages int      `json:"messages,omitempty"`
	Kinds    []string `json:"kinds"`
	// Cores is how many tasks the worker runs at once; the coordinator leases it
	// leasesPerCore times as many at most (none from a build before: DefaultMaxLeases).
	Cores int `json:"cores,omitempty"`
	// Instance names this worker process among those of its identity (random, new each
	// Worker.Run): the coordinator numbers the assignments it makes to each instance
	// (Assignment.Seq), which its heartbeats then account for (BeatMsg.Held).
	Instance string `json:"instance,omitempty"`
}

// runs reports whether a worker that asked with w makes the plan of job.
func (w WantMsg) runs(job string) bool { return slices.Contains(w.Kinds, work.JobKind(job)) }

// An Assignment is a coordinator's answer to a WantMsg: a task and the nonce that binds
// it to the identity that asked (the result must carry it), with Lease the seconds the
// worker may stay silent before the task is given to another; or, with no task, Wait, the
// seconds after which to ask again.
type Assignment struct {
	TaskMsg
	Messages int     `json:"messages,omitempty"` // the coordinator's MessageVersion
	Nonce    string  `json:"nonce,omitempty"`
	Lease    float64 `json:"lease,omitempty"`
	Wait     float64 `json:"wait,omitempty"`
	// Finished, with no task, names the job the coordinator has just finished: the
	// worker says once that it is done and waits quietly for the next.
	Finished string `json:"finished,omitempty"`
	// Seq numbers the assignments this run made to the worker instance that asked
	// (WantMsg.Instance), 1 for the first; 0 for an instance that gave no name.
	Seq int `json:"seq,omitempty"`
}

// BeatMsg is a worker's heartbeat: the nonces of the assignments it still works on, and
// those it hands back (Back) without a result, to be assigned to another at once.
//
// With Held, Nonces are every assignment the worker instance Instance holds (computing it,
// or handing its result in) of those numbered up to Seen, the highest Assignment.Seq it
// received: a lease of that instance numbered up to Seen and not listed is one whose
// answer never reached it (lost, or come after the worker gave up waiting), which the
// coordinator assigns again at once. Workers of builds before it send no Held beats.
type BeatMsg struct {
	Nonces   []string `json:"nonces,omitempty"`
	Back     []string `json:"back,omitempty"`
	Held     bool     `json:"held,omitempty"`
	Instance string   `json:"instance,omitempty"`
	Seen     int      `json:"seen,omitempty"`
}

// A Receipt is the coordinator's answer to a result: accepted (and stored), or refused
// with the reason.
type Receipt struct {
	OK      bool   `json:"ok"`
	Refused string `json:"refused,omitempty"`
}

// taskDigest returns 16 hex digits of the SHA-256 of the task's JSON encoding: what a
// result says of the task it counted.
func taskDigest(t work.Task) string {
	var buf [256]byte
	sum := sha256.Sum256(appendTaskJSON(buf[:0], t)) // json.Marshal(t), by hand
	return hex.EncodeToString(sum[:8])
}

// Result is the value stored for one task: what the plan's RunTask found (work.Result: its
// count and counters), and who found it. Task, if not empty, is the digest of the task the
// worker counted (see [TaskMsg]); a result whose digest is not that of its task in the
// coordinator's plan is rejected.
//
// On the wire and in the results stream (JSON, see wireResult) the count is a decimal
// string of at most maxCountDigits digits and the counters a list of names and values in
// the plan's order; a result whose counters are not those the plan names
// (work.Plan.Counters), in that order, is refused before the plan's Check sees it. A
// result stored by a build of MessageVersion 2 (a queens result's fields, no count) is
// read as such (old, converted by legacyResult), so that a state directory of that build
// resumes.
type Result struct {
	Job string
	work.Result
	// Worker is the identity that computed it: the coordinator sets it from the subject
	// the result came on, whatever the worker wrote. Name is the name the worker gave
	// itself, for logs only.
	Worker  string
	Name    string
	Seconds float64
	Task    string
	// Nonce is the nonce of the assignment the result answers.
	Nonce string
	// old is the result as a build of MessageVersion 2 stored it, if it is one.
	old *oldResult
}

// maxCountDigits bounds a result's count on the wire: a count of 10⁴⁰⁰⁰ is no task's.
const maxCountDigits = 4000

// wireResult is a Result's JSON.
type wireResult struct {
	Job      string        `json:"job"`
	ID       int           `json:"id"`
	Count    *string       `json:"count,omitempty"`
	Counters []wireCounter `json:"counters,omitempty"`
	Worker   string        `json:"worker,omitempty"`
	Name     string        `json:"name,omitempty"`
	Seconds  float64       `json:"seconds"`
	Task     string        `json:"task,omitempty"`
	Nonce    string        `json:"nonce,omitempty"`
}

// wireCounter is one counter of a result on the wire.
type wireCounter struct {
	Name  string `json:"name"`
	Value uint64 `json:"value"`
}

// MarshalJSON returns r's wire form (see [Result]); appendJSON writes it, without
// reflection.
func (r Result) MarshalJSON() ([]byte, error) { return r.appendJSON(nil) }

// UnmarshalJSON reads a Result's wire form, or one a build of MessageVersion 2 stored. A
// count that is not a whole number of at most maxCountDigits digits is an error. The plain
// form the wire has is read by hand (wireResult.readPlain), anything else by encoding/json.
func (r *Result) UnmarshalJSON(data []byte) error {
	var w wireResult
	if !w.readPlain(data) {
		if err := json.Unmarshal(data, &w); err != nil {
			return err
		}
	}
	*r = Result{Job: w.Job, Result: work.Result{ID: w.ID}, Worker: w.Worker, Name: w.Name, Seconds: w.Seconds, Task: w.Task, Nonce: w.Nonce}
	switch {
	case w.Count != nil:
		c, ok := new(big.Int).SetString(*w.Count, 10)
		if len(*w.Count) > maxCountDigits || !ok || c.Sign() < 0 {
			return fmt.Errorf("task %d: count %.40q is not a whole number of at most %d digits", w.ID, *w.Count, maxCountDigits)
		}
		r.Count = c
	default:
		var old oldResult
		if err := json.Unmarshal(data, &old); err == nil && old.Solutions != nil {
			r.old = &old
		}
	}
	for _, c := range w.Counters {
		r.Counters = append(r.Counters, work.Counter(c))
	}
	return nil
}

// check returns why r cannot be a result for task id of job, or nil if it can.
func (r *Result) check(job string, id int) error {
	switch {
	case r.Job != job:
		return fmt.Errorf("job %q, but it is stored under job %s", r.Job, job)
	case r.ID != id:
		return fmt.Errorf("task %d, but it is stored under task %d", r.ID, id)
	}
	return nil
}

// JobRecord describes a job for status reports. The coordinator writes it when it starts,
// every second or so while results come (Done, the costs, Updated and Samples), and when
// the job is complete; "queens status" reads nothing else.
type JobRecord struct {
	Job         string    `json:"job"`
	N           int       `json:"n"`
	PlanVersion int       `json:"plan_version"`
	Tasks       int       `json:"tasks"`
	Started     time.Time `json:"started"`
	Finished    time.Time `json:"finished,omitzero"`
	Total       string    `json:"total,omitempty"`
	Unique      string    `json:"unique,omitempty"`
	// Verify is the share of tasks computed twice, Replicas 2 when every task is to be
	// computed by two distinct identities; once Finished, Verified is the number of tasks
	// computed twice and found to agree, Identities the number of worker identities whose
	// results count, and ByIdentities the number of tasks computed by k distinct
	// identities, by k.
	Verify   float64 `json:"verify,omitempty"`
	Replicas int     `json:"replicas,omitempty"`
	// ThirdBelow, with Replicas 2, says the job runs with the default where nothing is
	// published: a task whose second computation was drawn while fewer than ThirdBelow
	// identities had been seen is computed by a third (FewThird).
	ThirdBelow   int         `json:"third_below,omitempty"`
	Verified     int         `json:"verified,omitempty"`
	Identities   int         `json:"identities,omitempty"`
	ByIdentities map[int]int `json:"by_identities,omitempty"`
	// Done is the number of tasks with an accepted result when the record was Updated;
	// CostDone and CostTotal the plan's Cost of those tasks and of all.
	Done      int       `json:"done,omitempty"`
	CostDone  uint64    `json:"cost_done,omitempty"`
	CostTotal uint64    `json:"cost_total,omitempty"`
	Updated   time.Time `json:"updated,omitzero"`
	// Samples are earlier (time, Done, CostDone) of this coordinator's run, one every
	// sampleEvery over the last sampleSpan at most, oldest first: the rate of the work.
	Samples []Sample `json:"samples,omitempty"`
}

// A Sample is a job's progress at one time.
type Sample struct {
	At       time.Time `json:"at"`
	Done     int       `json:"done"`
	CostDone uint64    `json:"cost_done"`
}

// sampleEvery and sampleSpan bound a JobRecord's Samples (at most 41 of them).
const (
	sampleEvery = 15 * time.Second
	sampleSpan  = 10 * time.Minute
)

// progress sets the record's progress to the tally's at time now, keeping a sample every
// sampleEvery over the last sampleSpan.
func (r *JobRecord) progress(t *tally, now time.Time) {
	done, left := t.CostDone()
	if len(r.Samples) == 0 || now.Sub(r.Samples[len(r.Samples)-1].At) >= sampleEvery {
		r.Samples = append(r.Samples, Sample{At: now.UTC(), Done: t.Done(), CostDone: done})
	}
	for len(r.Samples) > 1 && now.Sub(r.Samples[0].At) > sampleSpan {
		r.Samples = r.Samples[1:]
	}
	r.Done, r.CostDone, r.CostTotal, r.Updated = t.Done(), done, done+left, now.UTC()
}
