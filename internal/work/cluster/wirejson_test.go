package cluster

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"math"
	"math/big"
	"reflect"
	"strings"
	"sync"
	"testing"
	"unicode/utf8"

	"github.com/chesspuzzles/chesspuzzles/internal/work"
)

// reflectWire is a result's wire form as encoding/json writes it: the wireResult that
// appendJSON must write byte for byte.
func reflectWire(r Result) ([]byte, error) {
	w := wireResult{Job: r.Job, ID: r.ID, Worker: r.Worker, Name: r.Name, Seconds: r.Seconds, Task: r.Task, Nonce: r.Nonce}
	if r.Count != nil {
		c := r.Count.String()
		w.Count = &c
	}
	for _, c := range r.Counters {
		w.Counters = append(w.Counters, wireCounter(c))
	}
	return json.Marshal(w)
}

// wireResults are results of every shape: counts of any size or none, counters or none,
// names that encoding/json escapes, seconds in both of its float forms.
func wireResults() []Result {
	huge, _ := new(big.Int).SetString("1180591620717411303424", 10)
	counters := []work.Counter{{Name: "half_turn", Value: 0}, {Name: "quarter_turn", Value: 3}, {Name: "nodes", Value: math.MaxUint64}}
	return []Result{
		{Job: "q16v1", Result: work.Result{ID: 1000, Count: big.NewInt(227), Counters: counters}, Worker: "local", Name: "local-1", Seconds: 0.0015314, Task: "dfb14d28b9a1bbd8", Nonce: "f123.8a47489a769d030227463f2151529d64"},
		{Job: "toy10-4-x60-v1", Result: work.Result{ID: 0, Count: huge}},
		{Job: "k6x6-open-ends-v1", Result: work.Result{ID: 7, Count: new(big.Int)}, Seconds: 1e-7},
		{Job: "q8v1", Result: work.Result{ID: 2, Counters: []work.Counter{{Name: "<&>", Value: 1}}}, Seconds: 2.5e21, Name: "a \"quoted\" <b> & \\ back\tslash \u2028 é \xff"},
		{Job: "q8v1", Result: work.Result{ID: -3, Count: big.NewInt(1)}, Seconds: -0.000001, Worker: "w_1-2", Name: "\x7f"},
		{Job: "", Seconds: 123456789.125},
		{Job: "q8v1", Seconds: 1e20, Name: "日本"},
		{Job: "q8v1", Seconds: 5e-324},
		{Job: "q8v1", Seconds: math.MaxFloat64},
	}
}

// TestResultJSONByHand: appendJSON writes what encoding/json writes of the wireResult, for
// results of every shape, and refuses the seconds encoding/json refuses.
func TestResultJSONByHand(t *testing.T) {
	for i, r := range wireResults() {
		want, err := reflectWire(r)
		if err != nil {
			t.Fatal(err)
		}
		got, err := r.appendJSON(nil)
		if err != nil || string(got) != string(want) {
			t.Errorf("result %d: appendJSON = %s, %v\nwant                   %s", i, got, err, want)
		}
		if m, err := json.Marshal(r); err != nil || string(m) != string(want) {
			t.Errorf("result %d: json.Marshal = %s, %v; want %s", i, m, err, want)
		}
	}
	for _, f := range []float64{math.NaN(), math.Inf(1), math.Inf(-1)} {
		r := Result{Job: "q8v1", Seconds: f}
		if _, err := r.appendJSON(nil); err == nil {
			t.Errorf("seconds %v: no error", f)
		}
		if _, err := json.Marshal(r); err == nil {
			t.Errorf("seconds %v: json.Marshal gave no error", f)
		}
	}
}

// plainCases are wire results in the plain form readPlain reads, and in forms it leaves
// to encoding/json (true: read plain).
var plainCases = []struct {
	data  string
	plain bool
}{
	{`{"job":"q16v1","id":1000,"count":"227","counters":[{"name":"nodes","value":7653}],"worker":"local","name":"l","seconds":0.0015314,"task":"dfb1","nonce":"f1.8a"}`, true},
	{` { "nonce" : "n" , "id" : -0 , "job" : "q8v1" , "counters" : [ ] , "seconds" : 1E+2 } `, true},
	{"{\"job\":\"a<b>&c\",\"id\":0,\"seconds\":-0.5e-3,\"counters\":[{\"value\":0,\"name\":\"x\"},{\"name\":\"y\",\"value\":18446744073709551615}]}\n", true},
	{`{"job":"q8v1","id":1,"count":"-1"}`, true},       // read plain, refused after
	{`{"job":"q8v1","id":9223372036854775807}`, true},  // the largest int
	{`{"job":"q8v1","id":9223372036854775808}`, false}, // past int: encoding/json's error
	{`{"job":"q8v1","id":1.0}`, false},                 // not whole: its error
	{`{"job":"q8v1","id":1e3}`, false},                 // not whole
	{`{"job":"q8v1","id":01}`, false},                  // not JSON
	{`{"job":"q8v1","id":-}`, false},                   // not JSON
	{`{"job":"q8v1","seconds":1e400}`, false},          // out of range: its error
	{`{"job":"q8v1","seconds":.5}`, false},             // not JSON
	{`{"job":"q8v1","seconds":1.}`, false},             // not JSON
	{`{"job":"q8v1","seconds":1e}`, false},             // not JSON
	{`{"job":"q8v1","counters":[{"name":"n","value":-1}]}`, false},
	{`{"job":"q8v1","counters":[{"name":"n","value":1.5}]}`, false},
	{`{"job":"q8v1","counters":[{"name":"n","value":1,"name":"m"}]}`, false}, // a key twice: the last counts
	{`{"job":"q8v1","counters":[{"name":"n","value":1,"extra":2}]}`, false},
	{`{"job":"q8v1","counters":[{"name":"n","value":1},]}`, false},
	{`{"job":"q8v1","counters":null}`, false},
	{`{"job":"q8v1","job":"q9v1"}`, false},          // a key twice
	{`{"Job":"q8v1"}`, false},                       // another case: encoding/json matches it
	{`{"job":"q8v1","n":8,"solutions":4}`, false},   // a result of message version 2
	{`{"job":"q\u00388v1"}`, false},                 // an escape
	{`{"job":"q8v1","name":"é"}`, false},            // not ASCII
	{"{\"job\":\"q8v1\",\"name\":\"\x7f\"}", false}, // DEL
	{"{\"job\":\"q8\tv1\"}", false},                 // a control character: not JSON
	{`{"job":null}`, false},                         // null: encoding/json leaves the field
	{`{"job":"q8v1"} {}`, false},                    // something after
	{`{"job":"q8v1",}`, false},                      // not JSON
	{`{}`, true},                                    // nothing
	{`[]`, false},                                   // not an object
	{`{"job":"q8v1"`, false},                        // cut short
	{`{"job":"q8v1","id":1000,"seconds":0,"task":"t"}`, true},
}

// TestReadPlain: what readPlain reads, encoding/json reads alike; the forms readPlain
// leaves alone are those it should (escapes, odd numbers, repeated or unknown keys).
func TestReadPlain(t *testing.T) {
	for _, c := range plainCases {
		var w wireResult
		got := w.readPlain([]byte(c.data))
		if got != c.plain {
			t.Errorf("readPlain(%s) = %v, want %v", c.data, got, c.plain)
		}
		samePlain(t, []byte(c.data))
	}
	for i, r := range wireResults() {
		data, _ := r.appendJSON(nil)
		var w wireResult
		ascii := !strings.ContainsFunc(r.Name, func(c rune) bool { return c >= 0x7f || c < 0x20 || c == '"' || c == '\\' })
		if w.readPlain(data) != ascii {
			t.Errorf("result %d (%s): read plain %v, want %v", i, data, !ascii, ascii)
		}
		samePlain(t, data)
		var back Result
		if err := json.Unmarshal(data, &back); err != nil {
			t.Errorf("result %d: %v", i, err)
			continue
		}
		if again, _ := back.appendJSON(nil); utf8.ValidString(r.Name) && string(again) != string(data) {
			t.Errorf("result %d: read back and written again %s, want %s", i, again, data)
		}
	}
}

// samePlain fails t if readPlain reads data otherwise than encoding/json.
func samePlain(t *testing.T, data []byte) {
	t.Helper()
	var plain, std wireResult
	if !plain.readPlain(data) {
		if !reflect.DeepEqual(plain, wireResult{}) {
			t.Errorf("readPlain(%q) refused it but set %+v", data, plain)
		}
		return
	}
	if err := json.Unmarshal(data, &std); err != nil {
		t.Fatalf("readPlain(%q) read %+v, but encoding/json refuses it: %v", data, plain, err)
	}
	if !reflect.DeepEqual(plain, std) {
		t.Fatalf("readPlain(%q) = %s, encoding/json reads %s", data, showWire(plain), showWire(std))
	}
}

func showWire(w wireResult) string {
	c := "<nil>"
	if w.Count != nil {
		c = *w.Count
	}
	return fmt.Sprintf("%+v (count %s)", w, c)
}

// FuzzReadPlain: whatever readPlain reads, encoding/json reads alike.
func FuzzReadPlain(f *testing.F) {
	for _, c := range plainCases {
		f.Add([]byte(c.data))
	}
	for _, r := range wireResults() {
		data, _ := r.appendJSON(nil)
		f.Add(data)
	}
	f.Fuzz(func(t *testing.T, data []byte) { samePlain(t, data) })
}

// FuzzResultJSON: appendJSON writes what encoding/json writes, whatever the strings and
// seconds.
func FuzzResultJSON(f *testing.F) {
	f.Add("q16v1", 3, "227", "nodes", uint64(7653), "local", "l-1", 0.0015314, "abc", "f1.n")
	f.Add("a<b", -1, "", "\u2028", uint64(0), "\xff", "\"\\", 1e-9, "", "")
	f.Fuzz(func(t *testing.T, job string, id int, count, counter string, value uint64, worker, name string, seconds float64, task, nonce string) {
		r := Result{Job: job, Result: work.Result{ID: id, Counters: []work.Counter{{Name: counter, Value: value}}},
			Worker: worker, Name: name, Seconds: seconds, Task: task, Nonce: nonce}
		if c, ok := new(big.Int).SetString(count, 10); ok {
			r.Count = c
		}
		want, werr := reflectWire(r)
		got, err := r.appendJSON(nil)
		if (err != nil) != (werr != nil) || string(got) != string(want) {
			t.Fatalf("appendJSON = %s, %v; encoding/json %s, %v", got, err, want, werr)
		}
		if err == nil {
			samePlain(t, got)
		}
	})
}

// TestSealByHand: Seal gives the HMAC of the length-prefixed parts, from goroutines at once
// too; sealValue writes what json.Marshal writes of the sealed document.
func TestSealByHand(t *testing.T) {
	s := NewSealer("secret")
	parts := [][]string{{}, {""}, {"value", "q16v1.7", `{"job":"q16v1"}`}, {"nonce", "w", "q8v1", "3", "f", "12"}, {strings.Repeat("x", 1000), "é"}}
	want := make([]string, len(parts))
	for i, p := range parts {
		m := hmac.New(sha256.New, s.key)
		for _, x := range p {
			fmt.Fprintf(m, "%d:%s", len(x), x)
		}
		want[i] = hex.EncodeToString(m.Sum(nil))
	}
	var wg sync.WaitGroup
	for range 4 {
		wg.Go(func() {
			for range 50 {
				for i, p := range parts {
					if got := s.Seal(p...); got != want[i] {
						t.Errorf("Seal(%q) = %s, want %s", p, got, want[i])
						return
					}
				}
			}
		})
	}
	wg.Wait()
	if !s.Check(want[2], parts[2]...) || s.Check(want[2], parts[3]...) {
		t.Error("Check does not tell its seal from another")
	}
	for i, r := range wireResults() {
		for _, v := range []any{&r, JobRecord{Job: r.Job, Tasks: 3, Total: "<&>"}} {
			doc, _ := json.Marshal(v)
			want, _ := json.Marshal(sealed{Seal: s.Seal("value", "k", string(doc)), Doc: doc})
			got, err := sealValue(s, "k", v)
			if err != nil || string(got) != string(want) {
				t.Errorf("value %d (%T): sealValue = %s, %v\nwant %s", i, v, got, err, want)
			}
			if _, err := openValue(s, "k", got, new(json.RawMessage)); err != nil {
				t.Errorf("value %d (%T): does not open: %v", i, v, err)
			}
		}
	}
}

// TestSubjectUser: the identity is a subject's third token.
func TestSubjectUser(t *testing.T) {
	for _, c := range []struct{ subject, user string }{
		{"chesspuzzles.want.w1", "w1"},
		{"chesspuzzles.result.w-2.q16v1", "w-2"},
		{"chesspuzzles.beat.", ""},
		{"chesspuzzles.beat", ""},
		{"chesspuzzles", ""},
		{"", ""},
		{"a..b", "b"},
		{"a.b.c.d", "c"},
	} {
		if got := subjectUser(c.subject); got != c.user {
			t.Errorf("subjectUser(%q) = %q, want %q", c.subject, got, c.user)
		}
	}
}

// wireAssignments are assignments of every shape: with a task or none, its description
// with quotes and backslashes (a queens task's is JSON) or characters encoding/json
// escapes otherwise, a second computation, the answers without a task.
func wireAssignments() []Assignment {
	return []Assignment{
		{TaskMsg: TaskMsg{Job: "q16v1", ID: 77, Task: &work.Task{ID: 77, Weight: 8, Cost: 123456789, Desc: `{"n":16,"id":77,"weight":8,"top":1,"bottom":2,"left":3,"right":4,"cost":99}`}},
			Messages: MessageVersion, Nonce: "f12.0123456789abcdef0123456789abcdef", Lease: 30, Seq: 5},
		{TaskMsg: TaskMsg{Job: "k6x6-open-ends-v1", ID: 0, Verify: true, Task: &work.Task{Weight: -1, Cost: math.MaxUint64, Desc: "a\\b \"c\" <&> \n é \xff"}}, Nonce: "v1.x", Lease: 0.3},
		{Messages: MessageVersion, Wait: 0.1},
		{Messages: MessageVersion, Wait: 1e-7, Finished: "q16v1"},
		{TaskMsg: TaskMsg{Job: "q8v1", ID: -2, Task: &work.Task{}}, Lease: 2.5e21, Seq: -1},
		{},
	}
}

// TestAssignmentJSONByHand: an assignment and a task are written as encoding/json writes
// them, and read back alike; a task's digest is that of its encoding/json form.
func TestAssignmentJSONByHand(t *testing.T) {
	for i, a := range wireAssignments() {
		want, err := json.Marshal(a)
		if err != nil {
			t.Fatal(err)
		}
		got, err := a.appendJSON(nil)
		if err != nil || string(got) != string(want) {
			t.Errorf("assignment %d: appendJSON = %s, %v\nwant                      %s", i, got, err, want)
		}
		samePlainAssignment(t, got)
		back, err := readAssignment(got)
		if err != nil || (a.Task != nil && utf8.ValidString(a.Task.Desc) && !reflect.DeepEqual(back, a)) {
			t.Errorf("assignment %d: read back %+v, %v; want %+v", i, back, err, a)
		}
		if a.Task != nil {
			data, _ := json.Marshal(*a.Task)
			sum := sha256.Sum256(data)
			if d := taskDigest(*a.Task); d != hex.EncodeToString(sum[:8]) {
				t.Errorf("task %+v: digest %s, want %x", *a.Task, d, sum[:8])
			}
		}
	}
	for _, f := range []float64{math.NaN(), math.Inf(-1)} {
		a := Assignment{Wait: f}
		if _, err := a.appendJSON(nil); err == nil {
			t.Errorf("wait %v: no error", f)
		}
	}
	if plain := (&Assignment{}).readPlain([]byte(`{"job":"q8v1","id":1,"task":{"ID":1,"Weight":2,"Cost":3,"Desc":"d"},"verify":false,"seq":2}`)); !plain {
		t.Error("a plain assignment is not read plain")
	}
	for _, data := range []string{
		`{"job":"q8v1","task":null}`, `{"job":"q8v1","task":{"id":1}}`, `{"job":"q8v1","task":{"ID":1,"ID":2}}`,
		`{"job":"q8v1","verify":1}`, `{"job":"q8v1","verify":tru}`, `{"job":"q8v1","verify":truee}`, `{"job":"q8v1","lease":"1"}`,
		`{"job":"q8v1","task":{"ID":1,}}`, `{"job":"q8v1","task":{}}`, `{"job":"q8v1","task":{"Weight":9223372036854775808}}`,
	} {
		samePlainAssignment(t, []byte(data))
	}
}

// samePlainAssignment fails t if Assignment.readPlain reads data otherwise than
// encoding/json.
func samePlainAssignment(t *testing.T, data []byte) {
	t.Helper()
	var plain, std Assignment
	if !plain.readPlain(data) {
		if !reflect.DeepEqual(plain, Assignment{}) {
			t.Errorf("readPlain(%q) refused it but set %+v", data, plain)
		}
		return
	}
	if err := json.Unmarshal(data, &std); err != nil {
		t.Fatalf("readPlain(%q) read %+v, but encoding/json refuses it: %v", data, plain, err)
	}
	if !reflect.DeepEqual(plain, std) {
		t.Fatalf("readPlain(%q) = %+v (task %+v), encoding/json reads %+v (task %+v)", data, plain, plain.Task, std, std.Task)
	}
}

// FuzzReadPlainAssignment: whatever Assignment.readPlain reads, encoding/json reads alike.
func FuzzReadPlainAssignment(f *testing.F) {
	for _, a := range wireAssignments() {
		data, _ := a.appendJSON(nil)
		f.Add(data)
	}
	f.Fuzz(func(t *testing.T, data []byte) { samePlainAssignment(t, data) })
}

// TestReceiptAndWant: the usual receipt is read at once, any other by encoding/json; a
// worker's request read once is taken again for the same bytes only.
func TestReceiptAndWant(t *testing.T) {
	for _, c := range []struct {
		data string
		want Receipt
		err  bool
	}{
		{`{"ok":true}`, Receipt{OK: true}, false},
		{` {"ok":true}`, Receipt{OK: true}, false},
		{`{"ok":false,"refused":"late"}`, Receipt{Refused: "late"}, false},
		{`{"ok":true`, Receipt{}, true},
	} {
		got, err := readReceipt([]byte(c.data))
		if got != c.want || (err != nil) != c.err {
			t.Errorf("readReceipt(%s) = %+v, %v; want %+v, error %v", c.data, got, err, c.want, c.err)
		}
	}
	d := &dispatch{}
	w1, _ := json.Marshal(WantMsg{Name: "a", Messages: MessageVersion, Kinds: []string{"k", "q"}, Cores: 2, Instance: "i1"})
	w2, _ := json.Marshal(WantMsg{Name: "a", Messages: MessageVersion, Kinds: []string{"q"}, Cores: 2, Instance: "i2"})
	for i, c := range []struct {
		user string
		data []byte
	}{{"u", w1}, {"u", w1}, {"u", w2}, {"v", w1}, {"u", w1}, {"u", []byte(`{"name":`)}, {"u", []byte(`{"name":`)}} {
		var want WantMsg
		_ = json.Unmarshal(c.data, &want)
		if got := d.readWant(c.user, c.data); !reflect.DeepEqual(got, want) {
			t.Errorf("request %d of %s: %+v, want %+v", i, c.user, got, want)
		}
	}
}
