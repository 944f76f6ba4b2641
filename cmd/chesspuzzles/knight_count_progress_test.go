package main

import (
	"bytes"
	"strings"
	"testing"
	"time"

	kcount "github.com/chesspuzzles/chesspuzzles/knight/count"
)

// TestCountProgressReading checks the lines a dp count shows inside a cell: the cells done
// are those before it, the total the board's, and the note names the cell and the share of
// its layer read (or the states read, where the layer's size is not known).
func TestCountProgressReading(t *testing.T) {
	tests := []struct {
		r    kcount.Reading
		want []string
	}{
		{kcount.Reading{Cell: 29, Read: 390, Of: 3120}, []string{"knight count: 28/64 cells", "cell 29: 12.5% of 3120 states read"}},
		{kcount.Reading{Cell: 28, Read: 777}, []string{"knight count: 27/64 cells", "cell 28: 777 states read"}},
		// resumed, no cell ended since: the forecast from the cell's reading rate
		{kcount.Reading{Cell: 31, Read: 500, Of: 1000, ETA: 90 * time.Minute}, []string{"knight count: 30/64 cells", "ETA 1h30m0s", "cell 31: 50.0% of 1000 states read"}},
		{kcount.Reading{Cell: 31, Read: 500, Of: 1000}, []string{"ETA ?"}},
	}
	for _, tt := range tests {
		var b bytes.Buffer
		p := newCountProgress(&b, false)
		p.total, p.every = 64, time.Nanosecond
		p.reading(tt.r)
		line := b.String()
		if strings.Count(line, "\n") != 1 {
			t.Errorf("Reading %+v wrote %q, want one line", tt.r, line)
		}
		for _, w := range tt.want {
			if !strings.Contains(line, w) {
				t.Errorf("Reading %+v wrote %q, want it to hold %q", tt.r, line, w)
			}
		}
	}
}

// TestCountProgressReadingETA checks that a forecast from a cell's reading is kept, less
// the time since, while the runs merge (a Reading without one), and that a Status's own
// forecast wins over it.
func TestCountProgressReadingETA(t *testing.T) {
	var b bytes.Buffer
	p := newCountProgress(&b, false)
	p.total, p.every = 64, time.Nanosecond
	p.reading(kcount.Reading{Cell: 31, Read: 500, Of: 1000, ETA: 90 * time.Minute})
	p.readAt = p.readAt.Add(-30 * time.Minute)
	b.Reset()
	p.reading(kcount.Reading{Cell: 31, Merged: 1, Ranges: 4})
	if line := b.String(); !strings.Contains(line, "ETA 1h0m0s") {
		t.Errorf("merging 30 min after a forecast of 1h30m: %q, want ETA 1h0m0s", line)
	}
	p.update(kcount.Status{Method: kcount.MethodDP, Done: 31, Total: 64, ETA: 2 * time.Hour})
	b.Reset()
	p.reading(kcount.Reading{Cell: 32, Read: 10, Of: 1000})
	if line := b.String(); !strings.Contains(line, "ETA 2h0m0s") {
		t.Errorf("reading after a Status forecasting 2h: %q, want ETA 2h0m0s", line)
	}
}

// TestCountProgressResumedCut checks the rate of cells after a resume: a count resumed
// from a sealed layer counts its rate from the resume, but one resumed inside a cell from
// its cut shows no rate when that cell seals (a part of a cell read since the resume, not
// a cell) and counts it from that seal on.
func TestCountProgressResumedCut(t *testing.T) {
	status := func(p *countProgress, b *bytes.Buffer, done int) string {
		b.Reset()
		p.update(kcount.Status{Method: kcount.MethodDP, Done: done, Total: 64})
		return b.String()
	}
	var b bytes.Buffer
	p := newCountProgress(&b, false)
	p.every = time.Nanosecond
	p.resumed(29)
	p.t0 = p.t0.Add(-400 * time.Second)
	if line := status(p, &b, 30); !strings.Contains(line, "30/64 cells") || strings.Contains(line, "? cells/s") {
		t.Errorf("a cell sealed 400 s after a resume from a layer: %q, want a rate", line)
	}

	b.Reset()
	p = newCountProgress(&b, false)
	p.every = time.Nanosecond
	p.resumed(29)
	p.resumedCut()
	p.t0 = p.t0.Add(-400 * time.Second)
	if line := status(p, &b, 30); !strings.Contains(line, "30/64 cells, 46.9%, ? cells/s") {
		t.Errorf("the cell resumed inside from a cut sealed: %q, want no rate (? cells/s)", line)
	}
	p.t0 = p.t0.Add(-2000 * time.Second)
	if line := status(p, &b, 31); !strings.Contains(line, "31/64 cells, 48.4%, 0.0005 cells/s") {
		t.Errorf("the next cell sealed 2000 s later: %q, want 0.0005 cells/s", line)
	}
}
