package main

import (
	"fmt"
	"io"

	"github.com/spf13/cobra"
)

// workerServerConfigOptions are the options of "worker server-config".
type workerServerConfigOptions struct {
	state string
}

func newWorkerServerConfigCmd() *cobra.Command {
	return command(&cobra.Command{
		Use:   "server-config",
		Short: "Print the nats-server configuration that trusts the identities of --state",
		Long: `Server-config prints the lines of a nats-server configuration file that make a server of
your own trust the identities this coordinator's state issues: its operator JWT, its system
account, and a memory resolver preloaded with the account JWTs (the account's carries the
revocations of "worker revoke"). Put them in the configuration of every server of the
cluster; the workers then join with the credentials of "worker add", and "queens count N
--nats URL --state DIR" connects as the coordinator of DIR. After a revocation, print it
again and reload the servers (or let a running coordinator on DIR push it).`,
		Example: `  chesspuzzles worker server-config --state /var/lib/chesspuzzles/nats >> nats.conf`,
		Args:    exactArgs(0, "no arguments"),
	}, func(cmd *cobra.Command, o *workerServerConfigOptions) {
		cmd.Flags().StringVar(&o.state, "state", defaultStateDir(), "`DIR` of the coordinator's state, where its operator and account keys are kept")
	}, func(cmd *cobra.Command, o *workerServerConfigOptions, _ []string) error {
		return runWorkerServerConfig(*o, cmd.OutOrStdout())
	})
}

// runWorkerServerConfig writes the server configuration of o.state's authority (made on
// first use) to stdout.
func runWorkerServerConfig(o workerServerConfigOptions, stdout io.Writer) error {
	a, err := stateAuthority(o.state, true)
	if err != nil {
		return err
	}
	_, err = fmt.Fprint(stdout, a.ServerConfig())
	return err
}
