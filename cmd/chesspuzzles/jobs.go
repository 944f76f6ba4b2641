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

	"github.com/chesspuzzles/chesspuzzles/internal/work"
	"github.com/chesspuzzles/chesspuzzles/internal/work/cluster"
)

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
			if j.Replicas > 0 {
				rec["replicas"] = j.Replicas
			}
			if j.ThirdBelow > 0 {
				rec["third_below"] = j.ThirdBelow
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
		if _, err := fmt.Fprintln(stdout, jobLine(j, o.state)); err != nil {
			return err
		}
	}
	return nil
}

// jobLine is the line "queens status" prints of job j, read with the secret of the
// coordinator whose state directory is state (named when the record cannot be checked).
func jobLine(j cluster.JobStatus, state string) string {
	board := fmt.Sprintf("  N=%d", j.N)
	if work.JobKind(j.Job) == "k" {
		board = "" // the job id names the board and the plan
	}
	line := fmt.Sprintf("%s%s  %d/%d tasks", j.Job, board, j.Done, j.Tasks)
	switch {
	case j.Bad != "":
		line = fmt.Sprintf("%s  forged: the record is %s", j.Job, j.Bad)
	case !j.Finished.IsZero() && !j.Checked:
		line += fmt.Sprintf("  finished %s  total unverified (no coordinator secret in %s to check the record with)", j.Finished.Format(time.RFC3339), state)
	case !j.Finished.IsZero():
		if work.JobKind(j.Job) == "k" {
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
	switch {
	case j.Bad != "":
	case j.Replicas == cluster.MaxReplicas:
		line += fmt.Sprintf("  every task by %d identities (%d× the CPU)", j.Replicas, j.Replicas)
	case j.ThirdBelow > 0:
		line += fmt.Sprintf("  two identities a task, a third while fewer than %d identities have joined: up to 3× the CPU of one computation", j.ThirdBelow)
	}
	return line
}
