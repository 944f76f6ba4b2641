package main

import (
	"bufio"
	"context"
	"errors"
	"io"
	"net"
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
		done <- runServe(ctx, serveOptions{addr: "127.0.0.1:0", timeout: 5 * time.Second}, pw, io.Discard)
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
	// A cancelled serve reports the cancellation (the command exits 130 on Ctrl-C).
	if err := <-done; !errors.Is(err, context.Canceled) {
		t.Errorf("serve ended with %v, want context.Canceled", err)
	}
}

func TestServeBadAddress(t *testing.T) {
	var out strings.Builder
	err := runServe(context.Background(), serveOptions{addr: "no-such-host-name.invalid:99999", timeout: time.Second}, &out, &out)
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

// serveOnce starts runServe with opts, waits for the address it prints, calls check with
// the server's URL and what it wrote on stderr so far, and stops it.
func serveOnce(t *testing.T, opts serveOptions, check func(url string, stderr string)) {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	pr, pw := io.Pipe()
	var stderr strings.Builder
	done := make(chan error, 1)
	go func() {
		done <- runServe(ctx, opts, pw, &stderr)
		pw.Close()
	}()
	lines := bufio.NewScanner(pr)
	if !lines.Scan() {
		t.Fatalf("serve printed nothing: %v", <-done)
	}
	url, _ := strings.CutPrefix(lines.Text(), "serving on ")
	go io.Copy(io.Discard, pr)
	check(url, stderr.String())
	cancel()
	if err := <-done; !errors.Is(err, context.Canceled) {
		t.Errorf("serve ended with %v, want context.Canceled", err)
	}
}

// TestServeNetworkWarning: an address open to the network is said on stderr, a loopback one
// is not.
func TestServeNetworkWarning(t *testing.T) {
	for _, tc := range []struct {
		addr string
		warn bool
	}{
		{"127.0.0.1:0", false},
		{"localhost:0", false},
		{"0.0.0.0:0", true},
		{":0", true},
	} {
		serveOnce(t, serveOptions{addr: tc.addr, timeout: 5 * time.Second}, func(_ string, stderr string) {
			if got := strings.Contains(stderr, "reachable from the network"); got != tc.warn {
				t.Errorf("--addr %s: stderr %q, want a warning: %v", tc.addr, stderr, tc.warn)
			}
		})
	}
}

// TestServeHostCheck: on loopback, a request naming another host (DNS rebinding) gets 403,
// unless --allow-host names it.
func TestServeHostCheck(t *testing.T) {
	serveOnce(t, serveOptions{addr: "127.0.0.1:0", timeout: 5 * time.Second, allowHosts: []string{"chess.home.arpa"}}, func(url, _ string) {
		for _, tc := range []struct {
			host string
			code int
		}{
			{"", 200}, // the URL's own 127.0.0.1:PORT
			{"localhost:8080", 200},
			{"chess.home.arpa:8080", 200},
			{"rebind.attacker.example:8080", 403},
		} {
			req, _ := http.NewRequest("GET", url+"api/queens/count?n=8", nil)
			if tc.host != "" {
				req.Host = tc.host
			}
			resp, err := http.DefaultClient.Do(req)
			if err != nil {
				t.Fatal(err)
			}
			body, _ := io.ReadAll(resp.Body)
			resp.Body.Close()
			if resp.StatusCode != tc.code || !strings.HasPrefix(resp.Header.Get("Content-Type"), "application/json") {
				t.Errorf("Host %q: %d %s %s, want %d JSON", tc.host, resp.StatusCode, resp.Header.Get("Content-Type"), body, tc.code)
			}
		}
	})
}

func TestServeBadAllowHost(t *testing.T) {
	var out strings.Builder
	err := runServe(context.Background(), serveOptions{addr: "127.0.0.1:0", timeout: time.Second, allowHosts: []string{"http://x:80"}}, &out, &out)
	if code := exitCode(err); code != exitUsage || !strings.Contains(err.Error(), "--allow-host") {
		t.Errorf("--allow-host http://x:80: %v (exit %d), want exit 2 naming --allow-host", err, code)
	}
}

// TestServeURLOpens: the address serve prints is one a browser opens, whatever --addr says
// (issue 46: a listener on every address printed http://[::]:PORT/); the page answers there.
func TestServeURLOpens(t *testing.T) {
	for _, addr := range []string{"127.0.0.1:0", "0.0.0.0:0", ":0", "[::]:0"} {
		serveOnce(t, serveOptions{addr: addr, timeout: 5 * time.Second}, func(url, _ string) {
			if !strings.HasPrefix(url, "http://127.0.0.1:") || !strings.HasSuffix(url, "/") {
				t.Errorf("--addr %s: serving on %q, want http://127.0.0.1:PORT/", addr, url)
				return
			}
			resp, err := http.Get(url + "api/queens/count?n=6")
			if err != nil {
				t.Fatalf("--addr %s: %v", addr, err)
			}
			body, _ := io.ReadAll(resp.Body)
			resp.Body.Close()
			if resp.StatusCode != 200 || !strings.Contains(string(body), `"total":"4"`) {
				t.Errorf("--addr %s: count?n=6 at %s: %d %s", addr, url, resp.StatusCode, body)
			}
		})
	}
}

func TestPageURL(t *testing.T) {
	for _, tc := range []struct {
		name string
		addr *net.TCPAddr
		want string
	}{
		{"every address, as Go reports it", &net.TCPAddr{IP: net.IPv6unspecified, Port: 8080}, "http://127.0.0.1:8080/"},
		{"every IPv4 address", &net.TCPAddr{IP: net.IPv4zero, Port: 8080}, "http://127.0.0.1:8080/"},
		{"no IP", &net.TCPAddr{Port: 80}, "http://127.0.0.1:80/"},
		{"loopback", &net.TCPAddr{IP: net.IPv4(127, 0, 0, 1), Port: 8080}, "http://127.0.0.1:8080/"},
		{"IPv6 loopback", &net.TCPAddr{IP: net.IPv6loopback, Port: 8080}, "http://[::1]:8080/"},
		{"a LAN address", &net.TCPAddr{IP: net.IPv4(192, 168, 1, 5), Port: 9000}, "http://192.168.1.5:9000/"},
	} {
		if got := pageURL(tc.addr); got != tc.want {
			t.Errorf("%s: pageURL(%v) = %q, want %q", tc.name, tc.addr, got, tc.want)
		}
	}
}
