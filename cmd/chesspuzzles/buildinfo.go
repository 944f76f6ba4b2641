package main

import (
	"fmt"
	"runtime"
	"runtime/debug"
	"strings"
)

// version, revision, commitTime and modified, when set at build time with -ldflags
// "-X main.version=v1.2.3 -X main.revision=<hash> -X main.commitTime=<RFC 3339>
// -X main.modified=true", override what the Go toolchain records in the binary. Builds that
// cannot see the git history set them: the container image copies the tree without .git
// (scripts/image.sh passes them in as build arguments). "go install …@v1.2.3" and builds in
// a git checkout leave them empty: the toolchain records what is needed.
var version, revision, commitTime, modified string

// versionInfo is what a binary knows about its own build, from runtime/debug.ReadBuildInfo:
// the module version ("v1.2.3" for "go install …@v1.2.3", a pseudo-version such as
// "v0.0.0-20261124040000-0123456789ab+dirty" for a build in a git checkout, "(devel)" when
// nothing is known) and the VCS data of a build in a checkout.
type versionInfo struct {
	Version  string `json:"version"`
	Revision string `json:"revision,omitempty"` // vcs.revision: the full commit hash
	Time     string `json:"time,omitempty"`     // vcs.time: the commit's time, RFC 3339
	Modified bool   `json:"modified"`           // vcs.modified: uncommitted changes were built
	Go       string `json:"go"`
	OS       string `json:"os"`
	Arch     string `json:"arch"`
}

// buildVersion reads the build information of the running binary.
func buildVersion() versionInfo {
	v := versionInfo{Version: "(devel)", Go: runtime.Version(), OS: runtime.GOOS, Arch: runtime.GOARCH}
	if bi, ok := debug.ReadBuildInfo(); ok {
		if bi.Main.Version != "" {
			v.Version = bi.Main.Version
		}
		for _, s := range bi.Settings {
			switch s.Key {
			case "vcs.revision":
				v.Revision = s.Value
			case "vcs.time":
				v.Time = s.Value
			case "vcs.modified":
				v.Modified = s.Value == "true"
			}
		}
	}
	if version != "" {
		v.Version = version
	}
	if revision != "" {
		v.Revision, v.Time, v.Modified = revision, commitTime, modified == "true"
	}
	return v
}

// String is the one-line form that "version" and "--version" print:
//
//	chesspuzzles v1.2.3 (commit 0123456789ab, 2026-11-24T04:00:00Z, modified) go1.26.8 linux/amd64
func (v versionInfo) String() string {
	var b strings.Builder
	fmt.Fprintf(&b, "chesspuzzles %s", v.Version)
	if v.Revision != "" {
		rev := v.Revision
		if len(rev) > 12 {
			rev = rev[:12]
		}
		fmt.Fprintf(&b, " (commit %s", rev)
		if v.Time != "" {
			fmt.Fprintf(&b, ", %s", v.Time)
		}
		if v.Modified {
			b.WriteString(", modified")
		}
		b.WriteString(")")
	}
	fmt.Fprintf(&b, " %s %s/%s", v.Go, v.OS, v.Arch)
	return b.String()
}
