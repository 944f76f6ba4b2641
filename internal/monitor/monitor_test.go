package monitor

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"math/big"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chesspuzzles/chesspuzzles/internal/work"
	"github.com/chesspuzzles/chesspuzzles/internal/work/cluster"
	dto "github.com/prometheus/client_model/go"
	"github.com/prometheus/common/expfmt"
	"github.com/prometheus/common/model"
)

// monitorWith returns a Monitor of job q28v1 in a new state directory whose history holds
// ids identities, identity i with 1000+i results, i%7 verified, one refused every tenth,
// the last quarantined; the status of a run of tasks tasks with done of them done; 12
// first and 3 second computations in flight; a store of 123456789 bytes.
func monitorWith(t testing.TB, ids, tasks, done int) *Monitor {
	t.Helper()
	dir := t.TempDir()
	h := map[string]*cluster.IdentityHistory{}
	for i := range ids {
		h[fmt.Sprintf("w%04d", i)] = &cluster.IdentityHistory{Tasks: 1000 + i, Verified: i % 7, Refused: boolInt(i%10 == 0), Quarantined: i == ids-1}
	}
	data, err := json.Marshal(cluster.History{"q28v1": h})
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, cluster.HistoryFile), data, 0o600); err != nil {
		t.Fatal(err)
	}
	m := New(dir)
	m.Update("q28v1", work.Status{N: 28, Tasks: tasks, Done: done / 2, Solutions: big.NewInt(0)})
	m.Update("q28v1", work.Status{N: 28, Tasks: tasks, Done: done, Resumed: done / 2, Solutions: big.NewInt(0),
		Elapsed: time.Hour, NodesRun: 36e11, CostTotal: 1000, CostRun: 100, CostLeft: 400})
	m.refreshHistory()
	m.InFlight(12, 3)
	m.SetStore(func(context.Context) (uint64, error) { return 123456789, nil })
	m.refreshStore(context.Background())
	return m
}

func boolInt(b bool) int {
	if b {
		return 1
	}
	return 0
}

// scrape gets /metrics of m and parses it with the Prometheus library's own parser.
func scrape(t testing.TB, m *Monitor) (map[string]*dto.MetricFamily, int) {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	t.Cleanup(cancel)
	addr, err := m.Serve(ctx, "127.0.0.1:0", t.Logf)
	if err != nil {
		t.Fatal(err)
	}
	resp, err := http.Get("http://" + addr.String() + "/metrics")
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	p := expfmt.NewTextParser(model.UTF8Validation)
	fams, err := p.TextToMetricFamilies(strings.NewReader(string(body)))
	if err != nil {
		t.Fatalf("parsing the scrape: %v\n%s", err, body)
	}
	return fams, len(body)
}

// value is the gauge of family name whose labels include want.
func value(t testing.TB, fams map[string]*dto.MetricFamily, name string, want map[string]string) float64 {
	t.Helper()
	f := fams[name]
	if f == nil {
		t.Fatalf("no metric %s in the scrape", name)
		return 0
	}
next:
	for _, m := range f.Metric {
		got := map[string]string{}
		for _, l := range m.Label {
			got[l.GetName()] = l.GetValue()
		}
		for k, v := range want {
			if got[k] != v {
				continue next
			}
		}
		return m.GetGauge().GetValue()
	}
	t.Fatalf("no %s with labels %v", name, want)
	return 0
}

// TestMetricsScrape: the coordinator's /metrics parse with Prometheus's text parser and say
// what the run and the history say: tasks done, left and in flight, the store's size, the rate, the time left,
// results by identity for the top 20 and the others summed, the checks' outcomes, the
// quarantined identities, and the process's memory.
func TestMetricsScrape(t *testing.T) {
	const ids, tasks, done = 45, 17042024, 4000000
	m := monitorWith(t, ids, tasks, done)
	fams, size := scrape(t, m)
	job := map[string]string{"count_job": "q28v1"}
	if got := value(t, fams, "chesspuzzles_tasks", map[string]string{"count_job": "q28v1", "state": "done"}); got != done {
		t.Errorf("tasks done = %v, want %d", got, done)
	}
	if got := value(t, fams, "chesspuzzles_tasks", map[string]string{"state": "left"}); got != tasks-done {
		t.Errorf("tasks left = %v, want %d", got, tasks-done)
	}
	for comp, want := range map[string]float64{"first": 12, "second": 3} {
		if got := value(t, fams, "chesspuzzles_tasks_in_flight", map[string]string{"count_job": "q28v1", "computation": comp}); got != want {
			t.Errorf("%s computations in flight = %v, want %v", comp, got, want)
		}
	}
	if got := value(t, fams, "chesspuzzles_store_bytes", nil); got != 123456789 {
		t.Errorf("store bytes = %v, want 123456789", got)
	}
	if got := value(t, fams, "chesspuzzles_nodes_per_second", job); got != 1e9 {
		t.Errorf("rate = %v nodes/s, want 1e9 (3.6e12 nodes in an hour)", got)
	}
	if got := value(t, fams, "chesspuzzles_eta_seconds", job); got != 4*3600 {
		t.Errorf("time left = %v s, want 4 hours (400 of cost left at an hour per 100)", got)
	}
	if got := value(t, fams, "chesspuzzles_done_ratio", job); got != 0.6 {
		t.Errorf("done ratio = %v, want 0.6 (400 of 1000 left)", got)
	}
	// The top 20 by results are w0044 … w0025 (1044 … 1025); the 25 others sum 1000·25 + 0+…+24.
	series := fams["chesspuzzles_identity_results"].Metric
	if len(series) != TopIdentities+1 {
		t.Errorf("%d identity series, want %d (the top ones and the others)", len(series), TopIdentities+1)
	}
	if got := value(t, fams, "chesspuzzles_identity_results", map[string]string{"identity": "w0044"}); got != 1044 {
		t.Errorf("results of w0044 = %v, want 1044", got)
	}
	if got := value(t, fams, "chesspuzzles_identity_results", map[string]string{"identity": "others"}); got != 25*1000+24*25/2 {
		t.Errorf("results of the others = %v, want %d", got, 25*1000+24*25/2)
	}
	verified, refused := 0, 0
	for i := range ids {
		verified += i % 7
		refused += boolInt(i%10 == 0)
	}
	for outcome, want := range map[string]int{"verified": verified, "disagreed": 0, "refused": refused} {
		if got := value(t, fams, "chesspuzzles_results", map[string]string{"outcome": outcome}); got != float64(want) {
			t.Errorf("results %s = %v, want %d", outcome, got, want)
		}
	}
	if got := value(t, fams, "chesspuzzles_quarantined_identities", job); got != 1 {
		t.Errorf("quarantined = %v, want 1", got)
	}
	if got := value(t, fams, "chesspuzzles_identities", job); got != ids {
		t.Errorf("identities = %v, want %d", got, ids)
	}
	if fams["process_resident_memory_bytes"] == nil || fams["go_memstats_heap_inuse_bytes"] == nil {
		t.Error("the scrape has no process_resident_memory_bytes or go_memstats_heap_inuse_bytes")
	}
	last := value(t, fams, "chesspuzzles_last_result_timestamp_seconds", job)
	if age := time.Since(time.UnixMilli(int64(last * 1000))); age < 0 || age > time.Minute {
		t.Errorf("last result %v ago, want just now", age)
	}
	t.Logf("a scrape of %d bytes", size)
}

// TestStatusPage: the page at / shows the same figures, the top identities and a plot.
func TestStatusPage(t *testing.T) {
	m := monitorWith(t, 30, 1000, 250)
	m.samples = append(m.samples, sample{at: m.samples[0].at.Add(time.Minute), done: 500, fraction: 0.5})
	rec := httptest.NewRecorder()
	m.statusPage(rec, httptest.NewRequest("GET", "/", nil))
	page := rec.Body.String()
	for _, want := range []string{"job q28v1 (N = 28)", "250 of 1000", "60.0 %", "1e&#43;09 nodes/s", "4h0m0s", "<polyline", "w0029", "</html>"} {
		if !strings.Contains(page, want) {
			t.Errorf("the status page lacks %q:\n%s", want, page)
		}
	}
	if strings.Contains(page, "w0009<") {
		t.Errorf("the status page names w0009, not among the top %d", TopIdentities)
	}
}

// BenchmarkMetricsScrape is one scrape of /metrics at N = 28's plan (17,042,024 tasks) with
// 1,000 identities: its time and its size (bytes/scrape). BenchmarkMetricsHistory is the
// background read of those identities' history, every historyEvery.
func BenchmarkMetricsScrape(b *testing.B) {
	m := monitorWith(b, 1000, 17042024, 8000000)
	srv := httptest.NewServer(m.handler())
	defer srv.Close()
	var size int
	for b.Loop() {
		resp, err := http.Get(srv.URL + "/metrics")
		if err != nil {
			b.Fatal(err)
		}
		n, _ := io.Copy(io.Discard, resp.Body)
		resp.Body.Close()
		size = int(n)
	}
	b.ReportMetric(float64(size), "bytes/scrape")
	if size > 64<<10 {
		b.Errorf("a scrape of %d bytes, over 64 KiB", size)
	}
}

func BenchmarkMetricsHistory(b *testing.B) {
	m := monitorWith(b, 1000, 17042024, 8000000)
	for b.Loop() {
		m.histMod = time.Time{}
		m.refreshHistory()
	}
}
