package dist

import (
	"bytes"
	"crypto/sha256"
	"encoding/binary"
	"encoding/gob"
	"errors"
	"fmt"
	"hash/fnv"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"time"

	"github.com/chesspuzzles/chesspuzzles/queens/count"
)

// A coordinator's snapshot is what it knows of a job, kept in its state directory so that a
// restarted coordinator need not read every stored result again: the tally (a bit per task
// and the exact sums), the verifier's state (a fingerprint per task, the sampled tasks'
// whole results and their second computations), and the revision of the results bucket up
// to which all of it was read. A coordinator that loads one reads only the results stored
// after that revision: a result counted in the snapshot and stored again is recognised
// (the tally holds its task) and compared with the first by its fingerprint, exactly as in
// a run that never stopped.
//
// File: the line snapshotMagic, the gob encoding of a snapshot, and the SHA-256 of that
// encoding (32 bytes). It is written to a temporary file in the same directory, synced and
// renamed over the old one, so that a crash leaves the old snapshot or the new one whole.
type snapshot struct {
	Job         string
	N           int
	Method      string
	PlanVersion int
	Tasks       int
	// PlanDigest tells plans with the same N, method, version and length apart (plans cut
	// with another bound, for tests): see planDigest.
	PlanDigest uint64
	// Stream is the creation time of the results bucket's stream (UnixNano): a bucket
	// deleted and made again starts its revisions from 1, and the snapshot is not for it.
	Stream int64
	// Revision is the results bucket's revision up to which every entry of the job was
	// read into Tally and the verifier's state.
	Revision uint64
	Written  time.Time
	Tally    []byte // the tally, as its MarshalBinary gave it
	// Sample is the tasks this job verifies; First and Second their accepted first results
	// and the second computations seen; Agreed those whose two computations agree.
	Sample  []int
	First   []Result
	Second  []Result
	Agreed  []int
	FP      []uint32
	Workers []string
}

// snapshotMagic opens every snapshot file, with the format's version.
const snapshotMagic = "chesspuzzles coordinator snapshot 2\n"

// snapshotPath is the snapshot file of job in dir.
func snapshotPath(dir, job string) string { return filepath.Join(dir, job+".snapshot") }

// planDigest returns a 64-bit FNV-1a hash of the plan's identity: N, method, version, the
// number of tasks and every task's Cost in id order (the Costs of plans cut differently
// differ). It takes a pass over the tasks: a fraction of a second for 10⁷.
func planDigest(p count.Plan) uint64 {
	h := fnv.New64a()
	var b [8]byte
	put := func(x uint64) {
		binary.LittleEndian.PutUint64(b[:], x)
		h.Write(b[:])
	}
	h.Write([]byte(p.Method()))
	put(uint64(p.N()))
	put(uint64(p.Version()))
	put(uint64(p.Len()))
	for id := range p.Len() {
		put(p.Cost(id))
	}
	return h.Sum64()
}

// takeSnapshot returns the snapshot of a job's tally and verifier, read up to revision rev
// of the results bucket whose stream was created at stream.
func takeSnapshot(plan count.Plan, digest uint64, stream int64, rev uint64, tally *count.Tally, ver *verifier) (*snapshot, error) {
	state, err := tally.MarshalBinary()
	if err != nil {
		return nil, err
	}
	s := &snapshot{
		Job: jobOf(plan), N: plan.N(), Method: plan.Method(), PlanVersion: plan.Version(), Tasks: plan.Len(),
		PlanDigest: digest, Stream: stream, Revision: rev, Written: time.Now().UTC(),
		Tally: state, FP: ver.fp,
		Sample: slices.Collect(ver.sample.ids()), Agreed: slices.Collect(ver.agreed.ids()),
		Workers: slices.Sorted(maps.Keys(ver.workers)),
	}
	for _, id := range s.Sample {
		if r, ok := ver.first[id]; ok {
			s.First = append(s.First, r)
		}
		if r, ok := ver.second[id]; ok {
			s.Second = append(s.Second, r)
		}
	}
	return s, nil
}

// save writes the snapshot to its file in dir atomically (see snapshot). It costs about
// 6 bytes a task of the plan: 70 MB and a fraction of a second at 1.1·10⁷ tasks.
func (s *snapshot) save(dir string) error {
	var buf bytes.Buffer
	buf.WriteString(snapshotMagic)
	if err := gob.NewEncoder(&buf).Encode(s); err != nil {
		return fmt.Errorf("encoding the snapshot of job %s: %w", s.Job, err)
	}
	sum := sha256.Sum256(buf.Bytes()[len(snapshotMagic):])
	buf.Write(sum[:])
	path := snapshotPath(dir, s.Job)
	tmp, err := os.CreateTemp(dir, filepath.Base(path)+".tmp*")
	if err != nil {
		return fmt.Errorf("writing the snapshot of job %s: %w", s.Job, err)
	}
	defer os.Remove(tmp.Name())
	if _, err := tmp.Write(buf.Bytes()); err != nil {
		tmp.Close()
		return fmt.Errorf("writing %s: %w", tmp.Name(), err)
	}
	if err := tmp.Sync(); err != nil {
		tmp.Close()
		return fmt.Errorf("writing %s: %w", tmp.Name(), err)
	}
	if err := tmp.Close(); err != nil {
		return fmt.Errorf("writing %s: %w", tmp.Name(), err)
	}
	if err := os.Rename(tmp.Name(), path); err != nil {
		return fmt.Errorf("writing the snapshot of job %s: %w", s.Job, err)
	}
	if d, err := os.Open(dir); err == nil {
		_ = d.Sync() // make the rename durable; not every system can
		d.Close()
	}
	return nil
}

// errNoSnapshot is what loadSnapshot returns when dir holds no snapshot of the job.
var errNoSnapshot = errors.New("no snapshot")

// loadSnapshot reads the snapshot of job from dir and checks it: its checksum, and that
// it is the snapshot of plan (digest its planDigest) against the results bucket whose
// stream was created at stream and has lastSeq as its last revision. It returns the tally
// and the verifier it holds and the revision up to which they were read, or why the
// snapshot cannot be trusted (errNoSnapshot if there is none).
func loadSnapshot(dir string, plan count.Plan, digest uint64, stream int64, lastSeq uint64, sample int) (*count.Tally, *verifier, uint64, error) {
	job := jobOf(plan)
	data, err := os.ReadFile(snapshotPath(dir, job))
	if errors.Is(err, os.ErrNotExist) {
		return nil, nil, 0, errNoSnapshot
	}
	if err != nil {
		return nil, nil, 0, err
	}
	body, ok := bytes.CutPrefix(data, []byte(snapshotMagic))
	if !ok || len(body) < sha256.Size {
		return nil, nil, 0, errors.New("not a snapshot of this build (its first line differs)")
	}
	body, sum := body[:len(body)-sha256.Size], body[len(body)-sha256.Size:]
	if got := sha256.Sum256(body); !bytes.Equal(got[:], sum) {
		return nil, nil, 0, errors.New("its checksum does not match: the file is damaged")
	}
	var s snapshot
	if err := gob.NewDecoder(bytes.NewReader(body)).Decode(&s); err != nil {
		return nil, nil, 0, fmt.Errorf("decoding it: %v", err)
	}
	switch {
	case s.Job != job || s.N != plan.N() || s.Method != plan.Method() || s.PlanVersion != plan.Version() || s.Tasks != plan.Len() || s.PlanDigest != digest:
		return nil, nil, 0, fmt.Errorf("it is of job %s (N=%d, %s, plan version %d, %d tasks, plan digest %x), not of this plan (N=%d, %s, plan version %d, %d tasks, plan digest %x)",
			s.Job, s.N, s.Method, s.PlanVersion, s.Tasks, s.PlanDigest, plan.N(), plan.Method(), plan.Version(), plan.Len(), digest)
	case s.Stream != stream:
		return nil, nil, 0, fmt.Errorf("it was taken of a results bucket created at %v, but the server's was created at %v", time.Unix(0, s.Stream).UTC(), time.Unix(0, stream).UTC())
	case s.Revision > lastSeq:
		return nil, nil, 0, fmt.Errorf("it has read the results bucket up to revision %d, but the bucket ends at %d", s.Revision, lastSeq)
	case len(s.Sample) != sample:
		return nil, nil, 0, fmt.Errorf("it verifies %d tasks, this run %d (another --verify)", len(s.Sample), sample)
	case len(s.FP) != plan.Len():
		return nil, nil, 0, fmt.Errorf("it has %d fingerprints for %d tasks", len(s.FP), plan.Len())
	}
	tally := count.NewTally(plan)
	if err := tally.UnmarshalBinary(s.Tally); err != nil {
		return nil, nil, 0, err
	}
	ver := &verifier{
		job: job, sample: newIDSet(plan.Len()), first: map[int]Result{}, second: map[int]Result{},
		agreed: newIDSet(plan.Len()), asked: newIDSet(plan.Len()), workers: map[string]bool{}, fp: s.FP,
	}
	for _, id := range s.Sample {
		if id < 0 || id >= plan.Len() || ver.sample.has(id) {
			return nil, nil, 0, fmt.Errorf("its sample names task %d twice or out of the plan", id)
		}
		ver.sample.add(id)
	}
	for id, fp := range s.FP {
		if (fp != 0) != tally.Has(id) {
			return nil, nil, 0, fmt.Errorf("task %d has a fingerprint but no result, or a result but no fingerprint", id)
		}
	}
	for _, r := range s.First {
		if !ver.sample.has(r.ID) || !tally.Has(r.ID) || fingerprint(r.Result) != ver.fp[r.ID] {
			return nil, nil, 0, fmt.Errorf("its first result of task %d is not that of a sampled task it counted", r.ID)
		}
		ver.first[r.ID] = r
	}
	for _, r := range s.Second {
		if !ver.sample.has(r.ID) {
			return nil, nil, 0, fmt.Errorf("its second result of task %d is not of a sampled task", r.ID)
		}
		ver.second[r.ID] = r
	}
	for _, id := range s.Agreed {
		f, ok1 := ver.first[id]
		g, ok2 := ver.second[id]
		if !ok1 || !ok2 || f.Result != g.Result || f.Worker == g.Worker {
			return nil, nil, 0, fmt.Errorf("it says task %d was verified, but holds no two agreeing results of it", id)
		}
		ver.agreed.add(id)
	}
	for id := range ver.sample.ids() {
		if tally.Has(id) {
			if _, ok := ver.first[id]; !ok {
				return nil, nil, 0, fmt.Errorf("it counted the sampled task %d without keeping its result", id)
			}
		}
	}
	for _, w := range s.Workers {
		ver.workers[w] = true
	}
	return tally, ver, s.Revision, nil
}
