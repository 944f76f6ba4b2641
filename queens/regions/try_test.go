package regions

import (
	"context"
	"fmt"
	"os"
	"strconv"
	"testing"
	"time"
)

func TestTry(t *testing.T) {
	n, _ := strconv.Atoi(os.Getenv("TN"))
	for _, lv := range []Level{Easy, Medium, Hard} {
		var ds []time.Duration
		for seed := range uint64(6) {
			t0 := time.Now()
			p, err := Generate(context.Background(), n, seed, lv)
			ds = append(ds, time.Since(t0).Round(time.Millisecond))
			if err != nil {
				t.Fatal(err)
			}
			if Count(p, 2) != 1 {
				t.Fatal("not unique")
			}
		}
		fmt.Println(n, lv, ds)
	}
}
