package main

import (
	"os"
	"strings"
	"testing"
)

func TestVersionString(t *testing.T) {
	tests := []struct {
		name string
		v    versionInfo
		want string
	}{
		{"devel", versionInfo{Version: "(devel)", Go: "go1.26.8", OS: "linux", Arch: "amd64"},
			"chesspuzzles (devel) go1.26.8 linux/amd64"},
		{"release", versionInfo{Version: "v1.2.3", Go: "go1.26.8", OS: "darwin", Arch: "arm64"},
			"chesspuzzles v1.2.3 go1.26.8 darwin/arm64"},
		{"checkout", versionInfo{Version: "v0.0.0-20261124040000-0123456789ab+dirty", Revision: "0123456789abcdef0123456789abcdef01234567",
			Time: "2026-11-24T04:00:00Z", Modified: true, Go: "go1.26.8", OS: "windows", Arch: "amd64"},
			"chesspuzzles v0.0.0-20261124040000-0123456789ab+dirty (commit 0123456789ab, 2026-11-24T04:00:00Z, modified) go1.26.8 windows/amd64"},
		{"clean checkout", versionInfo{Version: "v0.0.0-20261124040000-0123456789ab", Revision: "0123456789abcdef0123456789abcdef01234567",
			Time: "2026-11-24T04:00:00Z", Go: "go1.26.8", OS: "linux", Arch: "arm64"},
			"chesspuzzles v0.0.0-20261124040000-0123456789ab (commit 0123456789ab, 2026-11-24T04:00:00Z) go1.26.8 linux/arm64"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := tt.v.String(); got != tt.want {
				t.Errorf("String() = %q, want %q", got, tt.want)
			}
		})
	}
}

// TestVersionOverride checks that -ldflags "-X main.version=…" wins over the recorded module
// version.
func TestVersionOverride(t *testing.T) {
	old := version
	defer func() { version = old }()
	version = "v9.8.7"
	if got := buildVersion().Version; got != "v9.8.7" {
		t.Errorf("buildVersion().Version = %q with main.version set, want %q", got, "v9.8.7")
	}
}

// TestVersionFromBuildArgs: a build that cannot see .git (the container image) gets the
// commit through -ldflags -X, and version reports it instead of "(devel)" (issue 27.6).
func TestVersionFromBuildArgs(t *testing.T) {
	saved := [4]string{version, revision, commitTime, modified}
	defer func() { version, revision, commitTime, modified = saved[0], saved[1], saved[2], saved[3] }()
	version, revision, commitTime, modified = "v0.0.0-20261124040000-0123456789ab", "0123456789abcdef0123456789abcdef01234567", "2026-11-24T04:00:00Z", "false"
	v := buildVersion()
	if got, want := v.String(), "chesspuzzles v0.0.0-20261124040000-0123456789ab (commit 0123456789ab, 2026-11-24T04:00:00Z) "; !strings.HasPrefix(got, want) {
		t.Errorf("version = %q, want it to start %q", got, want)
	}
	modified = "true"
	if v := buildVersion(); !v.Modified {
		t.Errorf("main.modified=true: Modified false")
	}
}

// TestImagePassesVersion: the Dockerfile's Go stage and scripts/image.sh set the same four
// variables that buildVersion reads (the names are checked by the compiler above), from
// build arguments the script passes; scripts/image.sh itself checks the image's version
// line against git.
func TestImagePassesVersion(t *testing.T) {
	docker, err := os.ReadFile("../../Dockerfile")
	if err != nil {
		t.Fatal(err)
	}
	script, err := os.ReadFile("../../scripts/image.sh")
	if err != nil {
		t.Fatal(err)
	}
	for _, v := range []struct{ name, arg string }{{"version", "VERSION"}, {"revision", "REVISION"}, {"commitTime", "COMMIT_TIME"}, {"modified", "MODIFIED"}} {
		if !strings.Contains(string(docker), "ARG "+v.arg+"=") || !strings.Contains(string(docker), "-X main."+v.name+"=${"+v.arg+"}") {
			t.Errorf("Dockerfile lacks ARG %s or -X main.%s=${%s}", v.arg, v.name, v.arg)
		}
		if !strings.Contains(string(script), "--build-arg "+v.arg+"=") || !strings.Contains(string(script), "-X main."+v.name+"=$") {
			t.Errorf("scripts/image.sh lacks --build-arg %s= or -X main.%s=$…", v.arg, v.name)
		}
	}
}
