package shard

import (
	"context"
	"path/filepath"
	"testing"

	"github.com/chesspuzzles/chesspuzzles/queens"
)

// TestMergeOf63236ff: the two slices "queens count 9 --shard I/2" in the format of main
// 63236ff (written by main ba27ce7, which changed no format since; testdata/63236ff) still
// merge, to the published Q(9).
func TestMergeOf63236ff(t *testing.T) {
	names := []string{filepath.Join("testdata", "63236ff", "q9-0of2.json"), filepath.Join("testdata", "63236ff", "q9-1of2.json")}
	c, _, err := Merge(context.Background(), names, MergeOptions{Replicas: 1})
	want, _ := queens.Known(9)
	if err != nil || c.Total.Cmp(want.Total) != 0 || c.Unique.Cmp(want.Unique) != 0 {
		t.Errorf("merging the 63236ff slices: %v, %v; want %v (%v unique)", c, err, want.Total, want.Unique)
	}
}
