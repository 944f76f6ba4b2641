package work

import (
	"context"
	"errors"
	"fmt"
	"math/big"
	"strconv"
	"strings"
	"time"

	"github.com/chesspuzzles/chesspuzzles/internal/work/sealed"
	"github.com/chesspuzzles/chesspuzzles/queens/count"
)

// A checkpoint is an append-only text file: one header line naming the plan, then one line
// per finished task: its id, its count and its counters in the plan's order (Plan.Counters).
// Every line ends with the CRC-32 (IEEE) of the text before it, so a damaged line is
// detected rather than summed.
//
//	chesspuzzles-checkpoint 1 job=toy3-v1 tasks=9 counters=steps crc=…
//	4 21 7 crc=…
//
// Queens and knight plans keep the headers their checkpoints had before the neutral plan
// ([CheckpointFormat]), whose result lines were already these, so their old files resume:
//
//	chesspuzzles-count-checkpoint 1 n=17 plan=1 tasks=6063 crc=…
//	412 15880 0 0 2210387 crc=…
//	chesspuzzles-count-checkpoint 1 n=17 method=join plan=101 tasks=489 crc=…
//	12 195936 0 0 1722045 64 516403 98617722 crc=…
//	chesspuzzles-knight-checkpoint 1 plan="8x8 open-ends v1" tasks=136 crc=…
//	17 1234567890 4567890123 98765432 crc=…
//
// Result lines are written with one write(2) each as soon as the task is done, so a killed
// process (even SIGKILL) loses only the tasks in flight: the kernel has the bytes. They are
// fsync'd at least every CheckpointFormat.Sync and when the run ends, so a power cut loses
// at most that much. The file is created by writing the header to a temporary file,
// fsync'ing and renaming it into place, so it is never seen half-made. A last line without
// its newline (a write cut short by a crash) is dropped and overwritten; any other bad line
// makes the file unreadable, and it is refused rather than guessed at.
const checkpointMagic = "chesspuzzles-checkpoint"

// checkpointFormat is the version of the file format above (not of the plan).
const checkpointFormat = 1

// SyncEvery is the longest time a recorded result of a queens plan waits for fsync.
const SyncEvery = time.Second

// A CheckpointError says a checkpoint file cannot be used: it is unreadable, damaged, or
// records another count. Commands report it as bad input.
type CheckpointError struct {
	Path string
	Err  error
}

func (e *CheckpointError) Error() string { return fmt.Sprintf("checkpoint %q: %v", e.Path, e.Err) }

func (e *CheckpointError) Unwrap() error { return e.Err }

// A CheckpointFormat is how a plan's checkpoints begin and how often they are synced.
type CheckpointFormat struct {
	// Magic is the header's first word, which says the file is a checkpoint; What names
	// such a file in messages ("count checkpoint").
	Magic, What string
	// Header is the whole first line (without its seal), Magic first.
	Header string
	// Sync is the longest a recorded result waits for fsync (0: every result is synced
	// as it is recorded).
	Sync time.Duration
	// Other, if not nil, says why a checkpoint whose first line is header (Magic first,
	// not Header) is not one of the plan's, and what to do.
	Other func(header string) error
}

// A Checkpointed is a [Plan] whose checkpoints have a format of their own. Other plans'
// checkpoints begin "chesspuzzles-checkpoint 1 job=… tasks=… counters=…" and sync every
// result.
type Checkpointed interface {
	CheckpointFormat() CheckpointFormat
}

// formatOf returns p's checkpoint format.
func formatOf(p Plan) CheckpointFormat {
	if c, ok := p.(Checkpointed); ok {
		return c.CheckpointFormat()
	}
	return CheckpointFormat{
		Magic:  checkpointMagic,
		What:   "count checkpoint",
		Header: fmt.Sprintf("%s %d job=%s tasks=%d counters=%s", checkpointMagic, checkpointFormat, p.Job(), p.Len(), strings.Join(p.Counters(), ",")),
	}
}

// Checkpoint records finished tasks of one plan durably. Create or resume one with
// OpenPlanCheckpoint (or OpenCheckpoint for a queens plan); it is not safe for concurrent
// use.
type Checkpoint struct {
	log *sealed.Log
	q   *QueensPlan // the plan of Record's results, if opened by OpenCheckpoint
}

// maxCheckpointLine bounds a checkpoint line: the longest a count writes is the header or
// a join result, eight numbers of at most 20 digits and a CRC, under 200 bytes.
const maxCheckpointLine = 512

// OpenPlanCheckpoint opens the checkpoint at path for plan p (built), creating it if it
// does not exist, and returns the results it already holds, each checked by p.Check (a
// line edited with its CRC recomputed still cannot add more than its task can hold). It
// returns a *CheckpointError if the file is not a regular file, is not a checkpoint, is
// damaged, holds a result p.Check refuses or two different results of one task, or belongs
// to another plan, and ctx.Err() if ctx ends while it reads or checks. Reading takes time
// linear in the file, whose lines are at most maxCheckpointLine bytes; checking is
// p.Check's cost per line (for the join at N = 23 about 0.1 s a task).
func OpenPlanCheckpoint(ctx context.Context, path string, p Plan) (*Checkpoint, []Result, error) {
	bad := func(format string, args ...any) error {
		return &CheckpointError{Path: path, Err: fmt.Errorf(format, args...)}
	}
	f := formatOf(p)
	names := p.Counters()
	var results []Result
	seen := map[int]Result{}
	each := func(lineNo int, body string, ok bool, line string) error {
		if lineNo == 1 {
			switch {
			case ok && body == f.Header:
				return nil
			case !ok || !strings.HasPrefix(body, f.Magic+" "):
				return bad("not a %s (first line %.50q)", f.What, strings.TrimSpace(line))
			case f.Other != nil:
				return &CheckpointError{Path: path, Err: f.Other(body)}
			}
			return bad("records another count (%.80s), not %s with %d tasks; use another file or delete it", strings.TrimPrefix(body, f.Magic+" "), p.Job(), p.Len())
		}
		res, perr := parseCheckpointLine(body, names)
		if !ok || perr != nil {
			return bad("line %d is damaged: %.60q", lineNo, strings.TrimSpace(line))
		}
		if err := p.Check(res); err != nil {
			return bad("line %d: %v", lineNo, err)
		}
		if prev, ok := seen[res.ID]; ok {
			if !prev.Equal(res) {
				return bad("line %d records task %d again with another result", lineNo, res.ID)
			}
			return nil
		}
		seen[res.ID] = res
		results = append(results, res)
		return nil
	}
	log, err := sealed.OpenLog(ctx, path, f.Header, maxCheckpointLine, f.Sync, each)
	if err != nil {
		return nil, nil, checkpointError(path, err, f.What)
	}
	return &Checkpoint{log: log}, results, nil
}

// parseCheckpointLine reads a result line's text: an id, a count and a counter of each
// name, all decimal digits.
func parseCheckpointLine(s string, names []string) (Result, error) {
	f := strings.Fields(s)
	if len(f) != 2+len(names) {
		return Result{}, fmt.Errorf("want %d fields", 2+len(names))
	}
	for _, x := range f {
		if strings.Trim(x, "0123456789") != "" {
			return Result{}, errors.New("not numbers")
		}
	}
	id, err := strconv.Atoi(f[0])
	k, ok := new(big.Int).SetString(f[1], 10)
	if err != nil || !ok {
		return Result{}, errors.New("not numbers")
	}
	r := Result{ID: id, Count: k, Counters: make([]Counter, len(names))}
	for i, name := range names {
		v, err := strconv.ParseUint(f[2+i], 10, 64)
		if err != nil {
			return Result{}, err
		}
		r.Counters[i] = Counter{Name: name, Value: v}
	}
	return r, nil
}

// checkpointLine is r's line text (parseCheckpointLine's inverse).
func checkpointLine(r Result) string {
	var b strings.Builder
	b.WriteString(strconv.Itoa(r.ID))
	b.WriteByte(' ')
	b.WriteString(r.Count.String())
	for _, c := range r.Counters {
		b.WriteByte(' ')
		b.WriteString(strconv.FormatUint(c.Value, 10))
	}
	return b.String()
}

// OpenCheckpoint is OpenCheckpointContext without a context.
func OpenCheckpoint(path string, p count.Plan) (*Checkpoint, []count.Result, error) {
	return OpenCheckpointContext(context.Background(), path, p)
}

// OpenCheckpointContext is OpenPlanCheckpoint for a queens plan, with its results as
// count.Results; Record takes them so.
func OpenCheckpointContext(ctx context.Context, path string, p count.Plan) (*Checkpoint, []count.Result, error) {
	q := Queens(p)
	c, rs, err := OpenPlanCheckpoint(ctx, path, q)
	if err != nil {
		return nil, nil, err
	}
	c.q = q
	out := make([]count.Result, len(rs))
	for i, r := range rs {
		out[i], _ = q.CountResult(r) // Check took it
	}
	return c, out, nil
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

// Add appends r with a single write, and fsyncs if the plan's format says it is time.
func (c *Checkpoint) Add(r Result) error { return c.log.Append(checkpointLine(r)) }

// Record appends r, a result of the queens plan c was opened for by OpenCheckpoint, as Add
// does.
func (c *Checkpoint) Record(r count.Result) error { return c.Add(c.q.Result(r)) }

// Sync flushes recorded results to stable storage.
func (c *Checkpoint) Sync() error { return c.log.Sync() }

// Close syncs and closes the file.
func (c *Checkpoint) Close() error { return c.log.Close() }
