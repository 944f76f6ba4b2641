package shard

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/chesspuzzles/chesspuzzles/queens/count"
)

// TestReadFileFields writes a file with every field of File set, and of none, and reads
// each back equal: ReadFile decodes the fields by name, one by one, and must know them all.
func TestReadFileFields(t *testing.T) {
	full := File{N: 27, Method: "join", PlanVersion: 3, Shard: 2, Shards: 7, Tasks: 2,
		Solutions: "12", HalfTurn: "4", QuarterTurn: "2", Nodes: 99, Seconds: 1.5,
		Results: []count.Result{{ID: 5, Solutions: 7, HalfTurn: 1, QuarterTurn: 1, Nodes: 40, RowSets: 3, Stored: 2, PairTests: 6}, {ID: 9}},
		Run:     "ab", Checksum: "sha256:00"}
	v := reflect.ValueOf(full)
	for i := range v.NumField() {
		if v.Field(i).IsZero() {
			t.Fatalf("the test's file leaves %s zero: set every field", v.Type().Field(i).Name)
		}
	}
	for _, want := range []File{full, {N: 1, Shards: 1, Results: []count.Result{}}, {N: 1, Shards: 1}} {
		data, err := json.Marshal(want)
		if err != nil {
			t.Fatal(err)
		}
		name := filepath.Join(t.TempDir(), "s.json")
		if err := os.WriteFile(name, data, 0o644); err != nil {
			t.Fatal(err)
		}
		got, n, err := ReadFile(context.Background(), name, MaxFileBytes)
		if err != nil || n != int64(len(data)) || !reflect.DeepEqual(got, want) {
			t.Errorf("ReadFile(%s) = %+v, %d, %v; want %+v, %d", data, got, n, err, want, len(data))
		}
	}
}

// TestReadFileBoundsResults gives files whose results are shorter than any Compute writes:
// more of them than the file's limit allows at the shortest are refused, as they stream
// in, rather than held (issue 44: 66 MB of "{}," were 16.5 million results of 64 bytes).
func TestReadFileBoundsResults(t *testing.T) {
	const limit = 10_000
	max := maxResults(limit)
	for _, tc := range []struct {
		results int
		refused bool
	}{{max, false}, {max + 1, true}} {
		text := `{"n":10,"shards":1,"results":[` + strings.Repeat(`{},`, tc.results-1) + `{}]}`
		name := filepath.Join(t.TempDir(), "s.json")
		if err := os.WriteFile(name, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		f, _, err := ReadFile(context.Background(), name, limit)
		switch {
		case tc.refused && (!errors.Is(err, ErrInput) || !strings.Contains(err.Error(), "task results")):
			t.Errorf("%d results in %d bytes: %v, want refused for its results", tc.results, len(text), err)
		case !tc.refused && (err != nil || len(f.Results) != tc.results):
			t.Errorf("%d results in %d bytes: %d results, %v; want them read", tc.results, len(text), len(f.Results), err)
		}
	}
	for _, text := range []string{`{"n":10,"shards":1,"results":{}}`, `{"n":10,"shards":1,"other":1}`, `{"n":10,"shards":1,"results":[{"id":1,"x":2}]}`, `[1]`} {
		name := filepath.Join(t.TempDir(), "s.json")
		if err := os.WriteFile(name, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		if _, _, err := ReadFile(context.Background(), name, limit); !errors.Is(err, ErrInput) {
			t.Errorf("ReadFile(%s) = %v, want ErrInput", text, err)
		}
	}
}
