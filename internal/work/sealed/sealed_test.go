package sealed

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestLine(t *testing.T) {
	for _, text := range []string{"", "a", "chesspuzzles-count-checkpoint 1 n=8 plan=1 tasks=3", "12 3 0 0 44"} {
		line := Line(text)
		if !strings.HasSuffix(line, "\n") {
			t.Fatalf("Line(%q) = %q: no newline", text, line)
		}
		got, ok := Unseal(strings.TrimSuffix(line, "\n"))
		if !ok || got != text {
			t.Errorf("Unseal(Line(%q)) = %q, %v", text, got, ok)
		}
	}
	for _, bad := range []string{"", "12 3 0 0 44", "12 3 0 0 45" + strings.TrimPrefix(Line("12 3 0 0 44"), "12 3 0 0 44"), "x crc=zz"} {
		if _, ok := Unseal(strings.TrimSuffix(bad, "\n")); ok {
			t.Errorf("Unseal(%q) holds", bad)
		}
	}
}

// TestLog creates a log, appends, tears its last line as a crash would, and reads it back:
// the torn line is dropped and written over; a long line, an empty file and a directory
// are refused with their errors.
func TestLog(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	path := filepath.Join(dir, "log")
	var got []string
	collect := func(no int, text string, ok bool, _ string) error {
		if !ok {
			return errors.New("bad seal")
		}
		got = append(got, text)
		return nil
	}
	l, err := OpenLog(ctx, path, "head", 64, 0, collect)
	if err != nil || len(got) != 1 || got[0] != "head" {
		t.Fatalf("new log: %v, %q", err, got)
	}
	for _, s := range []string{"one", "two"} {
		if err := l.Append(s); err != nil {
			t.Fatal(err)
		}
	}
	l.Close()
	f, _ := os.OpenFile(path, os.O_APPEND|os.O_WRONLY, 0)
	f.WriteString("thr")
	f.Close()
	got = nil
	l, err = OpenLog(ctx, path, "head", 64, 0, collect)
	if err != nil || strings.Join(got, ",") != "head,one,two" {
		t.Fatalf("reopened log: %v, %q", err, got)
	}
	l.Append("three")
	l.Close()
	data, _ := os.ReadFile(path)
	if want := Line("head") + Line("one") + Line("two") + Line("three"); string(data) != want {
		t.Errorf("log after a torn line and an append:\n%q\nwant\n%q", data, want)
	}
	long := filepath.Join(dir, "long")
	os.WriteFile(long, []byte(Line(strings.Repeat("x", 100))), 0o644)
	var ll *LongLineError
	if _, err := OpenLog(ctx, long, "head", 64, 0, collect); !errors.As(err, &ll) || ll.Line != 1 {
		t.Errorf("a long line: %v, want a *LongLineError of line 1", err)
	}
	empty := filepath.Join(dir, "empty")
	os.WriteFile(empty, nil, 0o644)
	if _, err := OpenLog(ctx, empty, "head", 64, 0, collect); !errors.Is(err, ErrEmpty) {
		t.Errorf("an empty file: %v, want ErrEmpty", err)
	}
	var nr *NotRegularError
	if _, err := OpenLog(ctx, dir, "head", 64, 0, collect); !errors.As(err, &nr) || nr.Kind != "a directory" {
		t.Errorf("a directory: %v, want a *NotRegularError", err)
	}
}

func TestReadJSON(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	type rec struct {
		A int    `json:"a"`
		B string `json:"b"`
	}
	write := func(name, content string) string {
		p := filepath.Join(dir, name)
		os.WriteFile(p, []byte(content), 0o644)
		return p
	}
	var r rec
	if n, err := ReadJSON(ctx, write("good", `{"a":1,"b":"x"}`+"\n"), 100, &r); err != nil || r != (rec{1, "x"}) || n != 16 {
		t.Errorf("good file: %v, %+v, %d bytes", err, r, n)
	}
	var te *TrailingError
	for name, c := range map[string]struct {
		content string
		check   func(error) bool
	}{
		"unknown field": {`{"a":1,"c":2}`, func(err error) bool { return errors.Is(err, ErrNotJSON) }},
		"not JSON":      {"hello", func(err error) bool { return errors.Is(err, ErrNotJSON) }},
		"too large":     {`{"b":"` + strings.Repeat("x", 200) + `"}`, func(err error) bool { return errors.Is(err, ErrTooLarge) }},
		"trailing":      {`{"a":1} {"a":2}`, func(err error) bool { return errors.As(err, &te) && te.At == 7 }},
	} {
		if _, err := ReadJSON(ctx, write(name, c.content), 100, &rec{}); !c.check(err) {
			t.Errorf("%s: %v", name, err)
		}
	}
	if a, b := Checksum(rec{1, "x"}), Checksum(rec{1, "y"}); a == b || !strings.HasPrefix(a, "sha256:") || len(a) != 7+64 {
		t.Errorf("checksums %q and %q", a, b)
	}
	if r1, r2 := NewRun(), NewRun(); r1 == r2 || len(r1) != 32 {
		t.Errorf("run identities repeat or are not 128 bits in hex")
	}
}
