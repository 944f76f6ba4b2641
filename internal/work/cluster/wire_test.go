package cluster

import (
	"encoding/json"
	"math/big"
	"strings"
	"testing"

	"github.com/chesspuzzles/chesspuzzles/internal/work"
)

// TestResultWire: a result travels with its count in decimal, exactly however large, and
// its counters by name in order; a count that is not a whole number of at most
// maxCountDigits digits is refused; a result a build of message version 2 stored is read as
// such (its count in "solutions").
func TestResultWire(t *testing.T) {
	parallel(t)
	huge, _ := new(big.Int).SetString("1180591620717411303424", 10) // 2^70
	r := Result{Job: "toy10-4-x60-v1", Result: work.Result{ID: 3, Count: huge, Counters: []work.Counter{{Name: "steps", Value: 64}}}, Worker: "w1", Task: "abc", Nonce: "n"}
	data, err := json.Marshal(r)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(data), `"count":"1180591620717411303424"`) || !strings.Contains(string(data), `"counters":[{"name":"steps","value":64}]`) {
		t.Errorf("wire form %s: want the count in decimal and the counters by name", data)
	}
	var back Result
	if err := json.Unmarshal(data, &back); err != nil || !back.Result.Equal(r.Result) || back.Job != r.Job || back.Worker != "w1" || back.Task != "abc" || back.old != nil {
		t.Errorf("read back %+v, %v; want %+v", back, err, r)
	}
	for _, bad := range []string{`"-1"`, `"1e9"`, `"0x10"`, `""`, `"` + strings.Repeat("9", maxCountDigits+1) + `"`} {
		if err := json.Unmarshal([]byte(`{"job":"q8v1","id":1,"count":`+bad+`}`), &back); err == nil {
			t.Errorf("count %.20s… read as %v", bad, back.Count)
		}
	}
	old := `{"job":"q8v1","n":8,"plan_version":1,"id":2,"solutions":4,"half_turn":0,"quarter_turn":0,"nodes":99,"worker":"w2"}`
	if err := json.Unmarshal([]byte(old), &back); err != nil || back.old == nil || *back.old.Solutions != 4 || back.Count != nil {
		t.Fatalf("a result of message version 2: %+v, %v", back, err)
	}
	plan := mustPlan(t, 8)
	if err := checkResult(plan, 2, &back); err != nil || back.Count.Int64() != 4 || back.old != nil {
		t.Errorf("a result of message version 2 made the plan's: %+v, %v", back, err)
	}
}
