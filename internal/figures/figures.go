// Package figures keeps the measured figures that documents quote identical to their one
// home, bench/README.md (issue 26: one home for figures).
//
// A figure block is the run of lines between a line
//
//	<!-- figures NAME -->
//
// and the next line
//
//	<!-- /figures -->
//
// in the home document, where NAME is a word naming what the block holds (a table, a
// sentence). A document that quotes the block holds the same two marker lines; Sync
// replaces the lines between them by the home's. The markers are HTML comments, so
// neither document shows them. go run ./scripts/figures rewrites README.md so;
// a test in cmd/chesspuzzles fails while any quoting block differs from its home.
//
// Figures quoted in prose (the manual's, README's sentences) are not blocks: Quoted finds
// them, a number with a unit of time or memory, so that a test can hold each to a figure of
// the home.
package figures

import (
	"fmt"
	"regexp"
	"strings"
)

// The marker lines of a block; Blocks and Sync take a line for a marker only when it is
// exactly one of these, spaces around it aside.
const (
	openPrefix = "<!-- figures "
	closeLine  = "<!-- /figures -->"
)

// blockName returns the name of an opening marker line and whether line is one.
func blockName(line string) (string, bool) {
	line = strings.TrimSpace(line)
	rest, ok := strings.CutPrefix(line, openPrefix)
	if !ok {
		return "", false
	}
	name, ok := strings.CutSuffix(rest, " -->")
	if !ok || name == "" || strings.ContainsAny(name, " \t") {
		return "", false
	}
	return name, true
}

// A block is one figure block of a document: its name and where its lines are.
type block struct {
	name       string
	start, end int // lines[start:end] are the block's lines, markers excluded
}

// parse returns the blocks of a document split into lines, in order. It refuses a block
// opened inside another or never closed, a closing marker with no block open, and a
// name given twice.
func parse(lines []string) ([]block, error) {
	var blocks []block
	seen := map[string]bool{}
	open := -1
	for i, l := range lines {
		if name, ok := blockName(l); ok {
			if open >= 0 {
				return nil, fmt.Errorf("line %d: block %q opened inside block %q", i+1, name, blocks[len(blocks)-1].name)
			}
			if seen[name] {
				return nil, fmt.Errorf("line %d: block %q given twice", i+1, name)
			}
			seen[name] = true
			blocks = append(blocks, block{name: name, start: i + 1})
			open = len(blocks) - 1
			continue
		}
		if strings.TrimSpace(l) == closeLine {
			if open < 0 {
				return nil, fmt.Errorf("line %d: %s with no block open", i+1, closeLine)
			}
			blocks[open].end = i
			open = -1
		}
	}
	if open >= 0 {
		return nil, fmt.Errorf("block %q is never closed by %s", blocks[open].name, closeLine)
	}
	return blocks, nil
}

// Blocks returns the names of the figure blocks of text, in order, and each block's text
// (its lines between the markers, each ending in a newline). It returns an error for a
// malformed document: a block opened inside another or never closed, a stray closing
// marker, a name given twice. It takes time linear in the length of text.
func Blocks(text string) (names []string, body map[string]string, err error) {
	lines := strings.Split(text, "\n")
	blocks, err := parse(lines)
	if err != nil {
		return nil, nil, err
	}
	body = make(map[string]string, len(blocks))
	for _, b := range blocks {
		names = append(names, b.name)
		var s strings.Builder
		for _, l := range lines[b.start:b.end] {
			s.WriteString(l)
			s.WriteByte('\n')
		}
		body[b.name] = s.String()
	}
	return names, body, nil
}

// Sync returns doc with the lines of each of its figure blocks replaced by those of the
// block of the same name in home, and the names of the blocks it quotes. It returns an
// error when either document is malformed (see Blocks) or doc quotes a block that home
// does not have. Sync(doc, home) == doc says that every figure doc quotes in blocks is
// home's. It takes time linear in the lengths of doc and home.
func Sync(doc, home string) (string, []string, error) {
	_, want, err := Blocks(home)
	if err != nil {
		return "", nil, fmt.Errorf("the home document: %w", err)
	}
	lines := strings.Split(doc, "\n")
	blocks, err := parse(lines)
	if err != nil {
		return "", nil, err
	}
	var out []string
	var names []string
	at := 0
	for _, b := range blocks {
		body, ok := want[b.name]
		if !ok {
			return "", nil, fmt.Errorf("line %d: block %q is not in the home document", b.start, b.name)
		}
		names = append(names, b.name)
		out = append(out, lines[at:b.start]...)
		out = append(out, strings.Split(strings.TrimSuffix(body, "\n"), "\n")...)
		if body == "" {
			out = out[:len(out)-1]
		}
		at = b.end
	}
	out = append(out, lines[at:]...)
	return strings.Join(out, "\n"), names, nil
}

// A Figure is a measured quantity quoted in prose: a number and its unit, the unit
// spelled one way for each quantity ("CPU-s" for "CPU seconds", "min" for "minutes").
type Figure struct {
	Number, Unit string
}

func (f Figure) String() string { return f.Number + " " + f.Unit }

// figureRE matches a number (digits, with commas between thousands, a decimal point, or
// ·10 and a superscript power) and, after a space or hyphen, a unit of time or memory. The
// separator is required, so that "10s" (a flag's default) and "2h" (algebra) are not read
// as figures. The longer spellings come first so that "CPU-seconds" is not read as "CPU-s".
var figureRE = regexp.MustCompile(`(?:^|[^\p{L}\p{N}.,^])(\d+(?:,\d{3})*(?:\.\d+)?(?:·10[⁰¹²³⁴⁵⁶⁷⁸⁹]+)?)[ -]` +
	`(CPU[- ]seconds|CPU[- ]minutes|CPU[- ]hours|CPU[- ]s|core-hours|core-years|seconds|minutes|hours|days|years|min|ms|µs|s|h|KiB|MiB|GiB|MB|GB)\b`)

// unitSpelling maps each spelling of a unit that figureRE reads to the one Figure uses.
var unitSpelling = map[string]string{
	"CPU-seconds": "CPU-s", "CPU seconds": "CPU-s", "CPU s": "CPU-s",
	"CPU-minutes": "CPU-min", "CPU minutes": "CPU-min",
	"CPU-hours": "CPU-h", "CPU hours": "CPU-h",
	"seconds": "s", "minutes": "min", "hours": "h",
}

// Quoted returns the figures of text in order, a figure split over two lines included.
// It takes time linear in the length of text.
func Quoted(text string) []Figure {
	text = strings.Join(strings.Fields(text), " ")
	var fs []Figure
	for _, m := range figureRE.FindAllStringSubmatch(text, -1) {
		unit := m[2]
		if u, ok := unitSpelling[unit]; ok {
			unit = u
		}
		fs = append(fs, Figure{Number: m[1], Unit: unit})
	}
	return fs
}
