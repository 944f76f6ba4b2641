package work

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/chesspuzzles/chesspuzzles/internal/work/sealed"
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
	log  *sealed.Log
	join bool // lines carry the join's counters
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
	var results []count.Result
	seen := map[int]count.Result{}
	each := func(lineNo int, body string, ok bool, line string) error {
		if lineNo == 1 {
			if !ok || !strings.HasPrefix(body, checkpointMagic+" ") {
				return bad("not a count checkpoint (first line %.40q)", strings.TrimSpace(line))
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
				if method != planMethod(p) {
					return bad("records a count by method %s, not %s; use another file, delete it or count with --method %s", method, planMethod(p), method)
				}
				if n == p.N() && version != p.Version() {
					return bad("records a count of N=%d with plan version %d, not %d; count with --plan-version %d, or use another file or delete it", n, version, p.Version(), version)
				}
				return bad("records %s, not N=%d with plan version %d; use another file or delete it", what, p.N(), p.Version())
			}
			return nil
		}
		var res count.Result
		fields := []any{&res.ID, &res.Solutions, &res.HalfTurn, &res.QuarterTurn, &res.Nodes}
		if p.Method() == count.MethodJoin {
			fields = append(fields, &res.RowSets, &res.Stored, &res.PairTests)
		}
		n, err := fmt.Sscan(body, fields...)
		if !ok || err != nil || n != len(fields) || len(strings.Fields(body)) != len(fields) || res.ID < 0 || res.ID >= p.Len() {
			return bad("line %d is damaged: %.60q", lineNo, strings.TrimSpace(line))
		}
		if err := count.Check(p, res); err != nil {
			return bad("line %d: %v", lineNo, err)
		}
		if prev, ok := seen[res.ID]; ok {
			if prev != res {
				return bad("line %d records task %d again with another result", lineNo, res.ID)
			}
			return nil
		}
		seen[res.ID] = res
		results = append(results, res)
		return nil
	}
	log, err := sealed.OpenLog(ctx, path, header(p), maxCheckpointLine, SyncEvery, each)
	if err != nil {
		return nil, nil, checkpointError(path, err, "count checkpoint")
	}
	return &Checkpoint{log: log, join: p.Method() == count.MethodJoin}, results, nil
}

// checkpointError is the error of a checkpoint of the kind what that OpenLog could not
// open with err: err itself if it is a *CheckpointError or the context's, else a
// *CheckpointError saying why.
func checkpointError(path string, err error, what string) error {
	var ce *CheckpointError
	if errors.As(err, &ce) || errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded) {
		return err
	}
	if reason, ok := sealed.Reason(err, what); ok {
		err = errors.New(reason)
	}
	return &CheckpointError{Path: path, Err: err}
}

// Record appends r with a single write and fsyncs if the last fsync is SyncEvery old.
func (c *Checkpoint) Record(r count.Result) error {
	text := fmt.Sprintf("%d %d %d %d %d", r.ID, r.Solutions, r.HalfTurn, r.QuarterTurn, r.Nodes)
	if c.join {
		text += fmt.Sprintf(" %d %d %d", r.RowSets, r.Stored, r.PairTests)
	}
	return c.log.Append(text)
}

// Sync flushes recorded results to stable storage.
func (c *Checkpoint) Sync() error { return c.log.Sync() }

// Close syncs and closes the file.
func (c *Checkpoint) Close() error { return c.log.Close() }
