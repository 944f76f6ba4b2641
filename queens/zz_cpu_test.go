package queens

import (
	"context"
	"os"
	"strconv"
	"strings"
	"syscall"
	"testing"
)

func cpuNow() float64 {
	var ru syscall.Rusage
	syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	return float64(ru.Utime.Nano()+ru.Stime.Nano()) / 1e9
}

func TestZZCPU(t *testing.T) {
	ns := os.Getenv("ZZN")
	if ns == "" {
		t.Skip()
	}
	for _, f := range strings.Split(ns, ",") {
		n, _ := strconv.Atoi(f)
		sharedQuarterTable(n / 2)
		t0 := cpuNow()
		c, err := CountJoin(context.Background(), n)
		t1 := cpuNow()
		var fr Counts
		if os.Getenv("ZZF") != "" {
			fr, _ = Count(context.Background(), n)
		}
		t2 := cpuNow()
		t.Logf("n=%d join %v %v cpu %.3f  frames %v cpu %.3f", n, c.Total, err, t1-t0, fr.Total, t2-t1)
	}
}
