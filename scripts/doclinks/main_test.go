package main

import (
	"slices"
	"strings"
	"testing"
)

// TestCheckDir: the dead links of testdata/links are found, in order, and its live links,
// placeholders and index expressions are not reported.
func TestCheckDir(t *testing.T) {
	dead, err := checkDir("testdata/links")
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, d := range dead {
		// "file:line:col: [Name] in the doc of X resolves to nothing"
		_, rest, _ := strings.Cut(d, ": ")
		got = append(got, strings.TrimSuffix(rest, " resolves to nothing"))
	}
	want := []string{
		"[Gone] in the doc of package links",
		"[Good.Missing] in the doc of Good",
		"[bad] in the doc of Good",
		"[nowhere.Func] in the doc of bad",
	}
	slices.Sort(got)
	slices.Sort(want)
	if !slices.Equal(got, want) {
		t.Errorf("checkDir(testdata/links) found\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}
