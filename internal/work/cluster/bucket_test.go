package cluster

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io/fs"
	"math/big"
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

	"github.com/chesspuzzles/chesspuzzles/internal/work"
	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"
)

// BenchmarkResultsBucket measures what the embedded NATS server cost a coordinator that held
// the results of a large job in the key-value bucket of the builds before the results stream
// (oldResultsBucket, History 8, a key a result), the figure before; BenchmarkResultsStream
// measures the same with ResultsStream, as setup() makes it now. CHESSPUZZLES_BUCKET=K stores K
// sealed results shaped like those of N = 28's join (job q28v102, half under <job>.<id>, half
// under <job>.<id>.v, as with --replicas 2) into a server started as the coordinator starts it,
// published asynchronously as dispatch.store does; then starts the server again on the same
// store directory (a restarted coordinator) and reads the job once from the start (a restart
// without a snapshot); the stream's run then deletes 1,000 results chosen at random, one at a
// time. It prints, after each step, the process's resident memory now and at its peak (VmRSS,
// VmHWM; the peak is reset between steps where the kernel allows), the Go heap in use, the
// store's size on disk and the step's time. The stream's run then deletes, in stream order,
// every fourth of the first 400,000 results (a quarantine's pattern), and prints the memory
// while and 10, 30 and 60 s after each kind of delete. CHESSPUZZLES_BUCKET_DIR keeps the store
// there (a directory that holds one already is only restarted and read: K must be what it
// holds); CHESSPUZZLES_BUCKET_PPROF=PREFIX writes heap profiles
// PREFIX-{stored,reading,read,deleted,quarantine}.pb.gz; CHESSPUZZLES_BUCKET_IDLE=D waits D
// after storing and after the restart and prints the memory again. It costs about 50 µs of CPU
// and 550 bytes of disk a result; one run whatever b.N (run it with -benchtime 1x).
func BenchmarkResultsBucket(b *testing.B) { benchResults(b, false) }

// BenchmarkResultsStream is BenchmarkResultsBucket with the results stream.
func BenchmarkResultsStream(b *testing.B) { benchResults(b, true) }

func benchResults(b *testing.B, stream bool) {
	env := os.Getenv("CHESSPUZZLES_BUCKET")
	if env == "" {
		b.Skip("CHESSPUZZLES_BUCKET=K stores K results in an embedded server and reports its memory: " +
			"CHESSPUZZLES_BUCKET=1000000 go test -run '^$' -bench 'ResultsBucket|ResultsStream' -benchtime 1x ./internal/work/cluster/")
	}
	k, err := strconv.Atoi(env)
	if err != nil || k < 2 {
		b.Fatalf("CHESSPUZZLES_BUCKET must be a number of results of at least 2, got %q", env)
	}
	dir := os.Getenv("CHESSPUZZLES_BUCKET_DIR")
	if dir == "" {
		dir = b.TempDir()
	}
	prof := os.Getenv("CHESSPUZZLES_BUCKET_PPROF")
	for range b.N {
		bucketRun(b, dir, k, prof, stream)
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
		Job: bucketJob,
		Result: work.Result{ID: id, Count: new(big.Int).SetUint64(sol), Counters: []work.Counter{{Name: "half_turn", Value: rng.Uint64N(3) * 4}, {Name: "quarter_turn"},
			{Name: "nodes", Value: 2_000_000 + rng.Uint64N(8_000_000)}, {Name: "row_sets", Value: 1 + rng.Uint64N(400)},
			{Name: "stored", Value: 10_000_000 + rng.Uint64N(90_000_000)}, {Name: "pair_tests", Value: 1_000_000_000_000 + rng.Uint64N(9_000_000_000_000)}}},
		Worker:  user,
		Name:    user + ".cluster.example.org-local",
		Seconds: 600 + 3000*rng.Float64(),
		Task:    fmt.Sprintf("%x", digest),
		Nonce:   nonce(s, user, bucketJob, id, verify, strconv.FormatInt(time.Now().UnixNano(), 36)+"-"+strconv.Itoa(serial)),
	}
}

// A bucketStore is where a run stores its results: the old bucket or the results stream.
type bucketStore struct {
	js  jetstream.JetStream
	kv  jetstream.KeyValue // the old layout
	res *resultStore       // the stream
}

// bucketServer starts the embedded server on dir as the coordinator does (its authority,
// StartServer, the coordinator's credentials; then setup() for the stream, or the old
// bucket's configuration for the key-value layout) and returns the store and the function
// that stops both.
func bucketServer(b *testing.B, ctx context.Context, dir string, errs *atomic.Int64, stream bool) (bucketStore, func()) {
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
	stop := func() { nc.Close(); srv.Shutdown() }
	js, err := jetstream.New(nc, jetstream.WithPublishAsyncErrHandler(func(jetstream.JetStream, *nats.Msg, error) { errs.Add(1) }))
	if err != nil {
		b.Fatal(err)
	}
	st := bucketStore{js: js}
	if stream {
		st.res, _, err = setup(ctx, js, func(f string, args ...any) { bucketSay(f, args...) })
	} else {
		// The configuration of the results bucket before the results stream.
		st.kv, err = js.CreateOrUpdateKeyValue(ctx, jetstream.KeyValueConfig{Bucket: oldResultsBucket, History: 8, Storage: jetstream.FileStorage,
			Description: "chesspuzzles task results, key <job>.<task id>, sealed by the coordinator"})
	}
	if err != nil {
		b.Fatal(err)
	}
	return st, stop
}

// put starts storing data under key as a coordinator does, waiting while the client has
// too many stores in flight.
func (st bucketStore) put(key string, data []byte) (stalls int, err error) {
	for {
		if st.res != nil {
			_, err = st.res.putAsync(key, data)
		} else {
			_, err = st.js.PublishAsync("$KV."+oldResultsBucket+"."+key, data)
		}
		// A server slower than the stores makes the client give up after a while
		// (dispatch.store would log it, and the task be computed again): wait.
		if !errors.Is(err, jetstream.ErrTooManyStalledMsgs) {
			return stalls, err
		}
		stalls++
	}
}

// read feeds fn every result of the job from the start, as a coordinator with no snapshot
// reads them: readJob for the stream; for the bucket, what readJob did before the stream
// (its last revision, then a watch of the job's keys up to it).
func (st bucketStore) read(ctx context.Context, fn func(key string, value []byte, seq uint64) error) error {
	if st.res != nil {
		return readJob(ctx, st.res, bucketJob, 0, func(e entry) error { return fn(e.Key(), e.Value(), e.Revision()) })
	}
	s, err := st.js.Stream(ctx, "KV_"+oldResultsBucket)
	if err != nil {
		return err
	}
	last, err := s.GetLastMsgForSubject(ctx, "$KV."+oldResultsBucket+"."+bucketJob+".>")
	if err != nil {
		return err
	}
	w, err := st.kv.WatchFiltered(ctx, []string{bucketJob + ".>"})
	if err != nil {
		return fmt.Errorf("reading the results: %w", err)
	}
	defer func() { _ = w.Stop() }()
	for e := range w.Updates() {
		if e == nil {
			return nil
		}
		if err := fn(e.Key(), e.Value(), e.Revision()); err != nil {
			return err
		}
		if e.Revision() >= last.Sequence {
			return nil
		}
	}
	return errors.New("reading the results: the watcher stopped")
}

// state describes the store's stream.
func (st bucketStore) state(b *testing.B, ctx context.Context) string {
	name := "KV_" + oldResultsBucket
	if st.res != nil {
		name = ResultsStream
	}
	s, err := st.js.Stream(ctx, name)
	if err != nil {
		b.Fatal(err)
	}
	i := s.CachedInfo().State
	return fmt.Sprintf("stream %s: %d messages, %d subjects, %.0f MiB", name, i.Msgs, i.NumSubjects, float64(i.Bytes)/(1<<20))
}

func bucketRun(b *testing.B, dir string, k int, prof string, stream bool) {
	ctx := context.Background()
	var errs atomic.Int64
	m0 := serverMemory(dir)
	bucketSay("before the server: %s", m0)
	if _, err := os.Stat(filepath.Join(dir, "jetstream")); err == nil {
		bucketSay("%s holds a store: not storing, only restarting", dir)
	} else {
		bucketFill(b, ctx, dir, k, prof, m0, &errs, stream)
	}

	start := time.Now()
	st, stop := bucketServer(b, ctx, dir, &errs, stream)
	defer stop()
	took := time.Since(start)
	m2 := serverMemory(dir)
	bucketSay("restarted in %.1f s (%s): %s", took.Seconds(), st.state(b, ctx), m2)
	b.ReportMetric(float64(m2.hwm)/1024, "restart-peak-MiB")
	bucketIdle(b, dir, "restarted")

	// As the coordinator reads (a context with no deadline: each JetStream request then
	// has the client's default five seconds), and, if that fails, with an hour.
	resetPeakRSS()
	s := NewSealer("bucket-benchmark")
	rng := rand.New(rand.NewPCG(33, 28))
	pick := map[int]bool{}
	for len(pick) < min(1000, k) {
		pick[rng.IntN(k)] = true
	}
	var seqs []uint64
	read := func(ctx context.Context) (int, time.Duration, error) {
		start, seen := time.Now(), 0
		seqs = seqs[:0]
		err := st.read(ctx, func(key string, value []byte, seq uint64) error {
			if seen == 0 {
				bucketSay("the first result after %.1f s", time.Since(start).Seconds())
			}
			if seen == k/2 {
				bucketSay("half read: %s", serverMemory(dir))
				bucketHeap(b, prof, "reading")
			}
			if pick[seen] {
				seqs = append(seqs, seq)
			}
			if _, _, _, err := decodeResult(s, key, value); err != nil {
				return err
			}
			seen++
			return nil
		})
		return seen, time.Since(start), err
	}
	seen, took, err := read(ctx)
	if err != nil {
		bucketSay("reading the job as the coordinator does failed after %.1f s: %v; again with an hour's deadline", took.Seconds(), err)
		hctx, cancel := context.WithTimeout(ctx, time.Hour)
		defer cancel()
		if seen, took, err = read(hctx); err != nil {
			b.Fatal(err)
		}
	}
	if seen != k {
		b.Fatalf("read %d results, stored %d", seen, k)
	}
	m3 := serverMemory(dir)
	bucketSay("read the job once in %.1f s: %s", took.Seconds(), m3)
	b.ReportMetric(float64(m3.hwm)/1024, "read-peak-MiB")
	bucketHeap(b, prof, "read")

	if st.res == nil {
		return
	}
	resetPeakRSS()
	start = time.Now()
	for _, seq := range seqs {
		if err := st.res.remove(ctx, seq); err != nil {
			b.Fatal(err)
		}
	}
	took = time.Since(start)
	bucketSay("deleted %d results at random, one at a time, in %.2f s (%.2f ms each; %s): %s",
		len(seqs), took.Seconds(), took.Seconds()*1000/float64(len(seqs)), st.state(b, ctx), serverMemory(dir))
	bucketHeap(b, prof, "deleted")
	bucketAfter(dir, "the random deletes")

	// A quarantine's pattern: the results of one worker among four, in stream order.
	resetPeakRSS()
	start = time.Now()
	n, gone := min(100_000, k/4), 0
	for j := range n {
		if err := st.res.remove(ctx, uint64(1+4*j)); err != nil {
			// A result deleted already (one of the random ones, or in an earlier run on
			// this store): the server says "sequence not found" (code 10043) or, below
			// the stream's first sequence, "no message found" (10057), which remove does
			// not take for a message already gone.
			// The client gives the server's answer as text only.
			if e := err.Error(); !strings.Contains(e, "err_code=10043") && !strings.Contains(e, "err_code=10057") {
				b.Fatal(err)
			}
			gone++
		}
		if (j+1)%25_000 == 0 {
			bucketSay("%d of every 4th result deleted in order, %.1f s: %s", j+1, time.Since(start).Seconds(), serverMemory(dir))
			if j+1 == n/2 {
				bucketHeap(b, prof, "quarantine")
			}
		}
	}
	took = time.Since(start)
	bucketSay("deleted every 4th of the first %d results in order in %.1f s (%.3f ms each; %d deleted already; %s): %s",
		4*n, took.Seconds(), took.Seconds()*1000/float64(n), gone, st.state(b, ctx), serverMemory(dir))
	bucketAfter(dir, "the ordered deletes")
}

// bucketAfter prints the memory 10, 30 and 60 s after what was done (after a garbage
// collection each time): the server drops a message block from its cache after ten idle
// seconds.
func bucketAfter(dir, what string) {
	start := time.Now()
	for _, at := range []time.Duration{10 * time.Second, 30 * time.Second, 60 * time.Second} {
		time.Sleep(time.Until(start.Add(at)))
		runtime.GC()
		debug.FreeOSMemory()
		bucketSay("%v after %s: %s", at, what, serverMemory(dir))
	}
}

// bucketFill starts a server on dir, stores k results and stops it.
func bucketFill(b *testing.B, ctx context.Context, dir string, k int, prof string, m0 serverMem, errs *atomic.Int64, stream bool) {
	st, stop := bucketServer(b, ctx, dir, errs, stream)
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
		n, err := st.put(key, data)
		if err != nil {
			b.Fatalf("storing %s: %v", key, err)
		}
		stalls += n
	}
	select {
	case <-st.js.PublishAsyncComplete():
	case <-time.After(10 * time.Minute):
		b.Fatal("the server has not confirmed the stores within 10 minutes")
	}
	took := time.Since(start)
	if n := errs.Load(); n > 0 {
		b.Fatalf("%d stores failed", n)
	}
	state := st.state(b, ctx)
	m1 := serverMemory(dir)
	bucketSay("stored %d results in %.1f s (%d stalls; %s): %s", k, took.Seconds(), stalls, state, m1)
	bucketIdle(b, dir, "stored")
	b.ReportMetric(float64(m1.rss-m0.rss)*1024/float64(k), "rss-B/result")
	b.ReportMetric(float64(m1.hwm)/1024, "stored-peak-MiB")
	b.ReportMetric(float64(m1.disk)/float64(k), "disk-B/result")
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
