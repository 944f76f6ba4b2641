// Package sealed writes and reads the two kinds of file in which the runners of a plan
// (internal/work's checkpoints, internal/work/shard's files of queens and of any plan)
// keep results, so that every runner seals and checks them one way.
//
// Logs (checkpoints): an append-only text file, one header line, then one line a result,
// each line sealed by the CRC-32 (IEEE) of its text ([Line]: "text crc=89abcdef"). The file
// is created whole or not at all ([Create]: written beside it, fsync'd, renamed, the
// directory synced); a line is appended with one write(2) ([Log.Append]), so a killed
// process loses only what it had not written; [OpenLog] reads the lines back, drops a last
// line without its newline (a write cut short) and appends after the last complete one.
// The CRC finds a damaged line; the caller checks what the line says.
//
// Result files: one JSON object, sealed by [Checksum] ("sha256:" and the hex SHA-256 of
// the object's JSON with its checksum field empty), read back by [ReadJSON], bounded in
// size, refusing unknown fields and anything after the object, stopping on the context's
// end. The checksum finds a changed file; it is no signature (anyone can compute it), which
// is why the mergers also check each result against its task. [NewRun] names the process
// that wrote a file, so that a copy is never taken for a second computation.
package sealed

import (
	"bufio"
	"context"
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"hash/crc32"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"
)

// Line returns text sealed as a log line: the text, " crc=", its CRC-32 (IEEE) in eight
// hex digits, and a newline.
func Line(text string) string {
	return fmt.Sprintf("%s crc=%08x\n", text, crc32.ChecksumIEEE([]byte(text)))
}

// Unseal returns the text of a sealed line (without its newline) and whether its CRC
// matches.
func Unseal(line string) (string, bool) {
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

// Create makes the file path holding the sealed line head, whole or not at all: written to
// a temporary file beside it, fsync'd and renamed into place, the directory synced where
// the system allows it.
func Create(path, head string) error {
	tmp, err := os.CreateTemp(filepath.Dir(path), filepath.Base(path)+".tmp*")
	if err != nil {
		return err
	}
	defer os.Remove(tmp.Name())
	if _, err := tmp.WriteString(Line(head)); err != nil {
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
		d.Sync() // makes the rename durable; not every system supports it
		d.Close()
	}
	return nil
}

// A NotRegularError says a log's path is not a regular file (Kind: "a directory", "a
// FIFO", …): only a regular file can be fsync'd, truncated and appended to.
type NotRegularError struct{ Kind string }

func (e *NotRegularError) Error() string {
	return fmt.Sprintf("is %s, not a regular file", e.Kind)
}

// A LongLineError says line Line of a log is longer than Max bytes: not a log of this kind.
type LongLineError struct{ Line, Max int }

func (e *LongLineError) Error() string {
	return fmt.Sprintf("line %d is longer than %d bytes", e.Line, e.Max)
}

// ErrEmpty is OpenLog's error for a log without one complete line.
var ErrEmpty = errors.New("empty")

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

// Reason returns why a log of the kind what ("count checkpoint") cannot be used, for a
// message, if err is one of OpenLog's own refusals (a path that is not a regular file, a
// line too long, an empty file); else ok is false and the caller passes err on.
func Reason(err error, what string) (reason string, ok bool) {
	var nr *NotRegularError
	var ll *LongLineError
	switch {
	case errors.As(err, &nr):
		return fmt.Sprintf("%v; a checkpoint must be one", err), true
	case errors.As(err, &ll):
		return fmt.Sprintf("%v: not a %s", err, what), true
	case errors.Is(err, ErrEmpty):
		return "empty or not a " + what, true
	}
	return "", false
}

// A Log is an append-only file of sealed lines, open for appending. It is not safe for
// concurrent use.
type Log struct {
	path      string
	f         *os.File
	syncEvery time.Duration
	lastSync  time.Time
	dirty     bool
}

// OpenLog opens the log at path, creating it with the sealed line head if it does not
// exist, and reads its complete lines in order, calling each with the line's number (from
// 1, the header), its text, whether its seal holds, and the line as read (for messages);
// an error each returns stops the reading and is returned. A last line without its
// newline is dropped (and written over by the next Append). Appends are fsync'd at once if
// syncEvery is 0, else at the first Append syncEvery after the last fsync, and by Sync and
// Close. It returns a *NotRegularError for a path that is not a regular file, a
// *LongLineError for a line longer than maxLine bytes, ErrEmpty for a file without one
// complete line, ctx.Err() if ctx ends while it reads, and the system's errors. It takes
// time linear in the file.
func OpenLog(ctx context.Context, path, head string, maxLine int, syncEvery time.Duration, each func(no int, text string, sealed bool, raw string) error) (*Log, error) {
	// Asking before opening keeps a FIFO from blocking the open and a device (/dev/zero)
	// from being read without end.
	if fi, err := os.Stat(path); err == nil && !fi.Mode().IsRegular() {
		return nil, &NotRegularError{fileKind(fi.Mode())}
	}
	f, err := os.OpenFile(path, os.O_RDWR, 0)
	if errors.Is(err, os.ErrNotExist) {
		if err := Create(path, head); err != nil {
			return nil, err
		}
		f, err = os.OpenFile(path, os.O_RDWR, 0)
	}
	if err != nil {
		return nil, err
	}
	good, err := readLog(ctx, f, maxLine, each)
	if err == nil {
		// drop a torn tail, then append after the last good line
		err = f.Truncate(good)
	}
	if err == nil {
		_, err = f.Seek(good, io.SeekStart)
	}
	if err != nil {
		f.Close()
		return nil, err
	}
	return &Log{path: path, f: f, syncEvery: syncEvery, lastSync: time.Now()}, nil
}

// readLog reads f's complete lines into each and returns the offset after the last one.
func readLog(ctx context.Context, f *os.File, maxLine int, each func(int, string, bool, string) error) (int64, error) {
	if fi, err := f.Stat(); err != nil {
		return 0, err
	} else if !fi.Mode().IsRegular() {
		return 0, &NotRegularError{fileKind(fi.Mode())}
	}
	r := bufio.NewReaderSize(f, maxLine)
	var good int64
	for no := 1; ; no++ {
		if err := ctx.Err(); err != nil {
			return 0, err
		}
		raw, err := r.ReadSlice('\n')
		if err == io.EOF {
			break // a torn last line (no newline) is dropped
		}
		if err == bufio.ErrBufferFull {
			return 0, &LongLineError{no, maxLine}
		}
		if err != nil {
			return 0, err
		}
		line := string(raw)
		text, ok := Unseal(strings.TrimSuffix(line, "\n"))
		if err := each(no, text, ok, line); err != nil {
			return 0, err
		}
		good += int64(len(line))
	}
	if good == 0 {
		return 0, ErrEmpty
	}
	return good, nil
}

// Append writes text as one sealed line with a single write, and fsyncs as OpenLog says.
func (l *Log) Append(text string) error {
	if _, err := l.f.WriteString(Line(text)); err != nil {
		return fmt.Errorf("writing %q: %w", l.path, err)
	}
	l.dirty = true
	if time.Since(l.lastSync) >= l.syncEvery {
		return l.Sync()
	}
	return nil
}

// Sync flushes the appended lines to stable storage.
func (l *Log) Sync() error {
	if !l.dirty {
		return nil
	}
	l.lastSync = time.Now()
	l.dirty = false
	if err := l.f.Sync(); err != nil {
		return fmt.Errorf("syncing %q: %w", l.path, err)
	}
	return nil
}

// Close syncs and closes the file.
func (l *Log) Close() error {
	err := l.Sync()
	if cerr := l.f.Close(); err == nil {
		err = cerr
	}
	return err
}

// Checksum returns the seal of a result file whose record is v with its checksum field
// empty: "sha256:" and the hex SHA-256 of the JSON encoding/json writes for v. It takes
// time proportional to the encoding's size.
func Checksum(v any) string {
	data, err := json.Marshal(v)
	if err != nil {
		panic(err) // records of numbers and strings always encode
	}
	sum := sha256.Sum256(data)
	return "sha256:" + hex.EncodeToString(sum[:])
}

// NewRun returns a new run identity: 128 random bits in hex.
func NewRun() string {
	var b [16]byte
	rand.Read(b[:]) // never fails: crypto/rand crashes the program rather
	return hex.EncodeToString(b[:])
}

// Errors of ReadJSON (besides the system's, for a file that cannot be opened or read).
var (
	// ErrTooLarge: the file is larger than the limit given.
	ErrTooLarge = errors.New("larger than the limit")
	// ErrNotJSON: the file does not begin with one JSON object of the record's fields.
	ErrNotJSON = errors.New("not one JSON object of the record")
)

// A RecordError is a record's decoder refusing it (see ReadJSONStream): Msg says why.
type RecordError struct{ Msg string }

func (e *RecordError) Error() string { return e.Msg }

// A TrailingError says a result file has data after its JSON object, at byte At.
type TrailingError struct{ At int64 }

func (e *TrailingError) Error() string {
	return fmt.Sprintf("data after its JSON object (at byte %d)", e.At)
}

// ReadJSON decodes the result file name into v (a pointer to the record), reading at most
// limit bytes, and returns the bytes it read. The JSON is decoded as it streams in, so an
// input that is no JSON (/dev/zero) is refused at its first byte; encoding/json holds the
// whole object's text while it decodes it, so memory is about twice the file's size plus
// the record (see ReadJSONStream for a record whose size is not bounded by its text). The
// open and the reads run aside, so the end of ctx stops a read of a slow or endless pipe at
// once (ReadJSON then returns ctx.Err()). It returns ErrTooLarge, ErrNotJSON (unknown
// fields too), a *TrailingError, or the system's error. It does not check the checksum.
func ReadJSON(ctx context.Context, name string, limit int64, v any) (int64, error) {
	return ReadJSONStream(ctx, name, limit, func(dec *json.Decoder) error {
		dec.DisallowUnknownFields()
		return dec.Decode(v)
	})
}

// ReadJSONStream is ReadJSON with the decoding left to decode, which reads one JSON object
// from dec, token by token where it wants (dec.Token, then dec.Decode of each element), so
// that the decoder holds one element's text at a time and decode can bound what it keeps.
// An error of decode is ErrNotJSON, or ErrTooLarge when the limit was passed first, but
// for a *RecordError, which decode returns to refuse a record that is JSON (one with more
// elements than it may hold), and which ReadJSONStream returns as it is.
func ReadJSONStream(ctx context.Context, name string, limit int64, decode func(dec *json.Decoder) error) (int64, error) {
	type result struct {
		n   int64
		err error
	}
	done := make(chan result, 1)
	go func() {
		n, err := readJSON(name, limit, decode)
		done <- result{n, err}
	}()
	select {
	case r := <-done:
		return r.n, r.err
	case <-ctx.Done():
		return 0, ctx.Err()
	}
}

// readJSON is ReadJSONStream without the context.
func readJSON(name string, limit int64, decode func(dec *json.Decoder) error) (int64, error) {
	f, err := os.Open(name)
	if err != nil {
		return 0, err
	}
	defer f.Close()
	cr := &countingReader{r: io.LimitReader(f, limit+1)}
	dec := json.NewDecoder(cr)
	if err := decode(dec); err != nil {
		var re *RecordError
		if errors.As(err, &re) {
			return 0, re
		}
		if cr.n > limit {
			return 0, ErrTooLarge
		}
		return 0, ErrNotJSON
	}
	at := dec.InputOffset()
	rest, err := io.ReadAll(io.LimitReader(io.MultiReader(dec.Buffered(), cr), 4096))
	if err != nil {
		return 0, err
	}
	if len(strings.TrimSpace(string(rest))) > 0 {
		return 0, &TrailingError{at}
	}
	return cr.n, nil
}

// countingReader counts the bytes read through it.
type countingReader struct {
	r io.Reader
	n int64
}

func (c *countingReader) Read(p []byte) (int, error) {
	k, err := c.r.Read(p)
	c.n += int64(k)
	return k, err
}
