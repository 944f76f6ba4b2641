// Where the embedded NATS server keeps its store: count --distributed, status and worker share it.

package main

import (
	"os"
	"path/filepath"
)

// defaultStateDir is where the embedded server keeps its store unless --state says.
func defaultStateDir() string {
	if d := os.Getenv("XDG_STATE_HOME"); d != "" {
		return filepath.Join(d, "chesspuzzles", "nats")
	}
	if h, err := os.UserHomeDir(); err == nil {
		return filepath.Join(h, ".local", "state", "chesspuzzles", "nats")
	}
	return "chesspuzzles-nats"
}
