package cluster

import (
	"encoding/json"
	"math"
	"strconv"
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

// appendJSONString appends s as encoding/json writes a string: quoted as it is when it is
// printable ASCII with nothing to escape (what results carry), else by encoding/json.
func appendJSONString(b []byte, s string) []byte {
	for i := 0; i < len(s); i++ {
		if !plainByte(s[i]) {
			q, _ := json.Marshal(s) // escapes, HTML's <, > and &, invalid UTF-8: its rules
			return append(b, q...)
		}
	}
	b = append(b, '"')
	b = append(b, s...)
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
	var seen uint
	if !s.next('{') {
		return false
	}
	for {
		key, ok := s.str()
		if !ok || !s.next(':') {
			return false
		}
		var bit uint
		switch key {
		case "job":
			bit = 1 << 0
			v.Job, ok = s.str()
		case "id":
			bit = 1 << 1
			var id int64
			id, ok = s.int()
			v.ID = int(id)
		case "count":
			bit = 1 << 2
			var c string
			c, ok = s.str()
			v.Count = &c
		case "counters":
			bit = 1 << 3
			v.Counters, ok = s.counters()
		case "worker":
			bit = 1 << 4
			v.Worker, ok = s.str()
		case "name":
			bit = 1 << 5
			v.Name, ok = s.str()
		case "seconds":
			bit = 1 << 6
			v.Seconds, ok = s.float()
		case "task":
			bit = 1 << 7
			v.Task, ok = s.str()
		case "nonce":
			bit = 1 << 8
			v.Nonce, ok = s.str()
		default:
			return false
		}
		if !ok || seen&bit != 0 {
			return false
		}
		seen |= bit
		if s.next(',') {
			continue
		}
		if !s.next('}') || !s.end() {
			return false
		}
		*w = v
		return true
	}
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
		if !s.next('{') {
			return nil, false
		}
		var c wireCounter
		var seen uint
		for {
			key, ok := s.str()
			if !ok || !s.next(':') {
				return nil, false
			}
			var bit uint
			switch key {
			case "name":
				bit = 1
				c.Name, ok = s.str()
			case "value":
				bit = 2
				c.Value, ok = s.uint()
			default:
				return nil, false
			}
			if !ok || seen&bit != 0 {
				return nil, false
			}
			seen |= bit
			if s.next(',') {
				continue
			}
			if !s.next('}') {
				return nil, false
			}
			break
		}
		out = append(out, c)
		if s.next(',') {
			continue
		}
		if !s.next(']') {
			return nil, false
		}
		return out, true
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

// str reads a string of printable ASCII without escapes (HTML's <, > and & as they are).
func (s *plainScanner) str() (string, bool) {
	if !s.next('"') {
		return "", false
	}
	start := s.i
	for s.i < len(s.b) && s.b[s.i] != '"' {
		if c := s.b[s.i]; c < 0x20 || c >= 0x7f || c == '\\' {
			return "", false
		}
		s.i++
	}
	if s.i == len(s.b) {
		return "", false
	}
	v := string(s.b[start:s.i])
	s.i++
	return v, true
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
