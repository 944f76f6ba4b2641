package cluster

import (
	"bytes"
	"encoding/json"
	"math"
	"strconv"

	"github.com/chesspuzzles/chesspuzzles/internal/work"
)

// A result's JSON in one pass, each way. Every task's result is encoded by its worker,
// read by the coordinator and encoded again for the results stream, and encoding/json
// does each by reflection and scans the bytes two or three times (a custom MarshalJSON's
// output is compacted again, a custom UnmarshalJSON decodes once more what the outer call
// scanned): some 30 µs of a task of N = 16's 1.5 ms. Here a [Result]'s wire form is
// written by hand, byte for byte what encoding/json writes of a wireResult, and read by a
// strict reader of the plain form those bytes have (ASCII strings without escapes, plain
// numbers, known keys once each), which leaves anything else, and every error, to
// encoding/json: the two agree on whatever the plain reader takes (the tests hold them to
// it), so that only the time changes.

// appendJSON appends r's wire form (see [Result]) to b: exactly json.Marshal of the
// wireResult that MarshalJSON makes, without reflection. A Seconds that is NaN or
// infinite is an error, as json.Marshal's.
func (r *Result) appendJSON(b []byte) ([]byte, error) {
	if math.IsNaN(r.Seconds) || math.IsInf(r.Seconds, 0) {
		return nil, &json.UnsupportedValueError{Str: strconv.FormatFloat(r.Seconds, 'g', -1, 64)}
	}
	b = append(b, `{"job":`...)
	b = appendJSONString(b, r.Job)
	b = append(b, `,"id":`...)
	b = strconv.AppendInt(b, int64(r.ID), 10)
	if r.Count != nil {
		b = append(b, `,"count":"`...)
		b = r.Count.Append(b, 10)
		b = append(b, '"')
	}
	if len(r.Counters) > 0 {
		b = append(b, `,"counters":[`...)
		for i, c := range r.Counters {
			if i > 0 {
				b = append(b, ',')
			}
			b = append(b, `{"name":`...)
			b = appendJSONString(b, c.Name)
			b = append(b, `,"value":`...)
			b = strconv.AppendUint(b, c.Value, 10)
			b = append(b, '}')
		}
		b = append(b, ']')
	}
	b = appendJSONField(b, "worker", r.Worker)
	b = appendJSONField(b, "name", r.Name)
	b = append(b, `,"seconds":`...)
	b = appendJSONFloat(b, r.Seconds)
	b = appendJSONField(b, "task", r.Task)
	b = appendJSONField(b, "nonce", r.Nonce)
	return append(b, '}'), nil
}

// appendJSONField appends `,"name":"value"` to b, nothing for an empty value (omitempty).
func appendJSONField(b []byte, name, value string) []byte {
	if value == "" {
		return b
	}
	b = append(b, ',', '"')
	b = append(b, name...)
	b = append(b, '"', ':')
	return appendJSONString(b, value)
}

// appendJSONString appends s as encoding/json writes a string: printable ASCII as it is,
// with a backslash before the quote and the backslash (what results and tasks carry), or,
// if s has anything else, by encoding/json (its escapes of control characters and of
// HTML's <, > and &, its U+FFFD for invalid UTF-8).
func appendJSONString(b []byte, s string) []byte {
	for i := 0; i < len(s); i++ {
		if c := s[i]; !plainByte(c) && c != '"' && c != '\\' {
			q, _ := json.Marshal(s)
			return append(b, q...)
		}
	}
	b = append(b, '"')
	for i := 0; i < len(s); i++ {
		if c := s[i]; c == '"' || c == '\\' {
			b = append(b, '\\')
		}
		b = append(b, s[i])
	}
	return append(b, '"')
}

// plainByte reports whether c stands for itself in a JSON string as encoding/json writes
// and reads it: printable ASCII other than the quote, the backslash and HTML's <, > and &.
func plainByte(c byte) bool {
	return c >= 0x20 && c < 0x7f && c != '"' && c != '\\' && c != '<' && c != '>' && c != '&'
}

// appendJSONFloat appends f, finite, as encoding/json writes a float64: the shortest
// decimal that reads back as f, in exponent form below 10⁻⁶ or from 10²¹ on, with an
// exponent of one digit not padded to two.
func appendJSONFloat(b []byte, f float64) []byte {
	format := byte('f')
	if a := math.Abs(f); a != 0 && (a < 1e-6 || a >= 1e21) {
		format = 'e'
	}
	b = strconv.AppendFloat(b, f, format, -1, 64)
	if n := len(b); format == 'e' && n >= 4 && b[n-4] == 'e' && b[n-3] == '-' && b[n-2] == '0' {
		b[n-2] = b[n-1] // e-07 → e-7
		b = b[:n-1]
	}
	return b
}

// readPlain sets w from data if data is a wire result in plain form: one object of the
// wireResult's keys, each at most once, in any order, with strings of plainBytes, whole
// numbers as json reads them into the fields (no fraction, no exponent, in range), a plain
// number for seconds, whitespace anywhere JSON allows it, and nothing after. It reports
// false, leaving w as it was, for anything else: encoding/json reads that (unknown or
// differently cased keys, escapes, null, a syntax error).
func (w *wireResult) readPlain(data []byte) bool {
	s := plainScanner{b: data}
	var v wireResult
	ok := s.object(func(key string) (bit uint, ok bool) {
		var id int64
		switch key {
		case "job":
			v.Job, ok = s.str()
			return 1 << 0, ok
		case "id":
			id, ok = s.int()
			v.ID = int(id)
			return 1 << 1, ok
		case "count":
			var c string
			c, ok = s.str()
			v.Count = &c
			return 1 << 2, ok
		case "counters":
			v.Counters, ok = s.counters()
			return 1 << 3, ok
		case "worker":
			v.Worker, ok = s.str()
			return 1 << 4, ok
		case "name":
			v.Name, ok = s.str()
			return 1 << 5, ok
		case "seconds":
			v.Seconds, ok = s.float()
			return 1 << 6, ok
		case "task":
			v.Task, ok = s.str()
			return 1 << 7, ok
		case "nonce":
			v.Nonce, ok = s.str()
			return 1 << 8, ok
		}
		return 0, false
	})
	if !ok || !s.end() {
		return false
	}
	*w = v
	return true
}

// counters reads a wire result's list of counters in plain form: '[', objects of the keys
// "name" and "value" once each, ']'. An empty list reads as an empty slice, not nil, as
// encoding/json reads it.
func (s *plainScanner) counters() ([]wireCounter, bool) {
	if !s.next('[') {
		return nil, false
	}
	out := []wireCounter{}
	if s.next(']') {
		return out, true
	}
	for {
		var c wireCounter
		ok := s.object(func(key string) (bit uint, ok bool) {
			switch key {
			case "name":
				c.Name, ok = s.str()
				return 1 << 0, ok
			case "value":
				c.Value, ok = s.uint()
				return 1 << 1, ok
			}
			return 0, false
		})
		if !ok {
			return nil, false
		}
		out = append(out, c)
		if s.next(',') {
			continue
		}
		return out, s.next(']')
	}
}

// object reads an object in plain form: for each key, after its colon, field reads the
// value and returns the key's bit (0 for a key it does not know) and whether the value
// was plain. A key not known, or seen twice, is not plain.
func (s *plainScanner) object(field func(key string) (bit uint, ok bool)) bool {
	if !s.next('{') {
		return false
	}
	if s.next('}') {
		return true
	}
	var seen uint
	for {
		key, ok := s.str()
		if !ok || !s.next(':') {
			return false
		}
		bit, ok := field(key)
		if !ok || bit == 0 || seen&bit != 0 {
			return false
		}
		seen |= bit
		if s.next(',') {
			continue
		}
		return s.next('}')
	}
}

// A plainScanner reads JSON tokens of the plain form (see readPlain) from b, reporting
// false where a token is not plain.
type plainScanner struct {
	b []byte
	i int
}

// space skips JSON whitespace.
func (s *plainScanner) space() {
	for s.i < len(s.b) {
		switch s.b[s.i] {
		case ' ', '\t', '\n', '\r':
			s.i++
		default:
			return
		}
	}
}

// next skips whitespace and the byte c, if c is next; it reports whether it was.
func (s *plainScanner) next(c byte) bool {
	s.space()
	if s.i < len(s.b) && s.b[s.i] == c {
		s.i++
		return true
	}
	return false
}

// end reports whether only whitespace is left.
func (s *plainScanner) end() bool {
	s.space()
	return s.i == len(s.b)
}

// str reads a string of printable ASCII, with no escapes but \" and \\ (HTML's <, > and &
// as they are).
func (s *plainScanner) str() (string, bool) {
	if !s.next('"') {
		return "", false
	}
	start := s.i
	var unq []byte // the string so far, where it had an escape
	for s.i < len(s.b) && s.b[s.i] != '"' {
		c := s.b[s.i]
		switch {
		case c == '\\':
			if s.i+1 == len(s.b) || (s.b[s.i+1] != '"' && s.b[s.i+1] != '\\') {
				return "", false
			}
			if unq == nil {
				unq = append(make([]byte, 0, 2*(s.i-start)+16), s.b[start:s.i]...)
			}
			unq = append(unq, s.b[s.i+1])
			s.i += 2
			continue
		case c < 0x20 || c >= 0x7f:
			return "", false
		}
		if unq != nil {
			unq = append(unq, c)
		}
		s.i++
	}
	if s.i == len(s.b) {
		return "", false
	}
	v := string(s.b[start:s.i])
	if unq != nil {
		v = string(unq)
	}
	s.i++
	return v, true
}

// boolean reads true or false.
func (s *plainScanner) boolean() (bool, bool) {
	s.space()
	switch {
	case bytes.HasPrefix(s.b[s.i:], []byte("true")):
		s.i += 4
		return true, true
	case bytes.HasPrefix(s.b[s.i:], []byte("false")):
		s.i += 5
		return false, true
	}
	return false, false
}

// number reads a JSON number's bytes: whole (an optional minus, then 0 or digits not
// starting with 0), or with a fraction and an exponent as well if frac.
func (s *plainScanner) number(frac bool) ([]byte, bool) {
	s.space()
	start := s.i
	if s.i < len(s.b) && s.b[s.i] == '-' {
		s.i++
	}
	switch {
	case s.i < len(s.b) && s.b[s.i] == '0':
		s.i++
	case s.digits() == 0:
		return nil, false
	}
	if frac && s.i < len(s.b) && s.b[s.i] == '.' {
		s.i++
		if s.digits() == 0 {
			return nil, false
		}
	}
	if frac && s.i < len(s.b) && (s.b[s.i] == 'e' || s.b[s.i] == 'E') {
		s.i++
		if s.i < len(s.b) && (s.b[s.i] == '+' || s.b[s.i] == '-') {
			s.i++
		}
		if s.digits() == 0 {
			return nil, false
		}
	}
	if s.i < len(s.b) {
		switch c := s.b[s.i]; {
		case c >= '0' && c <= '9', c == '.', c == 'e', c == 'E', c == '-', c == '+':
			return nil, false // "01", or a fraction where a whole number is read
		}
	}
	return s.b[start:s.i], true
}

// digits skips decimal digits and returns how many.
func (s *plainScanner) digits() int {
	n := 0
	for s.i < len(s.b) && s.b[s.i] >= '0' && s.b[s.i] <= '9' {
		s.i++
		n++
	}
	return n
}

// int reads a whole number that fits an int, as encoding/json reads one into an int.
func (s *plainScanner) int() (int64, bool) {
	t, ok := s.number(false)
	if !ok {
		return 0, false
	}
	v, err := strconv.ParseInt(string(t), 10, strconv.IntSize)
	return v, err == nil
}

// uint reads a whole number that fits a uint64.
func (s *plainScanner) uint() (uint64, bool) {
	t, ok := s.number(false)
	if !ok || t[0] == '-' {
		return 0, false
	}
	v, err := strconv.ParseUint(string(t), 10, 64)
	return v, err == nil
}

// float reads a number into a float64, as encoding/json does (a number out of range is not
// read: encoding/json's error is the one to give).
func (s *plainScanner) float() (float64, bool) {
	t, ok := s.number(true)
	if !ok {
		return 0, false
	}
	v, err := strconv.ParseFloat(string(t), 64)
	return v, err == nil
}

// The other messages of every task: its assignment (written by the coordinator, read by
// the worker: a task's description travels in it), the task's digest (the JSON of a
// work.Task, hashed on both sides), the worker's request and the receipt of its result.

// appendTaskJSON appends json.Marshal(t) to b.
func appendTaskJSON(b []byte, t work.Task) []byte {
	b = append(b, `{"ID":`...)
	b = strconv.AppendInt(b, int64(t.ID), 10)
	b = append(b, `,"Weight":`...)
	b = strconv.AppendInt(b, t.Weight, 10)
	b = append(b, `,"Cost":`...)
	b = strconv.AppendUint(b, t.Cost, 10)
	b = append(b, `,"Desc":`...)
	b = appendJSONString(b, t.Desc)
	return append(b, '}')
}

// appendJSON appends json.Marshal(a) to b, written directly; a Lease or Wait that is NaN
// or infinite is an error, as json.Marshal's.
func (a *Assignment) appendJSON(b []byte) ([]byte, error) {
	for _, f := range []float64{a.Lease, a.Wait} {
		if math.IsNaN(f) || math.IsInf(f, 0) {
			return nil, &json.UnsupportedValueError{Str: strconv.FormatFloat(f, 'g', -1, 64)}
		}
	}
	b = append(b, `{"job":`...)
	b = appendJSONString(b, a.Job)
	b = append(b, `,"id":`...)
	b = strconv.AppendInt(b, int64(a.ID), 10)
	if a.Verify {
		b = append(b, `,"verify":true`...)
	}
	if a.Task != nil {
		b = append(b, `,"task":`...)
		b = appendTaskJSON(b, *a.Task)
	}
	if a.Messages != 0 {
		b = append(b, `,"messages":`...)
		b = strconv.AppendInt(b, int64(a.Messages), 10)
	}
	b = appendJSONField(b, "nonce", a.Nonce)
	if a.Lease != 0 {
		b = append(b, `,"lease":`...)
		b = appendJSONFloat(b, a.Lease)
	}
	if a.Wait != 0 {
		b = append(b, `,"wait":`...)
		b = appendJSONFloat(b, a.Wait)
	}
	b = appendJSONField(b, "finished", a.Finished)
	if a.Seq != 0 {
		b = append(b, `,"seq":`...)
		b = strconv.AppendInt(b, int64(a.Seq), 10)
	}
	return append(b, '}'), nil
}

// readAssignment reads an assignment: by readPlain if it is in plain form, else by
// encoding/json.
func readAssignment(data []byte) (Assignment, error) {
	var a Assignment
	if a.readPlain(data) {
		return a, nil
	}
	err := json.Unmarshal(data, &a)
	return a, err
}

// readPlain sets a from data if data is an assignment in plain form (see
// wireResult.readPlain), and reports whether it was; else it leaves a as it was.
func (a *Assignment) readPlain(data []byte) bool {
	s := plainScanner{b: data}
	var v Assignment
	ok := s.object(func(key string) (bit uint, ok bool) {
		var n int64
		switch key {
		case "job":
			v.Job, ok = s.str()
			return 1 << 0, ok
		case "id":
			n, ok = s.int()
			v.ID = int(n)
			return 1 << 1, ok
		case "verify":
			v.Verify, ok = s.boolean()
			return 1 << 2, ok
		case "task":
			var t work.Task
			t, ok = s.task()
			v.Task = &t
			return 1 << 3, ok
		case "messages":
			n, ok = s.int()
			v.Messages = int(n)
			return 1 << 4, ok
		case "nonce":
			v.Nonce, ok = s.str()
			return 1 << 5, ok
		case "lease":
			v.Lease, ok = s.float()
			return 1 << 6, ok
		case "wait":
			v.Wait, ok = s.float()
			return 1 << 7, ok
		case "finished":
			v.Finished, ok = s.str()
			return 1 << 8, ok
		case "seq":
			n, ok = s.int()
			v.Seq = int(n)
			return 1 << 9, ok
		}
		return 0, false
	})
	if !ok || !s.end() {
		return false
	}
	*a = v
	return true
}

// task reads a work.Task in plain form: an object of the keys ID, Weight, Cost and Desc,
// each at most once.
func (s *plainScanner) task() (work.Task, bool) {
	var t work.Task
	ok := s.object(func(key string) (bit uint, ok bool) {
		var n int64
		switch key {
		case "ID":
			n, ok = s.int()
			t.ID = int(n)
			return 1 << 0, ok
		case "Weight":
			t.Weight, ok = s.int()
			return 1 << 1, ok
		case "Cost":
			t.Cost, ok = s.uint()
			return 1 << 2, ok
		case "Desc":
			t.Desc, ok = s.str()
			return 1 << 3, ok
		}
		return 0, false
	})
	return t, ok
}

// receiptOK is the coordinator's receipt of a result it took, as json.Marshal writes it.
var receiptOK, _ = json.Marshal(Receipt{OK: true})

// readReceipt reads a receipt: receiptOK at once, anything else by encoding/json.
func readReceipt(data []byte) (Receipt, error) {
	if bytes.Equal(data, receiptOK) {
		return Receipt{OK: true}, nil
	}
	var rc Receipt
	err := json.Unmarshal(data, &rc)
	return rc, err
}

// A wantSeen is the last request for a task of one identity, as it came and as read: a
// worker sends the same bytes with each request (Worker.Run marshals them once), which
// are then read once.
type wantSeen struct {
	data string
	w    WantMsg
}

// readWant returns json.Unmarshal of data, a request of user's, into a WantMsg, whatever
// it reads of data when that is no JSON of one: from d.wants if user's last request had
// the same bytes.
func (d *dispatch) readWant(user string, data []byte) WantMsg {
	if c, ok := d.wants[user]; ok && c.data == string(data) {
		return c.w
	}
	var w WantMsg
	_ = json.Unmarshal(data, &w)
	if d.wants == nil {
		d.wants = map[string]wantSeen{}
	}
	d.wants[user] = wantSeen{string(data), w}
	return w
}
