package main

import "testing"

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
