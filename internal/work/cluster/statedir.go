package cluster

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
)

// CheckStateDir refuses a coordinator's state directory that others could change: one
// that users other than its owner may write, or that another user owns (the keys and the
// results in it are the coordinator's whole trust). A directory that does not exist yet
// passes: it is made with mode 0700.
func CheckStateDir(dir string) error {
	info, err := os.Stat(dir)
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if err != nil {
		return fmt.Errorf("state directory: %w", err)
	}
	if !info.IsDir() {
		return fmt.Errorf("state directory %s is not a directory", dir)
	}
	if perm := info.Mode().Perm(); perm&0o022 != 0 {
		return fmt.Errorf("state directory %s can be written by other users (mode %04o); make it the owner's only: chmod go-w %s", dir, perm, dir)
	}
	if uid, ok := ownerOf(info); ok && uid != os.Getuid() {
		return fmt.Errorf("state directory %s is owned by another user (uid %d, not %d); use a directory of your own", dir, uid, os.Getuid())
	}
	return nil
}
