package shard

import (
	"context"
	"errors"
	"fmt"
	"io/fs"

	"github.com/chesspuzzles/chesspuzzles/internal/work/sealed"
)

// MaxBytes bounds what Merge reads, all files together, and MaxFileBytes one file: a
// shard file holds a JSON result of 70 to 200 bytes a task, so a slice of up to about half
// a million tasks (N = 27 by the join, 8.35 million tasks, in 20 slices or more). A file is
// decoded whole, into a buffer that doubles as it grows, so one file past MaxFileBytes is
// refused having taken about twice MaxFileBytes, never gigabytes.
const (
	MaxBytes     = 1 << 30
	MaxFileBytes = 64 << 20
)

// ReadFile decodes the shard file name, reading at most limit bytes, and returns it with
// the bytes it read. The JSON is decoded as it streams in, so an input that is no JSON
// (/dev/zero) is refused at its first byte, and memory stays within a small multiple of
// the file's size; the open and the reads run aside, so the end of ctx stops a read of a
// slow or endless pipe at once (ReadFile then returns ctx.Err()). A file that cannot be
// opened, is larger than limit, is not one JSON object of a shard, or has data after it is
// an ErrInput. ReadFile does not check the checksum (see Sum).
func ReadFile(ctx context.Context, name string, limit int64) (File, int64, error) {
	var s File
	n, err := sealed.ReadJSON(ctx, name, limit, &s)
	var te *sealed.TrailingError
	var pe *fs.PathError
	switch {
	case errors.Is(err, context.Canceled), errors.Is(err, context.DeadlineExceeded):
		return File{}, 0, err
	case errors.Is(err, sealed.ErrTooLarge):
		return File{}, 0, inputErrorf("%q is larger than %d bytes, more than a slice's file may be (count in more slices)", name, limit)
	case errors.Is(err, sealed.ErrNotJSON), err == nil && (s.Shards < 1 || s.N < 1):
		return File{}, 0, inputErrorf("%q is not the output of \"queens count N --shard I/K\"", name)
	case errors.As(err, &te):
		return File{}, 0, inputErrorf("%q has data after its JSON object (at byte %d): a shard file holds one object", name, te.At)
	case errors.As(err, &pe):
		return File{}, 0, inputError(fmt.Errorf("reading shard result: %w", err))
	case err != nil:
		return File{}, 0, inputError(fmt.Errorf("reading shard result %q: %w", name, err))
	}
	return s, n, nil
}
