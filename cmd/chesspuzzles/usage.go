package main

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"
)

// This file holds the command line's contract for what is not a command's own business:
// an unknown command or flag anywhere is bad input (exit 2, one line, with the nearest
// name when one is near), and so are flags that the command would silently ignore in
// the combination given, and an output file whose directory does not exist. The checks
// run before any command starts, so nothing is computed for a command line that is wrong.

// guardGroups makes every command group of root (root itself, queens, knight, completion,
// help) refuse an argument that names none of its commands, instead of printing its help
// and exiting 0: "chesspuzzles queens slove 8" is a typo, not a request for help. With no
// argument a group still prints its help, and root its short overview (--help: the manual).
func guardGroups(root *cobra.Command) {
	root.InitDefaultHelpCmd()
	root.InitDefaultCompletionCmd()
	var walk func(*cobra.Command)
	walk = func(c *cobra.Command) {
		if c.HasSubCommands() && !c.Runnable() {
			c.Args = cobra.ArbitraryArgs
			c.RunE = func(cmd *cobra.Command, args []string) error {
				switch {
				case len(args) == 0 && !cmd.HasParent():
					return overview(cmd.OutOrStdout())
				case len(args) == 0:
					return cmd.Help()
				case args[0] == "help" && len(args) == 1:
					return cmd.Help() // "chesspuzzles queens help"
				case args[0] == "help":
					sub, rest, err := cmd.Find(args[1:])
					if err != nil || len(rest) > 0 || sub == cmd {
						return unknownCommand(cmd, args[1])
					}
					return sub.Help() // "chesspuzzles queens help solve"
				}
				return unknownCommand(cmd, args[0])
			}
		}
		if c.Name() == "help" && c.HasParent() {
			c.Run = nil
			c.RunE = func(c *cobra.Command, args []string) error {
				cmd, rest, err := c.Root().Find(args)
				if err != nil {
					return usageError(err)
				}
				if len(rest) > 0 {
					return unknownCommand(cmd, rest[0])
				}
				return cmd.Help()
			}
		}
		for _, sub := range c.Commands() {
			walk(sub)
		}
	}
	walk(root)
}

// unknownCommand is the error for an argument of group that names none of its commands.
func unknownCommand(group *cobra.Command, name string) error {
	var names []string
	for _, c := range group.Commands() {
		if c.IsAvailableCommand() {
			names = append(names, c.Name())
		}
	}
	msg := fmt.Sprintf("unknown command %q", clipArg(name))
	if s := nearest(name, names); s != "" {
		msg += fmt.Sprintf("; did you mean %q?", s)
	}
	return usageErrorf("%s (commands: %s; see %q)", msg, strings.Join(names, ", "), group.CommandPath()+" --help")
}

// unknownFlag matches pflag's complaint about a long flag it does not know.
var unknownFlag = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^unknown flag: --([^=\s]+)$`) })

// badFlagValue matches pflag's complaint about a flag value it cannot convert.
var badFlagValue = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`^invalid argument "(.*)" for "(?:-[^,]+, )?(--[^"]+)" flag: (.*)$`)
})

// flagValueWhy puts pflag's reason for refusing a value (strconv's error, or
// time.ParseDuration's) in words: the means of the first entry whose says the reason
// contains.
var flagValueWhy = []struct{ says, means string }{
	{"out of range", "out of range"},
	{"ParseUint", "not a whole number from 0 up"},
	{"ParseInt", "not a whole number"},
	{"ParseFloat", "not a number"},
	{"ParseBool", "not true or false"},
	{"duration", "not a duration such as 500ms, 30s or 2m"},
}

// flagValueError rewrites pflag's "invalid argument "abc" for "--limit" flag:
// strconv.ParseInt: parsing "abc": invalid syntax" as what a user can act on: "… flag:
// not a whole number". It returns nil for other errors.
func flagValueError(cmd *cobra.Command, err error) error {
	m := badFlagValue().FindStringSubmatch(err.Error())
	if m == nil {
		return nil
	}
	why := "cannot be read: " + m[3]
	for _, w := range flagValueWhy {
		if strings.Contains(m[3], w.says) {
			why = w.means
			break
		}
	}
	// pflag's opening is kept: scripts match it.
	return usageErrorf("invalid argument %q for %q flag: %s (see %q)", clipArg(m[1]), m[2], why, cmd.CommandPath()+" --help")
}

// suggestFlag adds the nearest flag name of cmd to pflag's "unknown flag: --X", and where
// to look for the others.
func suggestFlag(cmd *cobra.Command, err error) error {
	if args := cmd.Flags().Args(); cmd.HasSubCommands() && len(args) > 0 {
		// "knight tuor --size 8": the flag is one of the command meant; the command is
		// what is wrong.
		return unknownCommand(cmd, args[0])
	}
	if e := flagValueError(cmd, err); e != nil {
		return e
	}
	m := unknownFlag().FindStringSubmatch(err.Error())
	if m == nil {
		return usageError(err)
	}
	var names []string
	cmd.Flags().VisitAll(func(f *pflag.Flag) {
		if !f.Hidden {
			names = append(names, f.Name)
		}
	})
	cmd.InheritedFlags().VisitAll(func(f *pflag.Flag) { names = append(names, f.Name) })
	msg := fmt.Sprintf("unknown flag: --%s", clipArg(m[1]))
	if s := nearest(m[1], names); s != "" {
		msg += fmt.Sprintf("; did you mean --%s?", s)
	}
	return usageErrorf("%s (see %q)", msg, cmd.CommandPath()+" --help")
}

// clipArg shortens what the user typed to a length an error line can quote.
func clipArg(s string) string {
	if len(s) > 40 {
		return s[:40] + "…"
	}
	return s
}

// nearest returns the name of names closest to typed in edit distance (letters inserted,
// deleted, replaced or two neighbours swapped), or one that typed is a prefix of; "" when
// none is within a third of its length (at least 1, at most 3 edits).
func nearest(typed string, names []string) string {
	typed = strings.ToLower(typed)
	best, bestD := "", 1<<30
	for _, n := range names {
		if len(typed) >= 2 && strings.HasPrefix(n, typed) {
			return n
		}
		if d := editDistance(typed, n); d < bestD {
			best, bestD = n, d
		}
	}
	if bestD > min(3, max(1, len(best)/3)) {
		return ""
	}
	return best
}

// editDistance is the optimal string alignment distance of a and b: the fewest insertions,
// deletions, replacements and swaps of neighbours that make a into b. It takes time
// proportional to len(a)·len(b).
func editDistance(a, b string) int {
	if len(a) > 100 || len(b) > 100 {
		return 1 << 30
	}
	// d[i][j] is the distance of a[:i] and b[:j].
	d := make([][]int, len(a)+1)
	for i := range d {
		d[i] = make([]int, len(b)+1)
		d[i][0] = i
	}
	for j := range d[0] {
		d[0][j] = j
	}
	for i := 1; i <= len(a); i++ {
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			d[i][j] = min(d[i-1][j]+1, d[i][j-1]+1, d[i-1][j-1]+cost)
			if i > 1 && j > 1 && a[i-1] == b[j-2] && a[i-2] == b[j-1] {
				d[i][j] = min(d[i][j], d[i-2][j-2]+1)
			}
		}
	}
	return d[len(a)][len(b)]
}

// flagMode is one way a command runs, chosen by a flag, and the flags it reads. A command
// with modes declares them in its own file, with withModes; a flag that the mode chosen
// would ignore is then refused before the command runs.
type flagMode struct {
	name  string   // how the mode is named in errors: "--shard", "a local count"
	flag  string   // the flag that selects it; "" for the mode of none of the others (last)
	reads []string // the flags it reads
}

// withModes makes cmd refuse, before it runs, a flag set that the mode chosen does not
// read: the first mode whose flag is set is chosen, else the last, whose flag is "". Flags
// no mode reads are not judged. It returns cmd.
func withModes(cmd *cobra.Command, modes ...flagMode) *cobra.Command {
	next := cmd.PreRunE
	cmd.PreRunE = func(cmd *cobra.Command, args []string) error {
		if err := checkModes(cmd.Flags(), modes); err != nil {
			return err
		}
		if next != nil {
			return next(cmd, args)
		}
		return nil
	}
	return cmd
}

// checkModes is the check of withModes. Of the flags set that the chosen mode does not
// read, the first named is refused: the modes' own flags first, then the flags they read
// in the order the modes name them.
func checkModes(f *pflag.FlagSet, modes []flagMode) error {
	set := func(name string) bool { return f.Lookup(name) != nil && f.Changed(name) }
	var judged []string // the modes' own flags, then the flags they read
	for _, m := range modes {
		if m.flag != "" {
			judged = append(judged, m.flag)
		}
	}
	for _, m := range modes {
		for _, name := range m.reads {
			if !slices.Contains(judged, name) {
				judged = append(judged, name)
			}
		}
	}
	for _, m := range modes {
		if m.flag != "" && !set(m.flag) {
			continue
		}
		for _, name := range judged {
			if !set(name) || slices.Contains(m.reads, name) {
				continue
			}
			var readers []string
			for _, r := range modes {
				if slices.Contains(r.reads, name) {
					readers = append(readers, r.name)
				}
			}
			if m.flag == "" {
				return usageErrorf("--%s is read only with %s, not by %s", name, strings.Join(readers, " or "), m.name)
			}
			return usageErrorf("%s cannot go with --%s (which is read only with %s)", m.name, name, strings.Join(readers, " or "))
		}
		return nil
	}
	return nil
}

// checkFlags refuses, before cmd runs, flag combinations cmd would silently ignore, and an
// output or checkpoint file that cannot be created because its directory is missing.
func checkFlags(cmd *cobra.Command) error {
	f := cmd.Flags()
	set := func(name string) bool { return f.Lookup(name) != nil && f.Changed(name) }
	value := func(name string) string { return f.Lookup(name).Value.String() }

	if set("json") && set("format") && value("format") != "json" {
		return usageErrorf("--json and --format %s cannot go together (--json is --format json)", clipArg(value("format")))
	}
	if set("size") && set("board") {
		return usageErrorf("--size %s and --board %s both give the board: give one (--size N for N×N, --board RxC)", clipArg(value("size")), clipArg(value("board")))
	}
	// Goroutines started, unless the command declares that it only models them.
	for _, name := range []string{"workers", "cores"} {
		if !set(name) || f.Lookup(name).Annotations[modelledKey] != nil {
			continue
		}
		if v, err := strconv.Atoi(value(name)); err == nil && v > maxWorkers() {
			return usageErrorf("--%s must be at most %d (4 a core here, at least 16), got %d", name, maxWorkers(), v)
		}
	}
	for _, file := range []struct{ flag, name string }{{"output", "-o"}, {"checkpoint", "checkpoint"}} {
		if !set(file.flag) {
			continue
		}
		if value(file.flag) == "" && file.flag == "output" {
			return usageErrorf("-o needs a file name, got \"\" (leave -o out to write to standard output)")
		}
		if value(file.flag) == "" {
			return usageErrorf("--%s needs a file name, got \"\"", file.flag)
		}
		if err := creatable(value(file.flag)); err != nil {
			return usageErrorf("%s %q: %w", file.name, clipArg(value(file.flag)), err)
		}
	}
	return nil
}

// modelledKey annotates a --workers flag that counts the workers of a machine the command
// only models (queens estimate's), not goroutines it starts: checkFlags does not bound it.
const modelledKey = "chesspuzzles_modelled"

// modelledWorkers declares that cmd's flag name counts modelled workers (modelledKey).
func modelledWorkers(cmd *cobra.Command, name string) {
	_ = cmd.Flags().SetAnnotation(name, modelledKey, []string{"true"})
}

// maxWorkers bounds --workers and --cores: goroutines beyond a few a core add memory, not
// speed, and a typo such as 99999999999 would start that many.
func maxWorkers() int { return max(16, 4*runtime.GOMAXPROCS(0)) }

// creatable reports what stops a file at path from being created: a missing directory, a
// path that is a directory.
func creatable(path string) error {
	if path == "" || path == "-" {
		return nil
	}
	if fi, err := os.Stat(path); err == nil && fi.IsDir() {
		return errors.New("a directory, want a file name")
	}
	dir := filepath.Dir(path)
	fi, err := os.Stat(dir)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return fmt.Errorf("directory %q does not exist", clipArg(dir))
	case err != nil:
		return fmt.Errorf("directory %q: %v", clipArg(dir), pathErr(err))
	case !fi.IsDir():
		return fmt.Errorf("%q is not a directory", clipArg(dir))
	}
	return nil
}

// pathErr is the reason of an *fs.PathError without the path, which the message names already.
func pathErr(err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	return err
}
