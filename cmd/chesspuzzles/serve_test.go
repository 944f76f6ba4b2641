package main

import (
	"bufio"
	"context"
	"errors"
	"io"
	"net/http"
	"strings"
	"testing"
	"time"
)

// TestServe starts the server on a free loopback port, reads the address it prints, asks
// it for a count and stops it as Ctrl-C would.
func TestServe(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	pr, pw := io.Pipe()
	done := make(chan error, 1)
	go func() {
		done <- runServe(ctx, serveOptions{addr: "127.0.0.1:0", timeout: 5 * time.Second}, pw)
		pw.Close()
	}()
	lines := bufio.NewScanner(pr)
	if !lines.Scan() {
		t.Fatalf("serve printed nothing: %v", <-done)
	}
	first := lines.Text()
	url, ok := strings.CutPrefix(first, "serving on ")
	if !ok || !strings.HasPrefix(url, "http://127.0.0.1:") {
		t.Fatalf("first line %q, want serving on http://127.0.0.1:PORT/", first)
	}
	resp, err := http.Get(url + "api/queens/count?n=8")
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != 200 || !strings.Contains(string(body), `"total":"92"`) {
		t.Errorf("count?n=8: %d %s", resp.StatusCode, body)
	}
	cancel()
	go io.Copy(io.Discard, pr)
	// Stopped by Ctrl-C: the context's error, which execute turns into exit 130.
	if err := <-done; !errors.Is(err, context.Canceled) {
		t.Errorf("serve ended with %v, want %v", err, context.Canceled)
	}
}

func TestServeBadAddress(t *testing.T) {
	var out strings.Builder
	err := runServe(context.Background(), serveOptions{addr: "no-such-host-name.invalid:99999", timeout: time.Second}, &out)
	if code := exitCode(err); code != exitUsage {
		t.Errorf("serve on a bad address: %v (exit %d), want exit 2", err, code)
	}
}

func exitCode(err error) int {
	if ee, ok := err.(*exitError); ok {
		return ee.code
	}
	if err == nil {
		return 0
	}
	return 1
}
