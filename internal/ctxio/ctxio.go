// Package ctxio holds the writer that ends a long write once its context is done: a
// stream of millions of lines, or an image encoder, written through it stops within one
// buffer of Ctrl-C.
package ctxio

import (
	"context"
	"io"
)

// Writer writes to W until Ctx is done; from then on every write fails with Ctx.Err()
// and writes nothing. A write already under way in W is not interrupted. It costs one
// Ctx.Err() a write.
type Writer struct {
	Ctx context.Context
	W   io.Writer
}

func (c Writer) Write(p []byte) (int, error) {
	if err := c.Ctx.Err(); err != nil {
		return 0, err
	}
	return c.W.Write(p)
}
