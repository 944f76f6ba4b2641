package cluster

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/chesspuzzles/chesspuzzles/queens/count"
)

// The names and messages of the protocol between a coordinator and its workers: the
// subjects and keys on the server, what travels on them, and what the coordinator stores.

// Names of the objects on the server; see the package comment.
const (
	SubjectPrefix = "chesspuzzles"
	JobsBucket    = "chesspuzzles_jobs"
)

// JobID returns the id of the count of the n×n board with plan version v: "q<n>v<v>".
func JobID(n, v int) string { return fmt.Sprintf("q%dv%d", n, v) }

// ParseJobID is the inverse of [JobID].
func ParseJobID(job string) (n, v int, err error) {
	rest, ok := strings.CutPrefix(job, "q")
	ns, vs, ok2 := strings.Cut(rest, "v")
	if ok && ok2 {
		n, err1 := strconv.Atoi(ns)
		v, err2 := strconv.Atoi(vs)
		if err1 == nil && err2 == nil && n > 0 && v > 0 {
			return n, v, nil
		}
	}
	return 0, 0, fmt.Errorf("job id must look like q<N>v<plan version>, got %q", job)
}

// The subjects of a worker of identity user: it asks for a task on wantSubject, says it
// still works on its assignments on beatSubject, and hands in a result of job on
// resultSubject. Only that worker may publish on them (WorkerPermissions).
func wantSubject(user string) string        { return SubjectPrefix + ".want." + user }
func beatSubject(user string) string        { return SubjectPrefix + ".beat." + user }
func resultSubject(user, job string) string { return SubjectPrefix + ".result." + user + "." + job }

// subjectUser returns the identity a worker's subject names (its third token).
func subjectUser(subject string) string {
	parts := strings.Split(subject, ".")
	if len(parts) < 3 {
		return ""
	}
	return parts[2]
}

// coordinatorQueue is the queue group of the coordinators' subscriptions to requests for
// tasks: each request goes to one coordinator.
const coordinatorQueue = "coordinators"

// resultKey is the results-bucket key of one task of a job.
func resultKey(job string, id int) string { return job + "." + strconv.Itoa(id) }

// TaskMsg describes a task. Verify says it is a second computation of a task that has a
// result, by another identity, whose result is stored under the task's key with ".v"
// appended.
//
// Task, when set, is the task itself, so that a worker need not build the plan to know it
// (the fine plan of N = 27 takes minutes and 290 MB, of 28 gigabytes): a worker checks
// that it is a task of the plan (count.Plan.CheckTask), runs it, and names it in its
// result by its digest (Result.Task), which the coordinator compares with its own plan's
// task of that id.
type TaskMsg struct {
	Job         string      `json:"job"`
	N           int         `json:"n"`
	PlanVersion int         `json:"plan_version"`
	ID          int         `json:"id"`
	Verify      bool        `json:"verify,omitempty"`
	Task        *count.Task `json:"task,omitempty"`
}

// MessageVersion names the shape of the messages between a coordinator and its workers:
// a worker's WantMsg and a coordinator's every Assignment carry it, and each side refuses
// the other's version if it is not its own, in one line, instead of taking tasks it cannot
// read. Version 2: a task travels as a count.Task with its method's description (Desc);
// version 1 (no field: builds before it) carried the frames' and join's own fields.
const MessageVersion = 2

// WantMsg is a worker's request for a task: its self-chosen name (for logs only: the
// identity is the subject's), its MessageVersion and the plan versions its build can run.
type WantMsg struct {
	Name         string `json:"name,omitempty"`
	Messages     int    `json:"messages,omitempty"`
	PlanVersions []int  `json:"plan_versions"`
	// Knight are the knight plan kinds with their versions the worker runs
	// ("open-ends v1": see KnightKinds); none from a build before knight jobs.
	Knight []string `json:"knight,omitempty"`
	// Cores is how many tasks the worker runs at once; the coordinator leases it
	// leasesPerCore times as many at most (none from a build before: DefaultMaxLeases).
	Cores int `json:"cores,omitempty"`
	// Instance names this worker process among those of its identity (random, new each
	// Worker.Run): the coordinator numbers the assignments it makes to each instance
	// (Assignment.Seq), which its heartbeats then account for (BeatMsg.Held).
	Instance string `json:"instance,omitempty"`
}

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
func taskDigest(t count.Task) string {
	data, _ := json.Marshal(t)
	sum := sha256.Sum256(data)
	return hex.EncodeToString(sum[:8])
}

// Result is the value stored for one task: what count.Plan.CountTask found, and who found it.
// Task, if not empty, is the digest of the task the worker counted (see [TaskMsg]); a
// result whose digest is not that of its task in the coordinator's plan is rejected.
type Result struct {
	Job         string `json:"job"`
	N           int    `json:"n"`
	PlanVersion int    `json:"plan_version"`
	count.Result
	// Worker is the identity that computed it: the coordinator sets it from the subject
	// the result came on, whatever the worker wrote. Name is the name the worker gave
	// itself, for logs only.
	Worker  string  `json:"worker,omitempty"`
	Name    string  `json:"name,omitempty"`
	Seconds float64 `json:"seconds"`
	Task    string  `json:"task,omitempty"`
	// Nonce is the nonce of the assignment the result answers.
	Nonce string `json:"nonce,omitempty"`
}

// check returns why r cannot be a result for task id of job, the count of n (0 for a
// knight job) with plan version v, or nil if it can.
func (r *Result) check(job string, n, v, id int) error {
	switch {
	case r.PlanVersion != v:
		return fmt.Errorf("plan version %d, but job %s has plan version %d", r.PlanVersion, job, v)
	case r.N != n:
		return fmt.Errorf("board N=%d, but job %s has N=%d (0: a knight job)", r.N, job, n)
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
	Verify       float64     `json:"verify,omitempty"`
	Replicas     int         `json:"replicas,omitempty"`
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
func (r *JobRecord) progress(t *count.Tally, now time.Time) {
	done, left := t.CostDone()
	if len(r.Samples) == 0 || now.Sub(r.Samples[len(r.Samples)-1].At) >= sampleEvery {
		r.Samples = append(r.Samples, Sample{At: now.UTC(), Done: t.Done(), CostDone: done})
	}
	for len(r.Samples) > 1 && now.Sub(r.Samples[0].At) > sampleSpan {
		r.Samples = r.Samples[1:]
	}
	r.Done, r.CostDone, r.CostTotal, r.Updated = t.Done(), done, done+left, now.UTC()
}
