package monitor

import (
	"fmt"
	"html/template"
	"net/http"
	"runtime/metrics"
	"strings"
	"sync"
	"time"

	"github.com/chesspuzzles/chesspuzzles/internal/work/cluster"
)

// statusTemplate is the status page: the figures of /metrics in a table, and the progress
// as a line drawn in inline SVG (no script, no build step). It refreshes itself every 15
// seconds. It is parsed on the first request: a command that never serves the page does
// not parse it at start.
var statusTemplate = sync.OnceValue(func() *template.Template {
	return template.Must(template.New("status").Parse(statusPageText))
})

const statusPageText = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta http-equiv="refresh" content="15">
<title>{{.Title}}</title>
<style>body{font:14px system-ui,sans-serif;margin:2em;max-width:52em}table{border-collapse:collapse}
td,th{padding:.2em .8em;text-align:left;border-bottom:1px solid #ddd}td.n{text-align:right;font-variant-numeric:tabular-nums}
svg{border:1px solid #ccc;background:#fafafa}</style></head><body>
<h1>{{.Title}}</h1>
{{if .Job}}<table>
<tr><th>tasks done</th><td class="n">{{.Done}} of {{.Tasks}} ({{.Percent}})</td></tr>
<tr><th>rate</th><td class="n">{{.Rate}}</td></tr>
<tr><th>time left</th><td class="n">{{.ETA}}</td></tr>
<tr><th>last result</th><td class="n">{{.LastAgo}} ago</td></tr>
<tr><th>verified / disagreed / refused</th><td class="n">{{.Verified}} / {{.Disagreed}} / {{.Refused}}</td></tr>
<tr><th>identities (quarantined)</th><td class="n">{{.Identities}} ({{.Quarantined}})</td></tr>
<tr><th>results stream</th><td class="n">{{.Store}}</td></tr>
<tr><th>snapshot written</th><td class="n">{{.Snapshot}}</td></tr>
<tr><th>coordinator memory (Go heap and runtime)</th><td class="n">{{.Memory}}</td></tr>
</table>
<h2>Progress</h2>
<svg width="640" height="200" viewBox="0 0 640 200" role="img" aria-label="share of the work done over time">
<polyline fill="none" stroke="#2a6" stroke-width="2" points="{{.Points}}"/>
<text x="4" y="14" font-size="11">100 %</text><text x="4" y="196" font-size="11">0 %</text>
<text x="636" y="196" font-size="11" text-anchor="end">{{.Span}}</text></svg>
{{if .Top}}<h2>Identities with the most results</h2>
<table><tr><th>identity</th><th>results</th><th>verified</th><th>disagreed</th><th>refused</th></tr>
{{range .Top}}<tr><td>{{.Name}}</td><td class="n">{{.Tasks}}</td><td class="n">{{.Verified}}</td><td class="n">{{.Disagreements}}</td><td class="n">{{.Refused}}</td></tr>
{{end}}</table>{{end}}
{{else}}<p>No job yet.</p>{{end}}
<p><a href="/metrics">/metrics</a> (Prometheus text format)</p>
</body></html>
`

// statusRow is an identity's line on the status page.
type statusRow struct {
	Name string
	cluster.IdentityHistory
}

// statusPage writes the page; its cost is that of a scrape plus the plot's points (at most
// plotSamples).
func (m *Monitor) statusPage(w http.ResponseWriter, _ *http.Request) {
	m.mu.Lock()
	s, job := m.st, m.job
	d := map[string]any{"Title": "chesspuzzles coordinator", "Job": job}
	if job != "" {
		d["Title"] = fmt.Sprintf("chesspuzzles: job %s (N = %d)", job, s.N)
		d["Done"], d["Tasks"], d["Percent"] = s.Done, s.Tasks, fmt.Sprintf("%.1f %%", 100*s.Fraction())
		d["Rate"] = "not known yet"
		if s.Done > s.Resumed && s.Rate() > 0 {
			d["Rate"] = fmt.Sprintf("%.3g nodes/s", s.Rate())
		}
		d["ETA"] = "not known yet"
		if eta, ok := s.ETA(); ok {
			d["ETA"] = eta.Round(time.Second).String()
		}
		d["LastAgo"] = time.Since(m.last).Round(time.Second).String()
		d["Verified"], d["Disagreed"], d["Refused"] = m.total.Verified, m.total.Disagreements, m.total.Refused
		d["Identities"], d["Quarantined"] = len(m.ids), m.quar
		d["Store"] = "not known"
		if b, ok := m.storeBytes(); ok {
			d["Store"] = fmt.Sprintf("%.1f MiB", float64(b)/(1<<20))
		}
		d["Snapshot"] = "none yet"
		if age, ok := m.snapshotAge(); ok {
			d["Snapshot"] = age.Round(time.Second).String() + " ago"
		}
		var top []statusRow
		for _, r := range m.ids[:min(len(m.ids), TopIdentities)] {
			top = append(top, statusRow{r.name, r.IdentityHistory})
		}
		d["Top"] = top
		d["Points"], d["Span"] = plot(m.samples, 640, 200)
	}
	m.mu.Unlock()
	sample := []metrics.Sample{{Name: "/memory/classes/total:bytes"}}
	metrics.Read(sample)
	d["Memory"] = fmt.Sprintf("%.1f MiB", float64(sample[0].Value.Uint64())/(1<<20))
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	if err := statusTemplate().Execute(w, d); err != nil {
		http.Error(w, err.Error(), http.StatusInternalServerError)
	}
}

// plot returns the SVG points of samples in a width × height box (time across, the share
// done up) and the time they span.
func plot(samples []sample, width, height float64) (string, string) {
	if len(samples) == 0 {
		return "", ""
	}
	t0, t1 := samples[0].at, samples[len(samples)-1].at
	span := max(t1.Sub(t0), time.Second)
	var b strings.Builder
	for i, s := range samples {
		if i > 0 {
			b.WriteByte(' ')
		}
		x := width * float64(s.at.Sub(t0)) / float64(span)
		y := height * (1 - s.fraction)
		fmt.Fprintf(&b, "%.1f,%.1f", x, y)
	}
	return b.String(), span.Round(time.Second).String()
}
