package dist

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io/fs"
	"math/rand/v2"
	"os"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"runtime/pprof"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/chesspuzzles/chesspuzzles/queens/count"
	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"
)

// BenchmarkResultsBucket measures what the embedded NATS server costs a coordinator that
// holds the results of a large job: CHESSPUZZLES_BUCKET=K stores K sealed results shaped
// like those of N = 28's join (job q28v102, half under <job>.<id>, half under
// <job>.<id>.v, as with --replicas 2) into the results bucket of a server started as the
// coordinator starts it, published asynchronously as dispatch.store does; then starts the
// server again on the same store directory (a restarted coordinator) and reads the job
// once from the start (readJob, a restart without a snapshot). It logs, after each step,
// the process's resident memory now and at its peak (VmRSS, VmHWM; the peak is reset
// between steps where the kernel allows), the Go heap in use, the store's size on disk
// and the step's time. CHESSPUZZLES_BUCKET_DIR keeps the store there (a directory that
// holds one already is only restarted and read: K must be what it holds);
// CHESSPUZZLES_BUCKET_PPROF=PREFIX writes heap profiles PREFIX-{stored,reading,read}.pb.gz;
// CHESSPUZZLES_BUCKET_IDLE=D waits D after storing and after the restart and logs the
// memory again; CHESSPUZZLES_BUCKET_LAYOUT=log stores the same values in a stream of one
// subject per job instead (the key in a header), to compare. It costs about 50 µs of CPU
// and 550 bytes of disk a key; one run whatever b.N (run it with -benchtime 1x).
func BenchmarkResultsBucket(b *testing.B) {
	env := os.Getenv("CHESSPUZZLES_BUCKET")
	if env == "" {
		b.Skip("CHESSPUZZLES_BUCKET=K stores K results in an embedded server's bucket and reports its memory: " +
			"CHESSPUZZLES_BUCKET=1000000 go test -run '^$' -bench ResultsBucket -benchtime 1x ./internal/work/dist/")
	}
	k, err := strconv.Atoi(env)
	if err != nil || k < 2 {
		b.Fatalf("CHESSPUZZLES_BUCKET must be a number of keys of at least 2, got %q", env)
	}
	dir := os.Getenv("CHESSPUZZLES_BUCKET_DIR")
	if dir == "" {
		dir = b.TempDir()
	}
	prof := os.Getenv("CHESSPUZZLES_BUCKET_PPROF")
	var log bool
	switch l := os.Getenv("CHESSPUZZLES_BUCKET_LAYOUT"); l {
	case "", "kv":
	case "log":
		log = true
	default:
		b.Fatalf("CHESSPUZZLES_BUCKET_LAYOUT must be kv (the results bucket, the default) or log (one subject per job), got %q", l)
	}
	for range b.N {
		bucketRun(b, dir, k, prof, log)
	}
}

// bucketJob is the job the benchmark's results belong to: N = 28 by the join's plan.
const bucketJob = "q28v102"

// bucketResult returns a result of task id of bucketJob with counters of the size a real
// task of N = 28 has (a task averages about 1.6·10¹¹ solutions), the identity and name
// of one of 200 workers, a task digest and a sealed nonce.
func bucketResult(s *Sealer, rng *rand.Rand, id int, verify bool, serial int) *Result {
	w := rng.IntN(200)
	user := fmt.Sprintf("rack%02d-node%03d", w/20, w)
	sol := 100_000_000_000 + rng.Uint64N(150_000_000_000)
	var digest [8]byte
	for i := range digest {
		digest[i] = byte(rng.UintN(256))
	}
	return &Result{
		Job: bucketJob, N: 28, PlanVersion: 102,
		Result: count.Result{ID: id, Solutions: sol, HalfTurn: rng.Uint64N(3) * 4, Nodes: 2_000_000 + rng.Uint64N(8_000_000),
			RowSets: 1 + rng.Uint64N(400), Stored: 10_000_000 + rng.Uint64N(90_000_000), PairTests: 1_000_000_000_000 + rng.Uint64N(9_000_000_000_000)},
		Worker:  user,
		Name:    user + ".cluster.example.org-local",
		Seconds: 600 + 3000*rng.Float64(),
		Task:    fmt.Sprintf("%x", digest),
		Nonce:   nonce(s, user, bucketJob, id, verify, strconv.FormatInt(time.Now().UnixNano(), 36)+"-"+strconv.Itoa(serial)),
	}
}

// bucketServer starts the embedded server on dir as the coordinator does (its authority,
// StartServer, the coordinator's credentials, setup; with log, the log layout's stream
// too) and returns its JetStream context, its results bucket and the function that stops
// both.
func bucketServer(b *testing.B, ctx context.Context, dir string, errs *atomic.Int64, log bool) (jetstream.JetStream, jetstream.KeyValue, func()) {
	b.Helper()
	auth, err := LoadOrCreateAuthority(dir)
	if err != nil {
		b.Fatal(err)
	}
	srv, err := StartServer(ServerOptions{Listen: "127.0.0.1:0", StoreDir: dir, Authority: auth})
	if err != nil {
		b.Fatal(err)
	}
	creds, err := auth.CoordinatorCreds()
	if err != nil {
		b.Fatal(err)
	}
	nc, err := Connect(ctx, ConnectOptions{URL: srv.URL(), UserCreds: creds, Name: "chesspuzzles coordinator"})
	if err != nil {
		b.Fatal(err)
	}
	js, err := jetstream.New(nc, jetstream.WithPublishAsyncErrHandler(func(jetstream.JetStream, *nats.Msg, error) { errs.Add(1) }))
	if err != nil {
		b.Fatal(err)
	}
	results, _, err := setup(ctx, js)
	if err != nil {
		b.Fatal(err)
	}
	if !log {
		return js, results, func() { nc.Close(); srv.Shutdown() }
	}
	if _, err := js.CreateOrUpdateStream(ctx, jetstream.StreamConfig{Name: bucketLogStream, Subjects: []string{bucketLogStream + ".>"}, Storage: jetstream.FileStorage}); err != nil {
		b.Fatal(err)
	}
	return js, results, func() { nc.Close(); srv.Shutdown() }
}

func bucketRun(b *testing.B, dir string, k int, prof string, log bool) {
	ctx := context.Background()
	var errs atomic.Int64
	m0 := serverMemory(dir)
	bucketSay("before the server: %s", m0)

	if _, err := os.Stat(filepath.Join(dir, "jetstream")); err == nil {
		bucketSay("%s holds a store: not storing, only restarting", dir)
	} else {
		bucketStore(b, ctx, dir, k, prof, m0, &errs, log)
	}
	start := time.Now()
	js, results, stop := bucketServer(b, ctx, dir, &errs, log)
	defer stop()
	took := time.Since(start)
	m2 := serverMemory(dir)
	bucketSay("restarted in %.1f s (%s): %s", took.Seconds(), bucketStream(b, ctx, js, log), m2)
	b.ReportMetric(float64(m2.hwm)/1024, "restart-peak-MiB")
	bucketIdle(b, dir, "restarted")

	resetPeakRSS()
	start = time.Now()
	rev, err := lastJobRevision(ctx, js, bucketJob)
	bucketSay("the job's last revision %d (err %v) in %.1f s", rev, err, time.Since(start).Seconds())
	// As the coordinator reads (a context with no deadline: each JetStream request then
	// has the client's default five seconds), and, if that fails, with an hour.
	s := NewSealer("bucket-benchmark")
	half := func() {
		bucketSay("half read: %s", serverMemory(dir))
		bucketHeap(b, prof, "reading")
	}
	seen, took, err := bucketRead(ctx, js, results, s, k, half, log)
	if err != nil {
		bucketSay("reading the job as the coordinator does failed after %.1f s: %v; again with an hour's deadline", took.Seconds(), err)
		hctx, cancel := context.WithTimeout(ctx, time.Hour)
		defer cancel()
		if seen, took, err = bucketRead(hctx, js, results, s, k, half, log); err != nil {
			b.Fatal(err)
		}
	}
	if seen != k {
		b.Fatalf("read %d entries, stored %d", seen, k)
	}
	m3 := serverMemory(dir)
	bucketSay("read the job once in %.1f s: %s", took.Seconds(), m3)
	b.ReportMetric(float64(m3.hwm)/1024, "read-peak-MiB")
	bucketHeap(b, prof, "read")
}

// The stream and subject of the layout the benchmark compares with the results bucket:
// every result of a job on one subject, its key in a header, read back in order.
const (
	bucketLogStream  = "bucketlog"
	bucketLogSubject = bucketLogStream + "." + bucketJob
)

// bucketReadLog reads the k results of the log layout in order with an ordered consumer.
func bucketReadLog(ctx context.Context, js jetstream.JetStream, k int, fn func(key string, data []byte) error) error {
	c, err := js.OrderedConsumer(ctx, bucketLogStream, jetstream.OrderedConsumerConfig{FilterSubjects: []string{bucketLogSubject}})
	if err != nil {
		return err
	}
	it, err := c.Messages()
	if err != nil {
		return err
	}
	defer it.Stop()
	for range k {
		m, err := it.Next()
		if err != nil {
			return err
		}
		if err := fn(m.Headers().Get("Key"), m.Data()); err != nil {
			return err
		}
	}
	return nil
}

// bucketRead reads the job once with readJob, checking each seal, and returns how many
// entries it read and how long it took.
func bucketRead(ctx context.Context, js jetstream.JetStream, results jetstream.KeyValue, s *Sealer, k int, half func(), log bool) (int, time.Duration, error) {
	start, seen := time.Now(), 0
	if log {
		err := bucketReadLog(ctx, js, k, func(key string, data []byte) error {
			if seen == k/2 {
				half()
			}
			if _, _, _, err := decodeResult(s, key, data); err != nil {
				return err
			}
			seen++
			return nil
		})
		return seen, time.Since(start), err
	}
	err := readJob(ctx, js, results, bucketJob, 0, func(e jetstream.KeyValueEntry) error {
		if seen == 0 {
			bucketSay("the first entry after %.1f s", time.Since(start).Seconds())
		}
		if seen == k/2 {
			half()
		}
		if _, _, _, err := decodeResult(s, e.Key(), e.Value()); err != nil {
			return err
		}
		seen++
		return nil
	})
	return seen, time.Since(start), err
}

// bucketStore starts a server on dir, stores k results and stops it.
func bucketStore(b *testing.B, ctx context.Context, dir string, k int, prof string, m0 serverMem, errs *atomic.Int64, log bool) {
	js, _, stop := bucketServer(b, ctx, dir, errs, log)
	resetPeakRSS()
	s := NewSealer("bucket-benchmark")
	rng := rand.New(rand.NewPCG(28, 102))
	start, stalls := time.Now(), 0
	for i := range k {
		id := i / 2
		key := resultKey(bucketJob, id)
		if i%2 == 1 {
			key = verifyKey(bucketJob, id)
		}
		data, err := sealValue(s, key, bucketResult(s, rng, id, i%2 == 1, i))
		if err != nil {
			b.Fatal(err)
		}
		if i == 0 {
			bucketSay("a value: %d bytes under %s: %s", len(data), key, data)
		}
		// A server slower than the stores makes PublishAsync give up after a while
		// (dispatch.store would log the error, and the task be computed again): wait.
		for {
			var err error
			if log {
				_, err = js.PublishMsgAsync(&nats.Msg{Subject: bucketLogSubject, Header: nats.Header{"Key": []string{key}}, Data: data})
			} else {
				_, err = js.PublishAsync("$KV."+ResultsBucket+"."+key, data)
			}
			if err == nil {
				break
			}
			if !errors.Is(err, jetstream.ErrTooManyStalledMsgs) {
				b.Fatalf("storing %s: %v", key, err)
			}
			stalls++
		}
	}
	select {
	case <-js.PublishAsyncComplete():
	case <-time.After(10 * time.Minute):
		b.Fatal("the server has not confirmed the stores within 10 minutes")
	}
	took := time.Since(start)
	if n := errs.Load(); n > 0 {
		b.Fatalf("%d stores failed", n)
	}
	st := bucketStream(b, ctx, js, log)
	m1 := serverMemory(dir)
	bucketSay("stored %d keys in %.1f s (%d stalls; %s): %s", k, took.Seconds(), stalls, st, m1)
	bucketIdle(b, dir, "stored")
	b.ReportMetric(float64(m1.rss-m0.rss)*1024/float64(k), "rss-B/key")
	b.ReportMetric(float64(m1.hwm)/1024, "stored-peak-MiB")
	b.ReportMetric(float64(m1.disk)/float64(k), "disk-B/key")
	bucketHeap(b, prof, "stored")
	stop()
	runtime.GC()
	debug.FreeOSMemory()
	resetPeakRSS()
	bucketSay("server stopped: %s", serverMemory(dir))
}

// bucketSay prints a line of the benchmark's report to standard error as it comes (a
// benchmark's own log keeps only its last ten lines).
func bucketSay(format string, args ...any) {
	fmt.Fprintf(os.Stderr, "bucket: "+format+"\n", args...)
}

// bucketIdle waits CHESSPUZZLES_BUCKET_IDLE (a duration; none if unset), as a coordinator
// waits for results, and logs the memory then: the server drops a block's subject state
// after two idle minutes.
func bucketIdle(b *testing.B, dir, after string) {
	env := os.Getenv("CHESSPUZZLES_BUCKET_IDLE")
	if env == "" {
		return
	}
	d, err := time.ParseDuration(env)
	if err != nil {
		b.Fatalf("CHESSPUZZLES_BUCKET_IDLE must be a duration such as 150s, got %q", env)
	}
	time.Sleep(d)
	bucketSay("%s, then idle %v: %s", after, d, serverMemory(dir))
}

// serverMem is the process's memory and the store's size at one time.
type serverMem struct {
	rss, hwm uint64 // VmRSS and VmHWM, kB
	heap     uint64 // Go heap in use after a collection, bytes
	disk     int64  // bytes of the files under the store directory
}

func (m serverMem) String() string {
	return fmt.Sprintf("VmRSS %.0f MiB, VmHWM %.0f MiB, Go heap in use %.0f MiB, store on disk %.0f MiB",
		float64(m.rss)/1024, float64(m.hwm)/1024, float64(m.heap)/(1<<20), float64(m.disk)/(1<<20))
}

func serverMemory(dir string) serverMem {
	runtime.GC()
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	m := serverMem{heap: ms.HeapInuse}
	if f, err := os.Open("/proc/self/status"); err == nil {
		sc := bufio.NewScanner(f)
		for sc.Scan() {
			name, v, ok := strings.Cut(sc.Text(), ":")
			if !ok {
				continue
			}
			kb, _ := strconv.ParseUint(strings.TrimSuffix(strings.TrimSpace(v), " kB"), 10, 64)
			switch name {
			case "VmRSS":
				m.rss = kb
			case "VmHWM":
				m.hwm = kb
			}
		}
		f.Close()
	}
	_ = filepath.WalkDir(filepath.Join(dir, "jetstream"), func(_ string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			if fi, err := d.Info(); err == nil {
				m.disk += fi.Size()
			}
		}
		return nil
	})
	return m
}

// resetPeakRSS resets the process's VmHWM to its VmRSS (Linux 4.0 on; elsewhere it does
// nothing and the peak stays the process's).
func resetPeakRSS() { _ = os.WriteFile("/proc/self/clear_refs", []byte("5"), 0) }

// bucketStream describes the results bucket's stream.
func bucketStream(b *testing.B, ctx context.Context, js jetstream.JetStream, log bool) string {
	name := "KV_" + ResultsBucket
	if log {
		name = bucketLogStream
	}
	st, err := js.Stream(ctx, name)
	if err != nil {
		b.Fatal(err)
	}
	s := st.CachedInfo().State
	return fmt.Sprintf("stream: %d messages, %d subjects, %.0f MiB", s.Msgs, s.NumSubjects, float64(s.Bytes)/(1<<20))
}

func bucketHeap(b *testing.B, prefix, step string) {
	if prefix == "" {
		return
	}
	f, err := os.Create(prefix + "-" + step + ".pb.gz")
	if err != nil {
		b.Fatal(err)
	}
	defer f.Close()
	if err := pprof.Lookup("heap").WriteTo(f, 0); err != nil {
		b.Fatal(err)
	}
}
