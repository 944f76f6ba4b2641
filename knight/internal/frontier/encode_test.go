package frontier

import (
	"math/rand/v2"
	"testing"
)

// encodeShiftLoop is the former encodeShift, kept as the reference: a loop over slots W
// down to 1, each relabelled on its way, packed two digits at a time.
func encodeShiftLoop(a *picture, W int) uint64 {
	var m [16]uint8
	next := uint8(firstLabel)
	label := func(x uint8) uint8 {
		if x >= firstLabel {
			if m[x&15] == 0 {
				m[x&15] = next
				next++
			}
			x = m[x&15]
		}
		return x
	}
	key := uint64(label(a[W]))
	for s := W - 1; s >= 2; s -= 2 {
		x := label(a[s])
		y := label(a[s-1])
		key = key*(base*base) + uint64(x)*base + uint64(y)
	}
	return key
}

// randomPicture fills every slot of a with a value 0 to 15, free, full and loose more
// often, and a few labels as the sweep makes them (each twice) half the time.
func randomPicture(r *rand.Rand, a *picture) {
	for s := range a {
		a[s] = uint8(r.IntN(16))
		if r.IntN(2) == 0 {
			a[s] = uint8(r.IntN(3))
		}
	}
	if r.IntN(2) == 0 {
		for s := range a {
			a[s] = uint8(r.IntN(3))
		}
		for l := range r.IntN(5) {
			a[r.IntN(len(a))] = uint8(firstLabel + l)
			a[r.IntN(len(a))] = uint8(firstLabel + l)
		}
		if r.IntN(3) == 0 {
			a[r.IntN(len(a))], a[r.IntN(len(a))] = 15, 15
		}
	}
}

// TestEncodeShift checks encodeShift against encodeShiftLoop on random pictures for every
// window of 1 to 8 rows (slots past W hold junk, which neither may read).
func TestEncodeShift(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	for range 200000 {
		var a picture
		randomPicture(r, &a)
		W := 2*(1+r.IntN(MaxRows)) + 1
		if got, want := encodeShift(&a, W), encodeShiftLoop(&a, W); got != want {
			t.Fatalf("encodeShift(%v, %d) = %d, want %d", a, W, got, want)
		}
	}
}

// FuzzEncodeShift checks encodeShift against encodeShiftLoop on any picture of values 0 to
// 15 (a picture holds no other) and any window.
func FuzzEncodeShift(f *testing.F) {
	f.Add([]byte{0, 1, 2, 3, 4, 3, 4, 15, 15, 0, 1, 2, 5, 5, 0, 0, 1, 7}, uint8(8))
	f.Add([]byte{2, 15, 1, 0, 15, 3, 1, 1, 3, 0, 0, 0, 0, 0, 0, 0, 0, 15}, uint8(3))
	f.Fuzz(func(t *testing.T, b []byte, rows uint8) {
		var a picture
		for s := range min(len(b), len(a)) {
			a[s] = b[s] & 15
		}
		W := 2*(1+int(rows)%MaxRows) + 1
		if got, want := encodeShift(&a, W), encodeShiftLoop(&a, W); got != want {
			t.Fatalf("encodeShift(%v, %d) = %d, want %d", a, W, got, want)
		}
	})
}

var encodeSink uint64

// BenchmarkEncodeShift packs random pictures of 8 rows' window (W = 17), new and old.
func BenchmarkEncodeShift(b *testing.B) {
	r := rand.New(rand.NewPCG(5, 6))
	pics := make([]picture, 4096)
	for i := range pics {
		randomPicture(r, &pics[i])
	}
	for _, bc := range []struct {
		name string
		f    func(*picture, int) uint64
	}{{"words", encodeShift}, {"loop", encodeShiftLoop}} {
		b.Run(bc.name, func(b *testing.B) {
			var s uint64
			for i := range b.N {
				s += bc.f(&pics[i&4095], maxW)
			}
			encodeSink = s
		})
	}
}

// relabelLoop is the former relabel, kept as the reference: a loop over the slots.
func relabelLoop(b *picture, from, to uint8) {
	for s := range b {
		if b[s] == from {
			b[s] = to
		}
	}
}

// TestRelabel checks relabel against relabelLoop on random pictures, from and to any
// values 0 to 15 (from often one the picture holds).
func TestRelabel(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 8))
	for range 200000 {
		var a picture
		randomPicture(r, &a)
		from, to := uint8(r.IntN(16)), uint8(r.IntN(16))
		if r.IntN(2) == 0 {
			from = a[r.IntN(len(a))]
		}
		got, want := a, a
		relabel(&got, from, to)
		relabelLoop(&want, from, to)
		if got != want {
			t.Fatalf("relabel(%v, %d, %d) = %v, want %v", a, from, to, got, want)
		}
	}
}

// decodeLoop is the former decode, kept as the reference: two digits a division.
func decodeLoop(a *picture, key uint64, W int) {
	s := 0
	for ; s+1 < W; s += 2 {
		r := key % (base * base)
		key /= base * base
		a[s] = uint8(r % base)
		a[s+1] = uint8(r / base)
	}
	if s < W {
		a[s] = uint8(key)
	}
}

// TestDecode checks decode against decodeLoop on random keys of every window of 1 to 8
// rows, the largest and the smallest among them, and that the slots past W-1 are 0 (a
// cell of the extended window: free).
func TestDecode(t *testing.T) {
	r := rand.New(rand.NewPCG(9, 10))
	for i := range 300000 {
		W := 2*(1+r.IntN(MaxRows)) + 1
		limit := pow11[W-1] * base
		key := r.Uint64N(limit)
		switch i % 100 {
		case 0:
			key = limit - 1
		case 1:
			key = 0
		}
		var got, want picture
		decode(&got, key, W)
		decodeLoop(&want, key, W)
		if got != want {
			t.Fatalf("decode(%d, %d) = %v, want %v", key, W, got, want)
		}
		if back := encode(&got, W); back != key {
			t.Fatalf("encode(decode(%d, %d)) = %d", key, W, back)
		}
	}
}

// TestUnpackDivisions checks the two divisions of unpack8 by multiplication over their
// whole ranges.
func TestUnpackDivisions(t *testing.T) {
	for v := range uint64(base * base * base * base) {
		if got := v * 8666 >> 20; got != v/(base*base) {
			t.Fatalf("%d·8666 >> 20 = %d, want %d", v, got, v/(base*base))
		}
	}
	for v := range uint64(base * base) {
		if got := v * 187 >> 11; got != v/base {
			t.Fatalf("%d·187 >> 11 = %d, want %d", v, got, v/base)
		}
	}
}
