// Command gamelevels converts the published Queens game's levels, as the public solvers keep
// them, into the letter grids that regions.Parse reads: one file a level, for the checks that
// take a directory of levels (TestPublishedLevels in queens/regions with
// CHESSPUZZLES_LEVELS=DIR, and bench/regionsizes -published DIR). The levels are the game's
// and are kept out of this repository.
//
//	go run ./scripts/gamelevels -o DIR [-source TEXT] FILE...
//
// Each FILE is one level module as the solver repositories write it (for instance
// src/utils/levels/level101.ts of github.com/samimsu/queens-game-linkedin, in TypeScript or
// the older JavaScript): an object literal with "size: N" and "colorRegions:" followed by N
// arrays of N quoted region letters, in any layout. The file levelNNN.ts (or .js, or a name
// with no digits) becomes DIR/levelNNN.txt (DIR/NAME.txt), the grid under a comment line
// naming the file and -source (the repository and commit, say). A file whose grid is not N
// rows of N letters making N regions is named on stderr, one line, and skipped; the exit
// status is then 1. It reads each file whole, at most 1 MiB.
package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"

	"github.com/chesspuzzles/chesspuzzles/queens/regions"
)

func main() {
	out := flag.String("o", "", "directory to write the levels to (required)")
	source := flag.String("source", "", "where the files come from, written in each level's comment (e.g. owner/repo@commit)")
	flag.Parse()
	if *out == "" || flag.NArg() == 0 {
		fmt.Fprintln(os.Stderr, "usage: gamelevels -o DIR [-source TEXT] FILE...")
		os.Exit(2)
	}
	if err := os.MkdirAll(*out, 0o755); err != nil {
		fmt.Fprintln(os.Stderr, "gamelevels:", err)
		os.Exit(1)
	}
	failed := false
	for _, name := range flag.Args() {
		if err := convertFile(name, *out, *source); err != nil {
			fmt.Fprintf(os.Stderr, "gamelevels: %s: %v\n", name, err)
			failed = true
		}
	}
	if failed {
		os.Exit(1)
	}
}

// convertFile converts one level file into dir.
func convertFile(name, dir, source string) error {
	f, err := os.Open(name)
	if err != nil {
		return err
	}
	defer f.Close()
	const limit = 1 << 20
	data, err := io.ReadAll(io.LimitReader(f, limit+1))
	if err != nil {
		return err
	}
	if len(data) > limit {
		return fmt.Errorf("longer than %d bytes", limit)
	}
	p, err := parseLevel(string(data))
	if err != nil {
		return err
	}
	base := filepath.Base(name)
	header := "# " + base
	if source != "" {
		header += " from " + source
	}
	text := header + "\n" + p.String()
	return os.WriteFile(filepath.Join(dir, outName(base)), []byte(text), 0o644)
}

var levelNumber = regexp.MustCompile(`\d+`)

// outName returns the file name a level file's grid is written to: levelNNN.txt with the
// first number in the name written in three digits or more, else the name without its
// extension and .txt.
func outName(base string) string {
	if m := levelNumber.FindString(base); m != "" {
		n, _ := strconv.Atoi(m)
		return fmt.Sprintf("level%03d.txt", n)
	}
	return strings.TrimSuffix(base, filepath.Ext(base)) + ".txt"
}

var sizeField = regexp.MustCompile(`\bsize\s*:\s*(\d+)`)

// parseLevel reads a level module's size and colorRegions and returns the puzzle. The
// regions' letters are taken as they are: region A is letter A, and so on.
func parseLevel(src string) (*regions.Puzzle, error) {
	m := sizeField.FindStringSubmatch(src)
	if m == nil {
		return nil, errors.New(`no "size: N" field`)
	}
	n, err := strconv.Atoi(m[1])
	if err != nil || n < 1 || n > regions.MaxN {
		return nil, fmt.Errorf("size %s: want 1 to %d", m[1], regions.MaxN)
	}
	at := strings.Index(src, "colorRegions")
	if at < 0 {
		return nil, errors.New(`no "colorRegions" field`)
	}
	rows, err := letterRows(src[at:])
	if err != nil {
		return nil, err
	}
	if len(rows) != n {
		return nil, fmt.Errorf("size %d but %d rows of regions", n, len(rows))
	}
	grid := make([][]int, n)
	for r, row := range rows {
		if len(row) != n {
			return nil, fmt.Errorf("row %d has %d cells, want %d", r+1, len(row), n)
		}
		grid[r] = make([]int, n)
		for c, ch := range row {
			grid[r][c] = int(ch - 'A')
		}
	}
	p, err := regions.New(grid)
	if err != nil {
		return nil, err
	}
	return p, nil
}

// letterRows reads the nested array that starts at the first '[' of s: the rows, each the
// single capital letters quoted in it. Anything else inside the brackets (spaces, commas,
// line breaks) is skipped; a quoted string that is not one capital letter is an error.
func letterRows(s string) ([][]byte, error) {
	start := strings.IndexByte(s, '[')
	if start < 0 {
		return nil, errors.New(`no "[" after colorRegions`)
	}
	var rows [][]byte
	depth := 0
	for i := start; i < len(s); i++ {
		switch ch := s[i]; ch {
		case '[':
			depth++
			if depth == 2 {
				rows = append(rows, nil)
			}
			if depth > 2 {
				return nil, errors.New("colorRegions nests deeper than rows of letters")
			}
		case ']':
			depth--
			if depth == 0 {
				return rows, nil
			}
		case '"', '\'':
			end := strings.IndexByte(s[i+1:], ch)
			if end < 0 {
				return nil, errors.New("unterminated string in colorRegions")
			}
			v := s[i+1 : i+1+end]
			if depth != 2 || len(v) != 1 || v[0] < 'A' || v[0] > 'Z' {
				return nil, fmt.Errorf("%q in colorRegions: want one capital letter a cell, inside a row", v)
			}
			rows[len(rows)-1] = append(rows[len(rows)-1], v[0])
			i += end + 1
		}
	}
	return nil, errors.New("colorRegions is not closed")
}
