//go:build unix

package main

import "syscall"

// free returns the bytes free on the directory's file system for an unprivileged user, or
// -1 if it cannot tell.
func (d spillDir) free() int64 {
	var st syscall.Statfs_t
	if err := syscall.Statfs(string(d), &st); err != nil {
		return -1
	}
	return int64(st.Bavail) * int64(st.Bsize)
}
