package main

import (
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
