package main

import (
	"github.com/chesspuzzles/chesspuzzles/queens"
	"github.com/spf13/cobra"
)

// newQueensStatusCmd is "queens status [N]": a query of the jobs a NATS server holds, its
// own command rather than a flag of count (count --status is a hidden alias that says so).
func newQueensStatusCmd() *cobra.Command {
	var o distOptions
	var jsonOut bool
	cmd := &cobra.Command{
		Use:   "status [N]",
		Short: "Show the distributed counts on a NATS server: tasks done, rate, time left",
		Long: `Show the jobs of distributed counts that a NATS server holds (the coordinator's embedded
server, or --nats URL): for each, N, tasks done of the plan, the rate over the last minutes
and the time left, or the total once finished. With N, only the jobs of that N (of either
counting method). It asks with the token of --token, --token-file or
$CHESSPUZZLES_NATS_TOKEN, else the one a coordinator keeps in --state DIR/token.`,
		Example: `  chesspuzzles queens status
  chesspuzzles queens status 22 --nats nats://coordinator:4222 --token-file token --json`,
		Args: maxArgs(1, "at most one argument, N"),
		RunE: func(cmd *cobra.Command, args []string) error {
			n := 0
			if len(args) == 1 {
				var err error
				if n, err = parseN(args[0], queens.MaxCountN); err != nil {
					return err
				}
			}
			return runCountStatus(cmd.Context(), &o, n, jsonOut, cmd.OutOrStdout())
		},
	}
	f := cmd.Flags()
	f.StringVar(&o.nats, "nats", "", "`URL` of the NATS server to ask (default: the embedded server at --nats-listen)")
	f.StringVar(&o.listen, "nats-listen", "127.0.0.1:4222", "`ADDR` of a coordinator's embedded server on this machine")
	f.StringVar(&o.state, "state", defaultStateDir(), "`DIR` of that coordinator's state, where its token is kept")
	addAuthFlags(f, &o.auth, "`TOKEN` the server requires (default $CHESSPUZZLES_NATS_TOKEN)")
	f.BoolVar(&jsonOut, "json", false, "one JSON object per job")
	return cmd
}
