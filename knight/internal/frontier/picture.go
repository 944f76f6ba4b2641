package frontier

// The values of a cell of the window (see the package comment) and their packing.
const (
	free       = 0
	full       = 1
	loose      = 2
	firstLabel = 3
	base       = 11
	// MaxRows is the largest short side the sweep handles: its window holds 2·MaxRows+1
	// cells, packed in 64 bits.
	MaxRows = 8
	maxW    = 2*MaxRows + 1
)

// picture is the extended window of a step: slots 0..W-1 the cells v-W..v-1, W the new
// cell v.
type picture = [maxW + 1]uint8

// degree returns the edges a cell of value x has.
func degree(x uint8) int8 {
	switch x {
	case free:
		return 0
	case full:
		return 2
	}
	return 1
}

// encodeShift packs slots 1..W of a (the window after the step), relabelling fragments
// in order of first appearance. Digits go in two at a time (W is odd), which halves the
// chain of dependent multiplications.
func encodeShift(a *picture, W int) uint64 {
	var m [16]uint8
	next := uint8(firstLabel)
	// relabel from the new end so that labels are canonical for the packed order
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

// encode packs slots 0..W-1 of a (the initial state; no labels).
func encode(a *picture, W int) uint64 {
	var key uint64
	for s := W - 1; s >= 0; s-- {
		key = key*base + uint64(a[s])
	}
	return key
}

// decode unpacks key into slots 0..W-1 of a: the digit of slot 0 is the least significant
// (slot s of the window after a step is slot s+1 of the extended window encoded above).
// Digits come out two at a time (W is odd).
func decode(a *picture, key uint64, W int) {
	s := 0
	for ; s+1 < W; s += 2 {
		r := key % (base * base)
		key /= base * base
		a[s] = lowDigit[r]
		a[s+1] = highDigit[r]
	}
	if s < W {
		a[s] = uint8(key)
	}
}

// lowDigit[r] and highDigit[r] are the two base-11 digits of r < 121.
var lowDigit, highDigit = func() (lo, hi [base * base]uint8) {
	for r := range lo {
		lo[r], hi[r] = uint8(r%base), uint8(r/base)
	}
	return lo, hi
}()
