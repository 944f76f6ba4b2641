package join

import (
	"math/bits"
	"unsafe"
)

// matchWords is the number of 64-lane words a bit-sliced batch holds per row: 8 (512
// stored signatures, one 64-byte cache line a row) where the processor has the AVX-512
// kernel or none at all, 4 (256, one 32-byte AVX2 register a row) with the AVX2 kernel. A
// smaller batch wastes fewer lanes on the partly filled last batch of the sieve's small
// sub-stores; per lane the work is the same.
var matchWords = defaultMatchWords()

// chunkBits is the four-Russians chunk width: per batch and chunk, the ANDs of all 2^5
// subsets of the chunk's 5 rows are precomputed (32 rows of 64 bytes, 2 KB), so a query
// ANDs exactly one row per chunk whatever its popcount. 5 measured fastest of 4, 5 and 6
// (6 doubles the tables and leaves L1; 4 adds a chunk at N = 18). A matcher may use
// wideChunkBits instead (chunkWidth).
const chunkBits = 5

// wideChunkBits is the wider chunk width: 64 rows a chunk, one chunk fewer a query where
// that saves one (30 matched bits: 5 chunks, not 6), for twice the build.
const wideChunkBits = 6

// wideChunkMin is the least diagonal frame W (2h − 1, h = ⌊N/2⌋) that takes
// wideChunkBits: 21, N ≥ 22. Measured on 25 Nov (bench/log/2026-11-25.md, "the matcher's chunks"):
// N = 22 gained about 4 % a shard (7 % in the harness), while with wide chunks from stores
// of 1,024 N = 20 whole did not change and N = 18 and 19 lost up to 7 %; N ≤ 17 lost
// 13–20 % with them everywhere. A variable so that the harness can move it
// (CHESSPUZZLES_JOINWIDEMIN).
var wideChunkMin = 21

// wideChunkAVX512W is the least diagonal frame W below wideChunkMin that takes
// wideChunkBits too where the AVX-512 kernels run (matchIndexed): 15, N = 16 to 21. With
// batches built in assembly (buildBatchFast), wide chunks (6 for N = 18's 32 squeezed
// bits, not 7) measured 0.953 and 0.959 of narrow ones' CPU at N = 18 (two series of 9
// alternated pairs) and 0.940 at 19 (3 pairs, each below 0.98), while N = 16 and 17
// (W = 15) then read 0.924 and 1.066, and 1.007 (whole processes, 30 Nov;
// bench/log/2026-11-29-join.md, "Session 9"). With the scans of the table row and the
// single store of session 30, in-process counts alternated ABBA (3 Dec, "Session 31"):
// N = 16 0.971, 0.957 and 0.957 of narrow chunks' CPU (medians of 12 rounds), N = 17 0.999
// (10 rounds); sampled tasks of N = 20 0.88 (5 rounds, every 50th task, sums equal) and
// N = 21 0.96–0.99 (4 rounds, every 200th task). 2-core AMD EPYC with AVX-512 (Zen 4).
// 0 turns it off (tests).
var wideChunkAVX512W = 15

// mixedChunkBits is the chunk width code of the mixed layouts: a batch of mixedChunks
// chunks, the first nch of 7 bits (128 rows) and the rest of 6 (64 rows), where a store
// of wideChunkBits matches 31 to 35 bits (nch = bits − 30): five row ANDs a query in place
// of six, for 24 to 40 KiB of rows a batch in place of 24 (chunkSpan; build).
const mixedChunkBits = 7

// mixedChunks is the number of chunks of a mixed layout.
const mixedChunks = 5

// mixedOn says that build lays out stores of wide chunks that match 31 to 35 bits in the
// mixed layout where the AVX-512 kernels run it (matchIndexed). Measured on a 2-core
// Intel Xeon with AVX-512 (2 Dec 2026; bench/log/2026-11-29-join.md, "Session 24 …
// mixed"): N = 28's whole row sets took 0.933 ± 0.010 of the time of six 6-bit chunks
// (16 row sets, both ways in one process, alternated; the heaviest 0.89–0.94), though
// with random queries (BenchmarkMatchAVX512Loops) the tables of 33 bits and more cost
// what the load saves. Not measured on AMD. A variable so that the harness can compare
// (CHESSPUZZLES_JOINKERNEL=tern+pairs+mixed:tern+pairs) and tests can turn it off.
var mixedOn = true

// mixedMaxBits is the most matched bits build lays out mixed (31 to 35).
var mixedMaxBits = 35

// mixedForce makes build take the mixed layout wherever the bits allow it in batches of 8
// words, kernels or not (tests: the pure-Go twins are held to the same counts).
var mixedForce = false

// chunkSpan returns the first bit, first row and width of chunk j of a batch of nch
// chunks of cb bits, or for cb = mixedChunkBits of the mixed layout whose first nch
// chunks are 7 bits wide.
func chunkSpan(nch, cb, j int) (bit, row, width int) {
	if cb != mixedChunkBits {
		return j * cb, j << cb, cb
	}
	if j < nch {
		return 7 * j, 128 * j, 7
	}
	return 7*nch + 6*(j-nch), 128*nch + 64*(j-nch), 6
}

// chunkCount returns the number of chunks of a batch of nch chunks of cb bits: nch, or
// mixedChunks for the mixed layout.
func chunkCount(nch, cb int) int {
	if cb == mixedChunkBits {
		return mixedChunks
	}
	return nch
}

// chunkWidthForce, when 5 or 6, overrides chunkWidth (tests and measurements).
var chunkWidthForce = 0

// chunkWidth returns the chunk width of a store matching w bits in a diagonal frame of W
// bits a direction: wideChunkBits where the kernel takes chunk offsets (whose assembly
// does not depend on the width), the width saves a chunk and W ≥ wideChunkMin (stores
// large enough to amortise the wider build) or, with the AVX-512 kernels, W ≥
// wideChunkAVX512W; else chunkBits.
func chunkWidth(w, W int) int {
	if chunkWidthForce != 0 {
		return chunkWidthForce
	}
	small := wideChunkAVX512W > 0 && W >= wideChunkAVX512W && matchIndexed(matchWords, wideChunkBits, (w+wideChunkBits-1)/wideChunkBits)
	if !matchOffsets(matchWords) || W < wideChunkMin && !small ||
		(w+wideChunkBits-1)/wideChunkBits >= (w+chunkBits-1)/chunkBits {
		return chunkBits
	}
	return wideChunkBits
}

// rawMatchMax is the store size below which the sieve does not split a store (a mean
// sub-store smaller than this is a single batch or a raw scan already).
const rawMatchMax = 48

// rawBuildPairs and rawQueryPairs price a batch in raw pair tests (one AND and compare
// each): building one costs about as much as rawBuildPairs of them, and matching one query
// against it about rawQueryPairs. A store is scanned raw while the raw pair tests it has
// done stay under the price of building it (see use: the renter's rule, never more than
// twice the better choice in hindsight, whatever queries come later), and always when it
// holds at most rawQueryPairs signatures. So a small sub-store that many queries meet is
// batched (at N = 22 raw scans of stores under 48 were 15 % of the run), and one that few
// queries meet is not.
const (
	rawBuildPairs = 4096
	rawQueryPairs = 8
)

// A matcher counts, for a query signature q, the stored signatures s with s AND q = 0: the
// half-boards of the other side that share no diagonal with the query's. It is built once
// per row set from the store and queried once per half-board of the other side.
//
// Build complements and bit-transposes the store in
// batches of 512 so that row b of a batch is a 512-bit vector of "pattern leaves diagonal b
// free", and precomputes four-Russians tables over chunks of cb rows (5, or 6 where the
// sieve chose wide chunks). A query then costs ⌈K/cb⌉ row ANDs of 8 words and 8 popcounts
// per batch, K the highest stored bit + 1: 512 pair tests for about 60 word operations. All buffers are kept across rows sets: no allocation once
// they have grown to the largest store.
type matcher struct {
	sigs    []uint64 // the store, raw
	raw     bool     // the queries of the last use are scanned raw
	built   bool     // the batches of sigs are built
	rawWork int      // raw pair tests done on sigs so far

	kept   uint64 // OR of the store: the bits that can clash
	keptOK bool   // kept is known before build (resetKept)
	bw     int    // words per row of a batch: matchWords when built
	cb     int    // chunk width: chunkBits, or wideChunkBits if set before build
	nch    int    // chunks
	mix    int    // 0, or the 7-bit chunks of the mixed layout (of cb = 6) build chose
	bs     int    // words per batch: nch·2^cb·bw
	nb     int    // batches
	buf    []uint64
	tab    []uint64 // 64-byte aligned view of buf (or of arena's memory), nb·bs words
	// arena, where set (the sieve's sub-stores), is where build takes the table from,
	// in place of buf: the sieve's sub-stores share one arena, emptied when the sieve is
	// built again.
	arena *tableArena
	rows  [64 + wideChunkBits][8]uint64

	// A weighted store (resetWeighted) holds its patterns in lanes whose weight is given
	// per byte of 8 lanes, wts[k] for lanes 8k…8k+7, the lanes of word w that hold a
	// pattern being wvalid[w] (the others are padding, never counted); nil for a plain
	// store. It is a group of 2^g members (sub-stores of the sieve), member l's bytes
	// ending at wend[l], laid out from member 2^g − 1 down to 0 (weightsFor). wword says
	// every byte of a word weighs the same (the layout of the per-word kernel,
	// weightGrain).
	wvalid []uint64
	wts    []uint8
	wend   []int
	wword  bool
	wsel   [][]uint8 // weightsFor's answers, by member; nil where not made yet
	wbuf   []uint8   // their bytes
	wpad   []uint8   // countWeighted's weights padded to whole batches
	lanes  []uint64  // the word sums of countBatchesLanes
	offs   []uint32  // the queries' chunk offsets, where countWeighted makes them
}

// reset makes sigs the store, not yet built.
func (m *matcher) reset(sigs []uint64) {
	m.sigs, m.raw, m.built, m.rawWork = sigs, true, false, 0
	m.wvalid, m.wts = nil, nil
	m.keptOK = false
}

// resetKept is reset for a store whose signatures' OR the caller knows (kept), which
// build then takes instead of ORing them again.
func (m *matcher) resetKept(sigs []uint64, kept uint64) {
	m.reset(sigs)
	m.kept, m.keptOK = kept, true
}

// resetWeighted makes sigs a weighted store, not yet built: word w of sigs (lanes
// 64w…64w+63) holds patterns in the lanes of valid[w], lane l weighing wts[l/8]
// (len(wts) = 8·len(valid)), in 2^g = len(ends) members, member l's bytes ending at
// ends[l] (weightsFor). byWord says the weights change only from word to word (the
// per-word kernels of AVX-512 then run).
func (m *matcher) resetWeighted(sigs, valid []uint64, wts []uint8, ends []int, byWord bool) {
	m.reset(sigs)
	m.wvalid, m.wts, m.wend, m.wword = valid, wts, ends, byWord
	m.wsel = grow(m.wsel, len(ends))
	clear(m.wsel)
	m.wbuf = m.wbuf[:0]
}

// weightsFor returns the weights that count, of a group's members, those whose index
// has every bit of sel (the sub-stores a bucket of queries meets, sieveMatcher.countAll):
// wts up to the end of member sel (members sel + 1 … laid out before it), zero for the
// bytes of the members that lack a bit of sel, padded with zeros to whole batches where
// the matcher is built; nil if those members hold no pattern. Made once a member a build.
func (m *matcher) weightsFor(sel int) []uint8 {
	if w := m.wsel[sel]; w != nil {
		return w
	}
	end, top := m.wend[sel], len(m.wend)-1
	begin := func(l int) int { // member l's first byte
		if l == top {
			return 0
		}
		return m.wend[l+1]
	}
	n := end
	if !m.raw {
		per := 8 * m.bw
		n = (end + per - 1) / per * per
	}
	if cap(m.wbuf)-len(m.wbuf) < n {
		// A new buffer: the slices made before keep the old one.
		m.wbuf = make([]uint8, 0, max(2*cap(m.wbuf), n, len(m.wend)*(len(m.wts)+64)))
	}
	w := m.wbuf[len(m.wbuf) : len(m.wbuf)+n]
	m.wbuf = m.wbuf[:len(m.wbuf)+n]
	clear(w[copy(w, m.wts[:end]):])
	met := false
	for l := top; l >= sel; l-- {
		if l&sel != sel {
			clear(w[begin(l):m.wend[l]])
		} else if begin(l) < m.wend[l] {
			met = true
		}
	}
	if !met {
		w = w[:0]
	}
	m.wsel[sel] = w
	return w
}

// use prepares the matcher for nq queries: a raw scan while that stays cheaper than
// building the batches (rawBuildPairs), else the batches, built once. The count is the
// same either way.
func (m *matcher) use(nq int) {
	if m.built {
		return
	}
	if s := len(m.sigs); s <= rawQueryPairs || m.rawWork+s*nq < rawBuildPairs {
		m.raw = true
		m.rawWork += s * nq
		return
	}
	m.build()
}

// build prepares the batches of the store in m.sigs.
func (m *matcher) build() {
	if !m.keptOK {
		m.kept = orAll(m.sigs)
	}
	m.built, m.raw = true, false
	m.bw = matchWords
	batch := 64 * m.bw
	// Chunks cover the signature up to its highest stored bit. The sieve in front
	// (sieveMatcher) squeezes out holes and cut bits first where that saves a chunk.
	k := bits.Len64(m.kept)
	if m.cb == 0 {
		m.cb = chunkBits
	}
	m.nch = max(1, (k+m.cb-1)/m.cb)
	m.bs = m.nch << m.cb * m.bw
	m.mix = 0
	if m.cb == wideChunkBits && k > mixedChunks*wideChunkBits && k <= min(mixedMaxBits, mixedChunks*mixedChunkBits) && m.mixedRuns() {
		m.mix, m.nch = k-mixedChunks*wideChunkBits, mixedChunks
		m.bs = (128*m.mix + 64*(mixedChunks-m.mix)) * m.bw
	}
	m.nb = (len(m.sigs) + batch - 1) / batch
	if m.arena != nil {
		m.buf = nil
		m.tab = m.arena.take(m.nb * m.bs)
	} else {
		need := m.nb*m.bs + 8
		if cap(m.buf) < need {
			m.buf = make([]uint64, need+need/4)
		}
		m.buf = m.buf[:cap(m.buf)]
		a := alignWords(m.buf)
		m.tab = m.buf[a : a+m.nb*m.bs]
	}
	if m.wts != nil { // weightsFor pads to whole batches from now on
		clear(m.wsel)
		m.wbuf = m.wbuf[:0]
	}
	for b := range m.nb {
		lo := b * batch
		hi := min(lo+batch, len(m.sigs))
		m.buildBatch(m.tab[b*m.bs:(b+1)*m.bs], m.sigs[lo:hi], lo/64)
	}
}

// mixedRuns reports whether build may lay m's store out in the mixed layout: batches of
// 8 words, and mixedForce, or mixedOn where the AVX-512 kernels that take it run for m's
// batches (a plain store, or one weighted by bytes). The AVX2 kernels and the chunk
// offsets have no mixed layout.
func (m *matcher) mixedRuns() bool {
	if m.bw != 8 {
		return false
	}
	if mixedForce {
		return true
	}
	return mixedOn && matchIndexed(m.bw, mixedChunkBits, 1) && (m.wts == nil || haveMatchAVX512Weighted && !m.wword)
}

// kernelChunks returns the chunk arguments of the kernels for m's batches: nch and cb,
// or for the mixed layout its 7-bit chunks and mixedChunkBits.
func (m *matcher) kernelChunks() (nch, cb int) {
	if m.mix > 0 {
		return m.mix, mixedChunkBits
	}
	return m.nch, m.cb
}

// alignWords returns the words from the start of b to its first 64-byte boundary (b has at
// least 8 words).
func alignWords(b []uint64) int {
	a := int(uintptr(unsafe.Pointer(&b[0]))&63) / 8
	if a != 0 {
		a = 8 - a
	}
	return a
}

// tableArena hands out 64-byte-aligned tables from blocks it keeps for reuse: the tables
// of the sieve's sub-stores, which live from one build of the sieve to the next (a class of
// a row set). Each sub-store keeping a buffer of its own held, at every index, the largest
// table any class ever built there (1.26 GB of one worker at N = 28, task 1,006,813, where
// the classes' own tables at any time were a fraction of it: bench/log/2026-11-29-join.md,
// "Session 19 … lead"); the arena holds the most that one class takes at once, rounded
// up to its blocks.
type tableArena struct {
	blocks [][]uint64
	cur    int // the block take cuts from
	off    int // the first free word of blocks[cur]
}

// arenaBlockWords is the size of a tableArena's full blocks (32 MiB); a table larger
// than that gets a block of its own size. The first blocks are smaller, from
// arenaFirstWords (256 KiB) doubling, so that a count whose classes take little never
// holds 32 MiB: at N = 16 (tables of a few hundred KiB) that block was 94 % of what the
// count allocated, and made the collector run once.
const (
	arenaBlockWords = 1 << 22
	arenaFirstWords = 1 << 15
)

// reset makes every block free again: the tables handed out before are to be rebuilt.
func (a *tableArena) reset() { a.cur, a.off = 0, 0 }

// take returns a table of n words, 64-byte aligned, not cleared (build fills it).
func (a *tableArena) take(n int) []uint64 {
	for ; a.cur < len(a.blocks); a.cur, a.off = a.cur+1, 0 {
		if b := a.blocks[a.cur]; len(b)-a.off >= n+8 {
			start := a.off + alignWords(b[a.off:])
			a.off = start + n
			return b[start : start+n : start+n]
		}
	}
	size := arenaFirstWords
	if k := len(a.blocks); k > 0 {
		size = min(arenaBlockWords, max(size, 2*len(a.blocks[k-1])))
	}
	b := make([]uint64, max(n+8, size))
	a.blocks = append(a.blocks, b)
	a.cur = len(a.blocks) - 1
	start := alignWords(b)
	a.off = start + n
	return b[start : start+n : start+n]
}

// buildBatch fills one batch's chunk tables from up to 64·bw signatures, the first of
// them in word w0 of the store. A weighted store's signature 64w + k is lane k of word w
// (its weights go by those lanes); a plain store's are interleaved four words at a time:
// signature i < 256 is lane i/4 of word i%4, and 256 + i lane i/4 of word 4 + i%4, so that
// a row of 64·bw lanes is copied from the store 32 bytes at a time (buildBatchFast) and
// a store of at most 256 leaves words 4–7 empty (countBatchesAVX512IndexHalf). Which lane
// holds which signature changes no count of a plain store.
func (m *matcher) buildBatch(t []uint64, sigs []uint64, w0 int) {
	bw := m.bw
	for b := 64; b < len(m.rows); b++ {
		m.rows[b] = [8]uint64{^uint64(0), ^uint64(0), ^uint64(0), ^uint64(0), ^uint64(0), ^uint64(0), ^uint64(0), ^uint64(0)}
	}
	// Lanes past the store hold no pattern: chunk 0's empty subset is the valid-lanes mask,
	// and every table entry is an AND that starts from it (the kernels read chunk 0's row
	// first), so whatever the rows say in those lanes, they count nothing.
	var valid [8]uint64
	interleaved := m.wvalid == nil // a plain store
	for w := range bw {
		n := len(sigs) - w*64
		if interleaved {
			n = (len(sigs) - interleavedFirst(w) + 3) / 4 // every fourth from the first
		}
		switch {
		case n >= 64:
			valid[w] = ^uint64(0)
		case n > 0:
			valid[w] = 1<<n - 1
		}
		if m.wvalid != nil && n > 0 {
			valid[w] &= m.wvalid[w0+w]
		}
	}
	if m.buildBatchFast(t, sigs, &valid) {
		return
	}
	// Row b, word w: lane i is free of diagonal b. A 64×64 transpose a word. Words past
	// the store keep stale rows: the valid-lanes mask clears those lanes.
	for w := range bw {
		var blk [64]uint64
		if interleaved {
			lo := interleavedFirst(w)
			if lo >= len(sigs) {
				continue
			}
			for k := range blk {
				if i := lo + 4*k; i < len(sigs) {
					blk[k] = sigs[i]
				}
			}
		} else {
			lo := w * 64
			if lo >= len(sigs) {
				break
			}
			copy(blk[:], sigs[lo:min(lo+64, len(sigs))])
		}
		if m.kept < 1<<32 {
			transpose64Low(&blk) // N ≤ 17: half the work
		} else {
			transpose64(&blk)
		}
		for b := range 64 {
			m.rows[b][w] = ^blk[b]
		}
	}
	kn, kc := m.kernelChunks()
	for j := range m.nch {
		bit, r0, cb := chunkSpan(kn, kc, j)
		ch := t[r0*bw : (r0+1<<cb)*bw]
		if j == 0 {
			copy(ch[:bw], valid[:])
		} else {
			copy(ch[:bw], m.rows[len(m.rows)-1][:]) // all ones
		}
		if bw == 8 {
			fillChunk8(ch, &m.rows, bit, cb)
			continue
		}
		for x := 1; x < 1<<cb; x++ {
			prev := ch[(x&(x-1))*bw:][:bw]
			row := m.rows[bit+bits.TrailingZeros(uint(x))][:bw]
			dst := ch[x*bw:][:bw]
			for w := range dst {
				dst[w] = prev[w] & row[w]
			}
		}
	}
}

// interleavedFirst returns the index in a plain store's batch of the signature in lane 0
// of word w (buildBatch): the word's others follow every fourth signature.
func interleavedFirst(w int) int { return w/4*256 + w%4 }

// fillChunk8 is buildBatch's four-Russians fill of one chunk of 8-word rows, ch[0] set:
// entry x is entry x&(x−1) ANDed with the row of x's lowest bit (rows from r0 on). Whole
// 8-word arrays, so that the loop has no bounds check and no inner loop.
func fillChunk8(ch []uint64, rows *[64 + wideChunkBits][8]uint64, r0, cb int) {
	t := unsafe.Slice((*[8]uint64)(unsafe.Pointer(unsafe.SliceData(ch))), len(ch)/8)
	for x := 1; x < len(t) && x < 1<<cb; x++ {
		prev, row, dst := &t[x&(x-1)], &rows[r0+bits.TrailingZeros(uint(x))], &t[x]
		dst[0], dst[1], dst[2], dst[3] = prev[0]&row[0], prev[1]&row[1], prev[2]&row[2], prev[3]&row[3]
		dst[4], dst[5], dst[6], dst[7] = prev[4]&row[4], prev[5]&row[5], prev[6]&row[6], prev[7]&row[7]
	}
}

// countAll returns the number of (stored, query) pairs over the queries qs whose
// signatures are disjoint: the sum of the per-query counts. offs, if not nil, holds the
// queries' chunk offsets (chunkOffsets, stride slots a query, stride ≥ m.nch) for the
// kernels that want them (matchOffsets).
func (m *matcher) countAll(qs []uint64, offs []uint32, stride int) uint64 {
	if len(qs) == 0 {
		return 0
	}
	if m.wts != nil {
		return m.countWeighted(qs, offs, stride, m.weightsFor(0))
	}
	if m.raw {
		var n uint64
		for _, q := range qs {
			for _, s := range m.sigs {
				n += (s&q - 1) >> 63 // 1 iff s&q = 0: signatures leave bit 63 clear
			}
		}
		return n
	}
	kn, kc := m.kernelChunks()
	if m.nb == 1 && m.bw == 8 && len(m.sigs) <= 256 {
		// One batch, its patterns in the first half of its lanes (see countHalfBatch).
		if n, ok := countHalfBatch(m.tab, kn, kc, qs); ok {
			return n
		}
	}
	return countBatches(m.tab, m.bs, m.bw, kn, kc, qs, offs, stride)
}

// countWeighted is countAll for a weighted store with the weights wts (of at most
// len(m.wts) bytes; lanes past them are not met): the sum over the queries of the weights
// of the stored patterns disjoint from each. In batches it matches the queries against
// the ⌈len(wts)/(8·bw)⌉ batches that hold those lanes (countBatchesWeighted), or where the
// weights go by words (wword: the AVX-512 kernel) counts each word's lanes
// (countBatchesLanes) and weighs the words. Where the kernel takes chunk offsets
// (lanesOffsets: AVX2) and offs holds none for these queries, it makes them.
func (m *matcher) countWeighted(qs []uint64, offs []uint32, stride int, wts []uint8) uint64 {
	var n uint64
	wts = wts[:min(len(wts), len(m.wts))]
	if len(qs) == 0 || len(wts) == 0 {
		return 0
	}
	if m.raw {
		for k, wt := range wts {
			v := m.wvalid[k/8] >> (8 * (k % 8)) & 0xff
			var c uint64
			for ; v != 0 && wt != 0; v &= v - 1 {
				s := m.sigs[k*8+bits.TrailingZeros64(v)]
				for _, q := range qs {
					c += (s&q - 1) >> 63
				}
			}
			n += c * uint64(wt)
		}
		return n
	}
	per := 8 * m.bw // bytes a batch
	nb := (len(wts) + per - 1) / per
	if lanesOffsets(m.bw) && (stride < m.nch || len(offs) < len(qs)*stride) {
		stride = m.nch
		m.offs = chunkOffsets(m.offs, qs, stride, m.bw, m.cb)
		offs = m.offs
	}
	if m.wword {
		m.lanes = grow(m.lanes, nb*m.bw)
		kn, kc := m.kernelChunks()
		countBatchesLanes(m.tab[:nb*m.bs], m.bs, m.bw, kn, kc, qs, offs, stride, m.lanes)
		for w := range len(wts) / 8 {
			n += m.lanes[w] * uint64(wts[8*w])
		}
		return n
	}
	if len(wts) != nb*per {
		m.wpad = grow(m.wpad, nb*per)
		clear(m.wpad[copy(m.wpad, wts):])
		wts = m.wpad
	}
	kn, kc := m.kernelChunks()
	return countBatchesWeighted(m.tab[:nb*m.bs], m.bs, m.bw, kn, kc, qs, offs, stride, wts)
}

// chunkOffsets returns dst holding, for each query of qs, stride slots: slot j of query i
// is the byte offset in a batch's table (of bw-word rows, chunks of cb bits) of the row
// chunk j of the query names, (j·2^cb + its j-th cb bits)·8·bw. A query meets many batches
// (every batch of every sub-store its cut bits allow), and the kernel then loads each row's
// offset instead of computing it: two instructions a chunk instead of six.
func chunkOffsets(dst []uint32, qs []uint64, stride, bw, cb int) []uint32 {
	dst = grow(dst, len(qs)*stride)
	// The assembly of offsetsFast where it runs (a query's eight slots at once, its loop
	// aligned), then offsetsGo for the queries it left (TestChunkOffsets,
	// FuzzChunkOffsets), with constant widths, the helper inlined: a variable shift cost
	// N = 19 7 %.
	row := uint32(8 * bw)
	i := offsetsFast(dst, qs, stride, row, uint(cb))
	d, q := dst[i*stride:], qs[i:]
	if cb == wideChunkBits {
		offsetsGo(d, q, stride, row, wideChunkBits)
	} else {
		offsetsGo(d, q, stride, row, chunkBits)
	}
	return dst
}

// offsetsGo is chunkOffsets's loop in Go, from the definition, for chunks of cb bits
// and rows of row bytes.
func offsetsGo(dst []uint32, qs []uint64, stride int, row uint32, cb uint) {
	for i, q := range qs {
		o := dst[i*stride : (i+1)*stride]
		for j := range o {
			o[j] = (uint32(j)<<cb + uint32(q&(1<<cb-1))) * row
			q >>= cb
		}
	}
}

// countBatchesGo is countBatchesGo8 or countBatchesGo4 by the batch width bw, for chunks
// of cb bits.
func countBatchesGo(tab []uint64, bs, bw, nch, cb int, qs []uint64) uint64 {
	if bw == 4 {
		return countBatchesGo4(tab, bs, nch, cb, qs)
	}
	return countBatchesGo8(tab, bs, nch, cb, qs)
}

// countBatchesGo4 is countBatchesGo8 for batches of 4 words a row, written a lane at a
// time from the definition: lane l of the row of chunk j is tab[batch + (j·2^cb + the
// query's j-th chunk of cb bits)·4 + l]. Batches of 4 words are made only for the AVX2 kernels
// (matchWords), which run whenever there is something to count, so this is their
// reference in TestMatchKernels, not a kernel that runs: it is plain rather than fast.
func countBatchesGo4(tab []uint64, bs, nch, cb int, qs []uint64) uint64 {
	var n int
	for b := range len(tab) / max(bs, 1) { // each whole batch
		t := tab[b*bs : (b+1)*bs]
		for _, c := range qs {
			for l := range 4 {
				a := ^uint64(0)
				for j := range chunkCount(nch, cb) {
					a &= t[chunkRow(nch, cb, j, c)*4+l]
				}
				n += bits.OnesCount64(a)
			}
		}
	}
	return uint64(n)
}

// countBatchesGo8 is the portable query kernel: for each batch and each compressed query,
// AND the rows its chunks name (chunks of cb bits) and count the lanes left. Batches are
// the outer loop so that one batch's tables (nch·2^cb·64 bytes) stay in the first-level
// cache while the queries stream past.
func countBatchesGo8(tab []uint64, bs, nch, cb int, qs []uint64) uint64 {
	if cb == mixedChunkBits {
		return countBatchesGoSpans(tab, bs, nch, cb, qs)
	}
	mask := uint64(1)<<cb - 1
	var n int
	for base := 0; base+bs <= len(tab); base += bs {
		t := tab[base : base+bs]
		for _, c := range qs {
			r := (*[8]uint64)(t[(c&mask)*8:])
			a0, a1, a2, a3, a4, a5, a6, a7 := r[0], r[1], r[2], r[3], r[4], r[5], r[6], r[7]
			o := 0
			for j := 1; j < nch; j++ {
				c >>= cb
				o += 8 << cb
				r = (*[8]uint64)(t[o+int(c&mask)*8:])
				a0 &= r[0]
				a1 &= r[1]
				a2 &= r[2]
				a3 &= r[3]
				a4 &= r[4]
				a5 &= r[5]
				a6 &= r[6]
				a7 &= r[7]
			}
			n += bits.OnesCount64(a0) + bits.OnesCount64(a1) + bits.OnesCount64(a2) + bits.OnesCount64(a3) +
				bits.OnesCount64(a4) + bits.OnesCount64(a5) + bits.OnesCount64(a6) + bits.OnesCount64(a7)
		}
	}
	return uint64(n)
}

// countBatchesGoSpans is countBatchesGo8 for any layout chunkSpan describes (the mixed
// ones): the same sum, each chunk's row found by chunkRow.
func countBatchesGoSpans(tab []uint64, bs, nch, cb int, qs []uint64) uint64 {
	var n int
	for base := 0; base+bs <= len(tab); base += bs {
		t := tab[base : base+bs]
		for _, c := range qs {
			var a [8]uint64
			for j := range chunkCount(nch, cb) {
				r := (*[8]uint64)(t[chunkRow(nch, cb, j, c)*8:])
				if j == 0 {
					a = *r
					continue
				}
				for w := range a {
					a[w] &= r[w]
				}
			}
			for _, x := range a {
				n += bits.OnesCount64(x)
			}
		}
	}
	return uint64(n)
}

// chunkRow returns the row of chunk j (chunkSpan) that query c names.
func chunkRow(nch, cb, j int, c uint64) int {
	bit, row, w := chunkSpan(nch, cb, j)
	return row + int(c>>bit&(1<<w-1))
}

// transpose64Low is transpose64 for a matrix whose words are all below 2^32: the first
// round's swap becomes an OR into the low rows and leaves the high rows zero, and the
// later rounds, which pair rows inside one 32-row block, need only the low block.
func transpose64Low(a *[64]uint64) {
	for k := range 32 {
		a[k] |= a[k+32] << 32
		a[k+32] = 0
	}
	swapBlocks(a, 16, 0x0000ffff0000ffff, 32)
}

// transpose64 transposes a 64×64 bit matrix in place: afterwards bit i of a[b] is what bit
// b of a[i] was. Six rounds of block swaps (32×32 blocks, then 16×16, …), 192 word
// operations a round.
func transpose64(a *[64]uint64) { swapBlocks(a, 32, 0x00000000ffffffff, 64) }

// swapBlocks runs the block-swap rounds of transpose64 on a's first rows rows, from j×j
// blocks (m: the low j bits of every 2j) down to 1×1.
func swapBlocks(a *[64]uint64, j int, m uint64, rows int) {
	for ; j != 0; j, m = j>>1, m^(m<<(j>>1)) {
		for k := 0; k < rows; k = (k + j + 1) &^ j {
			t := (a[k]>>j ^ a[k+j]) & m
			a[k] ^= t << j
			a[k+j] ^= t
		}
	}
}

// countBatchesGoLanes is the portable kernel of weighted stores, written a lane word at a
// time from the definition: it sets out[bw·b + w] to the number of lanes of word w of
// batch b (of bw words a row) that the queries leave set, summed over the queries.
func countBatchesGoLanes(tab []uint64, bs, bw, nch, cb int, qs []uint64, out []uint64) {
	nb := len(tab) / max(bs, 1)
	clear(out[:nb*bw])
	for b := range nb {
		t := tab[b*bs : (b+1)*bs]
		for _, c := range qs {
			for l := range bw {
				a := ^uint64(0)
				for j := range chunkCount(nch, cb) {
					a &= t[chunkRow(nch, cb, j, c)*bw+l]
				}
				out[b*bw+l] += uint64(bits.OnesCount64(a))
			}
		}
	}
}

// countBatchesGoWeighted is the portable kernel of weighted stores, written a lane byte
// at a time from the definition: the sum over the queries and the batches (of bw words a
// row) of the lanes the query leaves set, lane l of word w of batch b weighing
// wts[(bw·b + w)·8 + l/8].
func countBatchesGoWeighted(tab []uint64, bs, bw, nch, cb int, qs []uint64, wts []uint8) uint64 {
	var n uint64
	for b := range len(tab) / max(bs, 1) {
		t := tab[b*bs : (b+1)*bs]
		for _, c := range qs {
			for l := range bw {
				a := ^uint64(0)
				for j := range chunkCount(nch, cb) {
					a &= t[chunkRow(nch, cb, j, c)*bw+l]
				}
				for k := range 8 {
					n += uint64(bits.OnesCount8(uint8(a>>(8*k)))) * uint64(wts[(b*bw+l)*8+k])
				}
			}
		}
	}
	return n
}

// orAll returns the OR of xs, four words a step (four chains, so that a step does not wait
// for the last one's OR).
func orAll(xs []uint64) uint64 {
	var a, b, c, d uint64
	i := 0
	for ; i+4 <= len(xs); i += 4 {
		x := xs[i : i+4 : i+4]
		a, b, c, d = a|x[0], b|x[1], c|x[2], d|x[3]
	}
	for _, x := range xs[i:] {
		a |= x
	}
	return a | b | c | d
}
