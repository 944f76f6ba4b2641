// Command ksplit measures split plans of a board's open tours (knight/count.NewSplitPlan)
// against the whole forward sweep: for each plan, the states summed over every task and
// cell over the whole sweep's (the redundancy), the largest task's peak over the whole
// peak, the CPU seconds of the tasks summed over the whole sweep's, and that the tasks'
// counts sum to the whole count. bench/log/2026-11-27.md, "Issue 35: the 8×8 open tours by a split
// frontier", has its figures.
//
// Usage:
//
//	go run ./bench/ksplit -board 6x8 [-parts 0,1] [-cells] SPLIT...
//
// SPLIT is a plan's levels as "knight plan --split" takes them (c20k8f5, levels joined by
// -). -parts runs only the tasks listed (a sample: the sums are then scaled by the tasks
// in all over the tasks run, and the whole sweep is not run); -cells prints the whole
// sweep's states after each cell.
package main

import (
	"context"
	"flag"
	"fmt"
	"math/big"
	"os"
	"strconv"
	"strings"
	"time"

	"github.com/chesspuzzles/chesspuzzles/internal/cputime"
	kcount "github.com/chesspuzzles/chesspuzzles/knight/count"
)

func die(err error) {
	fmt.Fprintln(os.Stderr, "ksplit:", err)
	os.Exit(2)
}

func main() {
	boardF := flag.String("board", "6x8", "board RxC")
	partsF := flag.String("parts", "", "run only these tasks (comma-separated ids)")
	cells := flag.Bool("cells", false, "print the whole sweep's states after each cell")
	flag.Parse()
	var rows, cols int
	if _, err := fmt.Sscanf(*boardF, "%dx%d", &rows, &cols); err != nil {
		die(fmt.Errorf("board %q: want RxC", *boardF))
	}
	ctx := context.Background()
	var whole kcount.OpenResult
	var wholeCPU time.Duration
	if *partsF == "" {
		// the whole sweep: a split plan of one part
		p, err := kcount.NewSplitPlan(rows, cols, []kcount.SplitLevel{{Cell: 1, Parts: 1}})
		if err != nil {
			die(err)
		}
		c0 := cputime.Process()
		var status func(kcount.Status)
		if *cells {
			status = func(s kcount.Status) { fmt.Printf("cell %d %d\n", s.Done-1, s.States) }
		}
		whole, err = kcount.CountOpenTask(ctx, rows, cols, p.Tasks[0], 0, status)
		if err != nil {
			die(err)
		}
		wholeCPU = cputime.Process() - c0
		fmt.Printf("%s whole: %v tours, %d states summed, peak %d, %.2f CPU-s\n", *boardF, whole.Tours, whole.States, whole.Peak, wholeCPU.Seconds())
	}
	for _, arg := range flag.Args() {
		levels, err := kcount.ParseSplitLevels(arg)
		if err != nil {
			die(err)
		}
		p, err := kcount.NewSplitPlan(rows, cols, levels)
		if err != nil {
			die(err)
		}
		ids := make([]int, 0, len(p.Tasks))
		if *partsF == "" {
			for _, t := range p.Tasks {
				ids = append(ids, t.ID)
			}
		} else {
			for _, f := range strings.Split(*partsF, ",") {
				id, err := strconv.Atoi(f)
				if err != nil || id < 0 || id >= len(p.Tasks) {
					die(fmt.Errorf("-parts %q: ids from 0 to %d", *partsF, len(p.Tasks)-1))
				}
				ids = append(ids, id)
			}
		}
		var states, peak int64
		var minPeak int64 = -1
		total := new(big.Int)
		c0 := cputime.Process()
		var maxCPU time.Duration
		for _, id := range ids {
			t0 := cputime.Process()
			r, err := kcount.CountOpenTask(ctx, rows, cols, p.Tasks[id], 0, nil)
			if err != nil {
				die(err)
			}
			maxCPU = max(maxCPU, cputime.Process()-t0)
			states += r.States
			peak = max(peak, r.Peak)
			if minPeak < 0 || r.Peak < minPeak {
				minPeak = r.Peak
			}
			total.Add(total, r.Tours)
		}
		used := cputime.Process() - c0
		scale := float64(len(p.Tasks)) / float64(len(ids))
		line := fmt.Sprintf("%s %s: %d tasks (%d run), states summed %.4g, largest peak %d (smallest %d), CPU %.2f s (largest task %.2f)",
			*boardF, arg, len(p.Tasks), len(ids), float64(states)*scale, peak, minPeak, used.Seconds()*scale, maxCPU.Seconds())
		if *partsF == "" {
			ok := "sum equal"
			if total.Cmp(whole.Tours) != 0 {
				ok = fmt.Sprintf("SUM %v DIFFERS", total)
			}
			line += fmt.Sprintf("; ÷ whole: states %.3f, peak %.3f (1/K = %.3f), CPU %.2f; %s",
				float64(states)/float64(whole.States), float64(peak)/float64(whole.Peak), 1/float64(len(p.Tasks)), used.Seconds()/wholeCPU.Seconds(), ok)
		}
		fmt.Println(line)
	}
}
