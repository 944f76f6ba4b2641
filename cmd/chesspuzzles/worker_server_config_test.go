package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/nats-io/jwt/v2"
	"github.com/nats-io/nats-server/v2/conf"
)

// TestWorkerServerConfig: "worker server-config" prints a block nats-server's own parser
// reads, naming the operator, the system account and a memory resolver preloaded with the
// two accounts; the same state prints the same block again (its keys are kept): the same
// keys and the same claims, each JWT signed anew, so only its issue time (a second) and the ID
// derived from it may differ.
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
	m, err := conf.Parse(first.String())
	if err != nil {
		t.Fatalf("nats-server cannot parse the block: %v\n%s", err, first.String())
	}
	m2, err := conf.Parse(again.String())
	if err != nil {
		t.Fatalf("nats-server cannot parse the second block: %v\n%s", err, again.String())
	}
	if a, b := claimsOf(t, m), claimsOf(t, m2); a != b {
		t.Errorf("a second server-config of the same state differs beyond the JWTs' issue times:\n%s\nthen\n%s", a, b)
	}
	sys, _ := m["system_account"].(string)
	preload, _ := m["resolver_preload"].(map[string]any)
	if op, _ := m["operator"].(string); !strings.HasPrefix(op, "eyJ") || m["resolver"] != "MEMORY" || len(preload) != 2 || preload[sys] == nil {
		t.Errorf("server-config = %v, want an operator JWT, resolver MEMORY and the system and worker accounts preloaded", m)
	}
}

// claimsOf returns a server-config block's settings with each JWT replaced by its decoded
// claims, their issue time and ID cleared: what two configs of the same state share.
func claimsOf(t *testing.T, m map[string]any) string {
	t.Helper()
	decode := func(token string) any {
		c, err := jwt.Decode(token)
		if err != nil {
			t.Fatalf("server-config holds a JWT that does not decode: %v", err)
		}
		d := c.Claims()
		d.IssuedAt, d.ID = 0, ""
		return c
	}
	out := map[string]any{}
	for k, v := range m {
		switch v := v.(type) {
		case string:
			if k == "operator" {
				out[k] = decode(v)
			} else {
				out[k] = v
			}
		case map[string]any:
			p := map[string]any{}
			for pk, pv := range v {
				s, _ := pv.(string)
				p[pk] = decode(s)
			}
			out[k] = p
		default:
			out[k] = v
		}
	}
	b, err := json.Marshal(out)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}
