package work

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"hash/crc32"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/chesspuzzles/chesspuzzles/queens/count"
)

// A checkpoint is an append-only text file: one header line naming the plan, then one line
// per finished task. Every line ends with the CRC-32 (IEEE) of the text before it, so a
// damaged line is detected rather than summed.
//
//	chesspuzzles-count-checkpoint 1 n=17 plan=1 tasks=6063 crc=…
//	412 15880 0 0 2210387 crc=…
//
// A count by the join method names it in the header and records its three extra counters
// (row sets, stored patterns, pair tests) on each line; a checkpoint of one method is
// refused by a count of the other:
//
//	chesspuzzles-count-checkpoint 1 n=17 method=join plan=101 tasks=489 crc=…
//	12 195936 0 0 1722045 64 516403 98617722 crc=…
//
// Result lines are written with one write(2) each as soon as the task is done, so a killed
// process (even SIGKILL) loses only the tasks in flight: the kernel has the bytes. They are
// fsync'd at least every SyncEvery and when the run ends, so a power cut loses at most that
// much. The file is created by writing the header to a temporary file, fsync'ing and
// renaming it into place, so it is never seen half-made. A last line without its newline (a
// write cut short by a crash) is dropped and overwritten; any other bad line makes the file
// unreadable, and it is refused rather than guessed at.
const checkpointMagic = "chesspuzzles-count-checkpoint"

// checkpointFormat is the version of the file format above (not of the plan).
const checkpointFormat = 1

// SyncEvery is the longest time a recorded result waits for fsync.
const SyncEvery = time.Second

// A CheckpointError says a checkpoint file cannot be used: it is unreadable, damaged, or
// records another count. Commands report it as bad input.
type CheckpointError struct {
	Path string
	Err  error
}

func (e *CheckpointError) Error() string { return fmt.Sprintf("checkpoint %q: %v", e.Path, e.Err) }

func (e *CheckpointError) Unwrap() error { return e.Err }

// Checkpoint records finished tasks of one plan durably. Create or resume one with
// OpenCheckpoint; it is not safe for concurrent use.
type Checkpoint struct {
	path     string
	f        *os.File
	lastSync time.Time
	dirty    bool
	join     bool // lines carry the join's counters
}

func withCRC(s string) string {
	return fmt.Sprintf("%s crc=%08x\n", s, crc32.ChecksumIEEE([]byte(s)))
}

// checkLine verifies and strips a line's CRC.
func checkLine(line string) (string, bool) {
	i := strings.LastIndex(line, " crc=")
	if i < 0 {
		return "", false
	}
	sum, err := strconv.ParseUint(line[i+5:], 16, 32)
	if err != nil || uint32(sum) != crc32.ChecksumIEEE([]byte(line[:i])) {
		return "", false
	}
	return line[:i], true
}

func header(p count.Plan) string {
	if p.Method() == count.MethodJoin {
		return fmt.Sprintf("%s %d n=%d method=%s plan=%d tasks=%d", checkpointMagic, checkpointFormat, p.N(), p.Method(), p.Version(), p.Len())
	}
	return fmt.Sprintf("%s %d n=%d plan=%d tasks=%d", checkpointMagic, checkpointFormat, p.N(), p.Version(), p.Len())
}

// planMethod names p's method for messages ("frames" for plans that leave it empty).
func planMethod(p count.Plan) string {
	if p.Method() == "" {
		return count.MethodFrames
	}
	return p.Method()
}

// maxCheckpointLine bounds a checkpoint line: the longest a count writes is the header or a
// join result, eight numbers of at most 20 digits and a CRC, under 200 bytes.
const maxCheckpointLine = 512

// OpenCheckpoint is OpenCheckpointContext without a context.
func OpenCheckpoint(path string, p count.Plan) (*Checkpoint, []count.Result, error) {
	return OpenCheckpointContext(context.Background(), path, p)
}

// OpenCheckpointContext opens the checkpoint at path for plan p, creating it if it does
// not exist, and returns the results it already holds, each checked against its task (see
// count.Plan.CheckResult: a line edited with its CRC recomputed still cannot add more than
// its task can hold). It returns a *CheckpointError if the file is not a regular file, is
// not a checkpoint, is damaged, holds a result impossible for its task or two different
// results of one task, or belongs to another N or plan version, and ctx.Err() if ctx ends
// while it reads or checks. Reading takes time linear in the file, whose lines are at most
// maxCheckpointLine bytes; checking is CheckResult's cost per line (for the join at N = 23
// about 0.1 s a task).
func OpenCheckpointContext(ctx context.Context, path string, p count.Plan) (*Checkpoint, []count.Result, error) {
	bad := func(format string, args ...any) error {
		return &CheckpointError{Path: path, Err: fmt.Errorf(format, args...)}
	}
	// A checkpoint is fsync'd, truncated and appended to: only a regular file can be one.
	// Asking before opening keeps a FIFO from blocking the open and a device (/dev/zero)
	// from being read without end.
	if fi, err := os.Stat(path); err == nil && !fi.Mode().IsRegular() {
		return nil, nil, bad("is %s, not a regular file; a checkpoint must be one", fileKind(fi.Mode()))
	}
	f, err := os.OpenFile(path, os.O_RDWR, 0)
	if errors.Is(err, os.ErrNotExist) {
		if err := create(path, p); err != nil {
			return nil, nil, &CheckpointError{Path: path, Err: err}
		}
		f, err = os.OpenFile(path, os.O_RDWR, 0)
	}
	if err != nil {
		return nil, nil, &CheckpointError{Path: path, Err: err}
	}
	if fi, err := f.Stat(); err != nil || !fi.Mode().IsRegular() {
		f.Close()
		return nil, nil, bad("is not a regular file; a checkpoint must be one")
	}
	r := bufio.NewReaderSize(f, maxCheckpointLine)
	var results []count.Result
	seen := map[int]count.Result{}
	var good int64 // offset after the last complete line
	for lineNo := 1; ; lineNo++ {
		if err := ctx.Err(); err != nil {
			f.Close()
			return nil, nil, err
		}
		raw, err := r.ReadSlice('\n')
		if err == io.EOF {
			break // a torn last line (no newline) is dropped
		}
		if err == bufio.ErrBufferFull {
			f.Close()
			return nil, nil, bad("line %d is longer than %d bytes: not a count checkpoint", lineNo, maxCheckpointLine)
		}
		if err != nil {
			f.Close()
			return nil, nil, &CheckpointError{Path: path, Err: err}
		}
		line := string(raw)
		body, ok := checkLine(strings.TrimSuffix(line, "\n"))
		if lineNo == 1 {
			if !ok || !strings.HasPrefix(body, checkpointMagic+" ") {
				f.Close()
				return nil, nil, bad("not a count checkpoint (first line %.40q)", strings.TrimSpace(line))
			}
			if want := header(p); body != want {
				var format, n, version, tasks int
				method := count.MethodFrames
				what := "another count"
				rest := strings.TrimPrefix(body, checkpointMagic+" ")
				if k, _ := fmt.Sscanf(rest, "%d n=%d plan=%d tasks=%d", &format, &n, &version, &tasks); k == 4 {
					what = fmt.Sprintf("N=%d with plan version %d", n, version)
				} else if k, _ := fmt.Sscanf(rest, "%d n=%d method=%s plan=%d tasks=%d", &format, &n, &method, &version, &tasks); k == 5 {
					what = fmt.Sprintf("N=%d with plan version %d", n, version)
				}
				f.Close()
				if method != planMethod(p) {
					return nil, nil, bad("records a count by method %s, not %s; use another file, delete it or count with --method %s", method, planMethod(p), method)
				}
				if n == p.N() && version != p.Version() {
					return nil, nil, bad("records a count of N=%d with plan version %d, not %d; count with --plan-version %d, or use another file or delete it", n, version, p.Version(), version)
				}
				return nil, nil, bad("records %s, not N=%d with plan version %d; use another file or delete it", what, p.N(), p.Version())
			}
		} else {
			var res count.Result
			fields := []any{&res.ID, &res.Solutions, &res.HalfTurn, &res.QuarterTurn, &res.Nodes}
			if p.Method() == count.MethodJoin {
				fields = append(fields, &res.RowSets, &res.Stored, &res.PairTests)
			}
			n, err := fmt.Sscan(body, fields...)
			if !ok || err != nil || n != len(fields) || len(strings.Fields(body)) != len(fields) || res.ID < 0 || res.ID >= p.Len() {
				f.Close()
				return nil, nil, bad("line %d is damaged: %.60q", lineNo, strings.TrimSpace(line))
			}
			if err := count.Check(p, res); err != nil {
				f.Close()
				return nil, nil, bad("line %d: %v", lineNo, err)
			}
			if prev, ok := seen[res.ID]; ok {
				if prev != res {
					f.Close()
					return nil, nil, bad("line %d records task %d again with another result", lineNo, res.ID)
				}
				good += int64(len(line))
				continue
			}
			seen[res.ID] = res
			results = append(results, res)
		}
		good += int64(len(line))
	}
	if good == 0 {
		f.Close()
		return nil, nil, bad("empty or not a count checkpoint")
	}
	// Drop a torn tail, then append after the last good line.
	if err := f.Truncate(good); err != nil {
		f.Close()
		return nil, nil, &CheckpointError{Path: path, Err: err}
	}
	if _, err := f.Seek(good, io.SeekStart); err != nil {
		f.Close()
		return nil, nil, &CheckpointError{Path: path, Err: err}
	}
	return &Checkpoint{path: path, f: f, lastSync: time.Now(), join: p.Method() == count.MethodJoin}, results, nil
}

// fileKind names what a mode that is not a regular file's is.
func fileKind(m os.FileMode) string {
	switch {
	case m&os.ModeDir != 0:
		return "a directory"
	case m&os.ModeNamedPipe != 0:
		return "a FIFO"
	case m&os.ModeSocket != 0:
		return "a socket"
	case m&os.ModeDevice != 0:
		return "a device"
	}
	return "a special file"
}

// create writes a new checkpoint holding only the header, atomically.
func create(path string, p count.Plan) error {
	tmp, err := os.CreateTemp(filepath.Dir(path), filepath.Base(path)+".tmp*")
	if err != nil {
		return err
	}
	defer os.Remove(tmp.Name())
	if _, err := tmp.WriteString(withCRC(header(p))); err != nil {
		tmp.Close()
		return err
	}
	if err := tmp.Sync(); err != nil {
		tmp.Close()
		return err
	}
	if err := tmp.Close(); err != nil {
		return err
	}
	if err := os.Rename(tmp.Name(), path); err != nil {
		return err
	}
	if d, err := os.Open(filepath.Dir(path)); err == nil {
		d.Sync() // make the rename durable; not all systems support it
		d.Close()
	}
	return nil
}

// Record appends r with a single write and fsyncs if the last fsync is SyncEvery old.
func (c *Checkpoint) Record(r count.Result) error {
	text := fmt.Sprintf("%d %d %d %d %d", r.ID, r.Solutions, r.HalfTurn, r.QuarterTurn, r.Nodes)
	if c.join {
		text += fmt.Sprintf(" %d %d %d", r.RowSets, r.Stored, r.PairTests)
	}
	line := withCRC(text)
	if _, err := c.f.WriteString(line); err != nil {
		return fmt.Errorf("writing checkpoint %q: %w", c.path, err)
	}
	c.dirty = true
	if time.Since(c.lastSync) >= SyncEvery {
		return c.Sync()
	}
	return nil
}

// Sync flushes recorded results to stable storage.
func (c *Checkpoint) Sync() error {
	if !c.dirty {
		return nil
	}
	c.lastSync = time.Now()
	c.dirty = false
	if err := c.f.Sync(); err != nil {
		return fmt.Errorf("syncing checkpoint %q: %w", c.path, err)
	}
	return nil
}

// Close syncs and closes the file.
func (c *Checkpoint) Close() error {
	err := c.Sync()
	if cerr := c.f.Close(); err == nil {
		err = cerr
	}
	return err
}
