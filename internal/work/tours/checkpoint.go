package tours

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"hash/crc32"
	"io"
	"math/big"
	"os"
	"path/filepath"
	"strconv"
	"strings"
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
	path string
	f    *os.File
}

// withCRC seals a line: the text, " crc=" and its CRC-32 (IEEE) in hex, a newline.
func withCRC(s string) string {
	return fmt.Sprintf("%s crc=%08x\n", s, crc32.ChecksumIEEE([]byte(s)))
}

// checkLine returns a sealed line's text and whether its CRC matches.
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
	if fi, err := os.Stat(path); err == nil && !fi.Mode().IsRegular() {
		return nil, nil, bad("is not a regular file; a checkpoint must be one")
	}
	f, err := os.OpenFile(path, os.O_RDWR, 0)
	if errors.Is(err, os.ErrNotExist) {
		if err := create(path, header(p)); err != nil {
			return nil, nil, &CheckpointError{Path: path, Err: err}
		}
		f, err = os.OpenFile(path, os.O_RDWR, 0)
	}
	if err != nil {
		return nil, nil, &CheckpointError{Path: path, Err: err}
	}
	results, good, err := readCheckpoint(ctx, f, p, bad)
	if err != nil {
		f.Close()
		return nil, nil, err
	}
	// drop a torn tail, then append after the last good line
	if err := f.Truncate(good); err != nil {
		f.Close()
		return nil, nil, &CheckpointError{Path: path, Err: err}
	}
	if _, err := f.Seek(good, io.SeekStart); err != nil {
		f.Close()
		return nil, nil, &CheckpointError{Path: path, Err: err}
	}
	return &Checkpoint{path: path, f: f}, results, nil
}

// readCheckpoint reads the lines of f for plan p: the results and the offset after the
// last complete line.
func readCheckpoint(ctx context.Context, f *os.File, p Plan, bad func(string, ...any) error) ([]Result, int64, error) {
	r := bufio.NewReaderSize(f, maxLine)
	var results []Result
	seen := map[int]Result{}
	var good int64
	for lineNo := 1; ; lineNo++ {
		if err := ctx.Err(); err != nil {
			return nil, 0, err
		}
		raw, err := r.ReadSlice('\n')
		if err == io.EOF {
			break // a torn last line (no newline) is dropped
		}
		if err == bufio.ErrBufferFull {
			return nil, 0, bad("line %d is longer than %d bytes: not a knight checkpoint", lineNo, maxLine)
		}
		if err != nil {
			return nil, 0, bad("%v", err)
		}
		line := string(raw)
		body, ok := checkLine(strings.TrimSuffix(line, "\n"))
		good += int64(len(line))
		if lineNo == 1 {
			if !ok || !strings.HasPrefix(body, checkpointMagic+" ") {
				return nil, 0, bad("not a knight count checkpoint (first line %.50q)", strings.TrimSpace(line))
			}
			if body != header(p) {
				return nil, 0, bad("records another plan (%.80s), not %q with %d tasks; use another file or delete it", strings.TrimPrefix(body, checkpointMagic+" "), p.Name(), p.Len())
			}
			continue
		}
		res, perr := parseResult(body)
		if !ok || perr != nil {
			return nil, 0, bad("line %d is damaged: %.60q", lineNo, strings.TrimSpace(line))
		}
		if err := p.Check(res); err != nil {
			return nil, 0, bad("line %d: %v", lineNo, err)
		}
		if prev, ok := seen[res.ID]; ok {
			if !sameResult(prev, res) {
				return nil, 0, bad("line %d records task %d again with another result", lineNo, res.ID)
			}
			continue
		}
		seen[res.ID] = res
		results = append(results, res)
	}
	if good == 0 {
		return nil, 0, bad("empty: not a knight count checkpoint")
	}
	return results, good, nil
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

// create makes the file path holding the sealed header line, whole or not at all: written
// to a temporary file beside it, fsync'd and renamed into place.
func create(path, head string) error {
	tmp, err := os.CreateTemp(filepath.Dir(path), filepath.Base(path)+".tmp*")
	if err != nil {
		return err
	}
	defer os.Remove(tmp.Name())
	if _, err := tmp.WriteString(withCRC(head)); err != nil {
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
		d.Sync() // makes the rename durable where the system allows it
		d.Close()
	}
	return nil
}

// Record appends r's line with one write and fsyncs it: a task takes seconds to hours, so
// every result is made durable at once.
func (c *Checkpoint) Record(r Result) error {
	if _, err := c.f.WriteString(withCRC(formatResult(r))); err != nil {
		return fmt.Errorf("writing checkpoint %q: %w", c.path, err)
	}
	if err := c.f.Sync(); err != nil {
		return fmt.Errorf("syncing checkpoint %q: %w", c.path, err)
	}
	return nil
}

// Close closes the file (every record is already synced).
func (c *Checkpoint) Close() error {
	return c.f.Close()
}
