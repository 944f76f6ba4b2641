package ctxio

import (
	"bytes"
	"context"
	"errors"
	"testing"
)

// TestWriter holds Writer to passing writes through until its context is done, and to
// failing them with the context's error after.
func TestWriter(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	var b bytes.Buffer
	w := Writer{ctx, &b}
	if n, err := w.Write([]byte("ab")); n != 2 || err != nil {
		t.Fatalf("Write before cancel = %d, %v, want 2, nil", n, err)
	}
	cancel()
	if n, err := w.Write([]byte("cd")); n != 0 || !errors.Is(err, context.Canceled) {
		t.Fatalf("Write after cancel = %d, %v, want 0, context.Canceled", n, err)
	}
	if b.String() != "ab" {
		t.Errorf("written %q, want %q", b.String(), "ab")
	}
}
