package cluster

import (
	"os"
	"strings"
	"testing"
	"time"

	"github.com/chesspuzzles/chesspuzzles/internal/doclog"
)

// TestDocQuarantineLines: the lines of a quarantine that docs/distributed.md quotes are
// those a coordinator prints when an identity lies (the other quoted log lines are
// cmd/chesspuzzles's TestDocLogLines): one lying on each first computation beside two
// honest ones, with no published count.
func TestDocQuarantineLines(t *testing.T) {
	parallel(t)
	doc, err := os.ReadFile("../../../docs/distributed.md")
	if err != nil {
		t.Fatal(err)
	}
	var quoted []doclog.Line
	for _, q := range doclog.Quoted(string(doc)) {
		if strings.Contains(q.Text, "quarantin") {
			quoted = append(quoted, q)
		}
	}
	if len(quoted) < 2 {
		t.Fatalf("docs/distributed.md quotes %d lines of a quarantine, want the disagreement and the quarantine", len(quoted))
	}
	noPublished(t)
	tj := queensJob(t, 9)
	dir, s, a, ctx := attackServer(t)
	r := newRogue(issuedHostile(t, s.URL(), a, "rogue"), tj.plan)
	r.lieFirst = func(int) bool { return true } // its lies come first: "rogue found …, h1 found …"
	log := &logger{t: t}
	c := &Coordinator{Conn: coordConn(t, ctx, s.URL(), a), StateDir: dir, VerifyWait: time.Second, Logf: log.Logf}
	out := honestFirst(t, ctx, c, tj.plan, issuedWorker(t, ctx, s.URL(), a, "h1"), issuedWorker(t, ctx, s.URL(), a, "h2"))
	runRogues(t, ctx, r)
	if o := <-out; o.err != nil || o.total != tj.total {
		t.Fatalf("count with a liar: %s, %v; want %s", o.total, o.err, tj.total)
	}
	if len(r.lies()) == 0 {
		t.Fatalf("no lie of the rogue was accepted as a first result: nothing to quarantine; log:\n%s", strings.Join(log.lines, "\n"))
	}
	printed := strings.Join(log.lines, "\n")
	for _, q := range quoted {
		if !doclog.Printed(q.Text, printed) {
			t.Errorf("docs/distributed.md:%d quotes a line the coordinator did not print:\n\t%s\nlog:\n%s", q.Line, q.Text, printed)
		}
	}
}
