package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// Two made-up 5×5 levels written the two ways the solver repositories write theirs: one row a
// line (the TypeScript files), and one letter a line (the older JavaScript files).
const compactLevel = `import { a, b } from "../colors";

const level7 = {
  size: 5,
  colorRegions: [
    ["A", "A", "B", "B", "B"],
    ["A", "C", "C", "B", "B"],
    ["A", "C", "D", "D", "B"],
    ["A", "E", "E", "D", "B"],
    ["A", "E", "E", "E", "E"],
  ],
  regionColors: { A: a, B: b },
};

export default level7;
`

const wantGrid = "AABBB\nACCBB\nACDDB\nAEEDB\nAEEEE\n"

// spread writes compactLevel's grid one letter a line, as the older files do.
func spread() string {
	var b strings.Builder
	b.WriteString("\nimport { a } from \"../colors\";\n\nconst level12 = {\n  size: 5,\n  colorRegions: [\n")
	for r, row := range strings.Split(strings.TrimSpace(wantGrid), "\n") {
		if r > 0 {
			b.WriteString(",\n")
		}
		b.WriteString("  [\n")
		for c, ch := range row {
			if c > 0 {
				b.WriteString(",\n")
			}
			b.WriteString("    \"" + string(ch) + "\"")
		}
		b.WriteString("\n  ]")
	}
	b.WriteString("\n],\n  regionColors: {\n    A: a\n  }\n};\n")
	return b.String()
}

func TestParseLevel(t *testing.T) {
	for _, tc := range []struct{ name, src string }{
		{"row a line", compactLevel},
		{"letter a line", spread()},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p, err := parseLevel(tc.src)
			if err != nil {
				t.Fatal(err)
			}
			if got := p.String(); got != wantGrid {
				t.Errorf("grid\n%swant\n%s", got, wantGrid)
			}
		})
	}
}

func TestParseLevelRefuses(t *testing.T) {
	for _, tc := range []struct{ name, src, want string }{
		{"no size", `colorRegions: [["A"]]`, "size"},
		{"size too large", `size: 27, colorRegions: []`, "want 1 to 26"},
		{"no regions", `size: 2`, "colorRegions"},
		{"too few rows", `size: 3, colorRegions: [["A","B","C"],["A","B","C"]]`, "2 rows"},
		{"short row", `size: 2, colorRegions: [["A","B"],["A"]]`, "row 2 has 1 cells"},
		{"lower case", `size: 2, colorRegions: [["A","b"],["A","B"]]`, `"b"`},
		{"missing region", `size: 2, colorRegions: [["A","A"],["A","A"]]`, "missing B"},
		{"letter past N", `size: 2, colorRegions: [["A","C"],["A","B"]]`, "region 2"},
		{"unclosed", `size: 2, colorRegions: [["A","B"],["A","B"]`, "not closed"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := parseLevel(tc.src)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("parseLevel: error %v, want one containing %q", err, tc.want)
			}
		})
	}
}

func TestConvertFile(t *testing.T) {
	in, out := t.TempDir(), t.TempDir()
	name := filepath.Join(in, "level7.ts")
	if err := os.WriteFile(name, []byte(compactLevel), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := convertFile(name, out, "owner/repo@abc123"); err != nil {
		t.Fatal(err)
	}
	got, err := os.ReadFile(filepath.Join(out, "level007.txt"))
	if err != nil {
		t.Fatal(err)
	}
	want := "# level7.ts from owner/repo@abc123\n" + wantGrid
	if string(got) != want {
		t.Errorf("level007.txt:\n%s\nwant\n%s", got, want)
	}
}

func TestOutName(t *testing.T) {
	for in, want := range map[string]string{
		"level7.ts":     "level007.txt",
		"level1234.js":  "level1234.txt",
		"Level 453":     "level453.txt",
		"sample.ts":     "sample.txt",
		"level-x-9.jsx": "level009.txt",
	} {
		if got := outName(in); got != want {
			t.Errorf("outName(%q) = %q, want %q", in, got, want)
		}
	}
}
