package cluster

import (
	"fmt"
	"testing"
)

func ExampleJobID() {
	fmt.Println(JobID(27, 1))
	n, v, err := ParseJobID("q27v1")
	fmt.Println(n, v, err)
	// Output:
	// q27v1
	// 27 1 <nil>
}

func TestParseJobID(t *testing.T) {
	parallel(t)
	for _, tc := range []struct {
		name string
		job  string
		n, v int
		ok   bool
	}{
		{"plain", "q13v1", 13, 1, true},
		{"big", "q27v12", 27, 12, true},
		{"no q", "13v1", 0, 0, false},
		{"no v", "q13", 0, 0, false},
		{"zero n", "q0v1", 0, 0, false},
		{"letters", "qxv1", 0, 0, false},
		{"empty", "", 0, 0, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			n, v, err := ParseJobID(tc.job)
			if (err == nil) != tc.ok || n != tc.n || v != tc.v {
				t.Errorf("ParseJobID(%q) = %d, %d, %v; want %d, %d, ok=%v", tc.job, n, v, err, tc.n, tc.v, tc.ok)
			}
			if tc.ok && JobID(n, v) != tc.job {
				t.Errorf("JobID(%d, %d) = %q, want %q", n, v, JobID(n, v), tc.job)
			}
		})
	}
}

func TestIsLoopback(t *testing.T) {
	parallel(t)
	for _, tc := range []struct {
		name, listen string
		want         bool
	}{
		{"ipv4 loopback", "127.0.0.1:4222", true},
		{"ipv6 loopback", "[::1]:4222", true},
		{"localhost", "localhost:4222", true},
		{"all interfaces", "0.0.0.0:4222", false},
		{"empty host", ":4222", false},
		{"lan address", "192.168.1.5:4222", false},
		{"host name", "example.org:4222", false},
		{"no port", "127.0.0.1", false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := IsLoopback(tc.listen); got != tc.want {
				t.Errorf("IsLoopback(%q) = %v, want %v", tc.listen, got, tc.want)
			}
		})
	}
}

func TestResultCheck(t *testing.T) {
	parallel(t)
	good := Result{Job: "q9v1"}
	good.ID = 5
	for _, tc := range []struct {
		name   string
		edit   func(*Result)
		wantOK bool
	}{
		{"good", func(*Result) {}, true},
		{"other job", func(r *Result) { r.Job = "q9v2" }, false},
		{"other task", func(r *Result) { r.ID = 6 }, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := good
			tc.edit(&r)
			if err := r.check(JobID(9, 1), 5); (err == nil) != tc.wantOK {
				t.Errorf("check(%+v) = %v, want ok=%v", r, err, tc.wantOK)
			}
		})
	}
}

// FuzzParseJobID: ParseJobID never panics, and what it accepts JobID writes back the same
// way (up to leading zeros and signs, which it normalizes).
func FuzzParseJobID(f *testing.F) {
	for _, s := range []string{"q13v1", "q27v12", "", "q", "qv", "q0v0", "q-1v1", "q13v", "q13v1.5"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		n, v, err := ParseJobID(s)
		if err != nil {
			return
		}
		if n < 1 || v < 1 {
			t.Fatalf("ParseJobID(%q) = %d, %d, want both ≥ 1", s, n, v)
		}
		n2, v2, err := ParseJobID(JobID(n, v))
		if err != nil || n2 != n || v2 != v {
			t.Fatalf("ParseJobID(JobID(%d, %d)) = %d, %d, %v", n, v, n2, v2, err)
		}
	})
}
