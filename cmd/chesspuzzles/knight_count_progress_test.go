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
