package frontier

import (
	"bytes"
	"compress/flate"
	"io"
	"testing"
	"time"
)

// FuzzInflate holds the spill files' decoder to compress/flate on any input: never a
// panic or a hang; every stream compress/flate decodes decodes here to the same bytes;
// and where this decoder takes a stream compress/flate refuses (it accepts incomplete
// Huffman codes), it never hands on more than the stream could hold. Seeds: streams of
// every compression level, cut and with a byte changed. `go test -fuzz FuzzInflate
// ./knight/internal/frontier` searches further (bench/log/2026-11-29-knight8x8.md).
func FuzzInflate(f *testing.F) {
	texts := [][]byte{
		nil,
		[]byte("a"),
		bytes.Repeat([]byte("knight "), 3000),
		inflateInputs(nil)["records"][:5000],
	}
	for _, text := range texts {
		for _, level := range []int{flate.NoCompression, flate.BestSpeed, flate.DefaultCompression, flate.HuffmanOnly} {
			var buf bytes.Buffer
			zw, err := flate.NewWriter(&buf, level)
			if err != nil {
				f.Fatal(err)
			}
			zw.Write(text)
			zw.Close()
			s := buf.Bytes()
			f.Add(bytes.Clone(s))
			f.Add(bytes.Clone(s[:len(s)/2]))
			if len(s) > 3 {
				bad := bytes.Clone(s)
				bad[len(bad)/3] ^= 0x5a
				f.Add(bad)
			}
		}
	}
	f.Fuzz(func(t *testing.T, stream []byte) {
		want, werr := io.ReadAll(flate.NewReader(bytes.NewReader(stream)))
		var z inflater
		z.Reset(bytes.NewReader(stream))
		// at most 258 bytes out for each bit in: a runaway shows as more
		type result struct {
			got []byte
			err error
		}
		done := make(chan result, 1)
		go func() {
			got, err := io.ReadAll(io.LimitReader(&z, int64(len(stream))*8*258+1))
			done <- result{got, err}
		}()
		var got []byte
		var err error
		select {
		case r := <-done:
			got, err = r.got, r.err
		case <-time.After(5 * time.Second):
			t.Fatalf("no end after 5 s on a stream of %d bytes: %x", len(stream), stream)
		}
		if int64(len(got)) > int64(len(stream))*8*258 {
			t.Fatalf("%d bytes decoded from a stream of %d", len(got), len(stream))
		}
		if werr == nil {
			if err != nil {
				t.Fatalf("compress/flate decodes %d bytes, this decoder refuses: %v", len(want), err)
			}
			if !bytes.Equal(got, want) {
				t.Fatalf("decoded %d bytes, compress/flate %d, not the same", len(got), len(want))
			}
		}
	})
}
