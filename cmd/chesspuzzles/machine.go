package main

import (
	"slices"
	"strings"

	"github.com/spf13/cobra"
)

// flagValues are the values of the flags that take one of a fixed list, by command and
// flag: shell completion offers them.
var flagValues = map[string][]string{
	"queens solve format":    {"code", "perm", "coords", "algebraic", "board", "json", "unicode", "svg", "png"},
	"queens one format":      {"code", "perm", "coords", "algebraic", "board", "json"},
	"queens complete format": {"code", "perm", "coords", "algebraic", "board", "json"},
	"queens check format":    {"text", "json", "unicode", "svg", "png"},
	"knight tour format":     {"board", "squares", "json", "svg", "png", "none"},
	"knight complete format": {"board", "squares", "json", "svg", "png"},
	"queens puzzle format":   {"text", "svg", "png", "json"},
	"knight tour method":     {"auto", "warnsdorff", "article"},
	"queens count method":    {"auto", "join", "frames"},
	"knight count method":    {"auto", "dp", "join", "search"},
	"knight estimate method": {"auto", "dp", "join", "search"},
}

// machineReadable walks the command tree under root once it is built: every command whose
// --format lists json but that has no --json of its own gets --json as a short form of
// --format json, and every flag in flagValues gets its values as shell completions.
func machineReadable(root *cobra.Command) {
	var walk func(*cobra.Command)
	walk = func(cmd *cobra.Command) {
		path := strings.TrimPrefix(cmd.CommandPath(), root.Name()+" ")
		for key, values := range flagValues {
			if flag, ok := strings.CutPrefix(key, path+" "); ok && !strings.Contains(flag, " ") {
				_ = cmd.RegisterFlagCompletionFunc(flag, cobra.FixedCompletions(values, cobra.ShellCompDirectiveNoFileComp))
			}
		}
		if slices.Contains(flagValues[path+" format"], "json") && cmd.Flags().Lookup("json") == nil {
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
