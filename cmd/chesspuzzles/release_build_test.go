package main

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sync"
	"testing"
)

// releaseBuild is the command built once per run of the test binary by releaseBinary,
// shared by the tests that need a binary built as releases are.
var releaseBuild struct {
	once sync.Once
	dir  string // removed by TestMain after the tests
	bin  string
	err  error
}

// releaseBinary returns the path of this command built as releases are built (static,
// CGO_ENABLED=0, -trimpath: scripts/release.sh, the Dockerfile). The first call of a run
// builds it (a link of seconds once the build cache holds the packages, a compile of every
// dependency, a minute or more, when it does not); later calls share that binary.
func releaseBinary(t *testing.T) string {
	t.Helper()
	releaseBuild.once.Do(func() {
		dir, err := os.MkdirTemp("", "chesspuzzles-release-")
		if err != nil {
			releaseBuild.err = err
			return
		}
		releaseBuild.dir = dir
		bin := filepath.Join(dir, "chesspuzzles")
		build := exec.Command("go", "build", "-trimpath", "-o", bin, ".")
		build.Env = append(os.Environ(), "CGO_ENABLED=0")
		if out, err := build.CombinedOutput(); err != nil {
			releaseBuild.err = fmt.Errorf("go build: %v\n%s", err, out)
			return
		}
		releaseBuild.bin = bin
	})
	if releaseBuild.err != nil {
		t.Fatal(releaseBuild.err)
	}
	return releaseBuild.bin
}

// afterTests runs the tests, then removes what they shared (releaseBinary's build).
type afterTests struct{ m *testing.M }

func (a afterTests) Run() int {
	code := a.m.Run()
	if releaseBuild.dir != "" {
		os.RemoveAll(releaseBuild.dir)
	}
	return code
}
