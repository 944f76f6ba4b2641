package main

import (
	"bytes"
	"encoding/binary"
	"hash/crc32"
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
// The binary is built as releases are (releaseBinary: CGO_ENABLED=0): a build linked
// with the C library reserves about 64 MB of address space a thread for malloc's arenas,
// which leaves a few hundred MB under the limit, and a test binary with -race reserves
// terabytes. prlimit is util-linux's, which Debian always installs; without it the test
// fails rather than skips.
func TestReadersUnderAddressLimit(t *testing.T) {
	prlimit, err := exec.LookPath("prlimit")
	if err != nil {
		t.Fatalf("prlimit (util-linux) is needed: %v", err)
	}
	bin := releaseBinary(t)
	// The header of a PNG of 6400×6400 pixels of 16 bits a channel with alpha: 313 MiB
	// decoded, within 40 megapixels but refused by it (issue 44: such a picture of one colour is a 300 KB file).
	deep := []byte("\x89PNG\r\n\x1a\n\x00\x00\x00\x0d")
	ihdr := binary.BigEndian.AppendUint32([]byte("IHDR"), 6400)
	ihdr = binary.BigEndian.AppendUint32(ihdr, 6400)
	ihdr = append(ihdr, 16, 6, 0, 0, 0)
	deep = binary.BigEndian.AppendUint32(append(deep, ihdr...), crc32.ChecksumIEEE(ihdr))
	deepPNG := filepath.Join(t.TempDir(), "deep.png")
	if err := os.WriteFile(deepPNG, deep, 0o644); err != nil {
		t.Fatal(err)
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
		{"regions read, a 40-megapixel PNG of 16 bits a channel", "cat " + deepPNG, []string{"queens", "regions", "read", "-"},
			"6400×6400 pixels of 8 bytes, 313 MiB decoded, want at most 160 MiB"},
		// 66 MB of empty results, 3 bytes of JSON each, would be 16.5 million results of 64 bytes.
		{"merge, 66 MB of empty results", `printf '{"n":10,"shards":1,"results":['; yes '{},' | head -c 66000000; printf '{}]}'`,
			[]string{"queens", "merge", "/dev/stdin"}, "task results, more than a file of at most 67108864 bytes"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel() // each a pipeline of its own processes, two at a time under -race
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
