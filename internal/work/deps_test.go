package work

import (
	"os/exec"
	"strings"
	"testing"
)

// TestNoTerminalLibrary: running a plan is independent of how progress is drawn. Neither
// this package nor cluster may depend on a terminal library or on internal/progress; only
// the commands do (issue 12).
func TestNoTerminalLibrary(t *testing.T) {
	out, err := exec.Command("go", "list", "-deps", ".", "./cluster").Output()
	if err != nil {
		t.Fatalf("go list -deps: %v", err)
	}
	deps := strings.Fields(string(out))
	if len(deps) < 10 {
		t.Fatalf("go list -deps listed %d packages: %q", len(deps), out)
	}
	for _, d := range deps {
		for _, bad := range []string{"github.com/vbauerster/mpb", "golang.org/x/term", "github.com/charmbracelet", "charm.land/", "/internal/progress"} {
			if strings.Contains(d, bad) {
				t.Errorf("internal/work or cluster depends on %s", d)
			}
		}
	}
}

// TestShardWithoutNATS: merging shard files needs neither the cluster package nor the NATS
// server and client it brings (issue 47).
func TestShardWithoutNATS(t *testing.T) {
	out, err := exec.Command("go", "list", "-deps", "./shard").Output()
	if err != nil {
		t.Fatalf("go list -deps: %v", err)
	}
	deps := strings.Fields(string(out))
	if len(deps) < 10 {
		t.Fatalf("go list -deps listed %d packages: %q", len(deps), out)
	}
	for _, d := range deps {
		if strings.HasSuffix(d, "/internal/work/cluster") || strings.HasPrefix(d, "github.com/nats-io/") {
			t.Errorf("internal/work/shard depends on %s", d)
		}
	}
}
