package cluster

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/chesspuzzles/chesspuzzles/internal/work"
	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"
)

// ResultsStream is the JetStream stream of the results a coordinator accepted: one message
// a result, on the subject of its job and of its task id's group (resultsSubject), the
// value sealed by the coordinator under its key ("<job>.<task id>", or "<job>.<task id>.v"
// for a second computation), which the message's KeyHeader carries. It is a stream of few
// subjects, not a key-value bucket of a key a result: the server keeps about 200 bytes of
// index for each subject, so the 3.4·10⁷ results of N = 28 under --replicas 2 would hold
// about 7 GB of its memory as keys, and about 1 MB as groups of 4,096 tasks.
const ResultsStream = "CHESSPUZZLES_RESULTS"

// resultsPrefix opens the subjects of ResultsStream; KeyHeader is the header that names a
// result's key.
const (
	resultsPrefix = "chesspuzzles.results."
	KeyHeader     = "Chesspuzzles-Key"
)

// groupBits: the results of tasks id>>groupBits alike share a subject.
const groupBits = 12

// oldResultsBucket is the key-value bucket where builds before the results stream kept
// their results: a coordinator moves what it finds there into the stream (see openResults).
const oldResultsBucket = "chesspuzzles_results"

// parseKey returns the job and task id a result's key names, or an error if key is not
// "<job>.<task id>" or "<job>.<task id>.v".
func parseKey(key string) (job string, id int, err error) {
	base := strings.TrimSuffix(key, ".v")
	i := strings.LastIndexByte(base, '.')
	if i <= 0 {
		return "", 0, fmt.Errorf("key %q is not <job>.<task id>", key)
	}
	id, err = strconv.Atoi(base[i+1:])
	if err != nil || id < 0 {
		return "", 0, fmt.Errorf("key %q is not <job>.<task id>", key)
	}
	return base[:i], id, nil
}

// resultsSubject returns the subject of the results stored under key, or an error if key
// is not "<job>.<task id>" or "<job>.<task id>.v".
func resultsSubject(key string) (string, error) {
	job, id, err := parseKey(key)
	if err != nil {
		return "", err
	}
	return resultsPrefix + job + "." + strconv.Itoa(id>>groupBits), nil
}

// jobFilter is the subject filter of every result of job.
func jobFilter(job string) string { return resultsPrefix + job + ".>" }

// A resultStore is a coordinator's handle on ResultsStream.
type resultStore struct {
	js jetstream.JetStream
	st jetstream.Stream
}

// An entry is one stored result: its key, its sealed value and its sequence in the stream
// (the stream's revision, as a snapshot counts them).
type entry struct {
	key   string
	value []byte
	seq   uint64
}

func (e entry) Key() string      { return e.key }
func (e entry) Value() []byte    { return e.value }
func (e entry) Revision() uint64 { return e.seq }

// openResults creates ResultsStream if the server has none, and moves into it the results
// an earlier build left in its key-value bucket (then deletes the bucket), saying so with
// logf: an upgraded coordinator loses no result.
func openResults(ctx context.Context, js jetstream.JetStream, replicas int, logf func(string, ...any)) (*resultStore, error) {
	replicas, err := streamReplicas(ctx, js, "stream "+ResultsStream, ResultsStream, replicas)
	if err != nil {
		return nil, err
	}
	st, err := js.CreateOrUpdateStream(ctx, jetstream.StreamConfig{
		Name:              ResultsStream,
		Description:       "chesspuzzles task results: a message each, on chesspuzzles.results.<job>.<task id >> 12>, sealed by the coordinator under the key in header " + KeyHeader,
		Subjects:          []string{resultsPrefix + ">"},
		Storage:           jetstream.FileStorage,
		MaxMsgsPerSubject: -1,
		Replicas:          replicas,
	})
	if err != nil {
		return nil, fmt.Errorf("creating stream %s: %w", ResultsStream, err)
	}
	r := &resultStore{js: js, st: st}
	old, err := js.KeyValue(ctx, oldResultsBucket)
	if errors.Is(err, jetstream.ErrBucketNotFound) {
		return r, nil
	}
	if err != nil {
		return nil, fmt.Errorf("looking for the results of earlier builds (bucket %s): %w", oldResultsBucket, err)
	}
	moved, err := r.moveFrom(ctx, old)
	if err != nil {
		return nil, fmt.Errorf("moving the results of earlier builds from bucket %s: %w", oldResultsBucket, err)
	}
	if err := js.DeleteKeyValue(ctx, oldResultsBucket); err != nil {
		return nil, fmt.Errorf("deleting bucket %s once its %d results were moved: %w", oldResultsBucket, moved, err)
	}
	logf("moved %d results of earlier builds from the bucket %s into the stream %s", moved, oldResultsBucket, ResultsStream)
	return r, nil
}

// moveFrom stores in the stream the value of every key of bucket old, as it is (each is
// sealed under its key, which the stream keeps in a header), and returns how many.
func (r *resultStore) moveFrom(ctx context.Context, old jetstream.KeyValue) (int, error) {
	w, err := old.WatchAll(ctx, jetstream.IgnoreDeletes())
	if err != nil {
		return 0, err
	}
	defer func() { _ = w.Stop() }()
	moved := 0
	for {
		select {
		case <-ctx.Done():
			return moved, ctx.Err()
		case e, ok := <-w.Updates():
			if !ok {
				return moved, errors.New("the watcher stopped")
			}
			if e == nil {
				return moved, nil
			}
			if _, err := resultsSubject(e.Key()); err != nil {
				continue // not a result
			}
			if _, err := r.put(ctx, e.Key(), e.Value()); err != nil {
				return moved, err
			}
			moved++
		}
	}
}

// msg returns the message that stores value under key.
func resultMsg(key string, value []byte) (*nats.Msg, error) {
	subj, err := resultsSubject(key)
	if err != nil {
		return nil, err
	}
	m := nats.NewMsg(subj)
	m.Header.Set(KeyHeader, key)
	m.Data = value
	return m, nil
}

// put stores value under key and returns its sequence once the server has it.
func (r *resultStore) put(ctx context.Context, key string, value []byte) (uint64, error) {
	m, err := resultMsg(key, value)
	if err != nil {
		return 0, err
	}
	ack, err := r.js.PublishMsg(ctx, m)
	if err != nil {
		return 0, fmt.Errorf("storing %s: %w", key, err)
	}
	return ack.Sequence, nil
}

// putAsync starts storing value under key; the future says when the server has it.
func (r *resultStore) putAsync(key string, value []byte) (jetstream.PubAckFuture, error) {
	m, err := resultMsg(key, value)
	if err != nil {
		return nil, err
	}
	f, err := r.js.PublishMsgAsync(m)
	if err != nil {
		return nil, fmt.Errorf("storing %s: %w", key, err)
	}
	return f, nil
}

// remove deletes the result stored at sequence seq. One already gone is not an error: the
// server refuses to delete it (with a reason the client passes on only as text), and a
// look at the sequence finds nothing there.
func (r *resultStore) remove(ctx context.Context, seq uint64) error {
	err := r.st.DeleteMsg(ctx, seq)
	if err == nil || errors.Is(err, jetstream.ErrMsgNotFound) {
		return nil
	}
	if errors.Is(err, jetstream.ErrMsgDeleteUnsuccessful) {
		if _, gerr := r.st.GetMsg(ctx, seq); errors.Is(gerr, jetstream.ErrMsgNotFound) {
			return nil
		}
	}
	return fmt.Errorf("deleting result %d of stream %s: %w", seq, ResultsStream, err)
}

// last returns the sequence of the last result on the subjects filter matches, 0 if there
// is none: one request to the server.
func (r *resultStore) last(ctx context.Context, filter string) (uint64, error) {
	m, err := r.st.GetLastMsgForSubject(ctx, filter)
	if errors.Is(err, jetstream.ErrMsgNotFound) {
		return 0, nil
	}
	if err != nil {
		return 0, err
	}
	return m.Sequence, nil
}

// read feeds fn every result on the subjects filter matches stored after sequence from, in
// order, up to the last one there when it starts. Results deleted while it reads are
// not waited for: it ends at the last one that is left (the consumer says none is
// pending), or, where nothing comes for readIdle, once the server's last result on the
// filter is one it has read.
func (r *resultStore) read(ctx context.Context, filter string, from uint64, fn func(entry) error) error {
	until, err := r.last(ctx, filter)
	if err != nil {
		return fmt.Errorf("reading the results: %w", err)
	}
	if until <= from {
		return nil
	}
	if readHook != nil {
		readHook()
	}
	cfg := jetstream.OrderedConsumerConfig{FilterSubjects: []string{filter}}
	if from > 0 {
		cfg.DeliverPolicy, cfg.OptStartSeq = jetstream.DeliverByStartSequencePolicy, from+1
	}
	cons, err := r.st.OrderedConsumer(ctx, cfg)
	if err != nil {
		return fmt.Errorf("reading the results: %w", err)
	}
	it, err := cons.Messages()
	if err != nil {
		return fmt.Errorf("reading the results: %w", err)
	}
	defer it.Stop()
	seen := from
	for {
		wait, cancel := context.WithTimeout(ctx, readIdle)
		m, err := it.Next(jetstream.NextContext(wait))
		cancel()
		if err != nil {
			if ctx.Err() != nil {
				return ctx.Err()
			}
			if errors.Is(err, context.DeadlineExceeded) {
				// Nothing for a while: the rest may have been deleted under this read.
				cur, err := r.last(ctx, filter)
				if err != nil {
					return fmt.Errorf("reading the results: %w", err)
				}
				if cur <= seen {
					return nil
				}
				continue
			}
			return fmt.Errorf("reading the results: %w", err)
		}
		meta, err := m.Metadata()
		if err != nil {
			return fmt.Errorf("reading the results: %w", err)
		}
		e := entry{key: m.Headers().Get(KeyHeader), value: m.Data(), seq: meta.Sequence.Stream}
		if e.seq > until {
			return nil // stored after the read began
		}
		if err := fn(e); err != nil {
			return err
		}
		if e.seq >= until || meta.NumPending == 0 {
			return nil
		}
		seen = e.seq
	}
}

// readIdle is how long read waits for a result before it asks the server whether any is
// left to read.
var readIdle = 2 * time.Second

// readHook, where set, runs in read between its finding the last result and its reading
// (tests delete results there).
var readHook func()

// history returns every result stored under key or under the other keys of its task
// (also, if given), oldest first: one read of the task's group's subject (at most 4,096
// tasks' results).
func (r *resultStore) history(ctx context.Context, key string, also ...string) ([]entry, error) {
	subj, err := resultsSubject(key)
	if err != nil {
		return nil, err
	}
	keys := append([]string{key}, also...)
	var out []entry
	err = r.read(ctx, subj, 0, func(e entry) error {
		if slices.Contains(keys, e.key) {
			out = append(out, e)
		}
		return nil
	})
	return out, err
}

// readJob feeds fn every result of job stored after sequence from, up to the job's last
// when it starts.
func readJob(ctx context.Context, res *resultStore, job string, from uint64, fn func(entry) error) error {
	return res.read(ctx, jobFilter(job), from, fn)
}

// lastJobRevision returns the sequence of the job's last result, 0 if it has none.
func lastJobRevision(ctx context.Context, res *resultStore, job string) (uint64, error) {
	return res.last(ctx, jobFilter(job))
}

// setup creates or updates the results stream (ResultsStream; see openResults) and the jobs
// bucket, and returns handles to them. It is idempotent: coordinators call it every time.
// Only a coordinator may: a worker has no right to JetStream at all. Both keep the copies
// they have; see setupReplicated.
func setup(ctx context.Context, js jetstream.JetStream, logf func(string, ...any)) (*resultStore, jetstream.KeyValue, error) {
	return setupReplicated(ctx, js, 0, logf)
}

// setupReplicated is setup with the stream and the bucket kept in replicas copies on the
// servers of a cluster (JetStream replicas, 1 to 5); 0 keeps the copies they have, 1 for
// new ones. A stream made with fewer copies gets more (the servers copy it).
func setupReplicated(ctx context.Context, js jetstream.JetStream, replicas int, logf func(string, ...any)) (*resultStore, jetstream.KeyValue, error) {
	results, err := openResults(ctx, js, replicas, logf)
	if err != nil {
		return nil, nil, err
	}
	kvReplicas, err := streamReplicas(ctx, js, "bucket "+JobsBucket, "KV_"+JobsBucket, replicas)
	if err != nil {
		return nil, nil, err
	}
	jobs, err := js.CreateOrUpdateKeyValue(ctx, jetstream.KeyValueConfig{
		Bucket:   JobsBucket,
		Storage:  jetstream.FileStorage,
		Replicas: kvReplicas,
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

// decodePlanResult is decodeResult of a result of plan's job: a result a build of
// MessageVersion 2 stored is made plan's (legacyResult).
func decodePlanResult(plan work.Plan, s *Sealer, key string, data []byte) (job string, id int, r Result, err error) {
	job, id, r, err = decodeResult(s, key, data)
	if err == nil && r.old != nil {
		err = legacyResult(plan, &r)
	}
	return job, id, r, err
}

// MaxStreamReplicas is the most copies of a stream JetStream keeps.
const MaxStreamReplicas = 5

// streamReplicas is the number of copies to ask of the stream name (what, in errors):
// want if not 0, else those it has, 1 if it does not exist yet. It costs a request to the
// server when want is 0.
func streamReplicas(ctx context.Context, js jetstream.JetStream, what, name string, want int) (int, error) {
	if want < 0 || want > MaxStreamReplicas {
		return 0, fmt.Errorf("%s: %d copies asked, want 1 to %d", what, want, MaxStreamReplicas)
	}
	if want > 0 {
		return want, nil
	}
	st, err := js.Stream(ctx, name)
	if errors.Is(err, jetstream.ErrStreamNotFound) {
		return 1, nil
	}
	if err != nil {
		return 0, fmt.Errorf("looking up %s: %w", what, err)
	}
	return max(st.CachedInfo().Config.Replicas, 1), nil
}
