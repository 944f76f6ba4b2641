package figures

import (
	"fmt"
	"strings"
	"testing"
)

const home = `# Benchmarks
text
<!-- figures join -->
| N | join |
|---:|---:|
| 16 | 0.11 |
<!-- /figures -->
more
<!-- figures empty -->
<!-- /figures -->
<!-- figures knight -->
7×8 closed: 48 CPU-s.
<!-- /figures -->
`

func TestBlocks(t *testing.T) {
	names, body, err := Blocks(home)
	if err != nil {
		t.Fatal(err)
	}
	if got := strings.Join(names, " "); got != "join empty knight" {
		t.Errorf("Blocks names = %q, want %q", got, "join empty knight")
	}
	want := map[string]string{
		"join":   "| N | join |\n|---:|---:|\n| 16 | 0.11 |\n",
		"empty":  "",
		"knight": "7×8 closed: 48 CPU-s.\n",
	}
	for k, v := range want {
		if body[k] != v {
			t.Errorf("Blocks body[%q] = %q, want %q", k, body[k], v)
		}
	}
}

func TestBlocksMalformed(t *testing.T) {
	tests := []struct {
		name, text, want string
	}{
		{"nested", "<!-- figures a -->\n<!-- figures b -->\n<!-- /figures -->\n", "opened inside"},
		{"unclosed", "<!-- figures a -->\nx\n", "never closed"},
		{"stray close", "x\n<!-- /figures -->\n", "no block open"},
		{"twice", "<!-- figures a -->\n<!-- /figures -->\n<!-- figures a -->\n<!-- /figures -->\n", "given twice"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, _, err := Blocks(tt.text)
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("Blocks error = %v, want one saying %q", err, tt.want)
			}
		})
	}
}

func TestSync(t *testing.T) {
	doc := "# Readme\n<!-- figures knight -->\nold figure\nand more\n<!-- /figures -->\nmiddle\n  <!-- figures join -->\n<!-- /figures -->\nend\n"
	want := "# Readme\n<!-- figures knight -->\n7×8 closed: 48 CPU-s.\n<!-- /figures -->\nmiddle\n  <!-- figures join -->\n| N | join |\n|---:|---:|\n| 16 | 0.11 |\n<!-- /figures -->\nend\n"
	got, names, err := Sync(doc, home)
	if err != nil {
		t.Fatal(err)
	}
	if got != want {
		t.Errorf("Sync =\n%s\nwant\n%s", got, want)
	}
	if strings.Join(names, " ") != "knight join" {
		t.Errorf("Sync names = %q, want %q", names, "knight join")
	}
	again, _, err := Sync(got, home)
	if err != nil || again != got {
		t.Errorf("Sync of its own output changed it (err %v):\n%s", err, again)
	}
	emptied, _, err := Sync("a\n<!-- figures empty -->\nx\n<!-- /figures -->\nb", home)
	if err != nil || emptied != "a\n<!-- figures empty -->\n<!-- /figures -->\nb" {
		t.Errorf("Sync into an empty block = %q, %v", emptied, err)
	}
	if _, _, err := Sync("<!-- figures nowhere -->\n<!-- /figures -->\n", home); err == nil || !strings.Contains(err.Error(), "not in the home") {
		t.Errorf("Sync of a block the home lacks: error %v", err)
	}
}

func TestQuoted(t *testing.T) {
	text := `Run it (111 CPU-s); about 7
minutes; 255 CPU-seconds, 108 MiB; 0.4 s and 4 s; 2.1·10⁵ core-hours (235 core-years);
N=17 at 46.3%, 10000×10000, 2^27 squares, 1,000 cores, ETA 6s, 8×8 closed in 42 min.
v1.10.x, 2h−1 bits, (0, s) and 3.2GiB; 1.5 CPU hours; 2,177 core-hours`
	want := "111 CPU-s|7 min|255 CPU-s|108 MiB|0.4 s|4 s|2.1·10⁵ core-hours|235 core-years|42 min|1.5 CPU-h|2,177 core-hours"
	var got []string
	for _, f := range Quoted(text) {
		got = append(got, fmt.Sprint(f))
	}
	if g := strings.Join(got, "|"); g != want {
		t.Errorf("Quoted =\n%s\nwant\n%s", g, want)
	}
}
