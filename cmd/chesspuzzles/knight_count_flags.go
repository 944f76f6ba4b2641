// The flags "knight count" and "knight estimate" share.

package main

import (
	"time"

	"github.com/chesspuzzles/chesspuzzles/board"
	kcount "github.com/chesspuzzles/chesspuzzles/knight/count"
	"github.com/spf13/cobra"
	"github.com/spf13/pflag"
)

// knightCountFlags are the flags "knight count" and "knight estimate" share: which tours of
// which board, by which method, in how much memory.
type knightCountFlags struct {
	sizes     sizeFlags
	start     string
	closed    bool
	method    string
	maxMemory string
}

// knightCountHelp is the help of the flags of knightCountFlags, in the words of the
// command that has them.
type knightCountHelp struct {
	start, closed, method, maxMemory string
}

// add binds the flags to cmd (--size 5 by default), with help.
func (f *knightCountFlags) add(cmd *cobra.Command, help knightCountHelp) {
	f.sizes.add(cmd, "5")
	cmd.Flags().StringVar(&f.start, "start", "", help.start)
	cmd.Flags().BoolVar(&f.closed, "closed", false, help.closed)
	cmd.Flags().StringVar(&f.method, "method", kcount.MethodAuto, help.method)
	flagChoices(cmd, "method", kcount.MethodAuto, kcount.MethodDP, kcount.MethodJoin, kcount.MethodSearch)
	cmd.Flags().StringVar(&f.maxMemory, "max-memory", "", help.maxMemory)
}

// options reads the flags: the board and the count's options, MaxMemory set (half this
// machine's memory unless --max-memory says otherwise). Errors are usage errors.
func (f *knightCountFlags) options() (board.Size, kcount.Options, error) {
	sz, _, err := f.sizes.get()
	if err != nil {
		return sz, kcount.Options{}, err
	}
	opts := kcount.Options{Closed: f.closed, Method: f.method, MaxMemory: int64(halfMemory())}
	if f.start != "" {
		if f.closed {
			return sz, opts, usageErrorf("--start counts open tours; a closed tour passes every square")
		}
		sq, err := sz.ParseSquare(f.start)
		if err != nil {
			return sz, opts, usageError(err)
		}
		opts.Start = &sq
	}
	if f.maxMemory != "" {
		size, err := parseSize(f.maxMemory)
		if err != nil {
			return sz, opts, usageErrorf("--max-memory: %v", err)
		}
		opts.MaxMemory = int64(min(size, 1<<62))
	}
	return sz, opts, nil
}

// knightCountOpts are the options of "knight count".
type knightCountOpts struct {
	knightCountFlags
	knightPlanFlags
	knightDist knightDistFlags
	spill      string
	cutEvery   time.Duration
	quiet      bool
	verbose    bool
	json       bool
}

// knightCountRecord is the --json output of knight count.
type knightCountRecord struct {
	Rows   int     `json:"rows"`
	Cols   int     `json:"cols"`
	Closed bool    `json:"closed"`
	Start  *string `json:"start"`
	Tours  any     `json:"tours"`
	Counts string  `json:"counts"` // what was counted, in words
	// States are the frontier states a dp or join count held (absent for the search).
	States *knightStatesRecord `json:"states,omitempty"`
	// Verified, Identities and ByIdentities are a distributed count's, as queens count
	// --distributed --json gives them (distRecord); absent for a count on this machine.
	Verified     *int        `json:"verified,omitempty"`
	Identities   *int        `json:"identities,omitempty"`
	ByIdentities map[int]int `json:"by_identities,omitempty"`
}

// knightStatesRecord is the "states" of knight count's --json output: the states after
// each cell summed over the cells, the most after one cell and which (from 1), and the
// cells swept.
type knightStatesRecord struct {
	Sum      int64 `json:"sum"`
	Peak     int   `json:"peak"`
	PeakCell int   `json:"peak_cell"`
	Cells    int   `json:"cells"`
}

// knightPlanFlags are the flags of "knight count" that count open tours as a plan of
// tasks by pairs of end squares (kcount.OpenPlan), or one pair.
type knightPlanFlags struct {
	end        string // --end: with --start, the tours from start to end
	plan       bool   // --plan: the whole count as the plan's tasks
	split      string // --split: the plan's tasks are parts of a split of the whole sweep
	checkpoint string
	shard      string
	output     string
}

// add binds the flags to cmd.
func (f *knightPlanFlags) add(cmd *cobra.Command) {
	cmd.Flags().StringVar(&f.end, "end", "", "with --start: count only the open tours from --start that end on this square")
	cmd.Flags().BoolVar(&f.plan, "plan", false, "count the open tours as a plan of tasks, one for each class of pairs of end squares (see \"knight plan\")")
	cmd.Flags().StringVar(&f.split, "split", "", "with --plan: the tasks are the parts of a split of the whole sweep, `LEVELS` as \"knight plan --split\" takes them")
	cmd.Flags().StringVar(&f.checkpoint, "checkpoint", "", "with --plan: record each finished task in `FILE` and resume from it")
	cmd.Flags().StringVar(&f.shard, "shard", "", "with --plan: count only slice `I/K` of the tasks and print its result file (JSON, for \"knight merge\")")
	cmd.Flags().StringVarP(&f.output, "output", "o", "", "with --shard: write the slice's result to `FILE` (atomically) instead of stdout")
}

// used reports whether any of the flags asks for a count by end squares.
func (f *knightPlanFlags) used() bool {
	return f.end != "" || f.plan || f.split != "" || f.checkpoint != "" || f.shard != "" || f.output != ""
}

// knightDistFlags are the flags of "knight count --plan" that run the plan's tasks through
// NATS, as "queens count --distributed" runs a queens plan: the same flags (natsFlags),
// coordinator, workers ("chesspuzzles worker"), state directory and identities.
type knightDistFlags struct {
	natsFlags
	workers int
	flags   *pflag.FlagSet // the command's, to tell the flags given
}

// knightDistNames are the names of the flags of knightDistFlags.
var knightDistNames = []string{"distributed", "nats", "nats-listen", "state", "token", "token-file", "creds", "verify", "replicas", "adaptive", "verify-wait", "min-identities", "ack-wait", "workers", "log-format"}

// add binds the flags to cmd.
func (f *knightDistFlags) add(cmd *cobra.Command) {
	f.natsFlags.add(cmd, "with --plan: run the tasks through an embedded NATS server that workers (\"chesspuzzles worker\") join, as queens count --distributed",
		"with --plan: run the tasks through the NATS server at `URL` instead of an embedded one", "a board")
	f.flags = cmd.Flags()
	f.flags.IntVar(&f.workers, "workers", 1, "with --spill: goroutines that place each cell of the dp sweep (if not given: the cores this process may use); with --distributed or --nats: tasks a worker in this process runs at once, sharing --max-memory (0: none, the tasks wait for workers elsewhere)")
}

// used reports whether any of the flags was given: the count runs through NATS, or is
// refused for a flag that goes with --distributed or --nats. With spill (--spill given),
// --workers is the spilling sweep's and does not count.
func (f *knightDistFlags) used(spill bool) bool {
	for _, name := range knightDistNames {
		if spill && name == "workers" {
			continue
		}
		if f.flags != nil && f.flags.Changed(name) {
			return true
		}
	}
	return false
}
