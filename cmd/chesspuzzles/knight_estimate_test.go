package main

import "testing"

func TestSpillDiskLine(t *testing.T) {
	const gib = 1 << 30
	for _, c := range []struct {
		need, free int64
		want       string
	}{
		{27 * gib, 50 * gib, "27.0 GiB at the widest step (--spill /d, where 50.0 GiB is free)"},
		{27 * gib, 20 * gib, "27.0 GiB at the widest step (--spill /d, where 20.0 GiB is free: not enough)"},
		{27 * gib, 27 * gib, "27.0 GiB at the widest step (--spill /d, where 27.0 GiB is free)"},
		{27 * gib, -1, "27.0 GiB at the widest step (--spill /d)"},
	} {
		if got := spillDiskLine(c.need, "/d", c.free); got != c.want {
			t.Errorf("spillDiskLine(%d, /d, %d) = %q, want %q", c.need, c.free, got, c.want)
		}
	}
}
