package work

import (
	"os/exec"
	"strings"
	"testing"
)

// deps returns the import paths of pkgs and of every package they depend on (go list
// -deps), failing the test if go list fails or lists fewer than a handful.
func deps(t *testing.T, pkgs ...string) []string {
	t.Helper()
	out, err := exec.Command("go", append([]string{"list", "-deps"}, pkgs...)...).Output()
	if err != nil {
		t.Fatalf("go list -deps %v: %v", pkgs, err)
	}
	d := strings.Fields(string(out))
	if len(d) < 10 {
		t.Fatalf("go list -deps %v listed %d packages: %q", pkgs, len(d), out)
	}
	return d
}

// TestNoTerminalLibrary: running a plan is independent of how progress is drawn. Neither
// this package nor cluster may depend on a terminal library or on internal/progress; only
// the commands do (issue 12).
func TestNoTerminalLibrary(t *testing.T) {
	for _, d := range deps(t, ".", "./cluster") {
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
	for _, d := range deps(t, "./shard") {
		if strings.HasSuffix(d, "/internal/work/cluster") || strings.HasPrefix(d, "github.com/nats-io/") {
			t.Errorf("internal/work/shard depends on %s", d)
		}
	}
}

// TestRunnersAboveEngines: the import graph runs one way. The engines (board, queens/...,
// knight/...) import no runner (internal/work/...), no front end (render, web) and no
// command; the runners import no front end and no command (issue 47).
func TestRunnersAboveEngines(t *testing.T) {
	const mod = "github.com/chesspuzzles/chesspuzzles/"
	for _, tc := range []struct {
		pkgs      []string
		forbidden []string
	}{
		{[]string{"../../board/...", "../../queens/...", "../../knight/..."}, []string{"internal/work", "render", "web", "cmd/"}},
		{[]string{"./..."}, []string{"render", "web", "cmd/"}},
	} {
		for _, d := range deps(t, tc.pkgs...) {
			rel, ok := strings.CutPrefix(d, mod)
			if !ok {
				continue
			}
			for _, bad := range tc.forbidden {
				if rel == strings.TrimSuffix(bad, "/") || strings.HasPrefix(rel, strings.TrimSuffix(bad, "/")+"/") {
					t.Errorf("%v depends on %s", tc.pkgs, d)
				}
			}
		}
	}
}
