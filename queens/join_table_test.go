package queens

import (
	"slices"
	"testing"
)

// TestQuarterTable checks the quarter table against an independent enumeration: for small
// h every subset of cells of the h×h square is tried, the non-attacking ones are grouped
// by (rows, columns, long-diagonal class) with their diagonal masks computed from the
// coordinates, and each cell run of the table must hold exactly those pieces. For h = 8
// and 9 the piece counts must be the published P(h) of the reference file (118,969 and
// 915,442), and the closure-based walk must agree with the build's.
func TestQuarterTable(t *testing.T) {
	for h := 1; h <= 4; h++ {
		tab, err := buildQuarterTable(h)
		if err != nil {
			t.Fatal(err)
		}
		want := map[uint32][]uint64{}
		cells := h * h
		for set := uint64(0); set < 1<<cells; set++ {
			var rows, cols, down, up uint32
			ok := true
			for i := range cells {
				if set>>i&1 == 0 {
					continue
				}
				r, c := i/h, i%h
				d, u := uint32(1)<<(c-r+h-1), uint32(1)<<(c+r)
				if rows>>r&1 != 0 || cols>>c&1 != 0 || down&d != 0 || up&u != 0 {
					ok = false
					break
				}
				rows, cols, down, up = rows|1<<r, cols|1<<c, down|d, up|u
			}
			if !ok {
				continue
			}
			long := uint32(1) << (h - 1)
			class := uint32(1) // neither
			switch {
			case down&long != 0 && up&long != 0:
				class = 3
			case down&long != 0:
				class = 0
			case up&long != 0:
				class = 2
			}
			key := (rows<<h|cols)<<2 | class
			want[key] = append(want[key], uint64(down)|uint64(up)<<32)
		}
		total := 0
		for key := uint32(0); key < 4<<(2*h); key++ {
			rows, cols, class := key>>(2+h), key>>2&(1<<h-1), int(key&3)
			got := slices.Clone(tab.run(rows, cols, class, class+1))
			w := want[key]
			slices.Sort(got)
			slices.Sort(w)
			if !slices.Equal(got, w) {
				t.Fatalf("h=%d cell rows %b cols %b class %d: table %x, want %x", h, rows, cols, class, got, w)
			}
			total += len(w)
		}
		if len(tab.pieces) != total || uint64(total) != quarterPieceCount(h) {
			t.Errorf("h=%d: %d pieces in the table, %d enumerated, quarterPieceCount %d", h, len(tab.pieces), total, quarterPieceCount(h))
		}
	}
	for h, want := range map[int]int{8: 118969, 9: 915442} {
		tab, err := buildQuarterTable(h)
		if err != nil {
			t.Fatal(err)
		}
		var walked quarterTable
		walked.h = h
		if len(tab.pieces) != want || walked.count(nil) != uint64(want) {
			t.Errorf("h=%d: %d pieces built, %d walked; want %d", h, len(tab.pieces), walked.count(nil), want)
		}
		if int(tab.off[len(tab.off)-1]) != want {
			t.Errorf("h=%d: offsets end at %d, want %d", h, tab.off[len(tab.off)-1], want)
		}
	}
}
