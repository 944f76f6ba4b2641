package main

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"
	"unicode"

	"github.com/chesspuzzles/chesspuzzles/internal/cputime"
	"github.com/chesspuzzles/chesspuzzles/internal/work"
	"github.com/chesspuzzles/chesspuzzles/web"
)

// The documents whose examples and links are checked, relative to the module root.
func docFiles(t *testing.T) []string {
	t.Helper()
	files := []string{"README.md", "bench/README.md"}
	more, err := filepath.Glob(filepath.Join(moduleRoot, "docs", "*.md"))
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range more {
		rel, err := filepath.Rel(moduleRoot, f)
		if err != nil {
			t.Fatal(err)
		}
		files = append(files, filepath.ToSlash(rel))
	}
	return files
}

// moduleRoot is the module root seen from this package's directory, where tests run.
const moduleRoot = "../.."

// readDoc returns a document of the repository, named from the module root.
func readDoc(t *testing.T, name string) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(moduleRoot, name))
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// A consoleStep is one "$ command" line of a ```console block and the output printed under
// it, up to the next "$" line or the end of the block.
type consoleStep struct {
	file string
	line int // 1-based line of the command in file
	cmd  string
	want string
}

// consoleSteps returns the steps of every ```console block of the Markdown text. Blocks
// fenced ```console are examples whose output must be exactly what the program prints
// (deterministic, quick); illustrative ones (timings, long runs, other programs) are fenced
// ```text and not run.
func consoleSteps(file, text string) []consoleStep {
	var steps []consoleStep
	in := false
	var cur *consoleStep
	var out []string
	flush := func() {
		if cur != nil {
			cur.want = strings.Join(out, "\n")
			steps = append(steps, *cur)
		}
		cur, out = nil, nil
	}
	for i, line := range strings.Split(text, "\n") {
		switch {
		case !in && strings.TrimSpace(line) == "```console":
			in = true
		case in && strings.TrimSpace(line) == "```":
			flush()
			in = false
		case in && strings.HasPrefix(line, "$ "):
			flush()
			cur = &consoleStep{file: file, line: i + 1, cmd: strings.TrimPrefix(line, "$ ")}
		case in && cur != nil:
			out = append(out, line)
		}
	}
	return steps
}

// splitWords splits a command line into words the way a shell would for the simple lines
// the documents use: spaces separate words, and single or double quotes group them.
func splitWords(s string) ([]string, error) {
	var words []string
	var w strings.Builder
	inWord := false
	var quote rune
	for _, r := range s {
		switch {
		case quote != 0 && r == quote:
			quote = 0
		case quote != 0:
			w.WriteRune(r)
		case r == '\'' || r == '"':
			quote, inWord = r, true
		case r == ' ' || r == '\t':
			if inWord {
				words = append(words, w.String())
				w.Reset()
				inWord = false
			}
		default:
			w.WriteRune(r)
			inWord = true
		}
	}
	if quote != 0 {
		return nil, fmt.Errorf("unclosed quote")
	}
	if inWord {
		words = append(words, w.String())
	}
	return words, nil
}

var envAssign = regexp.MustCompile(`^[A-Z_][A-Z0-9_]*=`)

// TestDocExamples runs every command of the ```console blocks of README.md, bench/README.md
// and docs/*.md and compares what it prints with the document. A command line is
// "[VAR=value ...] chesspuzzles ARGS [2>/dev/null]" (its stdout, then its stderr unless
// discarded, is the expected output), "echo $?" (the exit code of the previous command) or
// a request to the API of "chesspuzzles serve" ("curl -s …", see curlDoc; docs/api.md's
// examples, run in a directory of their own).
// Other shell syntax is refused, so that a document cannot show what this test cannot run.
func TestDocExamples(t *testing.T) {
	n := 0
	wd, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	for _, file := range docFiles(t) {
		if err := os.Chdir(wd); err != nil {
			t.Fatal(err)
		}
		text := readDoc(t, file)
		// docs/api.md's examples write a picture and send it: in a directory of their own.
		if file == "docs/api.md" {
			if err := os.Chdir(t.TempDir()); err != nil {
				t.Fatal(err)
			}
		}
		code := -1
		for _, st := range consoleSteps(file, text) {
			n++
			where := fmt.Sprintf("%s:%d: %s", st.file, st.line, st.cmd)
			if st.cmd == "echo $?" {
				if code < 0 {
					t.Errorf("%s: no command before it", where)
					continue
				}
				if got := strconv.Itoa(code); got != st.want {
					t.Errorf("%s: printed %q, document says %q", where, got, st.want)
				}
				continue
			}
			var got string
			if strings.HasPrefix(st.cmd, "curl ") {
				got, code = curlDoc(t, where, st.cmd), 0
			} else {
				got, code = runDocCommand(t, where, st.cmd, "")
			}
			if !docMatch(got, st.want) {
				t.Errorf("%s:\ngot:\n%s\ndocument says:\n%s", where, got, st.want)
			}
		}
	}
	if err := os.Chdir(wd); err != nil {
		t.Fatal(err)
	}
	if n == 0 {
		t.Fatal("no ```console examples found: the documents or this test have moved")
	}
	t.Run("manual", func(t *testing.T) {
		t.Chdir(t.TempDir()) // the examples write files (a checkpoint)
		steps := manualSteps(manual())
		if len(steps) == 0 {
			t.Fatal("no examples found in the manual: it or this test has moved")
		}
		for _, st := range steps {
			where := "the manual (doc.go): " + st.cmd
			watch := ""
			if st.interrupt {
				watch = checkpointArg(st.cmd)
				if watch == "" {
					t.Fatalf("%s: an example interrupted with Ctrl-C needs --checkpoint FILE, when to interrupt it", where)
				}
			}
			got, code := runDocCommand(t, where, st.cmd, watch)
			if !docMatch(got, st.want) {
				t.Errorf("%s:\ngot:\n%s\nthe manual says:\n%s", where, got, st.want)
			}
			if code != st.code {
				t.Errorf("%s: exit %d, the manual says %d", where, code, st.code)
			}
		}
	})
}

// docMatch reports whether a command's output matches a document's: equal, but for "…",
// which in a document stands for any text (a time, a count of tasks done when it was
// interrupted, lines left out), and matches itself too.
func docMatch(got, want string) bool {
	if !strings.Contains(want, "…") {
		return got == want
	}
	parts := strings.Split(want, "…")
	for i, p := range parts {
		parts[i] = regexp.QuoteMeta(p)
	}
	return regexp.MustCompile(`(?s)\A` + strings.Join(parts, ".*?") + `\z`).MatchString(got)
}

// A manualStep is one example of the manual: a command, its output, its exit code, and
// whether the reader interrupts it (Ctrl-C).
type manualStep struct {
	cmd, want string
	code      int
	interrupt bool
}

// manualComment is a reader's note at the end of a manual example's line: "# exit 130".
var manualComment = regexp.MustCompile(`\s{2,}# (.*)$`)

// manualSteps returns the examples of the manual: the tab-indented lines that begin "$ ",
// each a command, and the tab-indented lines under it, its output (stdout and stderr as a
// terminal shows them). A note "  # …" at the end of a line is the reader's: "# Ctrl-C …" on
// a command is an interrupt once its checkpoint holds a task, "# exit N" on a line of output
// the exit code (0 unless one says otherwise).
func manualSteps(text string) []manualStep {
	var steps []manualStep
	var cur *manualStep
	var out []string
	flush := func() {
		if cur != nil {
			cur.want = strings.Join(out, "\n")
			steps = append(steps, *cur)
		}
		cur, out = nil, nil
	}
	for line := range strings.Lines(text) {
		line = strings.TrimSuffix(line, "\n")
		body, isIndented := strings.CutPrefix(line, "\t")
		note := ""
		if m := manualComment.FindStringSubmatchIndex(body); m != nil {
			note = body[m[2]:m[3]]
			body = body[:m[0]]
		}
		switch {
		case isIndented && strings.HasPrefix(body, "$ "):
			flush()
			cur = &manualStep{cmd: strings.TrimPrefix(body, "$ "), interrupt: strings.HasPrefix(note, "Ctrl-C")}
		case isIndented && cur != nil:
			out = append(out, body)
			if c, ok := strings.CutPrefix(note, "exit "); ok {
				cur.code, _ = strconv.Atoi(c)
			}
		default:
			flush()
		}
	}
	flush()
	return steps
}

// checkpointArg returns the FILE of "--checkpoint FILE" in a command line, or "".
func checkpointArg(line string) string {
	words := strings.Fields(line)
	for i, w := range words {
		if w == "--checkpoint" && i+1 < len(words) {
			return words[i+1]
		}
	}
	return ""
}

// runDocCommand runs one command line in process and returns what it printed and its exit
// code; it fails the test for a line it cannot run. With watch set, the command is
// interrupted (as by Ctrl-C) once the checkpoint file watch records two lines.
func runDocCommand(t *testing.T, where, line, watch string) (string, int) {
	t.Helper()
	words, err := splitWords(line)
	if err != nil {
		t.Fatalf("%s: %v", where, err)
	}
	for len(words) > 0 && envAssign.MatchString(words[0]) {
		k, v, _ := strings.Cut(words[0], "=")
		old, had := os.LookupEnv(k)
		os.Setenv(k, v)
		if had {
			defer os.Setenv(k, old)
		} else {
			defer os.Unsetenv(k)
		}
		words = words[1:]
	}
	dropStderr := false
	if len(words) > 0 && words[len(words)-1] == "2>/dev/null" {
		dropStderr = true
		words = words[:len(words)-1]
	}
	if len(words) == 0 || words[0] != "chesspuzzles" {
		t.Fatalf("%s: a ```console line runs chesspuzzles (or echo $?); fence other examples as ```text", where)
	}
	for _, w := range words[1:] {
		if w == "|" || strings.HasPrefix(w, ">") || strings.HasPrefix(w, "<") || strings.HasPrefix(w, "2>") {
			t.Fatalf("%s: pipes and redirections other than a final 2>/dev/null cannot be checked; fence the block as ```text", where)
		}
	}
	// An example must be quick: at most docQuick of CPU time, the process's (no other test
	// of the package runs meanwhile). The wall clock only stops one that hangs: at a load
	// of 16 on 2 cores "queens count 16 --checkpoint" took 10 s of wall time under -race
	// (1 s at another moment), and CI's machine is slower than this one.
	const docQuick, docHang = 20 * time.Second, 2 * time.Minute
	limit, cancel := context.WithTimeout(context.Background(), docHang)
	defer cancel()
	ctx, interrupt := context.WithCancel(limit)
	defer interrupt()
	if watch != "" {
		os.Remove(watch)
		// A queens count is interrupted from its own progress, once two tasks are recorded
		// (deterministic: a watcher that polls the file may first run after the last task
		// of a count of a few milliseconds); the watcher below serves any other command.
		countProgressHook = func(s work.Status) {
			if s.Done-s.Resumed >= 2 {
				interrupt()
			}
		}
		defer func() { countProgressHook = nil }()
		go func() {
			for ctx.Err() == nil {
				if b, err := os.ReadFile(watch); err == nil && bytes.Count(b, []byte("\n")) >= 2 {
					interrupt()
					return
				}
				time.Sleep(time.Millisecond) // a Q(16) task takes far longer; 100 µs took a core from it
			}
		}()
	}
	// stdout and stderr go to one buffer in the order they are written, as a terminal
	// shows them: a status line written before the answer is documented before it.
	var out lockedBuffer
	var stderr io.Writer = &out
	if dropStderr {
		stderr = io.Discard
	}
	cpu := cputime.Process()
	code := execute(ctx, words[1:], strings.NewReader(""), &out, stderr)
	if limit.Err() != nil {
		t.Fatalf("%s: did not finish in %v: examples in ```console blocks must be quick", where, docHang)
	}
	if cpu = cputime.Process() - cpu; cpu > docQuick {
		t.Errorf("%s: took %v of CPU time, more than %v: examples in ```console blocks must be quick", where, cpu.Round(time.Millisecond), docQuick)
	}
	return strings.TrimSuffix(out.String(), "\n"), code
}

// curlDoc answers a document's "curl -s [-H 'Name: value'] [--data-binary @FILE|DATA] 'URL'"
// line, URL on http://127.0.0.1:8080 as "chesspuzzles serve" listens by default, from that
// server's handler in this process (loopback only, default limits), and returns the body as
// curl -s prints it. --data-binary makes it a POST of the file's bytes or of DATA.
func curlDoc(t *testing.T, where, line string) string {
	t.Helper()
	words, err := splitWords(line)
	if err != nil {
		t.Fatalf("%s: %v", where, err)
	}
	const origin = "http://127.0.0.1:8080"
	method, host, target := http.MethodGet, "127.0.0.1:8080", ""
	var body []byte
	for i := 1; i < len(words); i++ {
		switch w := words[i]; {
		case w == "-s":
		case w == "-H" && i+1 < len(words) && strings.HasPrefix(strings.ToLower(words[i+1]), "host: "):
			host = words[i+1][len("host: "):]
			i++
		case w == "--data-binary" && i+1 < len(words):
			method, body = http.MethodPost, []byte(words[i+1])
			if name, ok := strings.CutPrefix(words[i+1], "@"); ok {
				if body, err = os.ReadFile(name); err != nil {
					t.Fatalf("%s: %v", where, err)
				}
			}
			i++
		case strings.HasPrefix(w, origin+"/") && target == "":
			target = strings.TrimPrefix(w, origin)
		default:
			t.Fatalf("%s: a curl line is curl -s [-H 'Host: …'] [--data-binary @FILE|DATA] '%s/…'; fence other examples as ```text", where, origin)
		}
	}
	if target == "" {
		t.Fatalf("%s: no %s/… URL", where, origin)
	}
	req := httptest.NewRequest(method, target, bytes.NewReader(body))
	req.Host = host
	rec := httptest.NewRecorder()
	web.New(web.Options{LoopbackOnly: true}).Handler().ServeHTTP(rec, req)
	return strings.TrimSuffix(rec.Body.String(), "\n")
}

func TestConsoleSteps(t *testing.T) {
	doc := "x\n```console\n$ chesspuzzles a\none\ntwo\n$ echo $?\n0\n```\n```text\n$ chesspuzzles b\n```\n"
	got := consoleSteps("f.md", doc)
	want := []consoleStep{
		{file: "f.md", line: 3, cmd: "chesspuzzles a", want: "one\ntwo"},
		{file: "f.md", line: 6, cmd: "echo $?", want: "0"},
	}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("consoleSteps = %v, want %v", got, want)
	}
	words, err := splitWords(`NO_COLOR=1 chesspuzzles  a "b c" 'd'`)
	if err != nil || strings.Join(words, "|") != "NO_COLOR=1|chesspuzzles|a|b c|d" {
		t.Errorf("splitWords = %q, %v", words, err)
	}
}

// mdLink matches a Markdown link or image: [text](target) or ![alt](target).
var mdLink = regexp.MustCompile(`!?\[[^\]]*\]\(([^)\s]+)\)`)

// TestDocLinks checks that every relative link of README.md, bench/README.md and
// docs/*.md names a file or directory of the repository and, with #anchor into a Markdown
// file, one of its headings.
func TestDocLinks(t *testing.T) {
	n := 0
	for _, file := range docFiles(t) {
		text := readDoc(t, file)
		for i, line := range proseLines(text) {
			for _, m := range mdLink.FindAllStringSubmatch(line, -1) {
				target := m[1]
				if strings.Contains(target, "://") || strings.HasPrefix(target, "mailto:") {
					continue
				}
				n++
				where := fmt.Sprintf("%s:%d: link %q", file, i+1, target)
				path, anchor, _ := strings.Cut(target, "#")
				resolved := file
				if path != "" {
					resolved = filepath.ToSlash(filepath.Join(filepath.Dir(file), path))
					if strings.HasPrefix(resolved, "../") {
						t.Errorf("%s: points outside the repository", where)
						continue
					}
					if _, err := os.Stat(filepath.Join(moduleRoot, resolved)); err != nil {
						t.Errorf("%s: %s does not exist", where, resolved)
						continue
					}
				}
				if anchor == "" {
					continue
				}
				if !strings.HasSuffix(resolved, ".md") {
					t.Errorf("%s: anchors are checked only in Markdown files", where)
					continue
				}
				if !headingAnchors(readDoc(t, resolved))[anchor] {
					t.Errorf("%s: %s has no heading with anchor #%s", where, resolved, anchor)
				}
			}
		}
	}
	if n == 0 {
		t.Fatal("no relative links found: the documents or this test have moved")
	}
}

// proseLines returns the lines of a Markdown text with fenced code blocks and inline code
// blanked, so that link syntax inside code is not taken for a link. Line numbers are kept.
func proseLines(text string) []string {
	lines := strings.Split(text, "\n")
	inCode := false
	inline := regexp.MustCompile("`[^`]*`")
	for i, l := range lines {
		if strings.HasPrefix(strings.TrimSpace(l), "```") {
			inCode = !inCode
			lines[i] = ""
			continue
		}
		if inCode {
			lines[i] = ""
			continue
		}
		lines[i] = inline.ReplaceAllString(l, "")
	}
	return lines
}

// headingAnchors returns the anchors GitHub gives the headings of a Markdown text: the
// heading's text in lower case, inline-code backquotes and punctuation dropped, spaces
// turned into hyphens; a repeated anchor gets -1, -2, … appended.
func headingAnchors(text string) map[string]bool {
	anchors := map[string]bool{}
	seen := map[string]int{}
	inCode := false
	for _, l := range strings.Split(text, "\n") {
		if strings.HasPrefix(strings.TrimSpace(l), "```") {
			inCode = !inCode
			continue
		}
		if inCode || !strings.HasPrefix(l, "#") {
			continue
		}
		h := strings.TrimSpace(strings.TrimLeft(l, "#"))
		var b strings.Builder
		for _, r := range strings.ToLower(h) {
			switch {
			case r == ' ':
				b.WriteRune('-')
			case r == '-' || r == '_' || unicode.IsLetter(r) || unicode.IsDigit(r):
				b.WriteRune(r)
			}
		}
		a := b.String()
		if k := seen[a]; k > 0 {
			seen[a]++
			a = fmt.Sprintf("%s-%d", a, k)
		} else {
			seen[a] = 1
		}
		anchors[a] = true
	}
	return anchors
}

func TestHeadingAnchors(t *testing.T) {
	got := headingAnchors("# A b\n## Slices: --shard and merge\n```\n# not a heading\n```\n## How long: N = 20 … 28\n## Counting: `bench/count.sh`\n# A b\n")
	for _, a := range []string{"a-b", "slices---shard-and-merge", "how-long-n--20--28", "counting-benchcountsh", "a-b-1"} {
		if !got[a] {
			t.Errorf("headingAnchors: no %q in %v", a, got)
		}
	}
	if got["not-a-heading"] {
		t.Errorf("headingAnchors took a line of a code block for a heading")
	}
}

// TestManual checks that the root command's help is the package comment of doc.go.
func TestManual(t *testing.T) {
	m := manual()
	if !strings.HasPrefix(m, "The chesspuzzles command solves") || strings.Contains(m, "*/") || strings.Contains(m, "\n# ") {
		t.Errorf("manual() does not look like doc.go's comment:\n%.300s", m)
	}
	var stdout, stderr bytes.Buffer
	if code := execute(context.Background(), []string{"--help"}, strings.NewReader(""), &stdout, &stderr); code != 0 {
		t.Fatalf("--help exited %d: %s", code, stderr.String())
	}
	if !strings.Contains(stdout.String(), "Exit codes\n") || !strings.Contains(stdout.String(), "queens solve N") {
		t.Errorf("--help does not show the manual:\n%.500s", stdout.String())
	}
}

// TestDocImages checks the pictures the documents show: a "$ chesspuzzles … -o NAME" line
// of a ```text block of docs/*.md whose NAME is a file of docs/images is run, and what it
// writes must be that file, byte for byte, so the picture beside the command is what the
// command draws.
func TestDocImages(t *testing.T) {
	n := 0
	for _, file := range docFiles(t) {
		if !strings.HasPrefix(file, "docs/") {
			continue
		}
		inText := false
		for i, line := range strings.Split(readDoc(t, file), "\n") {
			switch trimmed := strings.TrimSpace(line); {
			case trimmed == "```text":
				inText = true
				continue
			case strings.HasPrefix(trimmed, "```"):
				inText = false
				continue
			}
			cmd, ok := strings.CutPrefix(line, "$ chesspuzzles ")
			if !inText || !ok {
				continue
			}
			cmd, _, _ = strings.Cut(cmd, "  #")
			words, err := splitWords(cmd)
			if err != nil || len(words) < 2 || words[len(words)-2] != "-o" {
				continue
			}
			want, err := os.ReadFile(filepath.Join(moduleRoot, "docs", "images", words[len(words)-1]))
			if err != nil {
				continue // a picture the document does not show
			}
			n++
			where := fmt.Sprintf("%s:%d: chesspuzzles %s", file, i+1, cmd)
			out := filepath.Join(t.TempDir(), words[len(words)-1])
			words[len(words)-1] = out
			var stderr bytes.Buffer
			if code := execute(context.Background(), words, strings.NewReader(""), io.Discard, &stderr); code > 1 {
				t.Errorf("%s: exit %d: %s", where, code, stderr.String())
				continue
			}
			if got, err := os.ReadFile(out); err != nil || !bytes.Equal(got, want) {
				t.Errorf("%s: wrote %d bytes (%v), not docs/images/%s (%d bytes): draw it again with this command", where, len(got), err, filepath.Base(out), len(want))
			}
		}
	}
	if n == 0 {
		t.Fatal("no command drawing a picture of docs/images found: the documents or this test have moved")
	}
	t.Logf("%d pictures drawn as the documents show them", n)
}
