//go:build !linux

package main

import "os/exec"

// dieWithTest does nothing where the system cannot kill a child with its parent (Linux's
// Pdeathsig): there the test's Cleanup kills the children it started, unless the test
// process itself is killed.
func dieWithTest(*exec.Cmd) {}
