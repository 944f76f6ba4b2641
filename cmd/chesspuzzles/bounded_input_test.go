package main

import (
	"bytes"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// repeat is a reader of s over and over, n times (forever when n < 0).
type repeat struct {
	s   string
	n   int
	off int // in s
}

func (r *repeat) Read(p []byte) (int, error) {
	k := 0
	for k < len(p) {
		if r.n == 0 {
			if k == 0 {
				return 0, io.EOF
			}
			break
		}
		c := copy(p[k:], r.s[r.off:])
		k += c
		r.off += c
		if r.off == len(r.s) {
			r.off = 0
			if r.n > 0 {
				r.n--
			}
		}
	}
	return k, nil
}

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
	shardHead := `{"n":10,"shards":1,"results":[`
	for _, tc := range []struct {
		name  string
		args  []string
		input func() io.Reader
		want  string
	}{
		{"queens check, yes 1", []string{"queens", "check"},
			func() io.Reader { return &repeat{s: "1\n", n: -1} }, "position on standard input is larger than 100663296 bytes"},
		{"queens check, ten million and one columns", []string{"queens", "check"},
			func() io.Reader { return &repeat{s: "1 ", n: 10_000_001} }, "more than 10000000 fields"},
		{"queens check, two million and one squares", []string{"queens", "check"},
			func() io.Reader { return &repeat{s: "a1 ", n: 2_000_001} }, "no list of columns: check reads at most 2000000 queens"},
		{"knight check, yes a1", []string{"knight", "check"},
			func() io.Reader { return &repeat{s: "a1\n", n: -1} }, "for a larger board give --size or --board"},
		{"knight check of 10000x10000, yes 1", []string{"knight", "check", "--size", "10000"},
			func() io.Reader { return &repeat{s: "1\n", n: -1} }, "tour on standard input is larger than 100663296 bytes"},
		{"knight check of 10000x10000, JSON of 80 MB", []string{"knight", "check", "--size", "10000"},
			func() io.Reader {
				return io.MultiReader(strings.NewReader(`{"rows":10000,"cols":10000,"path":[`), &repeat{s: `"a1",`, n: 16_000_000}, strings.NewReader(`"a1"]}`))
			}, "at most 50331648 bytes of JSON"},
		{"queens complete, yes 1", []string{"queens", "complete", "--n", "8"},
			func() io.Reader { return &repeat{s: "1\n", n: -1} }, "position on standard input is larger than"},
		{"queens complete, a million and one squares (x,y)", []string{"queens", "complete"},
			func() io.Reader { return &repeat{s: "(1,1) ", n: 1_000_001} }, "more than 2000000 fields"},
		{"regions solve, yes 1", []string{"queens", "regions", "solve", "-"},
			func() io.Reader { return &repeat{s: "1\n", n: -1} }, "grid on standard input is larger than"},
		{"merge, endless results", []string{"queens", "merge", "/dev/stdin"},
			func() io.Reader {
				return io.MultiReader(strings.NewReader(shardHead), &repeat{s: `{"id":1,"solutions":0,"half_turn":0,"quarter_turn":0,"nodes":3},`, n: -1})
			}, `"/dev/stdin" is larger than 67108864 bytes`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			cmd := exec.Command(prlimit, append([]string{"--as=2000000000", bin}, tc.args...)...)
			cmd.Stdin = tc.input()
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
