//go:build amd64 && !purego

#include "textflag.h"

// HSUM4 leaves in AX the sum of Y2's four quadwords and clears the upper halves.
#define HSUM4 VEXTRACTI128 $1, Y2, X1; VPADDQ X1, X2, X2; VPSHUFD $0x4e, X2, X1; VPADDQ X1, X2, X2; VMOVQ X2, AX; VZEROUPPER

// POPADD512 adds the popcount of Z0's eight quadwords to Z2's.
#define POPADD512 VPOPCNTQ Z0, Z1; VPADDQ Z1, Z2, Z2

// INDEXED(batch, query, chunk, chunksDone, done, shift, chunkBytes, LOAD, AND, acc, POP)
// is the loop nest of countBatchesAVX512 and countBatchesAVX2Index, at its five labels,
// for rows of 1<<shift bytes and chunks of chunkBytes (32 rows): for each of R8 batches
// (at SI, R9 bytes apart), for each of CX = R12 queries (uint64s from R11), LOAD into acc
// the first chunk's row, AND in the row of each of the R10 chunks after it, then POP adds
// acc's popcount to the accumulator; done when the batches are.
#define INDEXED(batch, query, chunk, chunksDone, done, shift, chunkBytes, LOAD, AND, acc, POP) \
batch:                           \
	TESTQ R8, R8;                 \
	JZ    done;                   \
	MOVQ  R11, DI;                \
	MOVQ  R12, CX;                \
query:                           \
	MOVQ  (DI), AX;               \
	MOVQ  AX, BX;                 \
	ANDQ  $31, BX;                \
	SHLQ  $shift, BX;             \
	LOAD  (SI)(BX*1), acc;        \
	MOVQ  SI, DX;                 \
	MOVQ  R10, R13;               \
	TESTQ R13, R13;               \
	JZ    chunksDone;             \
chunk:                           \
	SHRQ  $5, AX;                 \
	ADDQ  $chunkBytes, DX;        \
	MOVQ  AX, BX;                 \
	ANDQ  $31, BX;                \
	SHLQ  $shift, BX;             \
	AND   (DX)(BX*1), acc, acc;   \
	DECQ  R13;                    \
	JNZ   chunk;                  \
chunksDone:                      \
	POP;                          \
	ADDQ  $8, DI;                 \
	DECQ  CX;                     \
	JNZ   query;                  \
	ADDQ  R9, SI;                 \
	DECQ  R8;                     \
	JMP   batch

// INDEXARGS loads the six arguments countBatchesAVX512 and countBatchesAVX2Index share
// (tab, nb, bs, nch, cq, nq) into the registers INDEXED uses, bs in bytes and nch less one.
// Vet does not look inside macros: TestMatchKernels checks both kernels.
#define INDEXARGS MOVQ tab+0(FP), SI; MOVQ nb+8(FP), R8; MOVQ bs+16(FP), R9; SHLQ $3, R9; MOVQ nch+24(FP), R10; DECQ R10; MOVQ cq+32(FP), R11; MOVQ nq+40(FP), R12

// ZINDEXARGS loads the seven arguments countBatchesAVX512Index and
// countBatchesAVX512IndexLanes share (tab, nb, bs, nch, cb, cq, nq) into the registers
// GROUPED and DISPATCH use, bs in bytes, and clears the four accumulators. Vet does not
// look inside macros: TestMatchKernels and TestMatchWeighted check both kernels.
#define ZINDEXARGS MOVQ tab+0(FP), SI; MOVQ nb+8(FP), R8; MOVQ bs+16(FP), R9; SHLQ $3, R9; MOVQ nch+24(FP), R10; MOVQ cb+32(FP), R14; MOVQ cq+40(FP), R11; MOVQ nq+48(FP), R12; VPXORQ Z2, Z2, Z2; VPXORQ Z3, Z3, Z3; VPXORQ Z4, Z4, Z4; VPXORQ Z5, Z5, Z5

// ZWEIGHTEDARGS is ZINDEXARGS and the weights (R15) of countBatchesAVX512IndexWeighted
// and its twin, with Z30 the words of 1 (VPMADDWD's) and Z31 each quadword's low doubleword.
#define ZWEIGHTEDARGS ZINDEXARGS; MOVQ wts+56(FP), R15; VPTERNLOGD $0xff, Z30, Z30, Z30; VPSRLQ $32, Z30, Z31; VPSRLW $15, Z30, Z30

// func countBatchesAVX512(tab *uint64, nb, bs, nch int, cq *uint64, nq int) uint64
//
// The loops of countBatchesGo (match.go): for each of nb batches of bs words, for each
// of nq queries, AND the 64-byte rows tab[batch + j·2048 + (c>>5j & 31)·64]
// of chunks j < nch and add the popcount of the result.
TEXT ·countBatchesAVX512(SB), NOSPLIT, $0-56
	INDEXARGS
	VPXORQ Z2, Z2, Z2
	INDEXED(batch, query, chunk, chunksDone, done, 6, 2048, VMOVDQU64, VPANDQ, Z0, POPADD512)

done:
	VEXTRACTI64X4 $1, Z2, Y1
	VPADDQ        Y1, Y2, Y2
	HSUM4
	MOVQ          AX, ret+48(FP)
	RET

// Nibble popcounts (0…15), once per 128-bit lane, and the low-nibble mask.
DATA popcntNibbles<>+0(SB)/8, $0x0302020102010100
DATA popcntNibbles<>+8(SB)/8, $0x0403030203020201
DATA popcntNibbles<>+16(SB)/8, $0x0302020102010100
DATA popcntNibbles<>+24(SB)/8, $0x0403030203020201
GLOBL popcntNibbles<>(SB), RODATA|NOPTR, $32

DATA lowNibbles<>+0(SB)/8, $0x0f0f0f0f0f0f0f0f
DATA lowNibbles<>+8(SB)/8, $0x0f0f0f0f0f0f0f0f
DATA lowNibbles<>+16(SB)/8, $0x0f0f0f0f0f0f0f0f
DATA lowNibbles<>+24(SB)/8, $0x0f0f0f0f0f0f0f0f
GLOBL lowNibbles<>(SB), RODATA|NOPTR, $32

// ROW(o) ANDs into Y0 the row whose offset is the uint32 at o(DI).
#define ROW(o) MOVL o(DI), BX; VPAND (SI)(BX*1), Y0, Y0

// ROW2(o) ANDs into Y0 and Y6 the rows of two batches (at SI and DX) whose offset is the
// uint32 at o(DI): one offset load for two ANDs.
#define ROW2(o) MOVL o(DI), BX; VPAND (SI)(BX*1), Y0, Y0; VPAND (DX)(BX*1), Y6, Y6

// POPCNTB(y, t) leaves in y the popcounts of y's 32 bytes (at most 8 each), t scratch:
// nibbles looked up in Y3's table with VPSHUFB (Y4 the low-nibble mask).
#define POPCNTB(y, t) VPSRLW $4, y, t; VPAND Y4, y, y; VPAND Y4, t, t; VPSHUFB y, Y3, y; VPSHUFB t, Y3, t; VPADDB y, t, y

// POPADD adds the popcount of Y0's four quadwords to Y2's (Y5 zero).
#define POPADD POPCNTB(Y0, Y1); VPSADBW Y5, Y0, Y0; VPADDQ Y0, Y2, Y2

// POPADD2 adds the popcounts of Y0's and Y6's quadwords to Y2's (byte counts of at most 16
// summed before one VPSADBW).
#define POPADD2 POPCNTB(Y0, Y1); POPCNTB(Y6, Y7); VPADDB Y6, Y0, Y0; VPSADBW Y5, Y0, Y0; VPADDQ Y0, Y2, Y2

// CHUNKSk(R) is R(o) for the offset o of each chunk after the first of k chunks: the
// unrolled body of a query's chunk loop, R being ROW (one batch) or ROW2 (two).
#define CHUNKS1(R)
#define CHUNKS2(R) R(4)
#define CHUNKS3(R) CHUNKS2(R); R(8)
#define CHUNKS4(R) CHUNKS3(R); R(12)
#define CHUNKS5(R) CHUNKS4(R); R(16)
#define CHUNKS6(R) CHUNKS5(R); R(20)
#define CHUNKS7(R) CHUNKS6(R); R(24)
#define CHUNKS8(R) CHUNKS7(R); R(28)

// UNROLLED(pairs, pair, single, query, CHUNKS, done, PBEGIN, POP2, PEND, SBEGIN, SEND) is
// the offsets kernel for one number of chunks, at its four labels: batches two at a time
// (pairs, looping over the queries at pair; PBEGIN before the queries, POP2 adding up each
// query's two rows, PEND after them), then the odd last batch alone (single, looping at
// query; SBEGIN before, SEND after), then done. countBatchesAVX2 sums everything in Y2
// (NOBATCH, POPADD2); countBatchesAVX2Lanes keeps each batch's word sums apart and stores
// them at R15 (LANES2BEGIN, POPLANES2, LANES2END, LANESBEGIN, LANESEND).
#define UNROLLED(pairs, pair, single, query, CHUNKS, done, PBEGIN, POP2, PEND, SBEGIN, SEND) \
pairs:                             \
	CMPQ    R8, $2;                 \
	JLT     single;                 \
	MOVQ    R11, DI;                \
	MOVQ    R12, CX;                \
	LEAQ    (SI)(R9*1), DX;         \
	PBEGIN;                         \
pair:                              \
	MOVL    (DI), BX;               \
	VMOVDQU (SI)(BX*1), Y0;         \
	VMOVDQU (DX)(BX*1), Y6;         \
	CHUNKS(ROW2);                   \
	POP2;                           \
	ADDQ    R14, DI;                \
	DECQ    CX;                     \
	JNZ     pair;                   \
	PEND;                           \
	LEAQ    (SI)(R9*2), SI;         \
	SUBQ    $2, R8;                 \
	JMP     pairs;                  \
single:                            \
	TESTQ   R8, R8;                 \
	JZ      done;                   \
	MOVQ    R11, DI;                \
	MOVQ    R12, CX;                \
	SBEGIN;                         \
query:                             \
	MOVL    (DI), BX;               \
	VMOVDQU (SI)(BX*1), Y0;         \
	CHUNKS(ROW);                    \
	POPADD;                         \
	ADDQ    R14, DI;                \
	DECQ    CX;                     \
	JNZ     query;                  \
	SEND;                           \
	JMP     done

// LANES2BEGIN clears two batches' word sums (Y2, Y8); POPLANES2 adds Y0's and Y6's
// quadword popcounts to them; LANES2END stores both at R15 and moves it on.
#define LANES2BEGIN VPXOR Y2, Y2, Y2; VPXOR Y8, Y8, Y8
#define POPLANES2 POPADD; POPCNTB(Y6, Y7); VPSADBW Y5, Y6, Y6; VPADDQ Y6, Y8, Y8
#define LANES2END VMOVDQU Y2, (R15); VMOVDQU Y8, 32(R15); ADDQ $64, R15

// OFFSARGS loads the seven arguments countBatchesAVX2 and countBatchesAVX2Lanes share
// (tab, nb, bs, nch, offs, stride, nq) into the registers OFFSLOOP and UNROLLED use, bs
// and stride in bytes, and the popcount tables into Y3, Y4 and zero into Y5. Vet does not
// look inside macros: TestMatchKernels and TestMatchWeighted check both kernels.
#define OFFSARGS MOVQ tab+0(FP), SI; MOVQ nb+8(FP), R8; MOVQ bs+16(FP), R9; SHLQ $3, R9; MOVQ nch+24(FP), R10; MOVQ offs+32(FP), R11; MOVQ stride+40(FP), R14; SHLQ $2, R14; MOVQ nq+48(FP), R12; VMOVDQU popcntNibbles<>(SB), Y3; VMOVDQU lowNibbles<>(SB), Y4; VPXOR Y5, Y5, Y5

// OFFSDISPATCH(c1, …, c8) jumps to label ck for k = R10 chunks from 1 to 8, else falls
// through to the looped kernel with R10 less one.
#define OFFSDISPATCH(c1, c2, c3, c4, c5, c6, c7, c8) CMPQ R10, $1; JEQ c1; CMPQ R10, $2; JEQ c2; CMPQ R10, $3; JEQ c3; CMPQ R10, $4; JEQ c4; CMPQ R10, $5; JEQ c5; CMPQ R10, $6; JEQ c6; CMPQ R10, $7; JEQ c7; CMPQ R10, $8; JEQ c8; DECQ R10

// OFFSLOOP(batch, query, chunk, done, BEGIN, END) is the offsets kernel for more than 8
// chunks, a batch at a time: BEGIN before a batch's queries, END after them (LANESBEGIN
// and LANESEND keep each batch's word sums apart; NOBATCH, nothing).
#define OFFSLOOP(batch, query, chunk, done, BEGIN, END) \
batch:                           \
	TESTQ   R8, R8;               \
	JZ      done;                 \
	MOVQ    R11, DI;              \
	MOVQ    R12, CX;              \
	BEGIN;                        \
query:                           \
	MOVL    (DI), BX;             \
	VMOVDQU (SI)(BX*1), Y0;       \
	MOVQ    DI, DX;               \
	MOVQ    R10, R13;             \
chunk:                           \
	ADDQ    $4, DX;               \
	MOVL    (DX), BX;             \
	VPAND   (SI)(BX*1), Y0, Y0;   \
	DECQ    R13;                  \
	JNZ     chunk;                \
	POPADD;                       \
	ADDQ    R14, DI;              \
	DECQ    CX;                   \
	JNZ     query;                \
	END;                          \
	ADDQ    R9, SI;               \
	DECQ    R8;                   \
	JMP     batch

// LANESBEGIN clears a batch's word sums; LANESEND stores them at R15 and moves it on.
#define LANESBEGIN VPXOR Y2, Y2, Y2
#define LANESEND VMOVDQU Y2, (R15); ADDQ $32, R15
#define NOBATCH

// func countBatchesAVX2(tab *uint64, nb, bs, nch int, offs *uint32, stride, nq int) uint64
//
// The loops of countBatchesGo4 (match.go) on precomputed row offsets: for each of nb
// batches of bs words, for each of nq queries (stride uint32 offsets each, chunkOffsets),
// AND the 32-byte rows at tab[batch] + offs[query·stride + j] for chunks j < nch and add the
// popcount of the result: nibbles looked up with VPSHUFB, bytes summed into the four
// quadword accumulators of Y2 by VPSADBW. The query loop is unrolled for each nch from 1
// to 8 (two instructions a chunk, UNROLLED) and runs two batches at a time (one offset load
// for two row ANDs), then the odd last batch alone; more than 8 chunks take a loop.
TEXT ·countBatchesAVX2(SB), NOSPLIT, $0-64
	OFFSARGS
	VPXOR Y2, Y2, Y2
	OFFSDISPATCH(avx2b1, avx2b2, avx2b3, avx2b4, avx2b5, avx2b6, avx2b7, avx2b8)
	OFFSLOOP(avx2bn, avx2qn, avx2cn, avx2done, NOBATCH, NOBATCH)

	UNROLLED(avx2b1, avx2p1, avx2s1, avx2q1, CHUNKS1, avx2done, NOBATCH, POPADD2, NOBATCH, NOBATCH, NOBATCH)
	UNROLLED(avx2b2, avx2p2, avx2s2, avx2q2, CHUNKS2, avx2done, NOBATCH, POPADD2, NOBATCH, NOBATCH, NOBATCH)
	UNROLLED(avx2b3, avx2p3, avx2s3, avx2q3, CHUNKS3, avx2done, NOBATCH, POPADD2, NOBATCH, NOBATCH, NOBATCH)
	UNROLLED(avx2b4, avx2p4, avx2s4, avx2q4, CHUNKS4, avx2done, NOBATCH, POPADD2, NOBATCH, NOBATCH, NOBATCH)
	UNROLLED(avx2b5, avx2p5, avx2s5, avx2q5, CHUNKS5, avx2done, NOBATCH, POPADD2, NOBATCH, NOBATCH, NOBATCH)
	UNROLLED(avx2b6, avx2p6, avx2s6, avx2q6, CHUNKS6, avx2done, NOBATCH, POPADD2, NOBATCH, NOBATCH, NOBATCH)
	UNROLLED(avx2b7, avx2p7, avx2s7, avx2q7, CHUNKS7, avx2done, NOBATCH, POPADD2, NOBATCH, NOBATCH, NOBATCH)
	UNROLLED(avx2b8, avx2p8, avx2s8, avx2q8, CHUNKS8, avx2done, NOBATCH, POPADD2, NOBATCH, NOBATCH, NOBATCH)

avx2done:
	HSUM4
	MOVQ AX, ret+56(FP)
	RET

// func countBatchesAVX2Index(tab *uint64, nb, bs, nch int, cq *uint64, nq int) uint64
//
// The loops of countBatchesGo4 (match.go), each row's offset computed from the query
// (for stores of one or two batches, where making the offsets first costs as much as the
// matching): for each of nb batches of bs words, for
// each of nq queries, AND the 32-byte rows tab[batch + j·1024 + (c>>5j & 31)·32] of
// chunks j < nch and add the popcount of the result: nibbles looked up with VPSHUFB, bytes
// summed into the four quadword accumulators of Y2 by VPSADBW.
TEXT ·countBatchesAVX2Index(SB), NOSPLIT, $0-56
	INDEXARGS
	VPXOR   Y2, Y2, Y2
	VMOVDQU popcntNibbles<>(SB), Y3
	VMOVDQU lowNibbles<>(SB), Y4
	VPXOR   Y5, Y5, Y5
	INDEXED(idxBatch, idxQuery, idxChunk, idxChunksDone, idxDone, 5, 1024, VMOVDQU, VPAND, Y0, POPADD)

idxDone:
	HSUM4
	MOVQ AX, ret+48(FP)
	RET

// ROWZ(o) ANDs into Z0 the 64-byte row whose offset is the uint32 at o(DI).
#define ROWZ(o) MOVL o(DI), BX; VPANDQ (SI)(BX*1), Z0, Z0

// ROWZ2(o) ANDs into Z0 and Z6 the rows of two batches (at SI and DX) whose offset is the
// uint32 at o(DI).
#define ROWZ2(o) MOVL o(DI), BX; VPANDQ (SI)(BX*1), Z0, Z0; VPANDQ (DX)(BX*1), Z6, Z6

// ROWZ4(o) ANDs into Z0, Z6, Z8 and Z9 the rows of four batches (at SI, DX, AX and R13)
// whose offset is the uint32 at o(DI): one offset load for four row ANDs.
#define ROWZ4(o) MOVL o(DI), BX; VPANDQ (SI)(BX*1), Z0, Z0; VPANDQ (DX)(BX*1), Z6, Z6; VPANDQ (AX)(BX*1), Z8, Z8; VPANDQ (R13)(BX*1), Z9, Z9

// POPZ adds the popcounts of Z0's quadwords to Z2's; POPZ2 those of Z0 and Z6 (into Z2
// and Z3), POPZ4 those of Z0, Z6, Z8 and Z9 (into Z2, Z3, Z4, Z5).
#define POPZ VPOPCNTQ Z0, Z1; VPADDQ Z1, Z2, Z2
#define POPZ2 VPOPCNTQ Z0, Z1; VPADDQ Z1, Z2, Z2; VPOPCNTQ Z6, Z7; VPADDQ Z7, Z3, Z3
#define POPZ4 POPZ2; VPOPCNTQ Z8, Z10; VPADDQ Z10, Z4, Z4; VPOPCNTQ Z9, Z11; VPADDQ Z11, Z5, Z5

// UNROLLEDZ(quads, quad, pairs, pair, single, query, CHUNKS) is the AVX-512 offsets kernel
// for one number of chunks, at its six labels: batches four at a time (quads, looping over
// the queries at quad), then two (pairs), then the odd last batch alone (single), then
// z512done.
#define UNROLLEDZ(quads, quad, pairs, pair, single, query, CHUNKS) \
quads:                             \
	CMPQ      R8, $4;               \
	JLT       pairs;                \
	MOVQ      R11, DI;              \
	MOVQ      R12, CX;              \
	LEAQ      (SI)(R9*1), DX;       \
	LEAQ      (SI)(R9*2), AX;       \
	LEAQ      (DX)(R9*2), R13;      \
quad:                              \
	MOVL      (DI), BX;             \
	VMOVDQU64 (SI)(BX*1), Z0;       \
	VMOVDQU64 (DX)(BX*1), Z6;       \
	VMOVDQU64 (AX)(BX*1), Z8;       \
	VMOVDQU64 (R13)(BX*1), Z9;      \
	CHUNKS(ROWZ4);                  \
	POPZ4;                          \
	ADDQ      R14, DI;              \
	DECQ      CX;                   \
	JNZ       quad;                 \
	LEAQ      (SI)(R9*4), SI;       \
	SUBQ      $4, R8;               \
	JMP       quads;                \
pairs:                             \
	CMPQ      R8, $2;               \
	JLT       single;               \
	MOVQ      R11, DI;              \
	MOVQ      R12, CX;              \
	LEAQ      (SI)(R9*1), DX;       \
pair:                              \
	MOVL      (DI), BX;             \
	VMOVDQU64 (SI)(BX*1), Z0;       \
	VMOVDQU64 (DX)(BX*1), Z6;       \
	CHUNKS(ROWZ2);                  \
	POPZ2;                          \
	ADDQ      R14, DI;              \
	DECQ      CX;                   \
	JNZ       pair;                 \
	LEAQ      (SI)(R9*2), SI;       \
	SUBQ      $2, R8;               \
	JMP       pairs;                \
single:                            \
	TESTQ     R8, R8;               \
	JZ        z512done;             \
	MOVQ      R11, DI;              \
	MOVQ      R12, CX;              \
query:                             \
	MOVL      (DI), BX;             \
	VMOVDQU64 (SI)(BX*1), Z0;       \
	CHUNKS(ROWZ);                   \
	POPZ;                           \
	ADDQ      R14, DI;              \
	DECQ      CX;                   \
	JNZ       query;                \
	JMP       z512done

// func countBatchesAVX512Offs(tab *uint64, nb, bs, nch int, offs *uint32, stride, nq int) uint64
//
// countBatchesAVX2 for batches of 8 words (countBatchesGo8): for each of nb batches of bs
// words, for each of nq queries (stride uint32 offsets each, chunkOffsets), AND the 64-byte
// rows at tab[batch] + offs[query·stride + j] for chunks j < nch and add the VPOPCNTQ of the
// result. The query loop is unrolled for each nch from 1 to 8 and runs four batches at a
// time (one offset load for four row ANDs), then two, then the odd last one; more than 8
// chunks take a loop.
TEXT ·countBatchesAVX512Offs(SB), NOSPLIT, $0-64
	MOVQ   tab+0(FP), SI
	MOVQ   nb+8(FP), R8
	MOVQ   bs+16(FP), R9
	SHLQ   $3, R9
	MOVQ   nch+24(FP), R10
	MOVQ   offs+32(FP), R11
	MOVQ   stride+40(FP), R14
	SHLQ   $2, R14
	MOVQ   nq+48(FP), R12
	VPXORQ Z2, Z2, Z2
	VPXORQ Z3, Z3, Z3
	VPXORQ Z4, Z4, Z4
	VPXORQ Z5, Z5, Z5
	CMPQ   R10, $1
	JEQ    z512b1
	CMPQ   R10, $2
	JEQ    z512b2
	CMPQ   R10, $3
	JEQ    z512b3
	CMPQ   R10, $4
	JEQ    z512b4
	CMPQ   R10, $5
	JEQ    z512b5
	CMPQ   R10, $6
	JEQ    z512b6
	CMPQ   R10, $7
	JEQ    z512b7
	CMPQ   R10, $8
	JEQ    z512b8
	DECQ   R10

z512bn:
	TESTQ R8, R8
	JZ    z512done
	MOVQ  R11, DI
	MOVQ  R12, CX

z512qn:
	MOVL      (DI), BX
	VMOVDQU64 (SI)(BX*1), Z0
	MOVQ      DI, DX
	MOVQ      R10, R13

z512cn:
	ADDQ   $4, DX
	MOVL   (DX), BX
	VPANDQ (SI)(BX*1), Z0, Z0
	DECQ   R13
	JNZ    z512cn
	POPZ
	ADDQ   R14, DI
	DECQ   CX
	JNZ    z512qn
	ADDQ   R9, SI
	DECQ   R8
	JMP    z512bn

	UNROLLEDZ(z512b1, z512u1, z512p1, z512r1, z512s1, z512q1, CHUNKS1)
	UNROLLEDZ(z512b2, z512u2, z512p2, z512r2, z512s2, z512q2, CHUNKS2)
	UNROLLEDZ(z512b3, z512u3, z512p3, z512r3, z512s3, z512q3, CHUNKS3)
	UNROLLEDZ(z512b4, z512u4, z512p4, z512r4, z512s4, z512q4, CHUNKS4)
	UNROLLEDZ(z512b5, z512u5, z512p5, z512r5, z512s5, z512q5, CHUNKS5)
	UNROLLEDZ(z512b6, z512u6, z512p6, z512r6, z512s6, z512q6, CHUNKS6)
	UNROLLEDZ(z512b7, z512u7, z512p7, z512r7, z512s7, z512q7, CHUNKS7)
	UNROLLEDZ(z512b8, z512u8, z512p8, z512r8, z512s8, z512q8, CHUNKS8)

z512done:
	VPADDQ        Z3, Z2, Z2
	VPADDQ        Z5, Z4, Z4
	VPADDQ        Z4, Z2, Z2
	VEXTRACTI64X4 $1, Z2, Y1
	VPADDQ        Y1, Y2, Y2
	HSUM4
	MOVQ          AX, ret+56(FP)
	RET

// RI1(d, r, m), RI2 and RI4 AND into Z0 (and Z6, or Z6, Z8 and Z9) the rows of the chunk
// at d bytes into one batch (at SI; and DX, or DX, R10 and R13) that the query in AX
// names: its bits rotated right by r and masked by m are the row's byte offset (RORX
// and AND: two instructions a chunk, shared by the batches).
#define RI1(d, r, m) RORXQ $r, AX, BX; ANDL $m, BX; VPANDQ d(SI)(BX*1), Z0, Z0
#define RI2(d, r, m) RI1(d, r, m); VPANDQ d(DX)(BX*1), Z6, Z6
#define RI4(d, r, m) RI2(d, r, m); VPANDQ d(R10)(BX*1), Z8, Z8; VPANDQ d(R13)(BX*1), Z9, Z9

// TI1(d, r, m, d2, r2, m2), TI2 and TI4 AND into Z0 (and Z6, or Z6, Z8 and Z9) the rows
// of two chunks, at d and d2 bytes into each batch, that the query in AX names (rotations
// r and r2, masks m and m2, as RIn): the first row is loaded (Z16…Z19) and both are ANDed
// in by one VPTERNLOGQ (0x80: a AND b AND c), one vector operation for two rows where RIn
// takes two. The loads are the same; where the 512-bit ALU ports, not the loads, bound
// the kernel (Intel's two, against AMD Zen 5's four), it saves time.
#define TI1(d, r, m, d2, r2, m2) RORXQ $r, AX, BX; ANDL $m, BX; VMOVDQU64 d(SI)(BX*1), Z16; RORXQ $r2, AX, BX; ANDL $m2, BX; VPTERNLOGQ $0x80, d2(SI)(BX*1), Z16, Z0
#define TI2(d, r, m, d2, r2, m2) RORXQ $r, AX, BX; ANDL $m, BX; VMOVDQU64 d(SI)(BX*1), Z16; VMOVDQU64 d(DX)(BX*1), Z17; RORXQ $r2, AX, BX; ANDL $m2, BX; VPTERNLOGQ $0x80, d2(SI)(BX*1), Z16, Z0; VPTERNLOGQ $0x80, d2(DX)(BX*1), Z17, Z6
#define TI4(d, r, m, d2, r2, m2) RORXQ $r, AX, BX; ANDL $m, BX; VMOVDQU64 d(SI)(BX*1), Z16; VMOVDQU64 d(DX)(BX*1), Z17; VMOVDQU64 d(R10)(BX*1), Z18; VMOVDQU64 d(R13)(BX*1), Z19; RORXQ $r2, AX, BX; ANDL $m2, BX; VPTERNLOGQ $0x80, d2(SI)(BX*1), Z16, Z0; VPTERNLOGQ $0x80, d2(DX)(BX*1), Z17, Z6; VPTERNLOGQ $0x80, d2(R10)(BX*1), Z18, Z8; VPTERNLOGQ $0x80, d2(R13)(BX*1), Z19, Z9

// C5_k(R, T) and C6_k(R, T) are R(d, r, m) for each chunk after the first of k chunks of
// 5 or 6 bits (T unused): chunk j starts at j·32 or j·64 rows of 64 bytes, and its bits,
// from 5j or 6j, go to bit 6 by a right rotation of 5j−6 or 6j−6 (mod 64). C5T_k(R, T)
// and C6T_k(R, T) are the same rows two chunks at a time, T(d, r, d2, r2, m), and R for
// the last one where they are odd.
#define C5_1(R, T)
#define C5_2(R, T) R(2048, 63, 0x7c0)
#define C5_3(R, T) C5_2(R, T); R(4096, 4, 0x7c0)
#define C5_4(R, T) C5_3(R, T); R(6144, 9, 0x7c0)
#define C5_5(R, T) C5_4(R, T); R(8192, 14, 0x7c0)
#define C5_6(R, T) C5_5(R, T); R(10240, 19, 0x7c0)
#define C5_7(R, T) C5_6(R, T); R(12288, 24, 0x7c0)
#define C5_8(R, T) C5_7(R, T); R(14336, 29, 0x7c0)
#define C6_1(R, T)
#define C6_2(R, T) R(4096, 0, 0xfc0)
#define C6_3(R, T) C6_2(R, T); R(8192, 6, 0xfc0)
#define C6_4(R, T) C6_3(R, T); R(12288, 12, 0xfc0)
#define C6_5(R, T) C6_4(R, T); R(16384, 18, 0xfc0)
#define C6_6(R, T) C6_5(R, T); R(20480, 24, 0xfc0)
#define C6_7(R, T) C6_6(R, T); R(24576, 30, 0xfc0)
#define C6_8(R, T) C6_7(R, T); R(28672, 36, 0xfc0)
#define C5T_1(R, T)
#define C5T_2(R, T) R(2048, 63, 0x7c0)
#define C5T_3(R, T) T(2048, 63, 0x7c0, 4096, 4, 0x7c0)
#define C5T_4(R, T) C5T_3(R, T); R(6144, 9, 0x7c0)
#define C5T_5(R, T) C5T_3(R, T); T(6144, 9, 0x7c0, 8192, 14, 0x7c0)
#define C5T_6(R, T) C5T_5(R, T); R(10240, 19, 0x7c0)
#define C5T_7(R, T) C5T_5(R, T); T(10240, 19, 0x7c0, 12288, 24, 0x7c0)
#define C5T_8(R, T) C5T_7(R, T); R(14336, 29, 0x7c0)
#define C6T_1(R, T)
#define C6T_2(R, T) R(4096, 0, 0xfc0)
#define C6T_3(R, T) T(4096, 0, 0xfc0, 8192, 6, 0xfc0)
#define C6T_4(R, T) C6T_3(R, T); R(12288, 12, 0xfc0)
#define C6T_5(R, T) C6T_3(R, T); T(12288, 12, 0xfc0, 16384, 18, 0xfc0)
#define C6T_6(R, T) C6T_5(R, T); R(20480, 24, 0xfc0)
#define C6T_7(R, T) C6T_5(R, T); T(20480, 24, 0xfc0, 24576, 30, 0xfc0)
#define C6T_8(R, T) C6T_7(R, T); R(28672, 36, 0xfc0)

// M7_k(R, T) and M7T_k(R, T) are the same for the mixed layouts (mixedChunks, match.go):
// five chunks, the first k of 7 bits (128 rows, 8 KiB), the rest of 6 (64 rows, 4 KiB),
// k = 1…5 for 31…35 matched bits; the first chunk (7 bits, mask 0x1fc0) is GROUPED's.
// Chunk j starts at row 128·min(j, k) + 64·max(0, j − k) and at bit 7·min(j, k) +
// 6·max(0, j − k), brought to bit 6 by a right rotation of that less 6.
#define M7_1(R, T) R(8192, 1, 0xfc0); R(12288, 7, 0xfc0); R(16384, 13, 0xfc0); R(20480, 19, 0xfc0)
#define M7_2(R, T) R(8192, 1, 0x1fc0); R(16384, 8, 0xfc0); R(20480, 14, 0xfc0); R(24576, 20, 0xfc0)
#define M7_3(R, T) R(8192, 1, 0x1fc0); R(16384, 8, 0x1fc0); R(24576, 15, 0xfc0); R(28672, 21, 0xfc0)
#define M7_4(R, T) R(8192, 1, 0x1fc0); R(16384, 8, 0x1fc0); R(24576, 15, 0x1fc0); R(32768, 22, 0xfc0)
#define M7_5(R, T) R(8192, 1, 0x1fc0); R(16384, 8, 0x1fc0); R(24576, 15, 0x1fc0); R(32768, 22, 0x1fc0)
#define M7T_1(R, T) T(8192, 1, 0xfc0, 12288, 7, 0xfc0); T(16384, 13, 0xfc0, 20480, 19, 0xfc0)
#define M7T_2(R, T) T(8192, 1, 0x1fc0, 16384, 8, 0xfc0); T(20480, 14, 0xfc0, 24576, 20, 0xfc0)
#define M7T_3(R, T) T(8192, 1, 0x1fc0, 16384, 8, 0x1fc0); T(24576, 15, 0xfc0, 28672, 21, 0xfc0)
#define M7T_4(R, T) T(8192, 1, 0x1fc0, 16384, 8, 0x1fc0); T(24576, 15, 0x1fc0, 32768, 22, 0xfc0)
#define M7T_5(R, T) T(8192, 1, 0x1fc0, 16384, 8, 0x1fc0); T(24576, 15, 0x1fc0, 32768, 22, 0x1fc0)

// GROUPED(quads, quad, pairs, pair, single, query, m, CHUNKS, AFTER4, AFTER2, AFTER1, done)
// is countBatchesAVX512Index (AFTERn NOLANES, done zidone) or countBatchesAVX512IndexLanes
// (LANESn, zldone) for one chunk width (first chunk's mask m) and number of chunks, at its
// six labels: batches four at a time, then two, then the odd last one, each query's row
// offsets computed once for the group, AFTERn run after each group of n; then done.
#define GROUPED(quads, quad, pairs, pair, single, query, m, CHUNKS, AFTER4, AFTER2, AFTER1, done) \
quads:                             \
	CMPQ      R8, $4;               \
	JLT       pairs;                \
	MOVQ      R11, DI;              \
	MOVQ      R12, CX;              \
	LEAQ      (SI)(R9*1), DX;       \
	LEAQ      (SI)(R9*2), R10;      \
	LEAQ      (DX)(R9*2), R13;      \
quad:                              \
	MOVQ      (DI), AX;             \
	RORXQ     $58, AX, BX;          \
	ANDL      $m, BX;               \
	VMOVDQU64 (SI)(BX*1), Z0;       \
	VMOVDQU64 (DX)(BX*1), Z6;       \
	VMOVDQU64 (R10)(BX*1), Z8;      \
	VMOVDQU64 (R13)(BX*1), Z9;      \
	CHUNKS(RI4, TI4);               \
	POPZ4;                          \
	ADDQ      $8, DI;               \
	DECQ      CX;                   \
	JNZ       quad;                 \
	AFTER4;                         \
	LEAQ      (SI)(R9*4), SI;       \
	SUBQ      $4, R8;               \
	JMP       quads;                \
pairs:                             \
	CMPQ      R8, $2;               \
	JLT       single;               \
	MOVQ      R11, DI;              \
	MOVQ      R12, CX;              \
	LEAQ      (SI)(R9*1), DX;       \
pair:                              \
	MOVQ      (DI), AX;             \
	RORXQ     $58, AX, BX;          \
	ANDL      $m, BX;               \
	VMOVDQU64 (SI)(BX*1), Z0;       \
	VMOVDQU64 (DX)(BX*1), Z6;       \
	CHUNKS(RI2, TI2);               \
	POPZ2;                          \
	ADDQ      $8, DI;               \
	DECQ      CX;                   \
	JNZ       pair;                 \
	AFTER2;                         \
	LEAQ      (SI)(R9*2), SI;       \
	SUBQ      $2, R8;               \
	JMP       pairs;                \
single:                            \
	TESTQ     R8, R8;               \
	JZ        done;                 \
	ONEBATCH(query, m, CHUNKS, RI1, TI1, Z0, POPZ); \
	AFTER1;                         \
	JMP       done

// ONEBATCH(query, m, CHUNKS, R, T, first, POP) is the loop over one batch (at SI) of
// GROUPED and HALFLOOP: for each of R12 queries from R11, its first chunk's row (mask m)
// loaded into first, the rows of the chunks after it ANDed in (CHUNKS(R, T)), then POP.
#define ONEBATCH(query, m, CHUNKS, R, T, first, POP) \
	MOVQ      R11, DI;              \
	MOVQ      R12, CX;              \
query:                             \
	MOVQ      (DI), AX;             \
	RORXQ     $58, AX, BX;          \
	ANDL      $m, BX;               \
	VMOVDQU64 (SI)(BX*1), first;    \
	CHUNKS(R, T);                   \
	POP;                            \
	ADDQ      $8, DI;               \
	DECQ      CX;                   \
	JNZ       query

// NOLANES is GROUPED's AFTERn for countBatchesAVX512Index: nothing.
#define NOLANES

// DISPATCH7(not, x1, …, x5) jumps to xk for the mixed layout with k = R10 chunks of 7 bits
// (R14 = 7), else on to label not.
#define DISPATCH7(not, x1, x2, x3, x4, x5) \
	CMPQ R14, $7; JNE not;                                          \
	CMPQ R10, $1; JEQ x1; CMPQ R10, $2; JEQ x2; CMPQ R10, $3; JEQ x3; \
	CMPQ R10, $4; JEQ x4; JMP x5;                                    \
not:

// DISPATCH(six, f1, …, f8, s1, …, s8) jumps to fk for k = R10 chunks of 5 bits (R14 = 5)
// or, at label six, to sk for chunks of 6: the kernels' entry to their GROUPED loops.
#define DISPATCH(six, f1, f2, f3, f4, f5, f6, f7, f8, s1, s2, s3, s4, s5, s6, s7, s8) \
	CMPQ R14, $6; JEQ six;                                          \
	CMPQ R10, $1; JEQ f1; CMPQ R10, $2; JEQ f2; CMPQ R10, $3; JEQ f3; \
	CMPQ R10, $4; JEQ f4; CMPQ R10, $5; JEQ f5; CMPQ R10, $6; JEQ f6; \
	CMPQ R10, $7; JEQ f7; JMP f8;                                    \
six:                                                                \
	CMPQ R10, $1; JEQ s1; CMPQ R10, $2; JEQ s2; CMPQ R10, $3; JEQ s3; \
	CMPQ R10, $4; JEQ s4; CMPQ R10, $5; JEQ s5; CMPQ R10, $6; JEQ s6; \
	CMPQ R10, $7; JEQ s7; JMP s8

// INDEXBODY(c5_1, …, c5_8, c6_1, …, c6_8) is the body of countBatchesAVX512Index and
// its ternlog twin after their arguments: the dispatch on the chunks and a GROUPED loop
// for each, ANDing the rows by the chains given (C5_k and C6_k, or C5T_k and C6T_k).
#define INDEXBODY(c5_1, c5_2, c5_3, c5_4, c5_5, c5_6, c5_7, c5_8, c6_1, c6_2, c6_3, c6_4, c6_5, c6_6, c6_7, c6_8, m7_1, m7_2, m7_3, m7_4, m7_5) \
	DISPATCH7(zi7not, zi7b1, zi7b2, zi7b3, zi7b4, zi7b5) \
	DISPATCH(zi6, zi5b1, zi5b2, zi5b3, zi5b4, zi5b5, zi5b6, zi5b7, zi5b8, zi6b1, zi6b2, zi6b3, zi6b4, zi6b5, zi6b6, zi6b7, zi6b8) \
	GROUPED(zi5b1, zi5u1, zi5p1, zi5r1, zi5s1, zi5q1, 0x7c0, c5_1, NOLANES, NOLANES, NOLANES, zidone) \
	GROUPED(zi5b2, zi5u2, zi5p2, zi5r2, zi5s2, zi5q2, 0x7c0, c5_2, NOLANES, NOLANES, NOLANES, zidone) \
	GROUPED(zi5b3, zi5u3, zi5p3, zi5r3, zi5s3, zi5q3, 0x7c0, c5_3, NOLANES, NOLANES, NOLANES, zidone) \
	GROUPED(zi5b4, zi5u4, zi5p4, zi5r4, zi5s4, zi5q4, 0x7c0, c5_4, NOLANES, NOLANES, NOLANES, zidone) \
	GROUPED(zi5b5, zi5u5, zi5p5, zi5r5, zi5s5, zi5q5, 0x7c0, c5_5, NOLANES, NOLANES, NOLANES, zidone) \
	GROUPED(zi5b6, zi5u6, zi5p6, zi5r6, zi5s6, zi5q6, 0x7c0, c5_6, NOLANES, NOLANES, NOLANES, zidone) \
	GROUPED(zi5b7, zi5u7, zi5p7, zi5r7, zi5s7, zi5q7, 0x7c0, c5_7, NOLANES, NOLANES, NOLANES, zidone) \
	GROUPED(zi5b8, zi5u8, zi5p8, zi5r8, zi5s8, zi5q8, 0x7c0, c5_8, NOLANES, NOLANES, NOLANES, zidone) \
	GROUPED(zi6b1, zi6u1, zi6p1, zi6r1, zi6s1, zi6q1, 0xfc0, c6_1, NOLANES, NOLANES, NOLANES, zidone) \
	GROUPED(zi6b2, zi6u2, zi6p2, zi6r2, zi6s2, zi6q2, 0xfc0, c6_2, NOLANES, NOLANES, NOLANES, zidone) \
	GROUPED(zi6b3, zi6u3, zi6p3, zi6r3, zi6s3, zi6q3, 0xfc0, c6_3, NOLANES, NOLANES, NOLANES, zidone) \
	GROUPED(zi6b4, zi6u4, zi6p4, zi6r4, zi6s4, zi6q4, 0xfc0, c6_4, NOLANES, NOLANES, NOLANES, zidone) \
	GROUPED(zi6b5, zi6u5, zi6p5, zi6r5, zi6s5, zi6q5, 0xfc0, c6_5, NOLANES, NOLANES, NOLANES, zidone) \
	GROUPED(zi6b6, zi6u6, zi6p6, zi6r6, zi6s6, zi6q6, 0xfc0, c6_6, NOLANES, NOLANES, NOLANES, zidone) \
	GROUPED(zi6b7, zi6u7, zi6p7, zi6r7, zi6s7, zi6q7, 0xfc0, c6_7, NOLANES, NOLANES, NOLANES, zidone) \
	GROUPED(zi6b8, zi6u8, zi6p8, zi6r8, zi6s8, zi6q8, 0xfc0, c6_8, NOLANES, NOLANES, NOLANES, zidone) \
	GROUPED(zi7b1, zi7u1, zi7p1, zi7r1, zi7s1, zi7q1, 0x1fc0, m7_1, NOLANES, NOLANES, NOLANES, zidone) \
	GROUPED(zi7b2, zi7u2, zi7p2, zi7r2, zi7s2, zi7q2, 0x1fc0, m7_2, NOLANES, NOLANES, NOLANES, zidone) \
	GROUPED(zi7b3, zi7u3, zi7p3, zi7r3, zi7s3, zi7q3, 0x1fc0, m7_3, NOLANES, NOLANES, NOLANES, zidone) \
	GROUPED(zi7b4, zi7u4, zi7p4, zi7r4, zi7s4, zi7q4, 0x1fc0, m7_4, NOLANES, NOLANES, NOLANES, zidone) \
	GROUPED(zi7b5, zi7u5, zi7p5, zi7r5, zi7s5, zi7q5, 0x1fc0, m7_5, NOLANES, NOLANES, NOLANES, zidone) \
zidone: \
	VPADDQ        Z3, Z2, Z2 \
	VPADDQ        Z5, Z4, Z4 \
	VPADDQ        Z4, Z2, Z2 \
	VEXTRACTI64X4 $1, Z2, Y1 \
	VPADDQ        Y1, Y2, Y2 \
	HSUM4

// func countBatchesAVX512Index(tab *uint64, nb, bs, nch, cb int, cq *uint64, nq int) uint64
//
// countBatchesGo8 for chunks of cb = 5 or 6 bits and nch = 1…8 chunks, or for cb = 7 the
// mixed layout of five chunks whose first nch = 1…5 are 7 bits wide (the caller checks):
// for each group of four batches (then two, then one) of bs words, for each of nq queries
// (uint64s at cq), AND the 64-byte rows that the query's chunks name (chunkSpan: tab[batch
// + (j·2^cb + the query's j-th chunk)·8] for one width) and add the VPOPCNTQ of the
// result. A query's row offsets are computed once a group (RORX and AND, BMI2), so no
// offsets are made beforehand.
TEXT ·countBatchesAVX512Index(SB), NOSPLIT, $0-64
	ZINDEXARGS
	INDEXBODY(C5_1, C5_2, C5_3, C5_4, C5_5, C5_6, C5_7, C5_8, C6_1, C6_2, C6_3, C6_4, C6_5, C6_6, C6_7, C6_8, M7_1, M7_2, M7_3, M7_4, M7_5)
	MOVQ AX, ret+56(FP)
	RET

// func countBatchesAVX512IndexT(tab *uint64, nb, bs, nch, cb int, cq *uint64, nq int) uint64
//
// countBatchesAVX512Index ANDing the rows of two chunks at a time by one VPTERNLOGQ
// (C5T_k, C6T_k): the same loads and sums, about half the row ANDs.
TEXT ·countBatchesAVX512IndexT(SB), NOSPLIT, $0-64
	ZINDEXARGS
	INDEXBODY(C5T_1, C5T_2, C5T_3, C5T_4, C5T_5, C5T_6, C5T_7, C5T_8, C6T_1, C6T_2, C6T_3, C6T_4, C6T_5, C6T_6, C6T_7, C6T_8, M7T_1, M7T_2, M7T_3, M7T_4, M7T_5)
	MOVQ AX, ret+56(FP)
	RET

// LANES1, LANES2 and LANES4 store the first 1, 2 or 4 of Z2, Z3, Z4, Z5 (the word sums
// of a group's batches) at R15, move R15 on past them and clear them.
#define LANES1 VMOVDQU64 Z2, (R15); ADDQ $64, R15; VPXORQ Z2, Z2, Z2
#define LANES2 VMOVDQU64 Z2, (R15); VMOVDQU64 Z3, 64(R15); ADDQ $128, R15; VPXORQ Z2, Z2, Z2; VPXORQ Z3, Z3, Z3
#define LANES4 VMOVDQU64 Z2, (R15); VMOVDQU64 Z3, 64(R15); VMOVDQU64 Z4, 128(R15); VMOVDQU64 Z5, 192(R15); ADDQ $256, R15; VPXORQ Z2, Z2, Z2; VPXORQ Z3, Z3, Z3; VPXORQ Z4, Z4, Z4; VPXORQ Z5, Z5, Z5

// func countBatchesAVX512IndexLanes(tab *uint64, nb, bs, nch, cb int, cq *uint64, nq int, out *uint64)
//
// countBatchesAVX512Index keeping the words apart: out[8·b + w] is the number of lanes of
// word w of batch b that the nq queries (nq ≥ 1) leave set, summed over the queries, for
// each of the nb batches.
TEXT ·countBatchesAVX512IndexLanes(SB), NOSPLIT, $0-64
	ZINDEXARGS
	MOVQ out+56(FP), R15
	DISPATCH(zl6, zl5b1, zl5b2, zl5b3, zl5b4, zl5b5, zl5b6, zl5b7, zl5b8, zl6b1, zl6b2, zl6b3, zl6b4, zl6b5, zl6b6, zl6b7, zl6b8)

	GROUPED(zl5b1, zl5u1, zl5p1, zl5r1, zl5s1, zl5q1, 0x7c0, C5_1, LANES4, LANES2, LANES1, zldone)
	GROUPED(zl5b2, zl5u2, zl5p2, zl5r2, zl5s2, zl5q2, 0x7c0, C5_2, LANES4, LANES2, LANES1, zldone)
	GROUPED(zl5b3, zl5u3, zl5p3, zl5r3, zl5s3, zl5q3, 0x7c0, C5_3, LANES4, LANES2, LANES1, zldone)
	GROUPED(zl5b4, zl5u4, zl5p4, zl5r4, zl5s4, zl5q4, 0x7c0, C5_4, LANES4, LANES2, LANES1, zldone)
	GROUPED(zl5b5, zl5u5, zl5p5, zl5r5, zl5s5, zl5q5, 0x7c0, C5_5, LANES4, LANES2, LANES1, zldone)
	GROUPED(zl5b6, zl5u6, zl5p6, zl5r6, zl5s6, zl5q6, 0x7c0, C5_6, LANES4, LANES2, LANES1, zldone)
	GROUPED(zl5b7, zl5u7, zl5p7, zl5r7, zl5s7, zl5q7, 0x7c0, C5_7, LANES4, LANES2, LANES1, zldone)
	GROUPED(zl5b8, zl5u8, zl5p8, zl5r8, zl5s8, zl5q8, 0x7c0, C5_8, LANES4, LANES2, LANES1, zldone)
	GROUPED(zl6b1, zl6u1, zl6p1, zl6r1, zl6s1, zl6q1, 0xfc0, C6_1, LANES4, LANES2, LANES1, zldone)
	GROUPED(zl6b2, zl6u2, zl6p2, zl6r2, zl6s2, zl6q2, 0xfc0, C6_2, LANES4, LANES2, LANES1, zldone)
	GROUPED(zl6b3, zl6u3, zl6p3, zl6r3, zl6s3, zl6q3, 0xfc0, C6_3, LANES4, LANES2, LANES1, zldone)
	GROUPED(zl6b4, zl6u4, zl6p4, zl6r4, zl6s4, zl6q4, 0xfc0, C6_4, LANES4, LANES2, LANES1, zldone)
	GROUPED(zl6b5, zl6u5, zl6p5, zl6r5, zl6s5, zl6q5, 0xfc0, C6_5, LANES4, LANES2, LANES1, zldone)
	GROUPED(zl6b6, zl6u6, zl6p6, zl6r6, zl6s6, zl6q6, 0xfc0, C6_6, LANES4, LANES2, LANES1, zldone)
	GROUPED(zl6b7, zl6u7, zl6p7, zl6r7, zl6s7, zl6q7, 0xfc0, C6_7, LANES4, LANES2, LANES1, zldone)
	GROUPED(zl6b8, zl6u8, zl6p8, zl6r8, zl6s8, zl6q8, 0xfc0, C6_8, LANES4, LANES2, LANES1, zldone)

zldone:
	VZEROUPPER
	RET

// func countBatchesAVX2Lanes(tab *uint64, nb, bs, nch int, offs *uint32, stride, nq int, out *uint64)
//
// countBatchesAVX2 keeping the words apart (countBatchesGoLanes): out[4·b + w] is the
// number of lanes of word w of batch b that the nq queries (nq ≥ 1; stride uint32 chunk
// offsets each) leave set, summed over the queries, for each of the nb batches. VPSADBW
// leaves each quadword's popcount in its own lane, so the per-word sums cost nothing more
// than countBatchesAVX2's total; only the two batches of a pair are summed apart.
TEXT ·countBatchesAVX2Lanes(SB), NOSPLIT, $0-64
	OFFSARGS
	MOVQ out+56(FP), R15
	OFFSDISPATCH(avx2l1, avx2l2, avx2l3, avx2l4, avx2l5, avx2l6, avx2l7, avx2l8)
	OFFSLOOP(avx2ln, avx2lqn, avx2lcn, avx2ldone, LANESBEGIN, LANESEND)

	UNROLLED(avx2l1, avx2lp1, avx2ls1, avx2lq1, CHUNKS1, avx2ldone, LANES2BEGIN, POPLANES2, LANES2END, LANESBEGIN, LANESEND)
	UNROLLED(avx2l2, avx2lp2, avx2ls2, avx2lq2, CHUNKS2, avx2ldone, LANES2BEGIN, POPLANES2, LANES2END, LANESBEGIN, LANESEND)
	UNROLLED(avx2l3, avx2lp3, avx2ls3, avx2lq3, CHUNKS3, avx2ldone, LANES2BEGIN, POPLANES2, LANES2END, LANESBEGIN, LANESEND)
	UNROLLED(avx2l4, avx2lp4, avx2ls4, avx2lq4, CHUNKS4, avx2ldone, LANES2BEGIN, POPLANES2, LANES2END, LANESBEGIN, LANESEND)
	UNROLLED(avx2l5, avx2lp5, avx2ls5, avx2lq5, CHUNKS5, avx2ldone, LANES2BEGIN, POPLANES2, LANES2END, LANESBEGIN, LANESEND)
	UNROLLED(avx2l6, avx2lp6, avx2ls6, avx2lq6, CHUNKS6, avx2ldone, LANES2BEGIN, POPLANES2, LANES2END, LANESBEGIN, LANESEND)
	UNROLLED(avx2l7, avx2lp7, avx2ls7, avx2lq7, CHUNKS7, avx2ldone, LANES2BEGIN, POPLANES2, LANES2END, LANESBEGIN, LANESEND)
	UNROLLED(avx2l8, avx2lp8, avx2ls8, avx2lq8, CHUNKS8, avx2ldone, LANES2BEGIN, POPLANES2, LANES2END, LANESBEGIN, LANESEND)

avx2ldone:
	VZEROUPPER
	RET

// Words of 1 (VPMADDWD's pairs summed) and the low doubleword of each quadword.
DATA wordOnes<>+0(SB)/8, $0x0001000100010001
DATA wordOnes<>+8(SB)/8, $0x0001000100010001
DATA wordOnes<>+16(SB)/8, $0x0001000100010001
DATA wordOnes<>+24(SB)/8, $0x0001000100010001
GLOBL wordOnes<>(SB), RODATA|NOPTR, $32

DATA lowDwords<>+0(SB)/8, $0x00000000ffffffff
DATA lowDwords<>+8(SB)/8, $0x00000000ffffffff
DATA lowDwords<>+16(SB)/8, $0x00000000ffffffff
DATA lowDwords<>+24(SB)/8, $0x00000000ffffffff
GLOBL lowDwords<>(SB), RODATA|NOPTR, $32

// WBLOCK starts a block of at most 31 of the CX queries left (R13 of them, taken from
// CX) with the byte sums Y8 and Y11 cleared: 31 queries leave at most 248 in a byte.
#define WBLOCK MOVQ $31, R13; CMPQ CX, R13; CMOVQLT CX, R13; SUBQ R13, CX; VPXOR Y8, Y8, Y8; VPXOR Y11, Y11, Y11

// WDWORDS adds Y8's eight doublewords (each below 2^17) to Y2's four quadword sums (Y14
// scratch).
#define WDWORDS VPSRLQ $32, Y8, Y14; VPAND Y13, Y8, Y8; VPADDQ Y14, Y2, Y2; VPADDQ Y8, Y2, Y2

// WFLUSH2 weighs the byte sums of two batches (Y8 by Y9's weights, Y11 by Y10's) and adds
// them to Y2. With sums of at most 248 and weights of at most 64 a word of VPMADDUBSW is at
// most 31,744 (no saturation), a doubleword of VPMADDWD 63,488, of both batches 126,976.
#define WFLUSH2 VPMADDUBSW Y9, Y8, Y8; VPMADDUBSW Y10, Y11, Y11; VPMADDWD Y12, Y8, Y8; VPMADDWD Y12, Y11, Y11; VPADDD Y11, Y8, Y8; WDWORDS

// WFLUSH1 weighs the byte sums of one batch (Y8 by Y9's weights) and adds them to Y2.
#define WFLUSH1 VPMADDUBSW Y9, Y8, Y8; VPMADDWD Y12, Y8, Y8; WDWORDS

// WUNROLLED(pairs, block2, pair, single, block1, query, CHUNKS, done) is
// countBatchesAVX2Weighted for one number of chunks, at its six labels: batches two at a
// time (pairs; their weights from R15 in Y9 and Y10), the queries in blocks of at most 31
// (block2) looping at pair, each row's byte popcounts added to Y8 and Y11 and weighed at
// the block's end (WFLUSH2); then the odd last batch alone (single, block1, query).
#define WUNROLLED(pairs, block2, pair, single, block1, query, CHUNKS, done) \
pairs:                             \
	CMPQ    R8, $2;                 \
	JLT     single;                 \
	MOVQ    R11, DI;                \
	MOVQ    R12, CX;                \
	LEAQ    (SI)(R9*1), DX;         \
	VMOVDQU (R15), Y9;              \
	VMOVDQU 32(R15), Y10;           \
block2:                            \
	WBLOCK;                         \
pair:                              \
	MOVL    (DI), BX;               \
	VMOVDQU (SI)(BX*1), Y0;         \
	VMOVDQU (DX)(BX*1), Y6;         \
	CHUNKS(ROW2);                   \
	POPCNTB(Y0, Y1);                \
	POPCNTB(Y6, Y7);                \
	VPADDB  Y0, Y8, Y8;             \
	VPADDB  Y6, Y11, Y11;           \
	ADDQ    R14, DI;                \
	DECQ    R13;                    \
	JNZ     pair;                   \
	WFLUSH2;                        \
	TESTQ   CX, CX;                 \
	JNZ     block2;                 \
	ADDQ    $64, R15;               \
	LEAQ    (SI)(R9*2), SI;         \
	SUBQ    $2, R8;                 \
	JMP     pairs;                  \
single:                            \
	TESTQ   R8, R8;                 \
	JZ      done;                   \
	MOVQ    R11, DI;                \
	MOVQ    R12, CX;                \
	VMOVDQU (R15), Y9;              \
block1:                            \
	WBLOCK;                         \
query:                             \
	MOVL    (DI), BX;               \
	VMOVDQU (SI)(BX*1), Y0;         \
	CHUNKS(ROW);                    \
	POPCNTB(Y0, Y1);                \
	VPADDB  Y0, Y8, Y8;             \
	ADDQ    R14, DI;                \
	DECQ    R13;                    \
	JNZ     query;                  \
	WFLUSH1;                        \
	TESTQ   CX, CX;                 \
	JNZ     block1;                 \
	JMP     done

// func countBatchesAVX2Weighted(tab *uint64, nb, bs, nch int, offs *uint32, stride, nq int, wts *uint8) uint64
//
// countBatchesAVX2 weighing each lane (countBatchesGoWeighted, match.go): for each of nb
// batches of bs words (two at a time, then the odd last one), for each of the nq ≥ 1
// queries (stride uint32 chunk offsets each), AND the 32-byte rows of its 1 to 8 chunks
// (the query loop unrolled for each count), look up the nibbles' popcounts (VPSHUFB) and
// add the 32 byte counts bytewise. After each block of at most 31 queries the byte sums are
// multiplied by the batch's 32 byte weights at wts (VPMADDUBSW: unsigned counts, signed
// weights of at most 64), summed in pairs of words (VPMADDWD) and added to four quadword sums. So the
// weights cost two instructions a block, not a query, and the bytewise sums replace
// countBatchesAVX2's VPSADBW a query.
TEXT ·countBatchesAVX2Weighted(SB), NOSPLIT, $0-72
	OFFSARGS
	MOVQ    wts+56(FP), R15
	VPXOR   Y2, Y2, Y2
	VMOVDQU wordOnes<>(SB), Y12
	VMOVDQU lowDwords<>(SB), Y13
	CMPQ R10, $1; JEQ avx2w1; CMPQ R10, $2; JEQ avx2w2; CMPQ R10, $3; JEQ avx2w3; CMPQ R10, $4; JEQ avx2w4
	CMPQ R10, $5; JEQ avx2w5; CMPQ R10, $6; JEQ avx2w6; CMPQ R10, $7; JEQ avx2w7
	JMP avx2w8

	WUNROLLED(avx2w1, avx2wb1, avx2wp1, avx2ws1, avx2wc1, avx2wq1, CHUNKS1, avx2wdone)
	WUNROLLED(avx2w2, avx2wb2, avx2wp2, avx2ws2, avx2wc2, avx2wq2, CHUNKS2, avx2wdone)
	WUNROLLED(avx2w3, avx2wb3, avx2wp3, avx2ws3, avx2wc3, avx2wq3, CHUNKS3, avx2wdone)
	WUNROLLED(avx2w4, avx2wb4, avx2wp4, avx2ws4, avx2wc4, avx2wq4, CHUNKS4, avx2wdone)
	WUNROLLED(avx2w5, avx2wb5, avx2wp5, avx2ws5, avx2wc5, avx2wq5, CHUNKS5, avx2wdone)
	WUNROLLED(avx2w6, avx2wb6, avx2wp6, avx2ws6, avx2wc6, avx2wq6, CHUNKS6, avx2wdone)
	WUNROLLED(avx2w7, avx2wb7, avx2wp7, avx2ws7, avx2wc7, avx2wq7, CHUNKS7, avx2wdone)
	WUNROLLED(avx2w8, avx2wb8, avx2wp8, avx2ws8, avx2wc8, avx2wq8, CHUNKS8, avx2wdone)

avx2wdone:
	HSUM4
	MOVQ AX, ret+64(FP)
	RET

// Words of 4: VPMADDWD's pairs summed and weighed 4 (the fours of a carry-save count).
DATA wordFours<>+0(SB)/8, $0x0004000400040004
DATA wordFours<>+8(SB)/8, $0x0004000400040004
DATA wordFours<>+16(SB)/8, $0x0004000400040004
DATA wordFours<>+24(SB)/8, $0x0004000400040004
GLOBL wordFours<>(SB), RODATA|NOPTR, $32

// ROW2B(o) is ROW2 into Y1 and Y7.
#define ROW2B(o) MOVL o(DI), BX; VPAND (SI)(BX*1), Y1, Y1; VPAND (DX)(BX*1), Y7, Y7

// ROW1B(o) is ROW into Y1.
#define ROW1B(o) MOVL o(DI), BX; VPAND (SI)(BX*1), Y1, Y1

// QUERY2(a, b, CHUNKS, R) ANDs into a and b the rows of the query at DI (its first row
// loaded) in the two batches at SI and DX, R being ROW2 (into Y0, Y6) or ROW2B (Y1,
// Y7), and moves DI to the next query. QUERY1(a, CHUNKS, R) is the same for the batch at SI.
#define QUERY2(a, b, CHUNKS, R) MOVL (DI), BX; VMOVDQU (SI)(BX*1), a; VMOVDQU (DX)(BX*1), b; CHUNKS(R); ADDQ R14, DI
#define QUERY1(a, CHUNKS, R) MOVL (DI), BX; VMOVDQU (SI)(BX*1), a; CHUNKS(R); ADDQ R14, DI

// CSA(h, l, a, b) is a carry-save adder of 256 one-bit lanes (Y14 scratch): l becomes
// l XOR a XOR b (the sum bits) and h the majority of l, a and b (the carries, which weigh
// twice as much); h may be a.
#define CSA(h, l, a, b) VPXOR a, l, Y14; VPAND a, l, h; VPXOR b, Y14, l; VPAND b, Y14, Y14; VPOR Y14, h, h

// HSBLOCK starts a block of at most 31 of the CX groups of four queries left (R13 of
// them, taken from CX) with the fours' byte sums Y8 and Y11 cleared: 31 groups leave at
// most 248 in a byte.
#define HSBLOCK MOVQ $31, R13; CMPQ CX, R13; CMOVQLT CX, R13; SUBQ R13, CX; VPXOR Y8, Y8, Y8; VPXOR Y11, Y11, Y11

// HSDWORDS(y) adds y's eight doublewords (each below 2^19) to Y2's four quadword sums.
#define HSDWORDS(y) VPSRLQ $32, y, Y14; VPAND lowDwords<>(SB), y, y; VPADDQ Y14, Y2, Y2; VPADDQ y, Y2, Y2

// HSFLUSH2 weighs the fours' byte sums of two batches (Y8 by the weights at R15, Y11 by
// those at 32(R15)), four times, and adds them to Y2: with sums of at most 248 and weights
// of at most 64 a word of VPMADDUBSW is at most 31,744, a doubleword of VPMADDWD by 4
// 253,952, of both batches 507,904. HSFLUSH1 is the same for the batch of Y8.
#define HSFLUSH2 VPMADDUBSW (R15), Y8, Y8; VPMADDUBSW 32(R15), Y11, Y11; VPMADDWD wordFours<>(SB), Y8, Y8; VPMADDWD wordFours<>(SB), Y11, Y11; VPADDD Y11, Y8, Y8; HSDWORDS(Y8)
#define HSFLUSH1 VPMADDUBSW (R15), Y8, Y8; VPMADDWD wordFours<>(SB), Y8, Y8; HSDWORDS(Y8)

// HSREST2 adds what the ones (Y9, Y10) and twos (Y12, Y13) of two batches hold at the end
// of the queries, each lane's ones plus twice its twos (at most 24 a byte), weighed by the
// weights at R15 and 32(R15), to Y2. HSREST1 is the same for the batch of Y9 and Y12.
#define HSREST2 POPCNTB(Y9, Y1); POPCNTB(Y12, Y7); VPADDB Y12, Y12, Y12; VPADDB Y12, Y9, Y9; POPCNTB(Y10, Y1); POPCNTB(Y13, Y7); VPADDB Y13, Y13, Y13; VPADDB Y13, Y10, Y10; VPMADDUBSW (R15), Y9, Y9; VPMADDUBSW 32(R15), Y10, Y10; VPMADDWD wordOnes<>(SB), Y9, Y9; VPMADDWD wordOnes<>(SB), Y10, Y10; VPADDD Y10, Y9, Y9; HSDWORDS(Y9)
#define HSREST1 POPCNTB(Y9, Y1); POPCNTB(Y12, Y7); VPADDB Y12, Y12, Y12; VPADDB Y12, Y9, Y9; VPMADDUBSW (R15), Y9, Y9; VPMADDWD wordOnes<>(SB), Y9, Y9; HSDWORDS(Y9)

// HSUNROLLED(pairs, block2, group2, single, block1, group1, CHUNKS, done) is
// countBatchesAVX2WeightedHS for one number of chunks, at its six labels: batches two at
// a time (pairs), the queries four at a time (group2) in blocks of at most 31 groups
// (block2), each batch's four rows added into its ones (Y9, Y10) and twos (Y12, Y13) by
// three carry-save adders, the carries out of the twos (each lane's fours) counted by one
// byte popcount into Y8 and Y11 and weighed at the block's end (HSFLUSH2), the ones and
// twos after the last block (HSREST2); then the odd last batch alone (single, block1,
// group1).
#define HSUNROLLED(pairs, block2, group2, single, block1, group1, CHUNKS, done) \
pairs:                             \
	CMPQ    R8, $2;                 \
	JLT     single;                 \
	MOVQ    R11, DI;                \
	MOVQ    R12, CX;                \
	LEAQ    (SI)(R9*1), DX;         \
	VPXOR   Y9, Y9, Y9;             \
	VPXOR   Y10, Y10, Y10;          \
	VPXOR   Y12, Y12, Y12;          \
	VPXOR   Y13, Y13, Y13;          \
block2:                            \
	HSBLOCK;                        \
group2:                            \
	QUERY2(Y0, Y6, CHUNKS, ROW2);   \
	QUERY2(Y1, Y7, CHUNKS, ROW2B);  \
	CSA(Y5, Y9, Y0, Y1);            \
	CSA(Y15, Y10, Y6, Y7);          \
	QUERY2(Y0, Y6, CHUNKS, ROW2);   \
	QUERY2(Y1, Y7, CHUNKS, ROW2B);  \
	CSA(Y0, Y9, Y0, Y1);            \
	CSA(Y6, Y10, Y6, Y7);           \
	CSA(Y5, Y12, Y5, Y0);           \
	CSA(Y15, Y13, Y15, Y6);         \
	POPCNTB(Y5, Y1);                \
	VPADDB  Y5, Y8, Y8;             \
	POPCNTB(Y15, Y7);               \
	VPADDB  Y15, Y11, Y11;          \
	DECQ    R13;                    \
	JNZ     group2;                 \
	HSFLUSH2;                       \
	TESTQ   CX, CX;                 \
	JNZ     block2;                 \
	HSREST2;                        \
	ADDQ    $64, R15;               \
	LEAQ    (SI)(R9*2), SI;         \
	SUBQ    $2, R8;                 \
	JMP     pairs;                  \
single:                            \
	TESTQ   R8, R8;                 \
	JZ      done;                   \
	MOVQ    R11, DI;                \
	MOVQ    R12, CX;                \
	VPXOR   Y9, Y9, Y9;             \
	VPXOR   Y12, Y12, Y12;          \
block1:                            \
	HSBLOCK;                        \
group1:                            \
	QUERY1(Y0, CHUNKS, ROW);        \
	QUERY1(Y1, CHUNKS, ROW1B);      \
	CSA(Y5, Y9, Y0, Y1);            \
	QUERY1(Y0, CHUNKS, ROW);        \
	QUERY1(Y1, CHUNKS, ROW1B);      \
	CSA(Y0, Y9, Y0, Y1);            \
	CSA(Y5, Y12, Y5, Y0);           \
	POPCNTB(Y5, Y1);                \
	VPADDB  Y5, Y8, Y8;             \
	DECQ    R13;                    \
	JNZ     group1;                 \
	HSFLUSH1;                       \
	TESTQ   CX, CX;                 \
	JNZ     block1;                 \
	HSREST1;                        \
	JMP     done

// func countBatchesAVX2WeightedHS(tab *uint64, nb, bs, nch int, offs *uint32, stride, nq int, wts *uint8) uint64
//
// countBatchesAVX2Weighted with a carry-save (Harley–Seal) count across the queries: nq a
// positive multiple of 4, nch from 1 to 8. For each pair of batches (then the odd last
// one), each group of four queries' rows go through three carry-save adders into each
// batch's ones and twos, and only the carries out of the twos are popcounted (VPSHUFB on
// nibbles) and summed bytewise: one byte popcount a batch for four queries instead of
// four, for fifteen bitwise operations.
TEXT ·countBatchesAVX2WeightedHS(SB), NOSPLIT, $0-72
	MOVQ    tab+0(FP), SI
	MOVQ    nb+8(FP), R8
	MOVQ    bs+16(FP), R9
	SHLQ    $3, R9
	MOVQ    nch+24(FP), R10
	MOVQ    offs+32(FP), R11
	MOVQ    stride+40(FP), R14
	SHLQ    $2, R14
	MOVQ    nq+48(FP), R12
	SHRQ    $2, R12
	MOVQ    wts+56(FP), R15
	VMOVDQU popcntNibbles<>(SB), Y3
	VMOVDQU lowNibbles<>(SB), Y4
	VPXOR   Y2, Y2, Y2
	CMPQ R10, $1; JEQ hs1; CMPQ R10, $2; JEQ hs2; CMPQ R10, $3; JEQ hs3; CMPQ R10, $4; JEQ hs4
	CMPQ R10, $5; JEQ hs5; CMPQ R10, $6; JEQ hs6; CMPQ R10, $7; JEQ hs7
	JMP hs8

	HSUNROLLED(hs1, hsb1, hsg1, hss1, hsc1, hsq1, CHUNKS1, hsdone)
	HSUNROLLED(hs2, hsb2, hsg2, hss2, hsc2, hsq2, CHUNKS2, hsdone)
	HSUNROLLED(hs3, hsb3, hsg3, hss3, hsc3, hsq3, CHUNKS3, hsdone)
	HSUNROLLED(hs4, hsb4, hsg4, hss4, hsc4, hsq4, CHUNKS4, hsdone)
	HSUNROLLED(hs5, hsb5, hsg5, hss5, hsc5, hsq5, CHUNKS5, hsdone)
	HSUNROLLED(hs6, hsb6, hsg6, hss6, hsc6, hsq6, CHUNKS6, hsdone)
	HSUNROLLED(hs7, hsb7, hsg7, hss7, hsc7, hsq7, CHUNKS7, hsdone)
	HSUNROLLED(hs8, hsb8, hsg8, hss8, hsc8, hsq8, CHUNKS8, hsdone)

hsdone:
	HSUM4
	MOVQ AX, ret+64(FP)
	RET

// HSBLOCK8(y) starts a block of at most 31 of the CX groups left (R13 of them, taken from
// CX) with the byte sums y cleared: 31 groups leave at most 248 in a byte.
#define HSBLOCK8(y) MOVQ $31, R13; CMPQ CX, R13; CMOVQLT CX, R13; SUBQ R13, CX; VPXOR y, y, y

// HSSUM(y, s) adds y's byte sums, each weighing 2^s, to Y2's four quadwords (Y5 zero).
#define HSSUM(y, s) VPSADBW Y5, y, y; VPSLLQ $s, y, y; VPADDQ y, Y2, Y2

// HSPLAIN(pairs, block2, group2, single, block1, group1, CHUNKS, done) is
// countBatchesAVX2HS for one number of chunks, at its six labels: batches two at a time
// (pairs), the queries four at a time (group2) in blocks of at most 31 groups (block2),
// the eight rows of a group added into the ones, twos and fours (Y9, Y10, Y12) by seven
// carry-save adders, the carries out of the fours (each lane's eights) counted by one byte
// popcount into Y8 and summed at the block's end; then the odd last batch alone (single,
// block1, group1), its four rows a group into the ones and twos, the fours counted into Y6.
#define HSPLAIN(pairs, block2, group2, single, block1, group1, CHUNKS, done) \
pairs:                             \
	CMPQ    R8, $2;                 \
	JLT     single;                 \
	MOVQ    R11, DI;                \
	MOVQ    R12, CX;                \
	LEAQ    (SI)(R9*1), DX;         \
block2:                            \
	HSBLOCK8(Y8);                   \
group2:                            \
	QUERY2(Y0, Y6, CHUNKS, ROW2);   \
	QUERY2(Y1, Y7, CHUNKS, ROW2B);  \
	CSA(Y13, Y9, Y0, Y1);           \
	CSA(Y15, Y9, Y6, Y7);           \
	CSA(Y13, Y10, Y13, Y15);        \
	QUERY2(Y0, Y6, CHUNKS, ROW2);   \
	QUERY2(Y1, Y7, CHUNKS, ROW2B);  \
	CSA(Y0, Y9, Y0, Y1);            \
	CSA(Y6, Y9, Y6, Y7);            \
	CSA(Y0, Y10, Y0, Y6);           \
	CSA(Y13, Y12, Y13, Y0);         \
	POPCNTB(Y13, Y11);              \
	VPADDB  Y13, Y8, Y8;            \
	DECQ    R13;                    \
	JNZ     group2;                 \
	HSSUM(Y8, 3);                   \
	TESTQ   CX, CX;                 \
	JNZ     block2;                 \
	LEAQ    (SI)(R9*2), SI;         \
	SUBQ    $2, R8;                 \
	JMP     pairs;                  \
single:                            \
	TESTQ   R8, R8;                 \
	JZ      done;                   \
	MOVQ    R11, DI;                \
	MOVQ    R12, CX;                \
block1:                            \
	HSBLOCK8(Y6);                   \
group1:                            \
	QUERY1(Y0, CHUNKS, ROW);        \
	QUERY1(Y1, CHUNKS, ROW1B);      \
	CSA(Y13, Y9, Y0, Y1);           \
	QUERY1(Y0, CHUNKS, ROW);        \
	QUERY1(Y1, CHUNKS, ROW1B);      \
	CSA(Y0, Y9, Y0, Y1);            \
	CSA(Y13, Y10, Y13, Y0);         \
	POPCNTB(Y13, Y11);              \
	VPADDB  Y13, Y6, Y6;            \
	DECQ    R13;                    \
	JNZ     group1;                 \
	HSSUM(Y6, 2);                   \
	TESTQ   CX, CX;                 \
	JNZ     block1;                 \
	JMP     done

// func countBatchesAVX2HS(tab *uint64, nb, bs, nch int, offs *uint32, stride, nq int) uint64
//
// countBatchesAVX2 with a carry-save (Harley–Seal) count across queries and batches: nq a
// positive multiple of 4, nch from 1 to 8. The rows of four queries in two batches go
// through seven carry-save adders into the ones, twos and fours, kept over the whole
// call, and only the carries out of the fours are popcounted (VPSHUFB on nibbles) and
// summed bytewise (VPSADBW a block): one byte popcount for eight (batch, query) pairs
// instead of eight, for 35 bitwise operations; the ones, twos and fours popcounted once
// at the end.
TEXT ·countBatchesAVX2HS(SB), NOSPLIT, $0-64
	MOVQ    tab+0(FP), SI
	MOVQ    nb+8(FP), R8
	MOVQ    bs+16(FP), R9
	SHLQ    $3, R9
	MOVQ    nch+24(FP), R10
	MOVQ    offs+32(FP), R11
	MOVQ    stride+40(FP), R14
	SHLQ    $2, R14
	MOVQ    nq+48(FP), R12
	SHRQ    $2, R12
	VMOVDQU popcntNibbles<>(SB), Y3
	VMOVDQU lowNibbles<>(SB), Y4
	VPXOR   Y5, Y5, Y5
	VPXOR   Y2, Y2, Y2
	VPXOR   Y9, Y9, Y9
	VPXOR   Y10, Y10, Y10
	VPXOR   Y12, Y12, Y12
	CMPQ R10, $1; JEQ hp1; CMPQ R10, $2; JEQ hp2; CMPQ R10, $3; JEQ hp3; CMPQ R10, $4; JEQ hp4
	CMPQ R10, $5; JEQ hp5; CMPQ R10, $6; JEQ hp6; CMPQ R10, $7; JEQ hp7
	JMP hp8

	HSPLAIN(hp1, hpb1, hpg1, hps1, hpc1, hpq1, CHUNKS1, hpdone)
	HSPLAIN(hp2, hpb2, hpg2, hps2, hpc2, hpq2, CHUNKS2, hpdone)
	HSPLAIN(hp3, hpb3, hpg3, hps3, hpc3, hpq3, CHUNKS3, hpdone)
	HSPLAIN(hp4, hpb4, hpg4, hps4, hpc4, hpq4, CHUNKS4, hpdone)
	HSPLAIN(hp5, hpb5, hpg5, hps5, hpc5, hpq5, CHUNKS5, hpdone)
	HSPLAIN(hp6, hpb6, hpg6, hps6, hpc6, hpq6, CHUNKS6, hpdone)
	HSPLAIN(hp7, hpb7, hpg7, hps7, hpc7, hpq7, CHUNKS7, hpdone)
	HSPLAIN(hp8, hpb8, hpg8, hps8, hpc8, hpq8, CHUNKS8, hpdone)

hpdone:
	POPCNTB(Y9, Y11)
	HSSUM(Y9, 0)
	POPCNTB(Y10, Y11)
	HSSUM(Y10, 1)
	POPCNTB(Y12, Y11)
	HSSUM(Y12, 2)
	HSUM4
	MOVQ AX, ret+56(FP)
	RET

// WZACC1, WZACC2 and WZACC4 add the byte popcounts (VPOPCNTB, at most 8) of the rows of
// one, two or four batches (Z0; Z6; Z8, Z9) to their byte sums (Z12; Z13; Z14, Z15).
#define WZACC1 VPOPCNTB Z0, Z0; VPADDB Z0, Z12, Z12
#define WZACC2 WZACC1; VPOPCNTB Z6, Z6; VPADDB Z6, Z13, Z13
#define WZACC4 WZACC2; VPOPCNTB Z8, Z8; VPADDB Z8, Z14, Z14; VPOPCNTB Z9, Z9; VPADDB Z9, Z15, Z15

// WZBLOCK starts a block of at most 31 of the CX queries left (R14 of them, taken from
// CX): 31 queries leave at most 248 in a byte sum. WZCLR1, WZCLR2 and WZCLR4 clear the
// byte sums of one, two or four batches.
#define WZBLOCK MOVQ $31, R14; CMPQ CX, R14; CMOVQLT CX, R14; SUBQ R14, CX
#define WZCLR1 VPXORQ Z12, Z12, Z12
#define WZCLR2 WZCLR1; VPXORQ Z13, Z13, Z13
#define WZCLR4 WZCLR2; VPXORQ Z14, Z14, Z14; VPXORQ Z15, Z15, Z15

// WZWEIGH(z, off) multiplies the byte sums z (unsigned, at most 248) by the batch's 64
// byte weights at off(R15) (signed, at most 64) and adds the products in pairs
// (VPMADDUBSW: a word at most 31,744, no saturation), then those in pairs again (VPMADDWD
// by Z30's words of 1): z's sixteen doublewords, each at most 63,488.
#define WZWEIGH(z, off) VPMADDUBSW off(R15), z, z; VPMADDWD Z30, z, z

// WZQWORDS adds Z12's sixteen doublewords (each below 2^18) to Z2's eight quadword sums
// (Z31 the low doubleword of each quadword; Z1 scratch).
#define WZQWORDS VPSRLQ $32, Z12, Z1; VPANDQ Z31, Z12, Z12; VPADDQ Z1, Z2, Z2; VPADDQ Z12, Z2, Z2

// WZFLUSH1, WZFLUSH2 and WZFLUSH4 weigh the byte sums of one, two or four batches (their
// weights 64 bytes apart from R15) and add them to Z2: a doubleword of four batches is at
// most 253,952.
#define WZFLUSH1 WZWEIGH(Z12, 0); WZQWORDS
#define WZFLUSH2 WZWEIGH(Z12, 0); WZWEIGH(Z13, 64); VPADDD Z13, Z12, Z12; WZQWORDS
#define WZFLUSH4 WZWEIGH(Z12, 0); WZWEIGH(Z13, 64); WZWEIGH(Z14, 128); WZWEIGH(Z15, 192); VPADDD Z13, Z12, Z12; VPADDD Z15, Z14, Z14; VPADDD Z14, Z12, Z12; WZQWORDS

// WGROUPED(quads, block4, quad, pairs, block2, pair, single, block1, query, m, CHUNKS)
// is countBatchesAVX512IndexWeighted for one chunk width (first chunk's mask m) and number
// of chunks, at its nine labels: GROUPED's loops (batches four at a time, then two, then
// the odd last one, each query's row offsets computed once for the group), the queries in
// blocks of at most 31 (blockn), each row's byte popcounts summed bytewise and weighed at
// the block's end (WZFLUSHn); R15 moves on past the group's weights; then zwdone.
#define WGROUPED(quads, block4, quad, pairs, block2, pair, single, block1, query, m, CHUNKS) \
quads:                             \
	CMPQ      R8, $4;               \
	JLT       pairs;                \
	MOVQ      R11, DI;              \
	MOVQ      R12, CX;              \
	LEAQ      (SI)(R9*1), DX;       \
	LEAQ      (SI)(R9*2), R10;      \
	LEAQ      (DX)(R9*2), R13;      \
block4:                            \
	WZBLOCK;                        \
	WZCLR4;                         \
quad:                              \
	MOVQ      (DI), AX;             \
	RORXQ     $58, AX, BX;          \
	ANDL      $m, BX;               \
	VMOVDQU64 (SI)(BX*1), Z0;       \
	VMOVDQU64 (DX)(BX*1), Z6;       \
	VMOVDQU64 (R10)(BX*1), Z8;      \
	VMOVDQU64 (R13)(BX*1), Z9;      \
	CHUNKS(RI4, TI4);               \
	WZACC4;                         \
	ADDQ      $8, DI;               \
	DECQ      R14;                  \
	JNZ       quad;                 \
	WZFLUSH4;                       \
	TESTQ     CX, CX;               \
	JNZ       block4;               \
	ADDQ      $256, R15;            \
	LEAQ      (SI)(R9*4), SI;       \
	SUBQ      $4, R8;               \
	JMP       quads;                \
pairs:                             \
	CMPQ      R8, $2;               \
	JLT       single;               \
	MOVQ      R11, DI;              \
	MOVQ      R12, CX;              \
	LEAQ      (SI)(R9*1), DX;       \
block2:                            \
	WZBLOCK;                        \
	WZCLR2;                         \
pair:                              \
	MOVQ      (DI), AX;             \
	RORXQ     $58, AX, BX;          \
	ANDL      $m, BX;               \
	VMOVDQU64 (SI)(BX*1), Z0;       \
	VMOVDQU64 (DX)(BX*1), Z6;       \
	CHUNKS(RI2, TI2);               \
	WZACC2;                         \
	ADDQ      $8, DI;               \
	DECQ      R14;                  \
	JNZ       pair;                 \
	WZFLUSH2;                       \
	TESTQ     CX, CX;               \
	JNZ       block2;               \
	ADDQ      $128, R15;            \
	LEAQ      (SI)(R9*2), SI;       \
	SUBQ      $2, R8;               \
	JMP       pairs;                \
single:                            \
	TESTQ     R8, R8;               \
	JZ        zwdone;               \
	MOVQ      R11, DI;              \
	MOVQ      R12, CX;              \
block1:                            \
	WZBLOCK;                        \
	WZCLR1;                         \
query:                             \
	MOVQ      (DI), AX;             \
	RORXQ     $58, AX, BX;          \
	ANDL      $m, BX;               \
	VMOVDQU64 (SI)(BX*1), Z0;       \
	CHUNKS(RI1, TI1);               \
	WZACC1;                         \
	ADDQ      $8, DI;               \
	DECQ      R14;                  \
	JNZ       query;                \
	WZFLUSH1;                       \
	TESTQ     CX, CX;               \
	JNZ       block1;               \
	JMP       zwdone

// WEIGHTEDBODY(c5_1, …, c5_8, c6_1, …, c6_8) is INDEXBODY for
// countBatchesAVX512IndexWeighted and its ternlog twin: their WGROUPED loops.
#define WEIGHTEDBODY(c5_1, c5_2, c5_3, c5_4, c5_5, c5_6, c5_7, c5_8, c6_1, c6_2, c6_3, c6_4, c6_5, c6_6, c6_7, c6_8, m7_1, m7_2, m7_3, m7_4, m7_5) \
	DISPATCH7(zw7not, zw7b1, zw7b2, zw7b3, zw7b4, zw7b5) \
	DISPATCH(zw6, zw5b1, zw5b2, zw5b3, zw5b4, zw5b5, zw5b6, zw5b7, zw5b8, zw6b1, zw6b2, zw6b3, zw6b4, zw6b5, zw6b6, zw6b7, zw6b8) \
	WGROUPED(zw5b1, zw5k1, zw5u1, zw5p1, zw5l1, zw5r1, zw5s1, zw5m1, zw5q1, 0x7c0, c5_1) \
	WGROUPED(zw5b2, zw5k2, zw5u2, zw5p2, zw5l2, zw5r2, zw5s2, zw5m2, zw5q2, 0x7c0, c5_2) \
	WGROUPED(zw5b3, zw5k3, zw5u3, zw5p3, zw5l3, zw5r3, zw5s3, zw5m3, zw5q3, 0x7c0, c5_3) \
	WGROUPED(zw5b4, zw5k4, zw5u4, zw5p4, zw5l4, zw5r4, zw5s4, zw5m4, zw5q4, 0x7c0, c5_4) \
	WGROUPED(zw5b5, zw5k5, zw5u5, zw5p5, zw5l5, zw5r5, zw5s5, zw5m5, zw5q5, 0x7c0, c5_5) \
	WGROUPED(zw5b6, zw5k6, zw5u6, zw5p6, zw5l6, zw5r6, zw5s6, zw5m6, zw5q6, 0x7c0, c5_6) \
	WGROUPED(zw5b7, zw5k7, zw5u7, zw5p7, zw5l7, zw5r7, zw5s7, zw5m7, zw5q7, 0x7c0, c5_7) \
	WGROUPED(zw5b8, zw5k8, zw5u8, zw5p8, zw5l8, zw5r8, zw5s8, zw5m8, zw5q8, 0x7c0, c5_8) \
	WGROUPED(zw6b1, zw6k1, zw6u1, zw6p1, zw6l1, zw6r1, zw6s1, zw6m1, zw6q1, 0xfc0, c6_1) \
	WGROUPED(zw6b2, zw6k2, zw6u2, zw6p2, zw6l2, zw6r2, zw6s2, zw6m2, zw6q2, 0xfc0, c6_2) \
	WGROUPED(zw6b3, zw6k3, zw6u3, zw6p3, zw6l3, zw6r3, zw6s3, zw6m3, zw6q3, 0xfc0, c6_3) \
	WGROUPED(zw6b4, zw6k4, zw6u4, zw6p4, zw6l4, zw6r4, zw6s4, zw6m4, zw6q4, 0xfc0, c6_4) \
	WGROUPED(zw6b5, zw6k5, zw6u5, zw6p5, zw6l5, zw6r5, zw6s5, zw6m5, zw6q5, 0xfc0, c6_5) \
	WGROUPED(zw6b6, zw6k6, zw6u6, zw6p6, zw6l6, zw6r6, zw6s6, zw6m6, zw6q6, 0xfc0, c6_6) \
	WGROUPED(zw6b7, zw6k7, zw6u7, zw6p7, zw6l7, zw6r7, zw6s7, zw6m7, zw6q7, 0xfc0, c6_7) \
	WGROUPED(zw6b8, zw6k8, zw6u8, zw6p8, zw6l8, zw6r8, zw6s8, zw6m8, zw6q8, 0xfc0, c6_8) \
	WGROUPED(zw7b1, zw7k1, zw7u1, zw7p1, zw7l1, zw7r1, zw7s1, zw7m1, zw7q1, 0x1fc0, m7_1) \
	WGROUPED(zw7b2, zw7k2, zw7u2, zw7p2, zw7l2, zw7r2, zw7s2, zw7m2, zw7q2, 0x1fc0, m7_2) \
	WGROUPED(zw7b3, zw7k3, zw7u3, zw7p3, zw7l3, zw7r3, zw7s3, zw7m3, zw7q3, 0x1fc0, m7_3) \
	WGROUPED(zw7b4, zw7k4, zw7u4, zw7p4, zw7l4, zw7r4, zw7s4, zw7m4, zw7q4, 0x1fc0, m7_4) \
	WGROUPED(zw7b5, zw7k5, zw7u5, zw7p5, zw7l5, zw7r5, zw7s5, zw7m5, zw7q5, 0x1fc0, m7_5) \
zwdone: \
	VEXTRACTI64X4 $1, Z2, Y1 \
	VPADDQ        Y1, Y2, Y2 \
	HSUM4

// func countBatchesAVX512IndexWeighted(tab *uint64, nb, bs, nch, cb int, cq *uint64, nq int, wts *uint8) uint64
//
// countBatchesAVX512Index weighing each lane (countBatchesGoWeighted, match.go), as
// countBatchesAVX2Weighted does on AVX2: for each group of four batches (then two, then
// one) of bs words, for each of the nq ≥ 1 queries (uint64s at cq), AND the 64-byte rows
// of its nch = 1…8 chunks of cb = 5 or 6 bits (the caller checks both), take the popcount
// of each byte (VPOPCNTB, AVX512_BITALG) and add the 64 counts bytewise; after each block
// of at most 31 queries the byte sums are multiplied by the batch's 64 byte weights (wts,
// 64 a batch, each at most 64) and summed (VPMADDUBSW, VPMADDWD: AVX512BW). So a lane's
// weight costs nothing a query, and the weights may change every 8 lanes.
TEXT ·countBatchesAVX512IndexWeighted(SB), NOSPLIT, $0-72
	ZWEIGHTEDARGS
	WEIGHTEDBODY(C5_1, C5_2, C5_3, C5_4, C5_5, C5_6, C5_7, C5_8, C6_1, C6_2, C6_3, C6_4, C6_5, C6_6, C6_7, C6_8, M7_1, M7_2, M7_3, M7_4, M7_5)
	MOVQ AX, ret+64(FP)
	RET

// func countBatchesAVX512IndexWeightedT(tab *uint64, nb, bs, nch, cb int, cq *uint64, nq int, wts *uint8) uint64
//
// countBatchesAVX512IndexWeighted ANDing the rows of two chunks at a time by one
// VPTERNLOGQ (C5T_k, C6T_k): the same loads and sums, about half the row ANDs.
TEXT ·countBatchesAVX512IndexWeightedT(SB), NOSPLIT, $0-72
	ZWEIGHTEDARGS
	WEIGHTEDBODY(C5T_1, C5T_2, C5T_3, C5T_4, C5T_5, C5T_6, C5T_7, C5T_8, C6T_1, C6T_2, C6T_3, C6T_4, C6T_5, C6T_6, C6T_7, C6T_8, M7T_1, M7T_2, M7T_3, M7T_4, M7T_5)
	MOVQ AX, ret+64(FP)
	RET

// RY1(d, r, m) is RI1 on the low half of a row: it ANDs into Y0 the first 32 bytes (lanes
// 0–255) of the row of the chunk at d bytes into the batch at SI that the query in AX names.
#define RY1(d, r, m) RORXQ $r, AX, BX; ANDL $m, BX; VPANDQ d(SI)(BX*1), Y0, Y0

// HALFLOOP(query, m, CHUNKS) is countBatchesAVX512IndexHalf's loop for one chunk width
// (first chunk's mask m) and number of chunks: for each of R12 queries from R11, the
// low halves of its rows ANDed (CHUNKS(RY1, RY1)) and their popcount added to Y2.
#define HALFLOOP(query, m, CHUNKS) ONEBATCH(query, m, CHUNKS, RY1, RY1, Y0, POPY); JMP zhdone

// POPY adds the popcounts of Y0's quadwords to Y2's.
#define POPY VPOPCNTQ Y0, Y1; VPADDQ Y1, Y2, Y2

// func countBatchesAVX512IndexHalf(tab *uint64, nb, bs, nch, cb int, cq *uint64, nq int) uint64
//
// countBatchesAVX512Index on one batch (nb and bs are not read) whose lanes 256–511 are
// all empty: it reads only the first 32 bytes of each row, one 256-bit load, AND and
// VPOPCNTQ a row where the 512-bit kernel takes one of 512 bits (on AMD Zen 4, which runs
// a 512-bit operation as two of 256, about half the work). nq ≥ 1.
TEXT ·countBatchesAVX512IndexHalf(SB), NOSPLIT, $0-64
	ZINDEXARGS
	DISPATCH7(zh7not, zh7b1, zh7b2, zh7b3, zh7b4, zh7b5)
	DISPATCH(zh6, zh5b1, zh5b2, zh5b3, zh5b4, zh5b5, zh5b6, zh5b7, zh5b8, zh6b1, zh6b2, zh6b3, zh6b4, zh6b5, zh6b6, zh6b7, zh6b8)

zh5b1:
	HALFLOOP(zh5q1, 0x7c0, C5_1)
zh5b2:
	HALFLOOP(zh5q2, 0x7c0, C5_2)
zh5b3:
	HALFLOOP(zh5q3, 0x7c0, C5_3)
zh5b4:
	HALFLOOP(zh5q4, 0x7c0, C5_4)
zh5b5:
	HALFLOOP(zh5q5, 0x7c0, C5_5)
zh5b6:
	HALFLOOP(zh5q6, 0x7c0, C5_6)
zh5b7:
	HALFLOOP(zh5q7, 0x7c0, C5_7)
zh5b8:
	HALFLOOP(zh5q8, 0x7c0, C5_8)
zh6b1:
	HALFLOOP(zh6q1, 0xfc0, C6_1)
zh6b2:
	HALFLOOP(zh6q2, 0xfc0, C6_2)
zh6b3:
	HALFLOOP(zh6q3, 0xfc0, C6_3)
zh6b4:
	HALFLOOP(zh6q4, 0xfc0, C6_4)
zh6b5:
	HALFLOOP(zh6q5, 0xfc0, C6_5)
zh6b6:
	HALFLOOP(zh6q6, 0xfc0, C6_6)
zh6b7:
	HALFLOOP(zh6q7, 0xfc0, C6_7)
zh6b8:
	HALFLOOP(zh6q8, 0xfc0, C6_8)
zh7b1:
	HALFLOOP(zh7q1, 0x1fc0, M7_1)
zh7b2:
	HALFLOOP(zh7q2, 0x1fc0, M7_2)
zh7b3:
	HALFLOOP(zh7q3, 0x1fc0, M7_3)
zh7b4:
	HALFLOOP(zh7q4, 0x1fc0, M7_4)
zh7b5:
	HALFLOOP(zh7q5, 0x1fc0, M7_5)

zhdone:
	HSUM4
	MOVQ AX, ret+56(FP)
	RET
