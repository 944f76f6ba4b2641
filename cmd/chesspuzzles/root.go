package main

import (
	"io"
	"regexp"
	"sync"

	"github.com/spf13/cobra"
)

// negativeArg matches pflag's complaint about an argument like -5, which it reads as a
// bundle of one-letter flags.
var negativeArg = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`^unknown shorthand flag: '[0-9]' in (-[0-9][-0-9,.x]*)$`)
})

// flagError turns a flag parsing error into a usage error (exit 2), and says what is
// meant when the "flag" is a negative number given as an argument.
func flagError(cmd *cobra.Command, err error) error {
	if m := negativeArg().FindStringSubmatch(err.Error()); m != nil {
		return usageErrorf("%q: negative numbers are not allowed here (sizes, counts and squares start at 1; see %q)", m[1], cmd.CommandPath()+" --help")
	}
	return suggestFlag(cmd, err)
}

// newRootCmd builds the command tree. Every command writes results to stdout and progress
// and errors to stderr, through the writers given here.
func newRootCmd(stdin io.Reader, stdout, stderr io.Writer) *cobra.Command {
	root := &cobra.Command{
		Use:   "chesspuzzles",
		Short: "N-queens and knight's tours: solve, count, check and draw",

		SilenceUsage:  true,
		SilenceErrors: true,
	}
	root.SetIn(stdin)
	root.SetOut(stdout)
	root.SetErr(stderr)
	root.SetFlagErrorFunc(flagError)
	root.Version = buildVersion().String()
	root.SetVersionTemplate("{{.Version}}\n")
	root.AddCommand(newQueensCmd())
	root.AddCommand(newServeCmd())
	root.AddCommand(newVersionCmd())
	root.AddCommand(newKnightCmd())
	root.AddCommand(newWorkerCmd())
	guardGroups(root)
	machineReadable(root)
	// The root's long help is the manual (the package comment of doc.go), made when help
	// is shown: every other command would only pay for reading it.
	help := root.HelpFunc()
	root.SetHelpFunc(func(c *cobra.Command, args []string) {
		if c == root && root.Long == "" {
			root.Long = manual()
		}
		help(c, args)
	})
	return root
}
