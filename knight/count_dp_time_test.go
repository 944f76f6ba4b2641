package knight

import (
	"context"
	"fmt"
	"os"
	"strconv"
	"testing"
	"time"
)

func TestDPTime(t *testing.T) {
	r, _ := strconv.Atoi(os.Getenv("R"))
	c, _ := strconv.Atoi(os.Getenv("C"))
	if r == 0 {
		t.Skip()
	}
	closed := os.Getenv("CL") != ""
	t0 := time.Now()
	got, err := countDP(context.Background(), r, c, closed, -1, 0, func(s CountStatus) {
		fmt.Printf("%v cell %d/%d states %d bytes %d\n", time.Since(t0).Round(time.Millisecond), s.Done, s.Total, s.States, s.Bytes)
	})
	fmt.Println(got, err, time.Since(t0))
}
