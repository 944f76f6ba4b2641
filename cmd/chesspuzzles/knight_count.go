package main

import (
	"bufio"
	"fmt"
	"io"
	"math"
	"os"
	"strconv"
	"strings"
	"time"

	"github.com/chesspuzzles/chesspuzzles/knight"
)

// countProgress shows the progress of a knight count: a line rewritten in place on a
// terminal (at most 10 times a second), a plain line every 5 seconds otherwise.
type countProgress struct {
	w        io.Writer
	tty      bool
	t0, last time.Time
	shown    bool
}

func newCountProgress(w io.Writer, tty bool) *countProgress {
	now := time.Now()
	return &countProgress{w: w, tty: tty, t0: now, last: now}
}

func (p *countProgress) update(s knight.CountStatus) {
	now := time.Now()
	every := 5 * time.Second
	if p.tty {
		every = 100 * time.Millisecond
	}
	if now.Sub(p.last) < every && s.Done < s.Total {
		return
	}
	if !p.tty && s.Done == s.Total && !p.shown {
		return // a count done before the first plain line needs no closing one
	}
	p.last = now
	el := now.Sub(p.t0)
	line := fmt.Sprintf("%d of %d shares, %s", s.Done, s.Total, el.Round(time.Second))
	if s.Method == knight.MethodDP {
		// The time of a cell grows with the states it reads: the ETA assumes the rest of
		// the cells each take as long as the cells so far did on average, so it is rough
		// (the widest columns are in the middle).
		line = fmt.Sprintf("cell %d of %d, %d states, %s, %s", s.Done, s.Total, s.States, knight.FormatBytes(s.Bytes), el.Round(time.Second))
	}
	if s.Done > 0 && s.Done < s.Total {
		eta := time.Duration(float64(el) / float64(s.Done) * float64(s.Total-s.Done))
		line += ", ETA ~" + eta.Round(time.Second).String()
	}
	if p.tty {
		fmt.Fprintf(p.w, "\r\x1b[K%s", line)
		p.shown = true
		return
	}
	fmt.Fprintln(p.w, line)
	p.shown = true
}

func (p *countProgress) finish() {
	if p.tty && p.shown {
		fmt.Fprint(p.w, "\r\x1b[K")
	}
}

// parseBytes reads a size such as 8GiB, 8G, 500MB, 1.5T or 1048576 (bytes); units are
// binary (K = KiB = 1024).
func parseBytes(s string) (int64, error) {
	t := strings.TrimSpace(s)
	num := strings.TrimRightFunc(t, func(r rune) bool { return r < '0' || r > '9' && r != '.' })
	unit := strings.ToUpper(strings.TrimSpace(t[len(num):]))
	unit = strings.TrimSuffix(strings.TrimSuffix(unit, "B"), "I")
	mult := map[string]float64{"": 1, "K": 1 << 10, "M": 1 << 20, "G": 1 << 30, "T": 1 << 40}[unit]
	f, err := strconv.ParseFloat(num, 64)
	if mult == 0 || err != nil || f <= 0 || math.IsInf(f*mult, 0) || f*mult > 1<<60 {
		return 0, fmt.Errorf("a size must be a positive number with an optional unit K, M, G or T (binary: G = GiB), e.g. 8GiB or 500M, got %q", s)
	}
	return int64(f * mult), nil
}

// halfMemory returns half of MemTotal from /proc/meminfo, or 4 GiB where that cannot be read.
func halfMemory() int64 {
	f, err := os.Open("/proc/meminfo")
	if err != nil {
		return 4 << 30
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		fs := strings.Fields(sc.Text())
		if len(fs) >= 2 && fs[0] == "MemTotal:" {
			if kb, err := strconv.ParseInt(fs[1], 10, 64); err == nil && kb > 0 {
				return kb * 1024 / 2
			}
		}
	}
	return 4 << 30
}
