package main

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"

	"github.com/spf13/cobra"
)

// workerAddOptions are the options of "worker add".
type workerAddOptions struct {
	state  string
	output string
}

func newWorkerAddCmd() *cobra.Command {
	return command(&cobra.Command{
		Use:   "add NAME",
		Short: "Issue a worker identity: a NATS credentials file for one worker",
		Long: `Add issues the identity NAME to one worker: a NATS user of the coordinator's account,
signed with the account key kept in --state DIR (made on first use), allowed to ask for
tasks and hand in results under NAME only. It writes the credentials (the user JWT and
the user's own key) to NAME.creds, or -o FILE, mode 0600; copy that file to the worker's
machine and start the worker with --creds FILE. A name is issued once: after "worker
revoke NAME" pick another.`,
		Example: `  chesspuzzles worker add w1
  chesspuzzles worker --nats nats://coordinator.example:4222 --creds w1.creds`,
		Args: exactArgs(1, "one argument, the identity's NAME"),
	}, func(cmd *cobra.Command, o *workerAddOptions) {
		f := cmd.Flags()
		f.StringVar(&o.state, "state", defaultStateDir(), "`DIR` of the coordinator's state, where its account key is kept")
		f.StringVarP(&o.output, "output", "o", "", "write the credentials to `FILE` (default NAME.creds; - for standard output)")
	}, func(cmd *cobra.Command, o *workerAddOptions, args []string) error {
		return runWorkerAdd(*o, args[0], cmd.OutOrStdout(), cmd.ErrOrStderr())
	})
}

// runWorkerAdd issues identity name and writes its credentials file (to stdout with -o -).
func runWorkerAdd(o workerAddOptions, name string, stdout, stderr io.Writer) error {
	path := o.output
	if path == "" {
		path = name + ".creds"
	}
	if path != "-" {
		if _, err := os.Lstat(path); err == nil {
			return usageErrorf("%s exists; remove it or give -o FILE", path)
		} else if !errors.Is(err, fs.ErrNotExist) {
			return usageError(err)
		}
	}
	a, err := stateAuthority(o.state, true)
	if err != nil {
		return err
	}
	creds, err := a.Issue(name)
	if err != nil {
		return usageError(err)
	}
	if path == "-" {
		if _, err := stdout.Write(creds); err != nil {
			return err
		}
		fmt.Fprintf(stderr, "issued identity %s: credentials on standard output; the worker joins with --creds FILE (mode 0600)\n", name)
		return nil
	}
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
	if err != nil {
		return fmt.Errorf("writing the credentials of %s: %w (the identity is issued: revoke it and add another name)", name, err)
	}
	_, err = f.Write(creds)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return fmt.Errorf("writing %s: %w", path, err)
	}
	fmt.Fprintf(stderr, "issued identity %s: credentials in %s (mode 0600); the worker joins with --creds %s\n", name, path, path)
	return nil
}
