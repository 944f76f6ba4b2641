package main

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestReadersUnderAddressLimit is issue 34's probe: "yes 1 | chesspuzzles queens check"
// read 2 GB before refusing, and under "prlimit --as=2000000000" the Go runtime died with
// an out-of-memory dump. Every reader of standard input or a file now refuses an input
// past its limit, and a position past the queens its command reads, with one line and
// exit 2, within a 2 GB address space: endless inputs, and finite ones within the byte
// limit whose parse alone would take gigabytes ("1 1 1 …" as ten million columns and more,
// "a1 a1 …" as squares).
//
// The binary is built as releases are (CGO_ENABLED=0, see the Dockerfile): a build linked
// with the C library reserves about 64 MB of address space a thread for malloc's arenas,
// which leaves a few hundred MB under the limit, and a test binary with -race reserves
// terabytes. prlimit is util-linux's, which Debian always installs; without it the test
// fails rather than skips.
func TestReadersUnderAddressLimit(t *testing.T) {
	prlimit, err := exec.LookPath("prlimit")
	if err != nil {
		t.Fatalf("prlimit (util-linux) is needed: %v", err)
	}
	bin := filepath.Join(t.TempDir(), "chesspuzzles")
	build := exec.Command("go", "build", "-trimpath", "-o", bin, ".")
	build.Env = append(os.Environ(), "CGO_ENABLED=0")
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	// Each input is made by a shell pipeline (yes, head, printf), so that the hundreds of
	// megabytes never pass through this process, which may be race-instrumented.
	for _, tc := range []struct {
		name  string
		input string // sh commands writing the input to stdout
		args  []string
		want  string
	}{
		{"queens check, yes 1", "yes 1", []string{"queens", "check"},
			"position on standard input is larger than 100663296 bytes"},
		{"queens check, ten million and one columns", "yes 1 | head -n 10000001", []string{"queens", "check"},
			"more than 10000000 fields"},
		{"queens check, two million and one squares", "yes a1 | head -n 2000001", []string{"queens", "check"},
			"no list of columns: check reads at most 2000000 queens"},
		{"knight check, yes a1", "yes a1", []string{"knight", "check"},
			"for a larger board give --size or --board"},
		{"knight check of 10000x10000, yes 1", "yes 1", []string{"knight", "check", "--size", "10000"},
			"tour on standard input is larger than 100663296 bytes"},
		{"knight check of 10000x10000, JSON of 80 MB", `printf '{"rows":10000,"cols":10000,"path":['; yes '"a1",' | head -n 16000000; printf '"a1"]}'`,
			[]string{"knight", "check", "--size", "10000"}, "at most 50331648 bytes of JSON"},
		{"queens complete, yes 1", "yes 1", []string{"queens", "complete", "--n", "8"},
			"position on standard input is larger than"},
		{"queens complete, a million and one squares (x,y)", "yes '(1,1)' | head -n 1000001", []string{"queens", "complete"},
			"more than 2000000 fields"},
		{"regions solve, yes 1", "yes 1", []string{"queens", "regions", "solve", "-"},
			"grid is longer than 65536 bytes"},
		{"regions read, a PNG's signature then yes 1", `printf '\211PNG\r\n\032\n'; yes 1`, []string{"queens", "regions", "read", "-"},
			"picture on standard input is larger than 33554432 bytes"},
		{"merge, endless results", `printf '{"n":10,"shards":1,"results":['; yes '{"id":1,"solutions":0,"half_turn":0,"quarter_turn":0,"nodes":3},'`,
			[]string{"queens", "merge", "/dev/stdin"}, `"/dev/stdin" is larger than 67108864 bytes`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			line := "{ " + tc.input + "; } | " + prlimit + " --as=2000000000 " + bin + " " + strings.Join(tc.args, " ")
			cmd := exec.Command("sh", "-c", line)
			var stdout, stderr bytes.Buffer
			cmd.Stdout, cmd.Stderr = &stdout, &stderr
			err := cmd.Run()
			code := cmd.ProcessState.ExitCode()
			msg := stderr.String()
			if len(msg) > 2000 {
				msg = msg[:2000] + "…"
			}
			if code != exitUsage || stdout.Len() != 0 || !strings.HasPrefix(msg, "chesspuzzles: ") || strings.Count(msg, "\n") != 1 || !strings.Contains(msg, tc.want) {
				t.Errorf("under prlimit --as=2000000000: %v, exit %d, stdout %d bytes, stderr:\n%s\nwant exit 2, nothing on stdout, one line saying %q", err, code, stdout.Len(), msg, tc.want)
			}
		})
	}
}
