package tours

import (
	"context"
	"errors"
	"fmt"
	"math/big"
	"strconv"
	"strings"

	"github.com/chesspuzzles/chesspuzzles/internal/work/sealed"
)

// checkpointMagic begins a checkpoint's header line; checkpointFormat is the version of
// the file's format (not of the plan, which the header names).
const (
	checkpointMagic  = "chesspuzzles-knight-checkpoint"
	checkpointFormat = 1
)

// maxLine bounds a checkpoint line: a task's line is four numbers of at most 40 digits and
// a CRC, the header a plan's name and two numbers.
const maxLine = 512

// A CheckpointError says a checkpoint file cannot be used: it is unreadable, damaged, or
// records another plan. Commands report it as bad input.
type CheckpointError struct {
	Path string
	Err  error
}

func (e *CheckpointError) Error() string { return fmt.Sprintf("checkpoint %q: %v", e.Path, e.Err) }

func (e *CheckpointError) Unwrap() error { return e.Err }

// Checkpoint records the finished tasks of one plan durably. It is not safe for
// concurrent use.
type Checkpoint struct {
	log *sealed.Log
}

func header(p Plan) string {
	return fmt.Sprintf("%s %d plan=%q tasks=%d", checkpointMagic, checkpointFormat, p.Name(), p.Len())
}

// OpenCheckpoint opens the checkpoint at path for plan p, creating it if it does not
// exist, and returns the results it holds, each checked by p.Check. It returns a
// *CheckpointError if the file is not a regular file, is not a checkpoint of p, is damaged
// (a line whose CRC does not match; a last line cut short by a crash, without its newline,
// is dropped and written over), or records two different results of one task; and
// ctx.Err() if ctx ends while it reads. It takes time linear in the file.
func OpenCheckpoint(ctx context.Context, path string, p Plan) (*Checkpoint, []Result, error) {
	bad := func(format string, args ...any) error {
		return &CheckpointError{Path: path, Err: fmt.Errorf(format, args...)}
	}
	var results []Result
	seen := map[int]Result{}
	each := func(lineNo int, body string, ok bool, line string) error {
		if lineNo == 1 {
			if !ok || !strings.HasPrefix(body, checkpointMagic+" ") {
				return bad("not a knight count checkpoint (first line %.50q)", strings.TrimSpace(line))
			}
			if body != header(p) {
				return bad("records another plan (%.80s), not %q with %d tasks; use another file or delete it", strings.TrimPrefix(body, checkpointMagic+" "), p.Name(), p.Len())
			}
			return nil
		}
		res, perr := parseResult(body)
		if !ok || perr != nil {
			return bad("line %d is damaged: %.60q", lineNo, strings.TrimSpace(line))
		}
		if err := p.Check(res); err != nil {
			return bad("line %d: %v", lineNo, err)
		}
		if prev, ok := seen[res.ID]; ok {
			if !sameResult(prev, res) {
				return bad("line %d records task %d again with another result", lineNo, res.ID)
			}
			return nil
		}
		seen[res.ID] = res
		results = append(results, res)
		return nil
	}
	// every result is made durable at once: a task takes seconds to hours
	log, err := sealed.OpenLog(ctx, path, header(p), maxLine, 0, each)
	var ce *CheckpointError
	switch {
	case err == nil:
		return &Checkpoint{log: log}, results, nil
	case errors.As(err, &ce), errors.Is(err, context.Canceled), errors.Is(err, context.DeadlineExceeded):
		return nil, nil, err
	}
	if reason, ok := sealed.Reason(err, "knight count checkpoint"); ok {
		err = errors.New(reason)
	}
	return nil, nil, &CheckpointError{Path: path, Err: err}
}

// formatResult is a result's line text: id, tours, states summed, peak.
func formatResult(r Result) string {
	return fmt.Sprintf("%d %s %d %d", r.ID, r.Tours, r.States, r.Peak)
}

// parseResult reads formatResult's text.
func parseResult(s string) (Result, error) {
	f := strings.Fields(s)
	if len(f) != 4 {
		return Result{}, errors.New("want 4 fields")
	}
	var r Result
	var err1, err2, err3 error
	r.ID, err1 = strconv.Atoi(f[0])
	r.States, err2 = strconv.ParseInt(f[2], 10, 64)
	r.Peak, err3 = strconv.ParseInt(f[3], 10, 64)
	k, ok := new(big.Int).SetString(f[1], 10)
	if err := errors.Join(err1, err2, err3); err != nil || !ok {
		return Result{}, errors.New("not numbers")
	}
	r.Tours = k
	return r, nil
}

// sameResult reports whether a and b are one task's result twice.
func sameResult(a, b Result) bool {
	return a.ID == b.ID && a.Tours.Cmp(b.Tours) == 0 && a.States == b.States && a.Peak == b.Peak
}

// Record appends r's line with one write and fsyncs it: a task takes seconds to hours, so
// every result is made durable at once.
func (c *Checkpoint) Record(r Result) error { return c.log.Append(formatResult(r)) }

// Close closes the file (every record is already synced).
func (c *Checkpoint) Close() error { return c.log.Close() }
