package cluster

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestLoadOrCreateToken: the first call makes a token file only its owner may read, later
// calls return the same token, and a file others may read, or an empty one, is refused.
func TestLoadOrCreateToken(t *testing.T) {
	parallel(t)
	dir := filepath.Join(t.TempDir(), "state")
	tok, created, err := LoadOrCreateToken(dir)
	if err != nil || !created || len(tok) != 32 {
		t.Fatalf("first LoadOrCreateToken = %q, %v, %v; want a new 32-digit token", tok, created, err)
	}
	path := filepath.Join(dir, TokenFile)
	info, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	if perm := info.Mode().Perm(); perm != 0o600 {
		t.Errorf("token file mode %04o, want 0600", perm)
	}
	again, created, err := LoadOrCreateToken(dir)
	if err != nil || created || again != tok {
		t.Errorf("second LoadOrCreateToken = %q, %v, %v; want the first token %q kept", again, created, err, tok)
	}
	if other, _, _ := LoadOrCreateToken(t.TempDir()); other == tok {
		t.Errorf("two state directories got the same token %q", tok)
	}
	if err := os.Chmod(path, 0o644); err != nil {
		t.Fatal(err)
	}
	if _, _, err := LoadOrCreateToken(dir); err == nil || !strings.Contains(err.Error(), "chmod 600") {
		t.Errorf("token file of mode 0644: %v, want a refusal saying chmod 600", err)
	}
	if err := os.WriteFile(path, []byte("\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	os.Chmod(path, 0o600)
	if _, _, err := LoadOrCreateToken(dir); err == nil || !strings.Contains(err.Error(), "one token") {
		t.Errorf("empty token file: %v, want a refusal", err)
	}
}
