package main

import (
	"bufio"
	"fmt"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// dieWithTest has cmd killed (SIGKILL) when the test process dies, however it dies: a
// test killed by its timeout or by the operator leaves no nats-server, coordinator or
// worker running (they would hold ports and the CPU). Linux sends the signal when the
// thread that started cmd ends; Go ends a thread only with a goroutine locked to it, which
// these tests never do.
func dieWithTest(cmd *exec.Cmd) {
	if cmd.SysProcAttr == nil {
		cmd.SysProcAttr = &syscall.SysProcAttr{}
	}
	cmd.SysProcAttr.Pdeathsig = syscall.SIGKILL
}

// TestDieWithTest: a process started with dieWithTest dies when the process that started
// it is killed with SIGKILL, as a test killed by its timeout is. The test runs itself again
// as that parent (CHESSPUZZLES_DIEWITHTEST=parent), which starts "sleep 60" and says its
// process id.
func TestDieWithTest(t *testing.T) {
	if os.Getenv("CHESSPUZZLES_DIEWITHTEST") == "parent" {
		child := exec.Command("sleep", "60")
		dieWithTest(child)
		if err := child.Start(); err != nil {
			fmt.Println("error:", err)
			os.Exit(1)
		}
		fmt.Println(child.Process.Pid)
		time.Sleep(time.Minute)
		return
	}
	parent := exec.Command(os.Args[0], "-test.run=^TestDieWithTest$")
	parent.Env = append(os.Environ(), "CHESSPUZZLES_DIEWITHTEST=parent")
	out, err := parent.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := parent.Start(); err != nil {
		t.Fatal(err)
	}
	line, err := bufio.NewReader(out).ReadString('\n')
	pid, perr := strconv.Atoi(strings.TrimSpace(line))
	if err != nil || perr != nil {
		parent.Process.Kill()
		parent.Wait()
		t.Fatalf("the parent said %q (%v), not the child's process id", line, err)
	}
	t.Cleanup(func() { _ = syscall.Kill(pid, syscall.SIGKILL) })
	if !running(pid) {
		t.Fatalf("the child %d is not running before its parent is killed", pid)
	}
	parent.Process.Kill()
	parent.Wait()
	for deadline := time.Now().Add(5 * time.Second); running(pid); time.Sleep(10 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("the child %d still runs 5 s after its parent was killed", pid)
		}
	}
}

// running reports whether process pid exists and is not a zombie (dead, not yet reaped).
func running(pid int) bool {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return false
	}
	// pid (comm) state …: the state follows the last ')'.
	s := string(b)
	i := strings.LastIndexByte(s, ')')
	return i >= 0 && i+2 < len(s) && s[i+2] != 'Z' && s[i+2] != 'X'
}
