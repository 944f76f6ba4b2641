//go:build unix

package cluster

import (
	"io/fs"
	"syscall"
)

// ownerOf returns the user id of a file's owner.
func ownerOf(info fs.FileInfo) (int, bool) {
	st, ok := info.Sys().(*syscall.Stat_t)
	if !ok {
		return 0, false
	}
	return int(st.Uid), true
}
