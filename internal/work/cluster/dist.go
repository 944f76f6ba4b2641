// Package cluster runs a queens count plan, or a knight's-tour plan (internal/work/tours,
// through [KnightPlan]: see knight.go), on many machines through NATS.
//
// A coordinator ([Coordinator.Run]) hands the tasks of the plan (see queens.NewPlan) out,
// costliest first, to workers ([Worker.Run]) on any number of machines that ask for them;
// each worker computes its tasks on all its cores and hands each result in; the
// coordinator checks it, stores it in a stream under its job and task id, and
// sums the results once per task id with a count.Tally, so that a task computed twice
// never changes the total.
//
// Usage, in one process (the command line runs each part in its own):
//
//	auth, _ := cluster.LoadOrCreateAuthority("state")
//	srv, _ := cluster.StartServer(cluster.ServerOptions{Listen: "127.0.0.1:4222", StoreDir: "state", Authority: auth})
//	defer srv.Shutdown()
//	creds, _ := auth.CoordinatorCreds()
//	nc, _ := cluster.Connect(ctx, cluster.ConnectOptions{URL: srv.URL(), UserCreds: creds})
//	w1, _ := auth.Issue("w1") // "chesspuzzles worker add w1": the file w1.creds
//	wc, id, _ := cluster.ConnectWorker(ctx, cluster.ConnectOptions{URL: srv.URL(), UserCreds: w1})
//	go (&cluster.Worker{Conn: wc, Identity: id, Name: "local"}).Run(ctx) // and on other machines
//	plan, _ := queens.NewPlan(20, count.MethodFrames, 0)
//	counts, stats, err := (&cluster.Coordinator{Conn: nc, StateDir: "state"}).Run(ctx, plan)
//
// Names. A job is one count: its id, [JobID], carries N and the plan version ("q20v1"), or
// for a knight plan the board, the plan kind and version ([KnightJobID]:
// "k8x8-open-ends-v1"), so that results from a build that cuts the plan differently can
// never be mistaken for this build's. On the server:
//
//   - subjects chesspuzzles.want.<identity> (a worker asks for a task; the coordinators
//     answer as one queue group), chesspuzzles.beat.<identity> (its heartbeat, and tasks it
//     hands back), chesspuzzles.result.<identity>.<job> (its results, answered with a
//     [Receipt]);
//   - stream CHESSPUZZLES_RESULTS ([ResultsStream]), a message a result on subject
//     chesspuzzles.results.<job>.<task id / 4096>, its key <job>.<task id> (".v" appended
//     for a second computation) in header Chesspuzzles-Key, value a JSON [Result] sealed by
//     the coordinator under that key (not a key-value bucket: see results.go);
//   - key-value bucket chesspuzzles_jobs, key <job>, value a JSON [JobRecord], sealed, for
//     status.
//
// Identities and trust. Every worker has an identity the operator issued (see
// identity.go and [Authority]: a NATS user of the coordinator's account, its JWT signed by
// the account key in the coordinator's state directory), which the server enforces
// ([WorkerPermissions]): it may publish only on its own subjects and receive only on its
// own inbox, and has no right to JetStream at all; only the coordinator reads and writes
// the buckets. A shared token lets nobody in. The identity of a message is the subject's
// name token, which only that user may publish on. Each assignment is a lease with a
// nonce: a result is accepted only from the identity that holds the task's live lease in
// this run, and refused with a logged reason otherwise (a replay, a late result, a result
// of an earlier run or of a task never leased to it). With Coordinator.Verify, a share of
// the tasks chosen at random is computed a second time, by an identity the coordinator
// picks at random among the live ones other than the first's (or by the coordinator itself
// when there is none); with Coordinator.Replicas 2, the default where no count is
// published, every task is. A difference is settled by the coordinator computing the task
// itself: an identity shown wrong is quarantined and every result of it computed again by
// others, so that no identity can stop a count or have another's result deleted. A total
// refused against a published count has every task computed once computed again; one
// still refused names the identities ([RefusedError]). docs/distributed.md says what this
// protects and what it does not.
//
// Guarantees. A worker sends a heartbeat for each assignment every third of the ack
// deadline while it computes, so a live worker keeps its task however long it takes; the
// task of a worker silent for the deadline is assigned again. A result whose N, plan
// version, job or task does not match its assignment, or whose counters are impossible
// for its task (count.Plan.CheckResult), is refused and its task assigned again. Started
// again against the same server (the same --state directory for the embedded one) a
// coordinator takes what it had counted from its snapshot (Coordinator.StateDir: the
// tally, the verifier's state and the results stream's revision they were read up to,
// checked against the plan and the bucket), reads only the results stored after that
// revision (all of them when it has no snapshot it can trust), trusting only values its
// secret sealed, and assigns only the tasks that have no result; a result of its earlier
// run's assignments is refused, its task assigned again. Clients reconnect for ever after
// losing their connection.
//
// Size. A plan of millions of tasks (the join's plan of N = 28 has 1.7·10⁷) is held
// compactly by the coordinator (the join's plan about 24 bytes a task), the tally holds a
// bit a task and the verifier a keyed 8-byte fingerprint of each first result and a 4-byte
// identity, whatever the share verified (whole results only for second computations that
// came before their first), so the coordinator needs about 36 bytes a task besides the
// server: about 600 MiB of Go heap at N = 28 with every task computed twice; its snapshot
// takes about 12 bytes a task on disk, streamed. A worker never builds the fine plan:
// each assignment carries its task, which the worker checks against the plan's rules
// (count.Plan.CheckTask) and names by its digest in its result.
//
// The embedded server ([StartServer]) is nats-server run inside the process with JetStream
// on a file store, so a single binary is all a cluster needs; any NATS server with
// JetStream works as well, with the permissions docs/distributed.md gives.
package cluster

import (
	"context"
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/chesspuzzles/chesspuzzles/queens/count"
	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"
)

// Names of the objects on the server; see the package comment.
const (
	SubjectPrefix = "chesspuzzles"
	JobsBucket    = "chesspuzzles_jobs"
)

// DefaultAckWait is how long a coordinator waits for a word from the worker of an
// assignment (its heartbeat or its result) before it assigns the task again.
const DefaultAckWait = 30 * time.Second

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
}

// BeatMsg is a worker's heartbeat: the nonces of the assignments it still works on, and
// those it hands back (Back) without a result, to be assigned to another at once.
type BeatMsg struct {
	Nonces []string `json:"nonces,omitempty"`
	Back   []string `json:"back,omitempty"`
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

// sealed is the value the coordinator stores in a bucket: a JSON document (a Result or a
// JobRecord) and its seal (Sealer.Seal of the key and the document), so that whoever
// reads it back with the coordinator's secret can tell it is what the coordinator wrote.
type sealed struct {
	Seal string          `json:"seal"`
	Doc  json.RawMessage `json:"doc"`
}

// sealValue returns the stored form of v under key.
func sealValue(s *Sealer, key string, v any) ([]byte, error) {
	doc, err := json.Marshal(v)
	if err != nil {
		return nil, err
	}
	return json.Marshal(sealed{Seal: s.Seal("value", key, string(doc)), Doc: doc})
}

// errUnsealed is what openValue returns for a value whose seal is not the coordinator's.
var errUnsealed = errors.New("not sealed by this job's coordinator (written by another client, or by a coordinator with another secret)")

// openValue decodes a stored value into v. With s nil it does not check the seal, and
// says that the value is unchecked by returning checked false.
func openValue(s *Sealer, key string, data []byte, v any) (checked bool, err error) {
	var env sealed
	if err := json.Unmarshal(data, &env); err != nil || len(env.Doc) == 0 {
		return false, errUnsealed
	}
	if s != nil && !s.Check(env.Seal, "value", key, string(env.Doc)) {
		return false, errUnsealed
	}
	if err := json.Unmarshal(env.Doc, v); err != nil {
		return false, fmt.Errorf("value is not a %T: %v", v, err)
	}
	return s != nil, nil
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

// ConnectOptions says how to reach a NATS server.
type ConnectOptions struct {
	URL   string
	Token string // empty for none
	// Creds, if not empty, is a NATS credentials file (a user JWT and its key), for a
	// cluster that authenticates users by NATS's decentralized auth. A user and password
	// may also be given in the URL (nats://user:password@host:4222).
	Creds string
	// UserCreds, if not empty, are the contents of such a credentials file (an identity
	// the coordinator made for itself, never written down).
	UserCreds []byte
	// User and Password, if User is not empty, are the client's user and password: the
	// coordinator's (AdminUser) or a worker identity's (see NewIdentity).
	User, Password string
	// InboxPrefix, if not empty, is the prefix of the client's reply subjects: a worker's
	// must be InboxPrefix(its identity), the only subjects it may receive on.
	InboxPrefix string
	Name        string // the client name the server shows
	// Logf, if not nil, is told about disconnections and reconnections.
	Logf func(format string, args ...any)
	// Timeout is how long Connect waits for the first connection (DefaultConnectTimeout
	// if zero).
	Timeout time.Duration
}

// DefaultConnectTimeout is how long Connect waits for a server by default: a server that
// answers at all answers within milliseconds, and a wrong URL should be said at once.
const DefaultConnectTimeout = 2 * time.Second

// Connect opens a connection that retries the first connect and reconnects for ever, half
// a second apart, after losing the server. It returns once connected or when ctx is done.
func Connect(ctx context.Context, o ConnectOptions) (*nats.Conn, error) {
	logf := o.Logf
	if logf == nil {
		logf = func(string, ...any) {}
	}
	opts := []nats.Option{
		nats.Name(o.Name),
		nats.MaxReconnects(-1),
		nats.ReconnectWait(500 * time.Millisecond),
		nats.RetryOnFailedConnect(true),
		nats.DisconnectErrHandler(func(_ *nats.Conn, err error) {
			if err != nil {
				logf("lost the connection to %s: %v; reconnecting", o.URL, err)
			}
		}),
		nats.ReconnectHandler(func(c *nats.Conn) { logf("reconnected to %s", c.ConnectedUrlRedacted()) }),
	}
	if o.Token != "" {
		opts = append(opts, nats.Token(o.Token))
	}
	if o.Creds != "" {
		opts = append(opts, nats.UserCredentials(o.Creds))
	}
	if len(o.UserCreds) > 0 {
		token, seed, err := splitCreds(o.UserCreds)
		if err != nil {
			return nil, &connectError{o.URL, err}
		}
		opts = append(opts, nats.UserJWTAndSeed(token, seed))
	}
	if o.User != "" {
		opts = append(opts, nats.UserInfo(o.User, o.Password))
	}
	if o.InboxPrefix != "" {
		opts = append(opts, nats.CustomInboxPrefix(o.InboxPrefix))
	}
	nc, err := nats.Connect(o.URL, opts...)
	if err != nil {
		return nil, &connectError{o.URL, err}
	}
	// With RetryOnFailedConnect, Connect returns at once; wait for the first connection so
	// that a wrong token or URL is reported rather than retried in silence for ever.
	timeout := o.Timeout
	if timeout <= 0 {
		timeout = DefaultConnectTimeout
	}
	deadline := time.Now().Add(timeout)
	for !nc.IsConnected() {
		if err := nc.LastError(); err != nil && isAuthError(err) {
			nc.Close()
			return nil, &connectError{o.URL, fmt.Errorf("%w: %w", ErrRefused, err)}
		}
		if time.Now().After(deadline) {
			err := nc.LastError()
			nc.Close()
			if err == nil {
				err = fmt.Errorf("no answer within %v", timeout)
			}
			return nil, &connectError{o.URL, err}
		}
		select {
		case <-ctx.Done():
			nc.Close()
			return nil, ctx.Err()
		case <-time.After(20 * time.Millisecond):
		}
	}
	return nc, nil
}

// ErrCannotConnect is what [Connect] wraps when it finds no server at the URL, or one that
// refuses the token: the URL or the token given is wrong.
var ErrCannotConnect = errors.New("cannot connect")

type connectError struct {
	url string
	err error
}

func (e *connectError) Error() string   { return fmt.Sprintf("connecting to %q: %v", e.url, e.err) }
func (e *connectError) Unwrap() []error { return []error{ErrCannotConnect, e.err} }

// ErrRefused is the error [Connect] wraps when the server refuses the client's credentials
// (no token, a wrong token, an unknown user).
var ErrRefused = errors.New("the server refused this client's credentials")

func isAuthError(err error) bool {
	return errors.Is(err, nats.ErrAuthorization) || strings.Contains(strings.ToLower(err.Error()), "authorization")
}

// NewToken returns a random token of 32 hex digits.
func NewToken() string {
	var b [16]byte
	_, _ = rand.Read(b[:])
	return hex.EncodeToString(b[:])
}

// setup creates or updates the results stream (ResultsStream; see openResults) and the jobs
// bucket, and returns handles to them. It is idempotent: coordinators call it every time.
// Only a coordinator may: a worker has no right to JetStream at all.
func setup(ctx context.Context, js jetstream.JetStream, logf func(string, ...any)) (*resultStore, jetstream.KeyValue, error) {
	results, err := openResults(ctx, js, logf)
	if err != nil {
		return nil, nil, err
	}
	jobs, err := js.CreateOrUpdateKeyValue(ctx, jetstream.KeyValueConfig{
		Bucket:  JobsBucket,
		Storage: jetstream.FileStorage,
	})
	if err != nil {
		return nil, nil, fmt.Errorf("creating bucket %s: %w", JobsBucket, err)
	}
	return results, jobs, nil
}

// decodeResult parses a stored result, checks its seal with s, and returns the job and
// task id its key names.
func decodeResult(s *Sealer, key string, data []byte) (job string, id int, r Result, err error) {
	if job, id, err = parseKey(key); err != nil {
		return "", 0, r, err
	}
	if _, err := openValue(s, key, data, &r); err != nil {
		return job, id, r, err
	}
	return job, id, r, nil
}
