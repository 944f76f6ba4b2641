package tours

import (
	"context"

	"github.com/chesspuzzles/chesspuzzles/internal/work"
)

// A CheckpointError says a checkpoint file cannot be used: it is unreadable, damaged, or
// records another plan. Commands report it as bad input. It is the one checkpoint error of
// every plan (work.CheckpointError).
type CheckpointError = work.CheckpointError

// Checkpoint records the finished tasks of one plan durably, in a checkpoint of package
// work (work.OpenPlanCheckpoint) in the knight plans' format (work.KnightPlan's
// CheckpointFormat). It is not safe for concurrent use.
type Checkpoint struct {
	c *work.Checkpoint
}

// OpenCheckpoint opens the checkpoint at path for plan p, creating it if it does not
// exist, and returns the results it holds, each checked by p.Check, as
// work.OpenPlanCheckpoint does for p's work.Plan (Neutral).
func OpenCheckpoint(ctx context.Context, path string, p Plan) (*Checkpoint, []Result, error) {
	c, rs, err := work.OpenPlanCheckpoint(ctx, path, Neutral(p))
	if err != nil {
		return nil, nil, err
	}
	out := make([]Result, len(rs))
	for i, r := range rs {
		out[i], _ = work.OpenResult(r) // Check took it
	}
	return &Checkpoint{c}, out, nil
}

// Record appends r's line with one write and fsyncs it: a task takes seconds to hours, so
// every result is made durable at once.
func (c *Checkpoint) Record(r Result) error { return c.c.Add(work.KnightResult(r)) }

// Close closes the file (every record is already synced).
func (c *Checkpoint) Close() error { return c.c.Close() }
