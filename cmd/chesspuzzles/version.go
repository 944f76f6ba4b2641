package main

import (
	"encoding/json"
	"fmt"

	"github.com/spf13/cobra"
)

func newVersionCmd() *cobra.Command {
	return command(&cobra.Command{
		Use:   "version",
		Short: "Print the version, the commit it was built from, and the Go release",
		Long: `Print the version of this binary as the Go toolchain recorded it: the module version
(v1.2.3 for "go install github.com/chesspuzzles/chesspuzzles/cmd/chesspuzzles@v1.2.3", a
pseudo-version for a build in a git checkout), the commit, its time and whether the
checkout had uncommitted changes, then the Go release, operating system and architecture.
"chesspuzzles --version" prints the same line.`,
		Example: `  chesspuzzles version
  chesspuzzles --version
  chesspuzzles version --json`,
		Args: cobra.NoArgs,
	}, func(cmd *cobra.Command, asJSON *bool) {
		cmd.Flags().BoolVar(asJSON, "json", false, `one JSON object: {"version":…,"revision":…,"time":…,"modified":false,"go":…,"os":…,"arch":…}`)
	}, func(cmd *cobra.Command, asJSON *bool, _ []string) error {
		v := buildVersion()
		if *asJSON {
			return json.NewEncoder(cmd.OutOrStdout()).Encode(v)
		}
		_, err := fmt.Fprintln(cmd.OutOrStdout(), v)
		return err
	})
}
