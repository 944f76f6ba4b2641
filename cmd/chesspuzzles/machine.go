package main

import (
	"slices"

	"github.com/spf13/cobra"
)

// choicesKey annotates a flag with the values it takes from a fixed list (flagChoices).
const choicesKey = "chesspuzzles_choices"

// flagChoices declares, in the file of the command that has it, that cmd's flag takes one
// of values: shell completion offers them, and a --format whose values list json gets
// --json beside it (machineReadable).
func flagChoices(cmd *cobra.Command, flag string, values ...string) {
	_ = cmd.Flags().SetAnnotation(flag, choicesKey, values)
	_ = cmd.RegisterFlagCompletionFunc(flag, cobra.FixedCompletions(values, cobra.ShellCompDirectiveNoFileComp))
}

// machineReadable walks the command tree under root once it is built: every command whose
// --format lists json (flagChoices) but that has no --json of its own gets --json as a
// short form of --format json.
func machineReadable(root *cobra.Command) {
	var walk func(*cobra.Command)
	walk = func(cmd *cobra.Command) {
		if f := cmd.Flags().Lookup("format"); f != nil && slices.Contains(f.Annotations[choicesKey], "json") && cmd.Flags().Lookup("json") == nil {
			addJSONAlias(cmd)
		}
		for _, c := range cmd.Commands() {
			walk(c)
		}
	}
	walk(root)
}

// addJSONAlias adds --json to cmd, meaning --format json.
func addJSONAlias(cmd *cobra.Command) {
	asJSON := cmd.Flags().Bool("json", false, "JSON output: the same as --format json (see docs/json.md)")
	next := cmd.PreRunE
	cmd.PreRunE = func(cmd *cobra.Command, args []string) error {
		if *asJSON {
			if f := cmd.Flags().Lookup("format"); f.Changed && f.Value.String() != "json" {
				return usageErrorf("--json means --format json; it cannot go with --format %s", f.Value.String())
			}
			if err := cmd.Flags().Set("format", "json"); err != nil {
				return err
			}
		}
		if next != nil {
			return next(cmd, args)
		}
		return nil
	}
}
