package progress

import (
	"fmt"
	"os"
	"strings"
	"testing"
	"time"

	"golang.org/x/sys/unix"
)

// openPTY opens a new pseudo-terminal and returns its two ends: the terminal a program
// writes to (whose size starts at 0×0, as a fresh one's does) and the end that reads what
// was written.
func openPTY(t *testing.T) (tty, reader *os.File) {
	t.Helper()
	m, err := os.OpenFile("/dev/ptmx", os.O_RDWR|unix.O_NOCTTY, 0)
	if err != nil {
		t.Fatalf("opening a pseudo-terminal: %v", err)
	}
	t.Cleanup(func() { m.Close() })
	if err := unix.IoctlSetPointerInt(int(m.Fd()), unix.TIOCSPTLCK, 0); err != nil {
		t.Fatalf("unlocking the pseudo-terminal: %v", err)
	}
	n, err := unix.IoctlGetUint32(int(m.Fd()), unix.TIOCGPTN)
	if err != nil {
		t.Fatalf("naming the pseudo-terminal: %v", err)
	}
	s, err := os.OpenFile(fmt.Sprintf("/dev/pts/%d", n), os.O_RDWR|unix.O_NOCTTY, 0)
	if err != nil {
		t.Fatalf("opening the pseudo-terminal's end: %v", err)
	}
	t.Cleanup(func() { s.Close() })
	return s, m
}

// TestZeroSizeTerminal: a terminal that reports its size as 0×0 gets plain lines, not a bar
// drawn in no rows (issue 46: such a terminal showed no progress at all); once it has a
// size, a bar.
func TestZeroSizeTerminal(t *testing.T) {
	tty, reader := openPTY(t)
	if !IsTerminal(tty) {
		t.Fatal("IsTerminal(a pseudo-terminal) = false")
	}
	ws, err := unix.IoctlGetWinsize(int(tty.Fd()), unix.TIOCGWINSZ)
	if err != nil || ws.Col != 0 || ws.Row != 0 {
		t.Fatalf("a new pseudo-terminal's size: %+v %v, want 0×0", ws, err)
	}
	if CanDraw(tty) {
		t.Error("CanDraw(a 0×0 terminal) = true, want false")
	}
	// The meter runs aside, and the test waits for it a few seconds only: a bar drawn in
	// no rows may never finish.
	shown := make(chan string, 1)
	go func() {
		buf := make([]byte, 4096)
		n, _ := reader.Read(buf)
		shown <- string(buf[:n])
	}()
	go func() {
		m := New(tty, Options{What: "N=8", Unit: "tasks", RateUnit: "nodes", Every: time.Nanosecond})
		m.Update(Status{Done: 3, Total: 10})
		m.Finish()
	}()
	select {
	case got := <-shown:
		if !strings.Contains(got, "N=8: 3/10 tasks, 30.0%") {
			t.Errorf("progress on a 0×0 terminal wrote %q, want the plain line", got)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("progress on a 0×0 terminal: nothing shown in 5s, want the plain line")
	}

	if err := unix.IoctlSetWinsize(int(tty.Fd()), unix.TIOCSWINSZ, &unix.Winsize{Row: 24, Col: 80}); err != nil {
		t.Fatal(err)
	}
	if !CanDraw(tty) {
		t.Error("CanDraw(an 80×24 terminal) = false, want true")
	}
	if CanDraw(&strings.Builder{}) {
		t.Error("CanDraw of a writer that is not a file = true")
	}
}
