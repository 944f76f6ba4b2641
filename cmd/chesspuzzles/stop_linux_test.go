package main

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"syscall"
	"time"
)

// stopProcess stops p (SIGSTOP) and returns once every thread of it has stopped (their
// state in /proc is T), or with stop false lets it go on (SIGCONT). SIGSTOP alone returns
// before the threads stop: a look at the files the process writes could come before its
// last rename.
func stopProcess(p *os.Process, stop bool) error {
	if !stop {
		return p.Signal(syscall.SIGCONT)
	}
	if err := p.Signal(syscall.SIGSTOP); err != nil {
		return err
	}
	for deadline := time.Now().Add(30 * time.Second); time.Now().Before(deadline); time.Sleep(100 * time.Microsecond) {
		tasks, err := filepath.Glob(fmt.Sprintf("/proc/%d/task/*/stat", p.Pid))
		if err != nil || len(tasks) == 0 {
			return fmt.Errorf("process %d: no threads in /proc", p.Pid)
		}
		stopped := true
		for _, name := range tasks {
			b, err := os.ReadFile(name)
			if err != nil {
				stopped = false
				break
			}
			// pid (comm) state …: the state follows the last ')'.
			i := bytes.LastIndexByte(b, ')')
			if i < 0 || i+2 >= len(b) {
				return fmt.Errorf("%s: no state in %q", name, b)
			}
			switch b[i+2] {
			case 'T', 't':
			case 'Z', 'X':
				return fmt.Errorf("process %d has ended", p.Pid)
			default:
				stopped = false
			}
			if !stopped {
				break
			}
		}
		if stopped {
			return nil
		}
	}
	return errors.New("the process did not stop in 30 s")
}
