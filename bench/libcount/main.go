// Command libcount counts the n-queens solutions the way a program that imports the
// library does: one call of queens.Count, on the calling goroutine, in a process that
// links the engines and nothing of the command-line tool. bench/public-join.sh times it
// beside `chesspuzzles queens count`, whose one binary also starts nats-server's,
// Prometheus' and the terminal packages' initialisers (about 25 ms of CPU on a host where
// a fresh page costs 10 µs); this process starts as a Go hello world does.
//
// Usage: go run ./bench/libcount [-method auto|frames|join] N
//
// It prints "N queens: TOTAL solutions, FUNDAMENTAL fundamental", the line the command
// prints with -q.
package main

import (
	"context"
	"flag"
	"fmt"
	"os"
	"strconv"

	"github.com/chesspuzzles/chesspuzzles/queens"
)

func main() {
	method := flag.String("method", "join", "the count method: auto, frames or join")
	flag.Usage = func() { fmt.Fprintln(os.Stderr, "usage: libcount [-method auto|frames|join] N") }
	flag.Parse()
	if flag.NArg() != 1 {
		flag.Usage()
		os.Exit(2)
	}
	n, err := strconv.Atoi(flag.Arg(0))
	if err != nil || n < 1 || n > queens.MaxCountN {
		fmt.Fprintf(os.Stderr, "libcount: N must be a whole number from 1 to %d, got %q\n", queens.MaxCountN, flag.Arg(0))
		os.Exit(2)
	}
	switch *method {
	case "auto", "frames", "join":
	default:
		fmt.Fprintf(os.Stderr, "libcount: -method must be auto, frames or join, got %q\n", *method)
		os.Exit(2)
	}
	c, err := queens.Count(context.Background(), n, queens.CountOptions{Method: *method})
	if err != nil {
		fmt.Fprintln(os.Stderr, "libcount:", err)
		os.Exit(1)
	}
	fmt.Printf("%d queens: %s solutions, %s fundamental\n", n, c.Total, c.Unique)
}
