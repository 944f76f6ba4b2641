//go:build !linux

package main

import (
	"errors"
	"os"
)

// stopProcess cannot wait for a process to stop here: errors.ErrUnsupported.
func stopProcess(*os.Process, bool) error { return errors.ErrUnsupported }
