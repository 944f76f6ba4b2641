package cluster

import (
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
)

// TestCheckStateDir: a state directory that does not exist yet or is its owner's passes;
// one that others may write, or that another user owns, is refused in one line.
func TestCheckStateDir(t *testing.T) {
	parallel(t)
	if runtime.GOOS == "windows" {
		t.Skip("modes and owners are Unix's")
	}
	dir := t.TempDir()
	own := filepath.Join(dir, "own")
	open := filepath.Join(dir, "open")
	if err := os.Mkdir(own, 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.Mkdir(open, 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(open, 0o777); err != nil {
		t.Fatal(err)
	}
	// Another user's directory: as root, one given to nobody; else the root directory.
	other := "/"
	if os.Getuid() == 0 {
		other = filepath.Join(dir, "other")
		if err := os.Mkdir(other, 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.Chown(other, 65534, 65534); err != nil {
			t.Fatal(err)
		}
	}
	for _, tc := range []struct {
		name, dir, want string
	}{
		{"missing", filepath.Join(dir, "new"), ""},
		{"own", own, ""},
		{"writable by others", open, "can be written by other users (mode 0777)"},
		{"another user's", other, "is owned by another user"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			err := CheckStateDir(tc.dir)
			switch {
			case tc.want == "" && err != nil:
				t.Errorf("CheckStateDir(%s) = %v, want nil", tc.dir, err)
			case tc.want != "" && (err == nil || !strings.Contains(err.Error(), tc.want) || strings.Contains(err.Error(), "\n")):
				t.Errorf("CheckStateDir(%s) = %v, want one line saying %q", tc.dir, err, tc.want)
			}
		})
	}
}
