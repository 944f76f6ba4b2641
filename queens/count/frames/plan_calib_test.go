package frames

import (
	"fmt"
	"os"
	"slices"
	"strconv"
	"testing"
	"time"
)

// TestFineCalibration times a sample of tasks spread over the cost range of the v1 plan of
// N (env CHESSPUZZLES_CALIBRATE=N) and prints seconds per cost unit: the measurement behind
// fineSecondsPerCost. It runs only when asked.
func TestFineCalibration(t *testing.T) {
	n, _ := strconv.Atoi(os.Getenv("CHESSPUZZLES_CALIBRATE"))
	if n == 0 {
		t.Log("set CHESSPUZZLES_CALIBRATE=N to time tasks of N (a measurement, not a check)")
		return
	}
	p, _ := newPlan(n)
	tasks := p.ByCost()
	var ratios []float64
	var totalCost uint64
	for _, tk := range tasks {
		totalCost += tk.Cost
	}
	var sec, cost, nodes float64
	for q := 0; q < 40; q++ {
		tk := tasks[q*len(tasks)/40]
		if tk.mayBeHalfTurn() {
			continue
		}
		start := time.Now()
		r := tk.Count()
		d := time.Since(start).Seconds()
		ratios = append(ratios, float64(r.Nodes)/float64(tk.Cost))
		nodes += float64(r.Nodes)
		sec += d
		cost += float64(tk.Cost)
		if os.Getenv("CHESSPUZZLES_CALIBRATE_V") != "" {
			fmt.Printf("N=%d task %d cost %d nodes %d %.3fs\n", n, tk.ID, tk.Cost, r.Nodes, d)
		}
	}
	slices.Sort(ratios)
	fmt.Printf("N=%d: %d tasks, total cost %d, sampled %.1fs, %.1f ns/node: pooled %.4g nodes/cost, median %.4g, p10 %.4g, p90 %.4g; projected plan %.4g nodes\n",
		n, len(tasks), totalCost, sec, sec/nodes*1e9, nodes/cost, ratios[len(ratios)/2], ratios[len(ratios)/10], ratios[len(ratios)*9/10], nodes/cost*float64(totalCost))
}

// TestFineCalibrationDepth splits a sample of v1 frames of N (CHESSPUZZLES_CALIBRATE_DEPTH=N)
// to depth 1 and 2 and prints the pooled seconds per raw cost unit at each depth.
func TestFineCalibrationDepth(t *testing.T) {
	n, _ := strconv.Atoi(os.Getenv("CHESSPUZZLES_CALIBRATE_DEPTH"))
	if n == 0 {
		t.Log("set CHESSPUZZLES_CALIBRATE_DEPTH=N to split sampled frames of N (a measurement)")
		return
	}
	p, _ := newPlan(n)
	tasks := p.ByCost()
	var sec, cost, nodes [3]float64
	var count [3]int
	var visit func(tk task, d int)
	visit = func(tk task, d int) {
		tk.Cost = tk.fineEstimate()
		start := time.Now()
		nodes[d] += float64(tk.Count().Nodes)
		sec[d] += time.Since(start).Seconds()
		cost[d] += float64(tk.Cost)
		count[d]++
		if d == 2 {
			return
		}
		var s search
		tk.initSearch(&s)
		if s.rem == 0 {
			return
		}
		for _, q := range s.branches() {
			c := tk
			c.Prefix = appendSquare(tk.Prefix, q)
			visit(c, d+1)
		}
	}
	for q := 0; q < 20; q++ {
		tk := tasks[q*len(tasks)/20]
		if tk.mayBeHalfTurn() {
			continue
		}
		visit(tk, 0)
	}
	for d := range 3 {
		fmt.Printf("N=%d depth %d: %d tasks, %.2fs, %.4g nodes (%.3f of depth 0), %.1f ns/node, mean raw cost %.0f, %.4g nodes/cost, ratio to depth 0 %.3f\n",
			n, d, count[d], sec[d], nodes[d], nodes[d]/nodes[0], sec[d]/nodes[d]*1e9, cost[d]/float64(count[d]), nodes[d]/cost[d], (nodes[d]/cost[d])/(nodes[0]/cost[0]))
	}
}
