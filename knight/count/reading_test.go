package count

import (
	"testing"

	"github.com/chesspuzzles/chesspuzzles/knight/internal/frontier"
)

// TestReadings feeds the frontier's calls through readings as a count resumed from a cut
// makes them: the cell counts from 1, the cut's states are added in its cell only, and the
// layer's size comes from the resumed layer's record, then from each cell's Report.
func TestReadings(t *testing.T) {
	var got []Reading
	r := newReadings(func(g Reading) { got = append(got, g) })
	fo := frontier.Options{Spill: struct{ frontier.Disk }{}} // wrap only asks if there is one
	r.wrap(&fo)
	fo.Reading(0, 1) // a fresh count's first cell reads the one state before it
	fo.Resumed(28, append(make([]int, 27), 3118))
	fo.ResumedCut(28, 1000, 2)
	fo.Reading(28, 500)
	fo.Report(28, 5000, 0)
	fo.Reading(29, 700)
	fo.Resumed(3, []int{1, -1, -1}) // a layer whose size was not recorded
	fo.Reading(3, 9)
	fo.Merging(3, 2, 7) // the step's runs merged on disk
	want := []Reading{{Cell: 1, Read: 1, Of: 1}, {Cell: 29, Read: 1500, Of: 3118}, {Cell: 30, Read: 700, Of: 5000}, {Cell: 4, Read: 9}, {Cell: 4, Merged: 2, Ranges: 7}}
	if len(got) != len(want) {
		t.Fatalf("readings %+v, want %+v", got, want)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("reading %d = %+v, want %+v", i, got[i], want[i])
		}
	}
}
