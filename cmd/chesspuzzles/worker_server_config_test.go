package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/nats-io/nats-server/v2/conf"
)

// TestWorkerServerConfig: "worker server-config" prints a block nats-server's own parser
// reads, naming the operator, the system account and a memory resolver preloaded with the
// two accounts; the same state prints the same block again (its keys are kept).
func TestWorkerServerConfig(t *testing.T) {
	state := filepath.Join(t.TempDir(), "state")
	if err := os.Mkdir(state, 0o700); err != nil {
		t.Fatal(err)
	}
	var first, again strings.Builder
	if err := runWorkerServerConfig(workerServerConfigOptions{state: state}, &first); err != nil {
		t.Fatal(err)
	}
	if err := runWorkerServerConfig(workerServerConfigOptions{state: state}, &again); err != nil {
		t.Fatal(err)
	}
	if first.String() != again.String() {
		t.Errorf("a second server-config of the same state differs:\n%s\nthen\n%s", first.String(), again.String())
	}
	m, err := conf.Parse(first.String())
	if err != nil {
		t.Fatalf("nats-server cannot parse the block: %v\n%s", err, first.String())
	}
	sys, _ := m["system_account"].(string)
	preload, _ := m["resolver_preload"].(map[string]any)
	if op, _ := m["operator"].(string); !strings.HasPrefix(op, "eyJ") || m["resolver"] != "MEMORY" || len(preload) != 2 || preload[sys] == nil {
		t.Errorf("server-config = %v, want an operator JWT, resolver MEMORY and the system and worker accounts preloaded", m)
	}
}
