package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"

	"github.com/chesspuzzles/chesspuzzles/internal/work/cluster"
	"github.com/spf13/cobra"
)

// workerRevokeOptions are the options of "worker revoke".
type workerRevokeOptions struct {
	state string
}

func newWorkerRevokeCmd() *cobra.Command {
	return command(&cobra.Command{
		Use:   "revoke NAME",
		Short: "Revoke a worker identity: its credentials stop working at once",
		Long: `Revoke revokes every credential issued to NAME: the coordinator's account JWT, signed
anew, lists them as revoked. If a coordinator runs on --state DIR, its server takes the new
account at once and closes NAME's connections; any later start refuses NAME too. The
results NAME handed in stay counted unless a disagreement shows them wrong.`,
		Example: `  chesspuzzles worker revoke w1`,
		Args:    exactArgs(1, "one argument, the identity's NAME"),
	}, func(cmd *cobra.Command, o *workerRevokeOptions) {
		cmd.Flags().StringVar(&o.state, "state", defaultStateDir(), "`DIR` of the coordinator's state, where its account key is kept")
	}, func(cmd *cobra.Command, o *workerRevokeOptions, args []string) error {
		return runWorkerRevoke(cmd.Context(), *o, args[0], cmd.ErrOrStderr())
	})
}

// runWorkerRevoke revokes identity name and pushes the account to the running server.
func runWorkerRevoke(ctx context.Context, o workerRevokeOptions, name string, stderr io.Writer) error {
	a, err := stateAuthority(o.state, false)
	if err != nil {
		return err
	}
	if err := a.Revoke(name); err != nil {
		return usageError(err)
	}
	url, err := cluster.ServerURL(o.state)
	if errors.Is(err, fs.ErrNotExist) {
		fmt.Fprintf(stderr, "revoked identity %s; no coordinator runs on %s now: the next one refuses it\n", name, o.state)
		return nil
	}
	if err == nil {
		err = a.Push(ctx, url)
	}
	if err != nil {
		return fmt.Errorf("revoked identity %s in %s, but telling the running server: %w; it is refused from the coordinator's next start", name, o.state, err)
	}
	fmt.Fprintf(stderr, "revoked identity %s; the server at %s closed its connections and refuses it\n", name, url)
	return nil
}
