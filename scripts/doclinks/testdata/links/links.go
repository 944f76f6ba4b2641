// Package links is doclinks' test input: its doc comments hold links that resolve and
// links that do not, as the test's want list says. It links to [Good] and [strings.Cut],
// and to [Gone], a name it does not declare.
package links

import "strings"

// Good is a declaration that [Good.Method], [*Good] and [strings.Builder] resolve against;
// [Good.Missing] and [bad] do not (bad is unexported: go/doc links only exported names).
type Good struct{ b strings.Builder }

// Method is linked from Good. A placeholder such as "links count [N]" and an index
// such as rows[r][c] or f(x)[k] are no links.
func (g *Good) Method() {}

// bad calls [nowhere.Func], a package the file does not import.
func bad() {}
