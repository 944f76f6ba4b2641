package main

import (
	"encoding/json"
	"fmt"
	"io"
	"time"

	"github.com/chesspuzzles/chesspuzzles/internal/work/cluster"
	"github.com/spf13/cobra"
)

// workerListOptions are the options of "worker list".
type workerListOptions struct {
	state string
	json  bool
}

func newWorkerListCmd() *cobra.Command {
	return command(&cobra.Command{
		Use:   "list",
		Short: "List the issued worker identities and what each did",
		Long: `List shows every identity issued in --state DIR: when it was issued and revoked, and,
summed over the jobs of that coordinator, the results of it that were accepted (tasks), of
those the ones computed again with the same result (verified), the disagreements, the
results refused, and whether it was quarantined (shown wrong: its results recomputed by
others, no more tasks).`,
		Example: `  chesspuzzles worker list
  chesspuzzles worker list --json`,
		Args: exactArgs(0, "no arguments"),
	}, func(cmd *cobra.Command, o *workerListOptions) {
		f := cmd.Flags()
		f.StringVar(&o.state, "state", defaultStateDir(), "`DIR` of the coordinator's state")
		f.BoolVar(&o.json, "json", false, "one JSON object per identity")
	}, func(cmd *cobra.Command, o *workerListOptions, _ []string) error {
		return runWorkerList(*o, cmd.OutOrStdout())
	})
}

// workerRecord is the JSON line of one identity in "worker list --json".
type workerRecord struct {
	Name    string    `json:"name"`
	Issued  time.Time `json:"issued"`
	Revoked time.Time `json:"revoked,omitzero"`
	cluster.IdentityHistory
}

// runWorkerList prints the issued identities with their history.
func runWorkerList(o workerListOptions, stdout io.Writer) error {
	a, err := stateAuthority(o.state, false)
	if err != nil {
		return err
	}
	h, err := cluster.ReadHistory(o.state)
	if err != nil {
		return err
	}
	by := h.ByIdentity()
	ids := a.Identities()
	if !o.json {
		if len(ids) == 0 {
			_, err := fmt.Fprintf(stdout, "no identities issued in %s\n", o.state)
			return err
		}
		fmt.Fprintf(stdout, "%-16s %-10s %-10s %7s %9s %9s %7s %s\n", "NAME", "ISSUED", "REVOKED", "TASKS", "VERIFIED", "DISAGREED", "REFUSED", "QUARANTINED")
	}
	for _, id := range ids {
		r := by[id.Name]
		if o.json {
			data, _ := json.Marshal(workerRecord{Name: id.Name, Issued: id.Issued, Revoked: id.Revoked, IdentityHistory: r})
			if _, err := fmt.Fprintf(stdout, "%s\n", data); err != nil {
				return err
			}
			continue
		}
		revoked, quarantined := "-", "no"
		if !id.Revoked.IsZero() {
			revoked = id.Revoked.Format(time.DateOnly)
		}
		if r.Quarantined {
			quarantined = "yes"
		}
		if _, err := fmt.Fprintf(stdout, "%-16s %-10s %-10s %7d %9d %9d %7d %s\n", id.Name, id.Issued.Format(time.DateOnly), revoked,
			r.Tasks, r.Verified, r.Disagreements, r.Refused, quarantined); err != nil {
			return err
		}
	}
	return nil
}
