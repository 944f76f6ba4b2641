package main

import "github.com/spf13/cobra"

// command makes c, a command's help and argument rule, runnable: flags binds c's flags to
// the fields of a new O (and sets what checks them before the run, if anything: c.Args,
// c.PreRunE), and c.RunE calls run with c, those options and the arguments. Every command
// with options is made by it, so that a command's file holds only its own: help, flags and
// work (run…(ctx, opts, stdout)).
func command[O any](c *cobra.Command, flags func(*cobra.Command, *O), run func(*cobra.Command, *O, []string) error) *cobra.Command {
	o := new(O)
	flags(c, o)
	c.RunE = func(cmd *cobra.Command, args []string) error { return run(cmd, o, args) }
	return c
}

// group makes c, a group's help, the parent of the commands subs.
func group(c *cobra.Command, subs ...*cobra.Command) *cobra.Command {
	c.AddCommand(subs...)
	return c
}
