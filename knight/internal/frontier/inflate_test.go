package frontier

import (
	"bytes"
	"compress/flate"
	"errors"
	"io"
	"math/rand/v2"
	"testing"
	"testing/iotest"
)

// inflateInputs are streams' contents: records as the runs write them, random bytes,
// repeated text (back-references at every distance), and the empty and one-byte cases.
func inflateInputs(t *testing.T) map[string][]byte {
	rng := rand.New(rand.NewPCG(48, 10))
	recs := make([]byte, 0, 3<<20)
	var b [recMax]byte
	k := uint64(0)
	for len(recs) < 3<<20 {
		// neighbouring keys close, counts small: as in a layer
		d := 1 + rng.Uint64N(1<<min(uint(1+rng.ExpFloat64()*6), 60))
		k += d
		n := putRec(b[:], d, 1+rng.Uint64N(1<<min(uint(rng.ExpFloat64()*8), 60)), 0)
		recs = append(recs, b[:n]...)
	}
	random := make([]byte, 700_000)
	for i := range random {
		random[i] = byte(rng.Uint32())
	}
	var text []byte
	for len(text) < 1<<20 {
		text = append(text, "the knight's tours of a 7x7 board, open: 165575218320; "...)
		text = append(text, random[:rng.IntN(300)]...)
	}
	skewed := make([]byte, 400_000) // long codes: a few symbols very common, the rest rare
	for i := range skewed {
		skewed[i] = byte(rng.ExpFloat64() * 3)
	}
	return map[string][]byte{"records": recs, "random": random, "text": text, "skewed": skewed, "empty": nil, "one": {7}}
}

// TestInflate decodes what compress/flate writes at each level, and checks the bytes
// after the stream (a file's trailer) come out of tail.
func TestInflate(t *testing.T) {
	levels := []int{flate.HuffmanOnly, flate.NoCompression, flate.BestSpeed, flate.DefaultCompression, flate.BestCompression}
	limit := 0 // bytes of each input; 0: all of it
	if raceBuilt() {
		// the race detector makes the five levels of 5 MB cost 21 s of the suite; 100 kB
		// of each input still spans several blocks (compress/flate ends a block at 16,384
		// tokens)
		limit = 100_000
		t.Logf("race-built: the first %d bytes of each input (all of them in the child without -race)", limit)
		runWithoutRace(t, "TestInflate", "TestInflateDamaged")
	}
	for name, data := range inflateInputs(t) {
		if limit > 0 && len(data) > limit {
			data = data[:limit]
		}
		for _, level := range levels {
			var buf bytes.Buffer
			zw, err := flate.NewWriter(&buf, level)
			if err != nil {
				t.Fatal(err)
			}
			// written in pieces, with a flush (an empty stored block) in the middle
			zw.Write(data[:len(data)/3])
			zw.Flush()
			zw.Write(data[len(data)/3:])
			if err := zw.Close(); err != nil {
				t.Fatal(err)
			}
			buf.WriteString("KNTEND01trailer!")
			for _, slow := range []bool{false, true} {
				var src io.Reader = bytes.NewReader(buf.Bytes())
				if slow {
					src = iotest.OneByteReader(src)
				}
				var z inflater
				z.Reset(src)
				got, err := io.ReadAll(&z)
				if err != nil {
					t.Fatalf("%s at level %d (slow %t): %v", name, level, slow, err)
				}
				if !bytes.Equal(got, data) {
					t.Fatalf("%s at level %d (slow %t): %d bytes decoded differ from the %d written", name, level, slow, len(got), len(data))
				}
				var tail [16]byte
				if err := z.tail(tail[:]); err != nil || string(tail[:]) != "KNTEND01trailer!" {
					t.Fatalf("%s at level %d (slow %t): tail %q, %v; want the trailer", name, level, slow, tail[:], err)
				}
			}
		}
	}
}

// TestInflateDamaged feeds streams cut short (an error) and with bytes changed: never a
// panic or a hang, and where compress/flate decodes such a stream too, the same bytes.
// (A damaged file is caught by its records' CRC-32C, checked after decompression.)
func TestInflateDamaged(t *testing.T) {
	data := inflateInputs(t)["records"][:200_000]
	var buf bytes.Buffer
	zw, _ := flate.NewWriter(&buf, flate.HuffmanOnly)
	zw.Write(data)
	zw.Close()
	stream := buf.Bytes()
	for _, n := range []int{0, 1, 2, 10, 100, len(stream) / 2, len(stream) - 1} {
		var z inflater
		z.Reset(bytes.NewReader(stream[:n]))
		if _, err := io.ReadAll(&z); !errors.Is(err, io.ErrUnexpectedEOF) {
			t.Errorf("stream cut to %d of %d bytes: %v, want %v", n, len(stream), err, io.ErrUnexpectedEOF)
		}
	}
	rng := rand.New(rand.NewPCG(1, 2))
	trials := 300
	if raceBuilt() {
		trials = 60 // 16 s of the suite race-built for 300
	}
	decoded := 0 // by this decoder, not by compress/flate (which refuses incomplete codes)
	defer func() {
		t.Logf("%d of %d damaged streams decoded here, refused by compress/flate", decoded, trials)
	}()
	for range trials {
		bad := bytes.Clone(stream)
		for range 1 + rng.IntN(3) {
			bad[rng.IntN(min(len(bad), 400))] ^= byte(1 + rng.IntN(255))
		}
		var z inflater
		z.Reset(bytes.NewReader(bad))
		got, err := io.ReadAll(&z)
		want, werr := io.ReadAll(flate.NewReader(bytes.NewReader(bad)))
		if err == nil && werr == nil && !bytes.Equal(got, want) {
			t.Fatalf("a damaged stream decoded to %d bytes, %d by compress/flate, not the same", len(got), len(want))
		}
		if err == nil && werr != nil {
			decoded++
		}
	}
}

// BenchmarkInflate decodes a Huffman-only stream of records, with this package's decoder
// and with compress/flate's.
func BenchmarkInflate(b *testing.B) {
	data := inflateInputs(nil)["records"]
	var buf bytes.Buffer
	zw, _ := flate.NewWriter(&buf, flate.HuffmanOnly)
	zw.Write(data)
	zw.Close()
	out := make([]byte, 1<<20)
	b.Run("inflater", func(b *testing.B) {
		b.SetBytes(int64(len(data)))
		var z inflater
		for b.Loop() {
			z.Reset(bytes.NewReader(buf.Bytes()))
			for {
				if _, err := z.Read(out); err != nil {
					break
				}
			}
		}
	})
	b.Run("flate", func(b *testing.B) {
		b.SetBytes(int64(len(data)))
		zr := flate.NewReader(nil)
		for b.Loop() {
			zr.(flate.Resetter).Reset(bytes.NewReader(buf.Bytes()), nil)
			for {
				if _, err := zr.Read(out); err != nil {
					break
				}
			}
		}
	})
}
