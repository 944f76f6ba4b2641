package main

import (
	"io"
	"strings"
)

// overviewText is what "chesspuzzles" alone prints: what it does, the groups, five common
// commands and where the manual is; the manual itself ("chesspuzzles --help", doc.go) is
// nearly 300 lines, too long to meet a newcomer who typed the bare name.
const overviewText = `chesspuzzles solves, counts, checks and draws two classic chessboard puzzles:
the N-queens problem and the knight's tour.

Groups:
  queens      list, count, check and complete placements of N queens; puzzles
  knight      find, check and count knight's tours on any board
  serve       the local web app and its JSON API
  worker      join a distributed count
  version     the version and the commit it was built from
  completion  a shell completion script: bash, zsh, fish or powershell

Common commands:
  chesspuzzles queens solve 8          the 92 solutions of eight queens
  chesspuzzles queens count 1-14       Q(N) and U(N) for N from 1 to 14, exactly
  chesspuzzles queens check 15863724   is it a solution; which queens attack which
  chesspuzzles knight tour --size 8    a knight's tour of the 8×8 board from a1
  chesspuzzles serve                   the web app at http://127.0.0.1:8080

The manual: chesspuzzles --help. A command's flags and examples: chesspuzzles help
COMMAND (chesspuzzles help queens count).
`

// overview writes overviewText to w.
func overview(w io.Writer) error {
	_, err := io.WriteString(w, overviewText)
	return err
}

// overviewCommands returns the command lines overviewText gives as examples, each split
// into words after "chesspuzzles", for the test that they exist.
func overviewCommands() [][]string {
	var lines [][]string
	for line := range strings.Lines(overviewText) {
		if rest, ok := strings.CutPrefix(line, "  chesspuzzles "); ok {
			cmd, _, _ := strings.Cut(rest, "  ")
			lines = append(lines, strings.Fields(cmd))
		}
	}
	return lines
}
