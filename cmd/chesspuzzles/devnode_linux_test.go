package main

import "syscall"

// mkchardev makes a character device node at path with Linux's major and minor numbers
// (1, 3 is the null device; 1, 7 the full one). Only root may.
func mkchardev(path string, major, minor int) error {
	return syscall.Mknod(path, syscall.S_IFCHR|0o666, major<<8|minor)
}
