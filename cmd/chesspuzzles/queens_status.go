package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"slices"
	"time"

	"github.com/chesspuzzles/chesspuzzles/internal/work/cluster"
	"github.com/chesspuzzles/chesspuzzles/queens"
	"github.com/spf13/cobra"
)

// newQueensStatusCmd is "queens status [N]": a query of the jobs a NATS server holds, its
// own command rather than a flag of count (count --status is a hidden alias that says so).
func newQueensStatusCmd() *cobra.Command {
	return command(&cobra.Command{
		Use:   "status [N]",
		Short: "Show the distributed counts on a NATS server: tasks done, rate, time left",
		Long: `Show the jobs of distributed counts that a NATS server holds (the embedded server of the
coordinator that runs on --state DIR, found from DIR; or --nats URL): for each, N, tasks done of the plan, the rate over the last minutes
and the time left, or the total once finished. With N, only the jobs of that N (of either
counting method).

Only a coordinator may read and write the jobs: on this machine, status connects to the
embedded server as the coordinator, with the keys kept in --state DIR, and checks every record
against it (its seal), so that the total it prints is the one that coordinator counted and
verified. A record it cannot check (no secret here: a server elsewhere, asked with --creds
or a user in the --nats URL) is shown without its total, as "unverified"; one whose seal is
wrong, as "forged". With --json, "checked" says whether the record's seal was checked;
"total" is there only if it was.`,
		Example: `  chesspuzzles queens status
  chesspuzzles queens status 22 --nats nats://coordinator:4222 --creds reader.creds --json`,
		Args: maxArgs(1, "at most one argument, N"),
	}, func(cmd *cobra.Command, o *statusOptions) {
		f := cmd.Flags()
		f.StringVar(&o.dist.nats, "nats", "", "`URL` of the NATS server to ask (default: the embedded server of the coordinator that runs on --state DIR, else --nats-listen)")
		f.StringVar(&o.dist.listen, "nats-listen", "127.0.0.1:4222", "`ADDR` of a coordinator's embedded server on this machine")
		f.StringVar(&o.dist.state, "state", defaultStateDir(), "`DIR` of that coordinator's state, where its keys are kept")
		f.StringVar(&o.dist.auth.creds, "creds", "", "NATS credentials `FILE` of a user who may read the jobs, for a server elsewhere")
		f.BoolVar(&o.json, "json", false, "one JSON object per job")
	}, func(cmd *cobra.Command, o *statusOptions, args []string) error {
		n := 0
		if len(args) == 1 {
			var err error
			if n, err = parseN(args[0], queens.MaxCountN); err != nil {
				return err
			}
		}
		o.dist.listenSet = cmd.Flags().Changed("nats-listen")
		return runCountStatus(cmd.Context(), &o.dist, n, o.json, cmd.OutOrStdout())
	})
}

// statusOptions are the options of "queens status": where the jobs are, and --json.
type statusOptions struct {
	dist distOptions // --nats, --nats-listen, --state, --creds
	json bool
}

// runCountStatus prints the jobs on the server at --nats (else the embedded server at
// --nats-listen), or only the jobs of N = n, of either method, if n is not 0.
func runCountStatus(ctx context.Context, o *distOptions, n int, jsonOut bool, stdout io.Writer) error {
	url := o.nats
	if url == "" {
		// The coordinator of --state names its server while it runs.
		if u, err := cluster.ServerURL(o.state); err == nil && !o.listenSet {
			url = u
		} else {
			url = "nats://" + o.listen
		}
	}
	co := cluster.ConnectOptions{URL: url, Creds: o.auth.creds, Name: "chesspuzzles status"}
	var sealer *cluster.Sealer
	admin, err := cluster.ReadAdmin(o.state)
	switch {
	case err == nil:
		sealer = cluster.NewSealer(admin)
		if o.auth.creds == "" && urlUser(url) == "" && loopbackURL(url) {
			// The coordinator's own identity, from the authority in its state.
			if a, err := cluster.LoadAuthority(o.state); err == nil {
				if co.UserCreds, err = a.CoordinatorCreds(); err != nil {
					return err
				}
			}
		}
	case !errors.Is(err, fs.ErrNotExist):
		return usageError(err)
	}
	nc, err := cluster.Connect(ctx, co)
	if err != nil {
		if errors.Is(err, cluster.ErrRefused) {
			return fmt.Errorf("the NATS server at %s refused this client's credentials: only the coordinator may read the jobs; run status with the coordinator's --state DIR (its secret is DIR/%s), or give --creds or a user in --nats of a user who may read them", url, cluster.AdminFile)
		}
		return fmt.Errorf("%w (is a coordinator or NATS server running there? --nats URL names it)", err)
	}
	defer nc.Close()
	jobs, err := cluster.Status(ctx, nc, sealer, time.Now())
	if err != nil {
		return err
	}
	if n != 0 {
		jobs = slices.DeleteFunc(jobs, func(j cluster.JobStatus) bool { return j.N != n })
	}
	if len(jobs) == 0 && !jsonOut {
		what := "no jobs"
		if n != 0 {
			what = fmt.Sprintf("no job of N=%d", n)
		}
		_, err := fmt.Fprintf(stdout, "%s on %s\n", what, url)
		return err
	}
	for _, j := range jobs {
		if jsonOut {
			rec := map[string]any{
				"job": j.Job, "n": j.N, "plan_version": j.PlanVersion, "tasks": j.Tasks, "done": j.Done,
				"rate": j.Rate, "seconds_left": j.Left.Seconds(), "finished": !j.Finished.IsZero(), "checked": j.Checked,
			}
			if j.Checked {
				rec["total"] = j.Total
				rec["identities"], rec["by_identities"] = j.Identities, j.ByIdentities
			}
			if j.Bad != "" {
				rec["forged"] = j.Bad
			}
			data, _ := json.Marshal(rec)
			fmt.Fprintf(stdout, "%s\n", data)
			continue
		}
		board := fmt.Sprintf("  N=%d", j.N)
		if cluster.IsKnightJob(j.Job) {
			board = "" // the job id names the board and the plan
		}
		line := fmt.Sprintf("%s%s  %d/%d tasks", j.Job, board, j.Done, j.Tasks)
		switch {
		case j.Bad != "":
			line = fmt.Sprintf("%s  forged: the record is %s", j.Job, j.Bad)
		case !j.Finished.IsZero() && !j.Checked:
			line += fmt.Sprintf("  finished %s  total unverified (no coordinator secret in %s to check the record with)", j.Finished.Format(time.RFC3339), o.state)
		case !j.Finished.IsZero():
			if cluster.IsKnightJob(j.Job) {
				line += fmt.Sprintf("  finished %s  total %s", j.Finished.Format(time.RFC3339), j.Total)
			} else {
				line += fmt.Sprintf("  finished %s  Q(%d) = %s", j.Finished.Format(time.RFC3339), j.N, j.Total)
			}
		case j.Rate > 0:
			line += fmt.Sprintf(" (%.1f%%)  %.3g tasks/s over the last %s  about %s left",
				100*float64(j.Done)/float64(max(j.Tasks, 1)), j.Rate, j.RateWindow.Round(time.Second), j.Left.Round(time.Second))
		default:
			line += fmt.Sprintf(" (%.1f%%)  no result in the last 10m", 100*float64(j.Done)/float64(max(j.Tasks, 1)))
		}
		if _, err := fmt.Fprintln(stdout, line); err != nil {
			return err
		}
	}
	return nil
}
