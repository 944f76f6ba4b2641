package cluster

import (
	"bufio"
	"bytes"
	"crypto/sha256"
	"encoding/binary"
	"encoding/gob"
	"errors"
	"fmt"
	"hash/fnv"
	"io"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"time"

	"github.com/chesspuzzles/chesspuzzles/internal/work"
)

// A coordinator's snapshot is what it knows of a job, kept in its state directory so that a
// restarted coordinator need not read every stored result again: the tally (a bit per task
// and the exact sums), the verifier's state (its key, a fingerprint and an identity per
// task, the sampled and the agreed tasks as bits, the few second results that came before
// their first), and the revision of the results bucket up to which all of it was read. A
// coordinator that loads one reads only the results stored after that revision: a result
// counted in the snapshot and stored again is recognised (the tally holds its task) and
// compared with the first by its fingerprint, exactly as in a run that never stopped.
//
// File: the line snapshotMagic; the body: the length of the gob encoding of a snapshot (8
// bytes, little-endian), that encoding, the fingerprints (8 bytes a task) and the
// identities (4 bytes a task), little-endian; and the SHA-256 of the body (32 bytes). The
// arrays are streamed, not encoded: a snapshot of N = 28 (205 MB) is written and read at
// the disk's speed, with no copy of it in memory. It is written to a temporary file in the same directory, synced and
// renamed over the old one, so that a crash leaves the old snapshot or the new one whole.
// It holds the verifier's secret key: the state directory is the coordinator's alone.
type snapshot struct {
	Job   string
	Tasks int
	// PlanDigest tells plans with the same job id and length apart (plans cut with
	// another bound, for tests): see planDigest.
	PlanDigest uint64
	// Stream is the creation time of the results bucket's stream (UnixNano): a bucket
	// deleted and made again starts its revisions from 1, and the snapshot is not for it.
	Stream int64
	// Revision is the results bucket's revision up to which every entry of the job was
	// read into Tally and the verifier's state.
	Revision uint64
	Written  time.Time
	Tally    []byte // the tally, as its MarshalBinary gave it
	// Key is the verifier's fingerprint key; fp and who each task's first result's
	// fingerprint and identity (an index into Names), written after the gob encoding;
	// Sample and Agreed the tasks this job verifies and those verified, a bit per task;
	// Early the second results held for a first; Workers and Verifiers the identities of
	// first and agreeing second results.
	Key       [32]byte
	fp        []uint64
	who       []uint32
	Names     []string
	Sample    []uint64
	Agreed    []uint64
	Early     []Result
	Workers   []string
	Verifiers []string
	// Adaptive: the job runs with adaptive replication, Sample every task but those whose
	// first result it spared.
	Adaptive bool
	// Drawn is the drawn verifier of each task that still wants its second computation,
	// in id order (declines.go): a snapshot of an earlier build has none, and its tasks
	// are drawn again.
	Drawn []drawnTask
	// Third: the job runs with Replicas 3, and who2, each task's second identity (an
	// index into Names, 0 if none), follows who in the body (replicas.go). A snapshot of
	// an earlier build has none.
	Third bool
	who2  []uint32
	// Few: the job runs with the default where nothing is published (a third while the
	// pool is small), and who2 follows who as with Third; Triple and Pair are the tasks
	// decided at three and at two, a bit per task. A snapshot of an earlier build has
	// none: a run of the default loads one of replicas 2 with no task decided.
	Few          bool
	Triple, Pair []uint64
}

// snapshotMagic opens every snapshot file, with the format's version: 4 since results are
// any plan's (work.Result: a tally of named counters, fingerprints of whole results). A
// snapshot of an older format is ignored, with a logged line, and every stored result read.
const snapshotMagic = "chesspuzzles coordinator snapshot 4\n"

// snapshotPath is the snapshot file of job in dir.
func snapshotPath(dir, job string) string { return filepath.Join(dir, job+".snapshot") }

// planDigest returns a 64-bit FNV-1a hash of the plan's identity: its job id, the number
// of tasks and every task's Cost in id order (the Costs of plans cut differently differ).
// It takes a pass over the tasks: a fraction of a second for 10⁷.
func planDigest(p work.Plan) uint64 {
	h := fnv.New64a()
	var b [8]byte
	put := func(x uint64) {
		binary.LittleEndian.PutUint64(b[:], x)
		h.Write(b[:])
	}
	h.Write([]byte(p.Job()))
	put(uint64(p.Len()))
	w := work.WeigherOf(p)
	for id := range p.Len() {
		put(w.Cost(id))
	}
	return h.Sum64()
}

// takeSnapshot returns the snapshot of a job's tally and verifier, read up to revision rev
// of the results bucket whose stream was created at stream. It shares the verifier's
// arrays: save it before the verifier changes.
func takeSnapshot(plan work.Plan, digest uint64, stream int64, rev uint64, tally *tally, ver *verifier) (*snapshot, error) {
	state, err := tally.MarshalBinary()
	if err != nil {
		return nil, err
	}
	s := &snapshot{
		Job: plan.Job(), Tasks: plan.Len(),
		PlanDigest: digest, Stream: stream, Revision: rev, Written: time.Now().UTC(),
		Tally: state, Key: ver.key, fp: ver.fp, who: ver.who, Names: ver.names,
		Sample: ver.sample.bits, Agreed: ver.agreed.bits, Adaptive: ver.adaptive, Third: ver.third, who2: ver.who2,
		Few: ver.few, Triple: ver.triple.bits, Pair: ver.pair.bits,
		Workers: slices.Sorted(maps.Keys(ver.workers)), Verifiers: slices.Sorted(maps.Keys(ver.verifiers)),
	}
	for _, id := range slices.Sorted(maps.Keys(ver.early)) {
		s.Early = append(s.Early, ver.early[id])
	}
	return s, nil
}

// save writes the snapshot to its file in dir atomically (see snapshot). It costs about
// 12 bytes a task of the plan on disk: 205 MB at the 1.7·10⁷ tasks of N = 28, written
// through a buffer of 1 MiB.
func (s *snapshot) save(dir string) error {
	var head bytes.Buffer
	if err := gob.NewEncoder(&head).Encode(s); err != nil {
		return fmt.Errorf("encoding the snapshot of job %s: %w", s.Job, err)
	}
	path := snapshotPath(dir, s.Job)
	tmp, err := os.CreateTemp(dir, filepath.Base(path)+".tmp*")
	if err != nil {
		return fmt.Errorf("writing the snapshot of job %s: %w", s.Job, err)
	}
	defer os.Remove(tmp.Name())
	if err := s.write(tmp, head.Bytes()); err != nil {
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

// write writes the snapshot's file to w: the magic line, the body (head, the gob encoding
// of s, and s's arrays) and the body's SHA-256.
func (s *snapshot) write(w io.Writer, head []byte) error {
	bw := bufio.NewWriterSize(w, 1<<20)
	if _, err := bw.WriteString(snapshotMagic); err != nil {
		return err
	}
	h := sha256.New()
	body := io.MultiWriter(bw, h)
	buf := binary.LittleEndian.AppendUint64(make([]byte, 0, 1<<16), uint64(len(head)))
	if _, err := body.Write(buf); err != nil {
		return err
	}
	if _, err := body.Write(head); err != nil {
		return err
	}
	buf = buf[:0]
	flush := func(force bool) error {
		if len(buf) < cap(buf)-8 && !force {
			return nil
		}
		_, err := body.Write(buf)
		buf = buf[:0]
		return err
	}
	for _, x := range s.fp {
		buf = binary.LittleEndian.AppendUint64(buf, x)
		if err := flush(false); err != nil {
			return err
		}
	}
	for _, x := range s.who {
		buf = binary.LittleEndian.AppendUint32(buf, x)
		if err := flush(false); err != nil {
			return err
		}
	}
	for _, x := range s.who2 {
		buf = binary.LittleEndian.AppendUint32(buf, x)
		if err := flush(false); err != nil {
			return err
		}
	}
	if err := flush(true); err != nil {
		return err
	}
	if _, err := bw.Write(h.Sum(nil)); err != nil {
		return err
	}
	return bw.Flush()
}

// read reads a snapshot's body from r (after the magic line) into s, with its arrays for
// tasks tasks, or says why it cannot (the file is damaged). It checks the body's SHA-256,
// which must end r. Of a snapshot of another number of tasks it reads only the header.
func (s *snapshot) read(r io.Reader, tasks int) error {
	damaged := errors.New("it ends early or goes on past its end: the file is damaged")
	h := sha256.New()
	br := bufio.NewReaderSize(r, 1<<20)
	body := io.TeeReader(br, h)
	var n [8]byte
	if _, err := io.ReadFull(body, n[:]); err != nil {
		return damaged
	}
	size := binary.LittleEndian.Uint64(n[:])
	if size > 1<<30 {
		return errors.New("its header is too long: the file is damaged")
	}
	head := make([]byte, size)
	if _, err := io.ReadFull(body, head); err != nil {
		return damaged
	}
	if err := gob.NewDecoder(bytes.NewReader(head)).Decode(s); err != nil {
		return fmt.Errorf("decoding it: %v", err)
	}
	if s.Tasks != tasks {
		return nil // not of this plan: the caller says so, and reads no further
	}
	s.fp, s.who = make([]uint64, tasks), make([]uint32, tasks)
	buf := make([]byte, 1<<16)
	if readLE(body, s.fp, 8, buf, binary.LittleEndian.Uint64) != nil ||
		readLE(body, s.who, 4, buf, binary.LittleEndian.Uint32) != nil {
		return damaged
	}
	if s.Third || s.Few {
		s.who2 = make([]uint32, tasks)
		if readLE(body, s.who2, 4, buf, binary.LittleEndian.Uint32) != nil {
			return damaged
		}
	}
	var sum [sha256.Size + 1]byte
	if k, _ := io.ReadFull(br, sum[:]); k != sha256.Size {
		return damaged
	}
	if !bytes.Equal(sum[:sha256.Size], h.Sum(nil)) {
		return errors.New("its checksum does not match: the file is damaged")
	}
	return nil
}

// readLE fills out with little-endian words of size bytes read from r through buf, which
// decode reads one of.
func readLE[T uint32 | uint64](r io.Reader, out []T, size int, buf []byte, decode func([]byte) T) error {
	for i := 0; i < len(out); {
		k := min(len(out)-i, len(buf)/size)
		if _, err := io.ReadFull(r, buf[:size*k]); err != nil {
			return err
		}
		for j := range k {
			out[i+j] = decode(buf[size*j:])
		}
		i += k
	}
	return nil
}

// adaptiveSample is loadSnapshot's sample for a run with adaptive replication.
const adaptiveSample = -1

// errNoSnapshot is what loadSnapshot returns when dir holds no snapshot of the job.
var errNoSnapshot = errors.New("no snapshot")

// loadSnapshot reads the snapshot of job from dir and checks it: its checksum, and that
// it is the snapshot of plan (digest its planDigest) against the results bucket whose
// stream was created at stream and has lastSeq as its last revision. It returns the tally
// and the verifier it holds and the revision up to which they were read, or why the
// snapshot cannot be trusted (errNoSnapshot if there is none). Sample is the number of
// tasks the run verifies, or adaptiveSample for a run with adaptive replication, which
// takes a snapshot of one (or of a run that verifies every task).
func loadSnapshot(dir string, plan work.Plan, digest uint64, stream int64, lastSeq uint64, sample int) (*tally, *verifier, uint64, error) {
	job := plan.Job()
	f, err := os.Open(snapshotPath(dir, job))
	if errors.Is(err, os.ErrNotExist) {
		return nil, nil, 0, errNoSnapshot
	}
	if err != nil {
		return nil, nil, 0, err
	}
	defer f.Close()
	magic := make([]byte, len(snapshotMagic))
	if _, err := io.ReadFull(f, magic); err != nil || string(magic) != snapshotMagic {
		return nil, nil, 0, errors.New("not a snapshot of this build (its first line differs)")
	}
	var s snapshot
	if err := s.read(f, plan.Len()); err != nil {
		return nil, nil, 0, err
	}
	switch {
	case s.Job != job || s.Tasks != plan.Len() || s.PlanDigest != digest:
		return nil, nil, 0, fmt.Errorf("it is of job %s (%d tasks, plan digest %x), not of this plan (job %s, %d tasks, plan digest %x)",
			s.Job, s.Tasks, s.PlanDigest, job, plan.Len(), digest)
	case s.Stream != stream:
		return nil, nil, 0, fmt.Errorf("it was taken of a results bucket created at %v, but the server's was created at %v", time.Unix(0, s.Stream).UTC(), time.Unix(0, stream).UTC())
	case s.Revision > lastSeq:
		return nil, nil, 0, fmt.Errorf("it has read the results bucket up to revision %d, but the bucket ends at %d", s.Revision, lastSeq)
	case len(s.Names) == 0 || s.Names[0] != "":
		return nil, nil, 0, errors.New("its table of identities does not start with none")
	}
	tally := newTally(plan)
	if err := tally.UnmarshalBinary(s.Tally); err != nil {
		return nil, nil, 0, err
	}
	ver := emptyVerifier(plan)
	ver.key, ver.fp, ver.who, ver.names = s.Key, s.fp, s.who, s.Names
	for i, name := range s.Names[1:] {
		if _, dup := ver.index[name]; dup || name == "" {
			return nil, nil, 0, fmt.Errorf("its table of identities names %q twice", name)
		}
		ver.index[name] = uint32(i + 1)
	}
	if err := ver.sample.setWords(s.Sample, plan.Len()); err != nil {
		return nil, nil, 0, fmt.Errorf("its sampled tasks: %v", err)
	}
	switch {
	case sample == adaptiveSample && !s.Adaptive && ver.sample.len() != plan.Len():
		return nil, nil, 0, fmt.Errorf("it verifies %d tasks, this run with adaptive replication every task it does not spare (another --verify)", ver.sample.len())
	case sample != adaptiveSample && s.Adaptive:
		return nil, nil, 0, errors.New("it is of a run with adaptive replication, this run has none")
	case sample != adaptiveSample && ver.sample.len() != sample:
		return nil, nil, 0, fmt.Errorf("it verifies %d tasks, this run %d (another --verify)", ver.sample.len(), sample)
	}
	ver.adaptive = sample == adaptiveSample
	if ver.adaptive {
		for id := range plan.Len() {
			if !ver.sample.has(id) && !tally.Has(id) {
				return nil, nil, 0, fmt.Errorf("it spares task %d a second computation, but holds no first result of it", id)
			}
		}
	}
	if err := ver.agreed.setWords(s.Agreed, plan.Len()); err != nil {
		return nil, nil, 0, fmt.Errorf("its verified tasks: %v", err)
	}
	for id, fp := range s.fp {
		if (fp != 0) != tally.Has(id) || (fp != 0) != (s.who[id] != 0) || int(s.who[id]) >= len(s.Names) {
			return nil, nil, 0, fmt.Errorf("task %d has a fingerprint or an identity but no result, or a result without them", id)
		}
	}
	for id := range ver.agreed.ids() {
		if !ver.hasFirst(id) {
			return nil, nil, 0, fmt.Errorf("it says task %d was verified, but holds no first result of it", id)
		}
	}
	for _, r := range s.Early {
		if r.ID < 0 || r.ID >= plan.Len() || ver.hasFirst(r.ID) {
			return nil, nil, 0, fmt.Errorf("it holds a second result of task %d waiting for a first it has", r.ID)
		}
		ver.early[r.ID] = r
	}
	if err := checkDraws(s.Drawn, plan.Len()); err != nil {
		return nil, nil, 0, err
	}
	ver.drawn = s.Drawn
	if s.Third || s.Few {
		if err := ver.checkSeconds(s.who2); err != nil {
			return nil, nil, 0, err
		}
		ver.third, ver.who2 = s.Third, s.who2
	}
	if s.Few {
		if err := ver.setDecisions(s.Triple, s.Pair); err != nil {
			return nil, nil, 0, err
		}
	}
	for _, w := range s.Workers {
		ver.workers[w] = true
	}
	for _, w := range s.Verifiers {
		ver.verifiers[w] = true
	}
	return tally, ver, s.Revision, nil
}
