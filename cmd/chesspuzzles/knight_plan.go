package main

import (
	"encoding/json"
	"fmt"
	"io"
	"strings"

	"github.com/spf13/cobra"
)

func newKnightPlanCmd() *cobra.Command {
	return command(&cobra.Command{
		Use:   "plan",
		Short: "The tasks of a count of open tours by pairs of end squares",
		Long: `Plan lists the tasks "knight count --plan" runs for a board's directed open tours: one
for each class of pairs of squares an open tour can end on (one of each colour on a board
of an even number of squares, both of the majority colour on an odd one) under the board's
symmetries. A task counts the tours between its two squares, on the image of its class
that the sweep finds cheapest; its weight is the directed tours each of them stands for
(two directions times the pairs of its class). The total is the sum of count × weight.
8×8 has 136 tasks (Chernov's classes). Columns: id, start, end, weight.

--split LEVELS lists instead the tasks of a split of the whole forward sweep: a level
cCELLkPARTSfFAR gives each state before cell CELL of the sweep (column by column of the
board turned to have no more rows than columns, from 0) to one of PARTS parts by a hash of
its FAR cells furthest ahead (0: of the whole state); levels joined by - split again. A
task keeps one part at each level: the parts' counts sum to the whole count (weight 1).
Columns: id, the part at each level (CELL:PART/PARTS), weight.`,
		Example: `  chesspuzzles knight plan --size 6
  chesspuzzles knight plan --size 8 --json
  chesspuzzles knight plan --board 5x6 --split c10k4f3`,
		Args: cobra.NoArgs,
	}, func(cmd *cobra.Command, o *knightPlanOpts) {
		o.sizes.add(cmd, "8")
		cmd.Flags().BoolVar(&o.json, "json", false, `one JSON object: {"plan":…,"rows":R,"cols":C,"tasks":[{"id":…,"start":"a1","end":"b3","weight":…},…]} (split tasks: "parts":["10:0/4",…] instead of start and end)`)
		cmd.Flags().StringVar(&o.split, "split", "", "list the tasks of a split of the whole sweep at `LEVELS` (e.g. c10k4f3) instead of pairs of ends")
	}, func(cmd *cobra.Command, o *knightPlanOpts, _ []string) error {
		return runKnightPlan(*o, cmd.OutOrStdout())
	})
}

// knightPlanOpts are the options of "knight plan".
type knightPlanOpts struct {
	sizes sizeFlags
	json  bool
	split string
}

func runKnightPlan(o knightPlanOpts, stdout io.Writer) error {
	sz, _, err := o.sizes.get()
	if err != nil {
		return err
	}
	p, err := openPlan(sz, o.split)
	if err != nil {
		return usageError(err)
	}
	type task struct {
		ID     int      `json:"id"`
		Start  string   `json:"start,omitempty"`
		End    string   `json:"end,omitempty"`
		Parts  []string `json:"parts,omitempty"`
		Weight int64    `json:"weight"`
	}
	var ts []task
	for _, t := range p.Tasks {
		if t.Split == nil {
			ts = append(ts, task{ID: t.ID, Start: sz.Name(t.Start), End: sz.Name(t.End), Weight: t.Weight})
			continue
		}
		tk := task{ID: t.ID, Weight: t.Weight}
		for _, s := range t.Split {
			tk.Parts = append(tk.Parts, fmt.Sprintf("%d:%d/%d", s.Cell, s.Part, s.Parts))
		}
		ts = append(ts, tk)
	}
	if o.json {
		return json.NewEncoder(stdout).Encode(struct {
			Plan  string `json:"plan"`
			Rows  int    `json:"rows"`
			Cols  int    `json:"cols"`
			Tasks []task `json:"tasks"`
		}{p.Name(), sz.Rows, sz.Cols, ts})
	}
	for _, t := range ts {
		what := t.Start + " " + t.End
		if t.Parts != nil {
			what = strings.Join(t.Parts, " ")
		}
		if _, err := fmt.Fprintf(stdout, "%d %s %d\n", t.ID, what, t.Weight); err != nil {
			return err
		}
	}
	return nil
}
