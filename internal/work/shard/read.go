package shard

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"sync"

	"github.com/chesspuzzles/chesspuzzles/internal/work/sealed"
	"github.com/chesspuzzles/chesspuzzles/queens/count"
)

// MaxBytes bounds what Merge reads, all files together, and MaxFileBytes one file: a
// shard file holds a JSON result of 70 to 200 bytes a task, so a slice of up to about half
// a million tasks (N = 27 by the join, 8.35 million tasks, in 20 slices or more). A file is
// read as it streams, one task's result at a time, and may hold no more results than its
// size allows at the shortest result Compute writes (see maxResults), so that reading a
// file takes about its size in memory again, never gigabytes: 64 MiB of "{}," would
// otherwise be 22 million results of 64 bytes.
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
	n, err := sealed.ReadJSONStream(ctx, name, limit, func(dec *json.Decoder) error {
		return decodeFile(dec, &s, limit)
	})
	var te *sealed.TrailingError
	var re *sealed.RecordError
	var pe *fs.PathError
	switch {
	case errors.Is(err, context.Canceled), errors.Is(err, context.DeadlineExceeded):
		return File{}, 0, err
	case errors.Is(err, sealed.ErrTooLarge):
		return File{}, 0, inputErrorf("%q is larger than %d bytes, more than a slice's file may be (count in more slices)", name, limit)
	case errors.Is(err, sealed.ErrNotJSON), err == nil && (s.Shards < 1 || s.N < 1):
		return File{}, 0, inputErrorf("%q is not the output of \"queens count N --shard I/K\"", name)
	case errors.As(err, &re):
		return File{}, 0, inputErrorf("%q %v", name, re)
	case errors.As(err, &te):
		return File{}, 0, inputErrorf("%q has data after its JSON object (at byte %d): a shard file holds one object", name, te.At)
	case errors.As(err, &pe):
		return File{}, 0, inputError(fmt.Errorf("reading shard result: %w", err))
	case err != nil:
		return File{}, 0, inputError(fmt.Errorf("reading shard result %q: %w", name, err))
	}
	return s, n, nil
}

// shortestResult is the length of the shortest task result Compute writes, with the comma
// after it: {"id":0,"solutions":0,"half_turn":0,"quarter_turn":0,"nodes":0},
// It is worked out on first use, not at every command's start.
var shortestResult = sync.OnceValue(func() int64 {
	b, err := json.Marshal(count.Result{})
	if err != nil {
		panic(err)
	}
	return int64(len(b)) + 1
})

// maxResults is how many task results a file of at most limit bytes may hold.
func maxResults(limit int64) int {
	return int(limit/shortestResult()) + 1
}

// decodeFile decodes one shard file's JSON object from dec into f, streaming its results
// one at a time, and refuses a file of fields File does not have, or (a *sealed.RecordError)
// of more results than maxResults(limit).
func decodeFile(dec *json.Decoder, f *File, limit int64) error {
	dec.DisallowUnknownFields()
	fields := map[string]any{
		"n": &f.N, "method": &f.Method, "plan_version": &f.PlanVersion, "shard": &f.Shard,
		"shards": &f.Shards, "tasks": &f.Tasks, "solutions": &f.Solutions, "half_turn": &f.HalfTurn,
		"quarter_turn": &f.QuarterTurn, "nodes": &f.Nodes, "seconds": &f.Seconds, "run": &f.Run,
		"checksum": &f.Checksum,
	}
	if err := delim(dec, '{'); err != nil {
		return err
	}
	for dec.More() {
		t, err := dec.Token()
		if err != nil {
			return err
		}
		key, _ := t.(string)
		if key == "results" {
			if err := decodeResults(dec, f, limit); err != nil {
				return err
			}
			continue
		}
		p, ok := fields[key]
		if !ok {
			return fmt.Errorf("unknown field %q", key)
		}
		if err := dec.Decode(p); err != nil {
			return err
		}
	}
	return delim(dec, '}')
}

// decodeResults decodes the value of "results" (null or an array of task results) into
// f.Results, one result at a time, refusing more than maxResults(limit) of them.
func decodeResults(dec *json.Decoder, f *File, limit int64) error {
	max := maxResults(limit)
	t, err := dec.Token()
	if err != nil {
		return err
	}
	f.Results = nil
	if t == nil {
		return nil
	}
	if d, ok := t.(json.Delim); !ok || d != '[' {
		return fmt.Errorf("results are %v, not an array", t)
	}
	f.Results = []count.Result{}
	for dec.More() {
		if len(f.Results) == max {
			return &sealed.RecordError{Msg: fmt.Sprintf("holds more than %d task results, more than a file of at most %d bytes written by \"queens count --shard\" may", max, limit)}
		}
		var r count.Result
		if err := dec.Decode(&r); err != nil {
			return err
		}
		f.Results = append(f.Results, r)
	}
	return delim(dec, ']')
}

// delim reads the delimiter want from dec.
func delim(dec *json.Decoder, want json.Delim) error {
	t, err := dec.Token()
	if err != nil {
		return err
	}
	if d, ok := t.(json.Delim); !ok || d != want {
		return fmt.Errorf("found %v, want %v", t, want)
	}
	return nil
}
