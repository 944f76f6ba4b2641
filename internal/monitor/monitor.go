// Package monitor is what a distributed count's coordinator shows an operator who watches
// it for weeks: Prometheus metrics in the text format at /metrics, made with the Prometheus
// Go client, and a small HTML status page at / with the same figures and a plot of the
// progress (inline SVG; no script, no build step).
//
// Usage, beside a count whose Progress, InFlight and Store it is given:
//
//	m := monitor.New(stateDir)
//	addr, err := m.Serve(ctx, "127.0.0.1:9464", logf)
//	… opts.Progress = func(s work.Status) { m.Update(job, s) }
//	… opts.InFlight = m.InFlight
//	… opts.Store = m.SetStore
//
// Its figures come from the count's status, from the identities' history the coordinator
// writes in its state directory every 5 seconds and from the server's size of the
// results (both read again in the background), and from the process itself; a scrape
// reads nothing from disk or the network and costs the same whatever the plan's size and
// the number of identities (the 20 with the most results are named, the others summed).
package monitor

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/chesspuzzles/chesspuzzles/internal/work"
	"github.com/chesspuzzles/chesspuzzles/internal/work/cluster"
	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/collectors"
	"github.com/prometheus/client_golang/prometheus/promhttp"
)

// TopIdentities is how many identities the metrics name one by one, those with the most
// results; the others are summed under identity="others", so that a scrape stays the same
// size with ten identities or ten thousand.
const TopIdentities = 20

// plotEvery is the time between two points of the progress plot; plotSamples of them
// (two days) are kept, the oldest dropped.
const (
	plotEvery   = 15 * time.Second
	plotSamples = 11520
)

// Monitor is what a coordinator shows an operator watching a long count: Prometheus
// metrics in the text format at /metrics, and a status page at / with the same figures and
// a plot of the progress. Its cost does not grow with the plan: it keeps the last status
// the run reported, a sample of it every 15 seconds, and reads the identities' history
// (DIR/history.json, written every 5 seconds by the run) every historyEvery in the
// background, when it changed.
type Monitor struct {
	dir string // the coordinator's state directory: history and snapshot

	mu       sync.Mutex
	store    func(context.Context) (uint64, error) // the store's size; nil: not shown
	first    int                                   // tasks in flight: first computations
	second   int                                   // and second ones
	flying   bool                                  // whether InFlight was told
	job      string
	st       work.Status
	last     time.Time // when a result last came (Done grew)
	samples  []sample
	histMod  time.Time // the history file's time when read
	ids      []identityRow
	total    cluster.IdentityHistory // summed over every identity
	quar     int                     // identities quarantined
	storeLen uint64
	storeOK  bool

	reg *prometheus.Registry
}

// sample is a point of the progress plot.
type sample struct {
	at       time.Time
	done     int
	fraction float64
}

// identityRow is one identity's record in the job, by name.
type identityRow struct {
	name string
	cluster.IdentityHistory
}

// New returns the Monitor of a coordinator whose state directory is dir.
func New(dir string) *Monitor {
	m := &Monitor{dir: dir, reg: prometheus.NewRegistry()}
	m.reg.MustRegister(m, collectors.NewProcessCollector(collectors.ProcessCollectorOpts{}), collectors.NewGoCollector())
	return m
}

// update records s, the status of job after a result (a Count's Progress).
func (m *Monitor) Update(job string, s work.Status) {
	now := time.Now()
	m.mu.Lock()
	defer m.mu.Unlock()
	if s.Done != m.st.Done || m.last.IsZero() {
		m.last = now
	}
	m.job, m.st = job, s
	if n := len(m.samples); n == 0 || now.Sub(m.samples[n-1].at) >= plotEvery || s.Done == s.Tasks {
		if n >= plotSamples {
			m.samples = slices.Delete(m.samples, 0, n/2)
		}
		m.samples = append(m.samples, sample{at: now, done: s.Done, fraction: s.Fraction()})
	}
}

// historyEvery is how often the Monitor reads the identities' history again (the run
// writes it every 5 seconds): off the path of a scrape, which a history of thousands of
// identities would slow by milliseconds.
const historyEvery = 5 * time.Second

// refreshHistory reads the identities' records of the job again if the file changed since
// it was last read. It parses the file without holding m.mu.
func (m *Monitor) refreshHistory() {
	m.mu.Lock()
	dir, job, mod := m.dir, m.job, m.histMod
	m.mu.Unlock()
	if dir == "" || job == "" {
		return
	}
	fi, err := os.Stat(filepath.Join(dir, cluster.HistoryFile))
	if err != nil || fi.ModTime().Equal(mod) {
		return
	}
	h, err := cluster.ReadHistory(dir)
	if err != nil {
		return
	}
	var ids []identityRow
	var total cluster.IdentityHistory
	quar := 0
	for name, r := range h[job] {
		ids = append(ids, identityRow{name, *r})
		total.Tasks += r.Tasks
		total.Verified += r.Verified
		total.Disagreements += r.Disagreements
		total.Refused += r.Refused
		if r.Quarantined {
			quar++
		}
	}
	slices.SortFunc(ids, func(a, b identityRow) int {
		if a.Tasks != b.Tasks {
			return b.Tasks - a.Tasks
		}
		return strings.Compare(a.name, b.name)
	})
	m.mu.Lock()
	m.histMod, m.ids, m.total, m.quar = fi.ModTime(), ids, total, quar
	m.mu.Unlock()
}

// InFlight records the tasks leased to workers and not yet handed in: first computations
// and second ones (a count's InFlight, told every quarter second).
func (m *Monitor) InFlight(first, second int) {
	m.mu.Lock()
	m.first, m.second, m.flying = first, second, true
	m.mu.Unlock()
}

// SetStore gives the function that returns the bytes the server holds of the results (a
// count's Store, once it is connected): asked every historyEvery in the background, never
// during a scrape.
func (m *Monitor) SetStore(bytes func(context.Context) (uint64, error)) {
	m.mu.Lock()
	m.store = bytes
	m.mu.Unlock()
}

// refreshStore asks the store's size again, without holding m.mu while it asks; a store
// that cannot say keeps the last size it said.
func (m *Monitor) refreshStore(ctx context.Context) {
	m.mu.Lock()
	store := m.store
	m.mu.Unlock()
	if store == nil {
		return
	}
	sctx, cancel := context.WithTimeout(ctx, historyEvery)
	defer cancel()
	n, err := store(sctx)
	if err != nil {
		return
	}
	m.mu.Lock()
	m.storeLen, m.storeOK = n, true
	m.mu.Unlock()
}

// storeBytes returns the size of the results' store last read, if any; m.mu is held.
func (m *Monitor) storeBytes() (uint64, bool) { return m.storeLen, m.storeOK }

// snapshotAge is the time since the job's snapshot was written, if there is one.
func (m *Monitor) snapshotAge() (time.Duration, bool) {
	if m.dir == "" || m.job == "" {
		return 0, false
	}
	fi, err := os.Stat(filepath.Join(m.dir, m.job+".snapshot"))
	if err != nil {
		return 0, false
	}
	return time.Since(fi.ModTime()), true
}

// descs holds the descriptions of the monitor's metrics, made on first use (Describe,
// Collect): a command that never serves /metrics does not make them at start.
type descs struct {
	descTasks, descFrac, descRate, descETA, descLast, descByID, descIDs, descCheck, descQuar, descStore, descFly, descSnap *prometheus.Desc
}

var metricDescs = sync.OnceValue(func() *descs {
	return &descs{
		descTasks: prometheus.NewDesc("chesspuzzles_tasks", "Tasks of the job by state: done (with a result), left (without).", []string{"count_job", "state"}, nil),
		descFrac:  prometheus.NewDesc("chesspuzzles_done_ratio", "The share of the job's estimated work done, 0 to 1.", []string{"count_job"}, nil),
		descRate:  prometheus.NewDesc("chesspuzzles_nodes_per_second", "Search nodes a second over this run's results (0 before the first).", []string{"count_job"}, nil),
		descETA:   prometheus.NewDesc("chesspuzzles_eta_seconds", "Estimated time left, from the work still to do at this run's rate (absent before the first result).", []string{"count_job"}, nil),
		descLast:  prometheus.NewDesc("chesspuzzles_last_result_timestamp_seconds", "When the job last got a new result (Unix time): a stalled count stops moving it.", []string{"count_job"}, nil),
		descByID:  prometheus.NewDesc("chesspuzzles_identity_results", "Results accepted from each identity in the job (first and second computations); the identities beyond the top 20 are summed as identity=\"others\".", []string{"count_job", "identity"}, nil),
		descIDs:   prometheus.NewDesc("chesspuzzles_identities", "Identities with a record in the job.", []string{"count_job"}, nil),
		descCheck: prometheus.NewDesc("chesspuzzles_results", "Results of the job by what the checks said: verified (agreed with another computation), disagreed, refused.", []string{"count_job", "outcome"}, nil),
		descQuar:  prometheus.NewDesc("chesspuzzles_quarantined_identities", "Identities shown wrong by a disagreement in the job: their results dropped, no task given them.", []string{"count_job"}, nil),
		descStore: prometheus.NewDesc("chesspuzzles_store_bytes", "Bytes the NATS server holds of the results stream and the jobs bucket (JetStream's stream state, one copy; the embedded server and a cluster alike).", nil, nil),
		descFly:   prometheus.NewDesc("chesspuzzles_tasks_in_flight", "Tasks of the job leased to workers and not yet handed in, by computation: first, or second (a verification).", []string{"count_job", "computation"}, nil),
		descSnap:  prometheus.NewDesc("chesspuzzles_snapshot_age_seconds", "Time since the coordinator last wrote its snapshot of the job.", []string{"count_job"}, nil),
	}
})

// Describe is prometheus.Collector's.
func (m *Monitor) Describe(ch chan<- *prometheus.Desc) {
	ds := metricDescs()
	for _, d := range []*prometheus.Desc{ds.descTasks, ds.descFrac, ds.descRate, ds.descETA, ds.descLast, ds.descByID, ds.descIDs, ds.descCheck, ds.descQuar, ds.descStore, ds.descSnap, ds.descFly} {
		ch <- d
	}
}

// Collect is prometheus.Collector's: a fixed number of series, whatever the plan's size
// and the number of identities.
func (m *Monitor) Collect(ch chan<- prometheus.Metric) {
	ds := metricDescs()
	m.mu.Lock()
	defer m.mu.Unlock()
	gauge := func(d *prometheus.Desc, v float64, labels ...string) {
		ch <- prometheus.MustNewConstMetric(d, prometheus.GaugeValue, v, labels...)
	}
	if b, ok := m.storeBytes(); ok {
		gauge(ds.descStore, float64(b))
	}
	if m.job == "" {
		return
	}
	s, job := m.st, m.job
	gauge(ds.descTasks, float64(s.Done), job, "done")
	gauge(ds.descTasks, float64(s.Tasks-s.Done), job, "left")
	if m.flying {
		gauge(ds.descFly, float64(m.first), job, "first")
		gauge(ds.descFly, float64(m.second), job, "second")
	}
	gauge(ds.descFrac, s.Fraction(), job)
	rate := 0.0
	if s.Done > s.Resumed {
		rate = s.Rate()
	}
	gauge(ds.descRate, rate, job)
	if eta, ok := s.ETA(); ok {
		gauge(ds.descETA, eta.Seconds(), job)
	}
	gauge(ds.descLast, float64(m.last.UnixMilli())/1000, job)
	if age, ok := m.snapshotAge(); ok {
		gauge(ds.descSnap, age.Seconds(), job)
	}
	gauge(ds.descIDs, float64(len(m.ids)), job)
	others := 0
	for i, r := range m.ids {
		if i < TopIdentities {
			gauge(ds.descByID, float64(r.Tasks), job, r.name)
		} else {
			others += r.Tasks
		}
	}
	if len(m.ids) > TopIdentities {
		gauge(ds.descByID, float64(others), job, "others")
	}
	gauge(ds.descCheck, float64(m.total.Verified), job, "verified")
	gauge(ds.descCheck, float64(m.total.Disagreements), job, "disagreed")
	gauge(ds.descCheck, float64(m.total.Refused), job, "refused")
	gauge(ds.descQuar, float64(m.quar), job)
}

// handler serves the metrics at /metrics and the status page at /.
func (m *Monitor) handler() http.Handler {
	mux := http.NewServeMux()
	mux.Handle("GET /metrics", promhttp.HandlerFor(m.reg, promhttp.HandlerOpts{Timeout: 5 * time.Second}))
	mux.HandleFunc("GET /{$}", m.statusPage)
	return mux
}

// serve serves the metrics at /metrics and the status page at / on addr until ctx is
// done. It returns once it listens, with the address it listens on, or the error of
// listening.
func (m *Monitor) Serve(ctx context.Context, addr string, logf func(string, ...any)) (net.Addr, error) {
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return nil, fmt.Errorf("metrics: cannot listen on %q: %w", addr, err)
	}
	srv := &http.Server{Handler: m.handler(), ReadHeaderTimeout: 5 * time.Second, WriteTimeout: 10 * time.Second}
	go func() {
		if err := srv.Serve(ln); err != nil && !errors.Is(err, http.ErrServerClosed) {
			logf("metrics: %v", err)
		}
	}()
	go func() {
		t := time.NewTicker(historyEvery)
		defer t.Stop()
		for {
			m.refreshHistory()
			m.refreshStore(ctx)
			select {
			case <-ctx.Done():
				srv.Close()
				return
			case <-t.C:
			}
		}
	}()
	return ln.Addr(), nil
}
