//go:build linux

package main

import (
	"bytes"
	"fmt"
	"os"
	"regexp"
	"strconv"
	"strings"
	"syscall"
	"testing"

	"golang.org/x/sys/unix"
)

// Issue 27.1: on a terminal, a long command's progress bar must never touch its answer.
// These tests run chesspuzzles with stdin, stdout and stderr on a pseudo-terminal of 120×30,
// as a user's shell does, then replay what it wrote on a small screen model and look for
// the answer there, and check the raw bytes: no cursor-up (ESC[nA, ESC[nF) or erase (ESC[J,
// ESC[K) after the answer's last byte. A bar redrawn after the answer (the bug of issue
// 27: knight count erased its own count) fails both. The pseudo-terminal is opened with
// golang.org/x/sys/unix, which the module already needs, rather than a new dependency;
// hence Linux only, where CI runs.

// Each case starts a process, about 0.05 s, but over a second under the race detector,
// which adds nothing to what these tests check: under -race only the cases marked race run
// (the two the bug of issue 27 showed first), the others with CHESSPUZZLES_LONG.
//
// The known values are from OEIS A000170, A002562 (queens) and A165134, A001230 and
// Kyek et al. (knight's tours), as shared/reference/known-values.md gathers them.
var terminalCases = []struct {
	name   string
	args   []string
	answer []string // lines that must be on the screen, consecutive, in this order
	long   bool     // only with CHESSPUZZLES_LONG
	race   bool     // also under the race detector without CHESSPUZZLES_LONG
}{
	{"knight count search", []string{"knight", "count", "--size", "5"},
		[]string{"1728 directed open tours of 5×5"}, false, true},
	{"knight count from a corner", []string{"knight", "count", "--size", "5", "--start", "a1"},
		[]string{"304 directed open tours from a1 of 5×5"}, false, false},
	{"knight count dp", []string{"knight", "count", "--board", "5x6", "--closed", "--method", "dp"},
		[]string{"8 closed tours of 5×6"}, false, false},
	{"knight count 6x7 closed", []string{"knight", "count", "--board", "6x7", "--closed"},
		[]string{"1067638 closed tours of 6×7"}, true, false},
	{"queens count", []string{"queens", "count", "12"},
		[]string{"12 queens: 14200 solutions, 1787 fundamental"}, false, false},
	{"queens count table", []string{"queens", "count", "8-12"},
		[]string{"| n | Q(n) | U(n) |", "|---:|---:|---:|", "| 8 | 92 | 12 |", "| 9 | 352 | 46 |",
			"| 10 | 724 | 92 |", "| 11 | 2680 | 341 |", "| 12 | 14200 | 1787 |"}, false, true},
	{"queens count frames", []string{"queens", "count", "13", "--method", "frames"},
		[]string{"13 queens: 73712 solutions, 9233 fundamental"}, false, false},
	{"queens count shard", []string{"queens", "count", "12", "--shard", "0/1", "--method", "frames"},
		[]string{`"solutions":"14200"`}, false, false},
	{"queens count distributed", []string{"queens", "count", "10", "--distributed"},
		[]string{"10 queens: 724 solutions, 92 fundamental"}, true, false},
	{"queens solve to a file", []string{"queens", "solve", "10", "-o", "q10.txt"},
		[]string{"wrote 724 solutions to q10.txt"}, false, false},
}

func TestProgressLeavesAnswerOnTerminal(t *testing.T) {
	long := os.Getenv("CHESSPUZZLES_LONG") != ""
	bin := chesspuzzlesBin(t)
	for _, c := range terminalCases {
		t.Run(c.name, func(t *testing.T) {
			if c.long && !long {
				t.Skip("set CHESSPUZZLES_LONG to run")
			}
			if raceEnabled && !c.race && !long {
				t.Skip("under -race only with CHESSPUZZLES_LONG: a process takes over a second")
			}
			out := runOnTerminal(t, bin, c.args...)
			if !bytes.Contains(out, []byte("\r\n")) {
				t.Fatalf("no CR LF in the output: not written to a terminal?\n%q", out)
			}
			// The raw bytes: nothing moves the cursor up or erases after the answer.
			last := c.answer[len(c.answer)-1]
			i := bytes.LastIndex(out, []byte(last))
			if i < 0 {
				t.Fatalf("the output lacks %q:\n%q", last, out)
			}
			if m := cursorMoves.Find(out[i+len(last):]); m != nil {
				t.Errorf("after the answer %q the output moves the cursor or erases (%q):\n%q", last, m, out[i:])
			}
			// The screen: the answer's lines are there, one after another.
			screen := replay(out, 120)
			if !containsLines(screen, c.answer) {
				t.Errorf("the screen lacks the answer %q; it shows:\n%s\nfrom the bytes\n%q", c.answer, strings.Join(screen, "\n"), out)
			}
		})
	}
}

// cursorMoves matches the control sequences that move the cursor up or erase text.
var cursorMoves = regexp.MustCompile(`\x1b\[[0-9;]*[AFJK]`)

// containsLines reports whether want occurs in screen as consecutive lines.
func containsLines(screen, want []string) bool {
	for i := 0; i+len(want) <= len(screen); i++ {
		ok := true
		for j, w := range want {
			if !strings.Contains(screen[i+j], w) {
				ok = false
				break
			}
		}
		if ok {
			return true
		}
	}
	return false
}

// runOnTerminal runs bin with args on a new pseudo-terminal of 120 columns and 30 rows in
// a fresh directory (runOnTerminalCode), and returns all it wrote (stdout and stderr, as the
// terminal got them); it fails the test unless bin exits with 0.
func runOnTerminal(t *testing.T, bin string, args ...string) []byte {
	t.Helper()
	code, out := runOnTerminalCode(t, bin, args...)
	if code != 0 {
		t.Fatalf("chesspuzzles %s: exit %d\n%q", strings.Join(args, " "), code, out)
	}
	return out
}

// openPTY opens a pseudo-terminal pair of the given size (Linux: /dev/ptmx, unlocked, its
// slave found by number).
func openPTY(rows, cols uint16) (master, slave *os.File, err error) {
	master, err = os.OpenFile("/dev/ptmx", os.O_RDWR|syscall.O_NOCTTY|syscall.O_CLOEXEC, 0)
	if err != nil {
		return nil, nil, err
	}
	fd := int(master.Fd())
	if err := unix.IoctlSetPointerInt(fd, unix.TIOCSPTLCK, 0); err != nil {
		master.Close()
		return nil, nil, fmt.Errorf("unlocking: %w", err)
	}
	n, err := unix.IoctlGetUint32(fd, unix.TIOCGPTN)
	if err != nil {
		master.Close()
		return nil, nil, fmt.Errorf("numbering: %w", err)
	}
	slave, err = os.OpenFile("/dev/pts/"+strconv.Itoa(int(n)), os.O_RDWR|syscall.O_NOCTTY|syscall.O_CLOEXEC, 0)
	if err != nil {
		master.Close()
		return nil, nil, err
	}
	if err := unix.IoctlSetWinsize(int(slave.Fd()), unix.TIOCSWINSZ, &unix.Winsize{Row: rows, Col: cols}); err != nil {
		master.Close()
		slave.Close()
		return nil, nil, fmt.Errorf("sizing: %w", err)
	}
	return master, slave, nil
}

// replay plays out on a screen cols wide what a program wrote to its terminal, and returns
// the screen's lines, with no scrolling limit. It knows what the progress bars use:
// printable text (wrapping at cols), CR, LF, cursor up (ESC[nA), cursor to the start of a
// line n up (ESC[nF), erase to the end of the screen (ESC[J) or line (ESC[K); other
// control sequences it drops.
func replay(out []byte, cols int) []string {
	var lines [][]rune
	row, col := 0, 0
	put := func(r rune) {
		if col >= cols {
			row, col = row+1, 0
		}
		for len(lines) <= row {
			lines = append(lines, nil)
		}
		for len(lines[row]) <= col {
			lines[row] = append(lines[row], ' ')
		}
		lines[row][col] = r
		col++
	}
	s := []rune(string(out))
	for i := 0; i < len(s); i++ {
		switch r := s[i]; {
		case r == '\r':
			col = 0
		case r == '\n':
			row++
		case r == 0x1b && i+1 < len(s) && s[i+1] == '[':
			j := i + 2
			for j < len(s) && (s[j] < 0x40 || s[j] > 0x7e) {
				j++
			}
			if j == len(s) {
				i = j
				break
			}
			n, err := strconv.Atoi(string(s[i+2 : j]))
			if err != nil || n < 1 {
				n = 1
			}
			switch s[j] {
			case 'A':
				row = max(row-n, 0)
			case 'F':
				row, col = max(row-n, 0), 0
			case 'J':
				if row < len(lines) {
					lines = lines[:row+1]
					lines[row] = lines[row][:min(col, len(lines[row]))]
				}
			case 'K':
				if row < len(lines) {
					lines[row] = lines[row][:min(col, len(lines[row]))]
				}
			}
			i = j
		case r == 0x1b:
			i++ // a two-byte escape: drop it
		case r < 0x20:
		default:
			put(r)
		}
	}
	screen := make([]string, len(lines))
	for i, l := range lines {
		screen[i] = strings.TrimRight(string(l), " ")
	}
	return screen
}

// TestReplay checks the screen model on what the bug of issue 27 wrote: a bar, the answer,
// then the bar redrawn over it.
func TestReplay(t *testing.T) {
	out := "counting\r\nbar 1\r\n\x1b[1A\x1b[Jbar 2\r\n1728 tours\r\n\x1b[1A\x1b[Jbar 3\r\n"
	got := strings.Join(replay([]byte(out), 120), "|")
	if want := "counting|bar 2|bar 3"; got != want {
		t.Errorf("replay = %q, want %q", got, want)
	}
	if got := strings.Join(replay([]byte("abcdef\r\nx\x1b[2F\x1b[K12"), 4), "|"); got != "12|ef|x" {
		t.Errorf("replay with wrapping and ESC[2F ESC[K = %q, want %q", got, "12|ef|x")
	}
}
