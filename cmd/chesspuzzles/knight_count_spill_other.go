//go:build !unix

package main

// free returns -1: the bytes free are not looked up on this system.
func (spillDir) free() int64 { return -1 }
