package join

import (
	"context"
	"fmt"
	"math/bits"
	"slices"
	"sync"
	"testing"
	"time"
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
		if _, pieces := flatTable(tab); len(pieces) != total || uint64(total) != quarterPieceCount(h) {
			t.Errorf("h=%d: %d pieces in the table, %d enumerated, quarterPieceCount %d", h, len(pieces), total, quarterPieceCount(h))
		}
	}
	for h, want := range map[int]int{8: 118969, 9: 915442} {
		tab, err := buildQuarterTable(h)
		if err != nil {
			t.Fatal(err)
		}
		var walked quarterTable
		walked.h = h
		off, pieces := flatTable(tab)
		if len(pieces) != want || walked.count(nil) != uint64(want) {
			t.Errorf("h=%d: %d pieces built, %d walked; want %d", h, len(pieces), walked.count(nil), want)
		}
		if int(off[len(off)-1]) != want {
			t.Errorf("h=%d: offsets end at %d, want %d", h, off[len(off)-1], want)
		}
	}
}

// walkedTable lays out the pieces of the h×h square as the table must hold them, from the
// closure-based walk and a stable sort by key: offsets and pieces.
func walkedTable(h int) ([]uint32, []uint64) {
	type keyed struct {
		key   uint32
		piece uint64
	}
	var all []keyed
	w := quarterTable{h: h}
	w.walk(0, 0, 0, 0, 0, func(key uint32, piece uint64) { all = append(all, keyed{key, piece}) })
	slices.SortStableFunc(all, func(a, b keyed) int { return int(a.key) - int(b.key) })
	off := make([]uint32, 4<<(2*h)+1)
	pieces := make([]uint64, len(all))
	for i, x := range all {
		off[x.key+1]++
		pieces[i] = x.piece
	}
	for k := 1; k < len(off); k++ {
		off[k] += off[k-1]
	}
	return off, pieces
}

// flatTable returns a whole table's rows laid end to end, in increasing row mask, as the
// walk's layout (walkedTable) holds them: one offset array over all cells (those of other
// popcounts than their row's empty), one piece array. Each row's offsets must have a cell
// for each column mask of its popcount, start at 0, end at its pieces' length, and hold
// each run where the runs before it end.
func flatTable(tab *quarterTable) ([]uint32, []uint64) {
	h := tab.h
	off := make([]uint32, 0, 4<<(2*h)+1)
	var pieces []uint64
	for m := range uint32(1) << h {
		r := &tab.rows[m]
		k := bits.OnesCount32(m)
		if len(r.off) != 4*int(choose(h, k))+1 || r.off[0] != 0 || int(r.off[len(r.off)-1]) != len(r.pieces) {
			return nil, nil
		}
		base, pos := uint32(len(pieces)), uint32(0)
		for cols := range uint32(1) << h {
			for class := range 4 {
				if bits.OnesCount32(cols) == k && r.off[tab.rank[cols]<<2|uint32(class)] != pos {
					return nil, nil
				}
				off = append(off, base+pos)
				pos += uint32(len(tab.run(m, cols, class, class+1)))
			}
		}
		pieces = append(pieces, r.pieces...)
	}
	return append(off, uint32(len(pieces))), pieces
}

// TestQuarterTableParallel checks that the table is the same, byte for byte, whether one
// goroutine builds it, several build it at once, or its parts finish in another order:
// each must equal the walk's layout (pieces in enumeration order inside each run).
func TestQuarterTableParallel(t *testing.T) {
	for _, h := range []int{1, 3, 5, 8, 9} {
		wantOff, wantPieces := walkedTable(h)
		check := func(name string, tab *quarterTable) {
			t.Helper()
			if off, pieces := flatTable(tab); !slices.Equal(off, wantOff) || !slices.Equal(pieces, wantPieces) {
				t.Errorf("h=%d, %s: the table differs from the walk's layout (%d pieces, want %d)", h, name, len(pieces), len(wantPieces))
			}
			if len(tab.colsByPop) != h+1 {
				t.Errorf("h=%d, %s: %d column lists, want %d", h, name, len(tab.colsByPop), h+1)
			}
		}
		tab, err := buildQuarterTable(h)
		if err != nil {
			t.Fatal(err)
		}
		check("one goroutine", tab)

		for _, workers := range []int{2, 5} {
			b, err := newTableBuild(h)
			if err != nil {
				t.Fatal(err)
			}
			tabs := make([]*quarterTable, workers)
			var wg sync.WaitGroup
			for i := range workers {
				wg.Go(func() {
					tab, err := b.help(context.Background())
					if err != nil {
						t.Error(err)
					}
					tabs[i] = tab
				})
			}
			wg.Wait()
			for i, got := range tabs {
				if got != tabs[0] {
					t.Errorf("h=%d: goroutine %d got another table than goroutine 0", h, i)
				}
			}
			check(fmt.Sprintf("%d goroutines", workers), tabs[0])
		}

		// Parts interleaved from both ends, as goroutines of very different speeds would
		// finish them, with one scratch.
		b, err := newTableBuild(h)
		if err != nil {
			t.Fatal(err)
		}
		np := len(b.parts)
		var sc frontierScratch
		for i := range np {
			j := i / 2
			if i%2 == 1 {
				j = np - 1 - i/2
			}
			b.runPart(&sc, j)
		}
		select {
		case <-b.done:
		default:
			t.Fatalf("h=%d: the build is not done after every part", h)
		}
		check("parts in another order", b.t)
	}
}

// TestSharedQuarterTableConcurrent asks for one table from several goroutines at once:
// all must get the same, complete table.
func TestSharedQuarterTableConcurrent(t *testing.T) {
	const h = 7
	wantOff, wantPieces := walkedTable(h)
	// Forget a table another test built, so that the goroutines below build it together.
	quarterTables.Lock()
	delete(quarterTables.byH, h)
	quarterTables.Unlock()
	tabs := make([]*quarterTable, 4)
	var wg sync.WaitGroup
	for i := range tabs {
		wg.Go(func() {
			tab, err := sharedQuarterTable(context.Background(), h)
			if err != nil {
				t.Error(err)
			}
			tabs[i] = tab
		})
	}
	wg.Wait()
	for i, tab := range tabs {
		if tab != tabs[0] {
			t.Fatalf("goroutine %d got another table than goroutine 0", i)
		}
	}
	if off, pieces := flatTable(tabs[0]); !slices.Equal(off, wantOff) || !slices.Equal(pieces, wantPieces) {
		t.Errorf("h=%d: the shared table differs from the walk's layout", h)
	}
}

// TestQuarterTableCancel checks that a build whose context ends returns its error, and that
// the build interrupted that way is finished whole by the next caller.
func TestQuarterTableCancel(t *testing.T) {
	const h = 9
	b, err := newTableBuild(h)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if tab, err := b.help(ctx); tab != nil || err != context.Canceled {
		t.Fatalf("help with a done context = %v, %v; want nil, context.Canceled", tab, err)
	}
	// Stop after a few parts: the next caller claims the rest.
	ctx, cancel = context.WithCancel(context.Background())
	go func() {
		for b.next.Load() < 3 {
			time.Sleep(time.Microsecond)
		}
		cancel()
	}()
	_, _ = b.help(ctx)
	tab, err := b.help(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	wantOff, wantPieces := walkedTable(h)
	if off, pieces := flatTable(tab); !slices.Equal(off, wantOff) || !slices.Equal(pieces, wantPieces) {
		t.Errorf("h=%d: the table finished after a cancel differs from the walked layout", h)
	}
}

// TestTableBudget: the whole table is taken where it fits the limit beside the buffers
// of the workers a run names (count.WithWorkers), not of every core: a limit that holds
// the table and one worker's buffers gives one worker the whole table and two a partial
// one, with what their buffers leave (nothing where they take the whole limit).
func TestTableBudget(t *testing.T) {
	for _, n := range []int{16, 22, 24} {
		table, per := memoryOf(n)
		limit := table + per + memorySlack
		if whole, _ := tableBudget(n, 1, limit); !whole {
			t.Errorf("tableBudget(%d, 1 worker, %d) is partial, want whole (table %d, buffers %d)", n, limit, table, per)
		}
		whole, budget := tableBudget(n, 2, limit)
		if want := table - min(table, per); whole || budget != want { // N = 16: the table is less than a worker's buffers
			t.Errorf("tableBudget(%d, 2 workers, %d) = %v, %d, want partial, %d", n, limit, whole, budget, want)
		}
		if whole, budget := tableBudget(n, 1, per); whole || budget != 0 {
			t.Errorf("tableBudget(%d, 1 worker, %d) = %v, %d, want partial, 0 (the buffers take it all)", n, per, whole, budget)
		}
	}
}
