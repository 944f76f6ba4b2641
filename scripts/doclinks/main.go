// Command doclinks reports the doc links that lead nowhere: every name in square brackets
// (a name, Recv.Name or pkg.Name: the doc-link syntax) in the doc comments of the module's
// packages that go/doc's parser leaves as plain text because no declaration or imported
// package answers to it. "go doc" and pkgsite print such a link as its bare text, so a
// renamed or removed name leaves a dead reference behind without any compiler noticing.
//
//	go run ./scripts/doclinks        # every package under the current directory
//	go run ./scripts/doclinks ./web  # the packages under these directories
//
// It prints one line a dead link,
//
//	queens/count/frames/plan.go:46:1: [NewPlan] in the doc of task resolves to nothing
//
// and exits 1 if there is any, 0 otherwise (2 if a file cannot be read or parsed). Names
// resolve as go/doc resolves them: the package's own exported declarations (an unexported
// name is written without brackets) and the packages its files import (by name; that
// pkg.Name exists in that package is not checked). Two bracketed forms are not taken for
// links: a name in capitals, a command line's placeholder ("queens count [N]"), and an
// index after an index or a call ("rows[r][c]"). Test files, testdata and directories
// starting with "." or "_" are skipped. Cost: one parse of every Go file, about a second
// for the whole module.
package main

import (
	"fmt"
	"go/ast"
	"go/doc"
	"go/doc/comment"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
)

func main() {
	roots := os.Args[1:]
	if len(roots) == 0 {
		roots = []string{"."}
	}
	var dead []string
	for _, root := range roots {
		d, err := checkTree(root)
		if err != nil {
			fmt.Fprintln(os.Stderr, "doclinks:", err)
			os.Exit(2)
		}
		dead = append(dead, d...)
	}
	for _, d := range dead {
		fmt.Println(d)
	}
	if len(dead) > 0 {
		fmt.Fprintf(os.Stderr, "doclinks: %d doc links resolve to nothing\n", len(dead))
		os.Exit(1)
	}
}

// checkTree returns the dead links of every package in the directories under root.
func checkTree(root string) ([]string, error) {
	var dead []string
	err := filepath.WalkDir(root, func(path string, e fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if !e.IsDir() {
			return nil
		}
		name := e.Name()
		if path != root && (name == "testdata" || strings.HasPrefix(name, ".") || strings.HasPrefix(name, "_")) {
			return filepath.SkipDir
		}
		d, err := checkDir(path)
		dead = append(dead, d...)
		return err
	})
	return dead, err
}

// checkDir returns the dead links of the package in dir (none if it holds no Go files).
// Files of another package (a package main beside a library) are checked as their own.
func checkDir(dir string) ([]string, error) {
	fset := token.NewFileSet()
	names, err := filepath.Glob(filepath.Join(dir, "*.go"))
	if err != nil {
		return nil, err
	}
	byPkg := map[string][]*ast.File{}
	for _, name := range names {
		if strings.HasSuffix(name, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, name, nil, parser.ParseComments)
		if err != nil {
			return nil, err
		}
		byPkg[f.Name.Name] = append(byPkg[f.Name.Name], f)
	}
	var dead []string
	for _, files := range byPkg {
		p, err := doc.NewFromFiles(fset, files, "example.com/"+filepath.ToSlash(dir), doc.AllDecls|doc.PreserveAST)
		if err != nil {
			return nil, err
		}
		dead = append(dead, checkPackage(fset, p, files)...)
	}
	sort.Strings(dead)
	return dead, nil
}

// docOf is one doc comment: whose it is and where it starts.
type docOf struct {
	what string
	text string
	pos  token.Pos
}

// checkPackage returns the dead links of every doc comment of p, whose files are files.
func checkPackage(fset *token.FileSet, p *doc.Package, files []*ast.File) []string {
	var docs []docOf
	for _, f := range files {
		if f.Doc != nil {
			docs = append(docs, docOf{"package " + p.Name, f.Doc.Text(), f.Doc.Pos()})
		}
	}
	values := func(vs []*doc.Value) {
		for _, v := range vs {
			docs = append(docs, docOf{strings.Join(v.Names, ", "), v.Doc, v.Decl.Pos()})
		}
	}
	funcs := func(fs []*doc.Func) {
		for _, f := range fs {
			what := f.Name
			if f.Recv != "" {
				what = strings.TrimPrefix(f.Recv, "*") + "." + f.Name
			}
			docs = append(docs, docOf{what, f.Doc, f.Decl.Pos()})
		}
	}
	values(p.Consts)
	values(p.Vars)
	funcs(p.Funcs)
	for _, t := range p.Types {
		docs = append(docs, docOf{t.Name, t.Doc, t.Decl.Pos()})
		values(t.Consts)
		values(t.Vars)
		funcs(t.Funcs)
		funcs(t.Methods)
	}
	parser := p.Parser()
	var dead []string
	for _, d := range docs {
		if d.text == "" {
			continue
		}
		for _, link := range unresolved(parser.Parse(d.text)) {
			dead = append(dead, fmt.Sprintf("%s: %s in the doc of %s resolves to nothing", fset.Position(d.pos), link, d.what))
		}
	}
	return dead
}

// linkLike matches what go/doc would take for a doc link if it resolved: a bracketed
// name, optionally starred and qualified by a receiver or an import path, standing alone
// (after a space, punctuation or the start of the text, before a space, punctuation or the
// end). Link definitions (a line of a bracketed text, a colon and a URL) never reach the plain text it reads.
var linkLike = regexp.MustCompile(`(?:^|[\s\pP])(\[\*?(?:[\w.-]+/)*[A-Za-z_]\w*(?:\.[A-Za-z_]\w*){0,2}\])(?:$|[\s\pP])`)

// unresolved returns the link-like texts left as plain text in d.
func unresolved(d *comment.Doc) []string {
	var out []string
	var plain strings.Builder
	flush := func() {
		s := plain.String()
		plain.Reset()
		for _, m := range linkLike.FindAllStringSubmatchIndex(s, -1) {
			link := s[m[2]:m[3]]
			if m[2] > 0 && (s[m[2]-1] == ']' || s[m[2]-1] == ')') || link == strings.ToUpper(link) {
				continue
			}
			out = append(out, link)
		}
	}
	var text func([]comment.Text)
	text = func(ts []comment.Text) {
		for _, t := range ts {
			switch t := t.(type) {
			case comment.Plain:
				plain.WriteString(string(t))
			case comment.Italic:
				plain.WriteString(string(t))
			case *comment.Link:
				flush()
				text(t.Text)
				flush()
			default: // a resolved doc link: a boundary, not text
				flush()
				plain.WriteString(" ")
			}
		}
	}
	for _, b := range d.Content {
		switch b := b.(type) {
		case *comment.Paragraph:
			text(b.Text)
		case *comment.Heading:
			text(b.Text)
		case *comment.List:
			for _, it := range b.Items {
				for _, c := range it.Content {
					if p, ok := c.(*comment.Paragraph); ok {
						text(p.Text)
						flush()
					}
				}
			}
		}
		flush()
	}
	return out
}
