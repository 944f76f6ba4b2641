package main

import (
	"context"
	"encoding/json"
	"io"

	"github.com/chesspuzzles/chesspuzzles/board"
	"github.com/spf13/cobra"
)

func newQueensRegionsReadCmd() *cobra.Command {
	return command(&cobra.Command{
		Use:   "read IMAGE|-",
		Short: "Read a region-queens puzzle from a screenshot or a picture (PNG, JPEG or GIF)",
		Long: `Read a picture of a region-queens puzzle — a screenshot of the daily game on a phone or a
desktop, of another app, or a picture "queens regions --format png" or the web page drew —
and print the grid it shows: as region letters, one row a line, A the top-left cell's region
and the others lettered as they are met row by row (the form "regions solve" reads), or with
--format json as {"n":N,"regions":[[…],…]}, region ids 0…N−1, as "queens regions --format
json" writes them.

The grid is found by its frame, wherever it is on the page; N by its lines; the regions by
their colours and by the thick borders between them. A region of one colour in several
pieces is read as one region. A picture in which no grid is found, whose grid has more
columns than rows, or whose regions do not add up to N is refused with one line and exit 2:
"no grid found", "found 9 columns but 8 rows", "two regions share a colour and a border".
Cells should be at least 20 pixels wide; pictures have at most 40 megapixels.`,
		Example: `  chesspuzzles queens regions read screenshot.png
  chesspuzzles queens regions read --format json screenshot.jpg
  chesspuzzles queens regions solve --explain screenshot.png`,
		Args: exactArgs(1, "one picture file (or - for standard input)"),
	}, func(cmd *cobra.Command, o *queensRegionsReadOpts) {
		cmd.Flags().StringVar(&o.format, "format", "text", "text or json")
	}, func(cmd *cobra.Command, o *queensRegionsReadOpts, args []string) error {
		return runQueensRegionsRead(cmd.Context(), *o, args[0], cmd.InOrStdin(), cmd.OutOrStdout())
	})
}

// queensRegionsReadOpts are the options of "queens regions read".
type queensRegionsReadOpts struct {
	format string
}

func runQueensRegionsRead(ctx context.Context, o queensRegionsReadOpts, file string, stdin io.Reader, stdout io.Writer) error {
	if o.format != "text" && o.format != "json" {
		return usageErrorf("--format must be text or json, got %q", board.Clip(o.format))
	}
	p, err := readRegionsPuzzle(ctx, file, stdin, true)
	if err != nil {
		return err
	}
	if o.format == "json" {
		return json.NewEncoder(stdout).Encode(struct {
			N       int     `json:"n"`
			Regions [][]int `json:"regions"`
		}{p.N(), p.Rows()})
	}
	_, err = io.WriteString(stdout, p.String())
	return err
}
