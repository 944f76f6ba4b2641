// Command figures copies the figure blocks of bench/README.md, the one home of the project's
// measured figures, into the documents that quote them, and names each document it
// changed:
//
//	go run ./scripts/figures
//
// A block is the lines between "<!-- figures NAME -->" and "<!-- /figures -->" (see
// internal/figures); a quoting document holds the same markers. Run it from the module root
// after editing a block of bench/README.md; TestFigureBlocks in cmd/chesspuzzles fails
// until it has run. It exits 1, changing nothing, when a document is malformed or quotes a
// block the home lacks.
package main

import (
	"bytes"
	"fmt"
	"os"

	"github.com/chesspuzzles/chesspuzzles/internal/figures"
)

// home is the document whose blocks are copied; quoting are the documents that quote them.
const home = "bench/README.md"

var quoting = []string{"README.md"}

func main() {
	if err := run(); err != nil {
		fmt.Fprintf(os.Stderr, "figures: %v\n", err)
		os.Exit(1)
	}
}

func run() error {
	src, err := os.ReadFile(home)
	if err != nil {
		return err
	}
	out := map[string][]byte{}
	for _, f := range quoting {
		doc, err := os.ReadFile(f)
		if err != nil {
			return err
		}
		synced, _, err := figures.Sync(string(doc), string(src))
		if err != nil {
			return fmt.Errorf("%s: %w", f, err)
		}
		if !bytes.Equal(doc, []byte(synced)) {
			out[f] = []byte(synced)
		}
	}
	for _, f := range quoting {
		if b, ok := out[f]; ok {
			if err := os.WriteFile(f, b, 0o644); err != nil {
				return err
			}
			fmt.Println("rewrote", f)
		}
	}
	return nil
}
