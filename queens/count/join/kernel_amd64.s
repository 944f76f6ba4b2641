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

// UNROLLED(pairs, pair, single, query, CHUNKS) is the kernel for one number of chunks, at
// its four labels: batches two at a time (pairs, looping over the queries at pair), then
// the odd last batch alone (single, looping at query), then avx2done.
#define UNROLLED(pairs, pair, single, query, CHUNKS) \
pairs:                             \
	CMPQ    R8, $2;                 \
	JLT     single;                 \
	MOVQ    R11, DI;                \
	MOVQ    R12, CX;                \
	LEAQ    (SI)(R9*1), DX;         \
pair:                              \
	MOVL    (DI), BX;               \
	VMOVDQU (SI)(BX*1), Y0;         \
	VMOVDQU (DX)(BX*1), Y6;         \
	CHUNKS(ROW2);                   \
	POPADD2;                        \
	ADDQ    R14, DI;                \
	DECQ    CX;                     \
	JNZ     pair;                   \
	LEAQ    (SI)(R9*2), SI;         \
	SUBQ    $2, R8;                 \
	JMP     pairs;                  \
single:                            \
	TESTQ   R8, R8;                 \
	JZ      avx2done;               \
	MOVQ    R11, DI;                \
	MOVQ    R12, CX;                \
query:                             \
	MOVL    (DI), BX;               \
	VMOVDQU (SI)(BX*1), Y0;         \
	CHUNKS(ROW);                    \
	POPADD;                         \
	ADDQ    R14, DI;                \
	DECQ    CX;                     \
	JNZ     query;                  \
	JMP     avx2done

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
	MOVQ    tab+0(FP), SI
	MOVQ    nb+8(FP), R8
	MOVQ    bs+16(FP), R9
	SHLQ    $3, R9
	MOVQ    nch+24(FP), R10
	MOVQ    offs+32(FP), R11
	MOVQ    stride+40(FP), R14
	SHLQ    $2, R14
	MOVQ    nq+48(FP), R12
	VPXOR   Y2, Y2, Y2
	VMOVDQU popcntNibbles<>(SB), Y3
	VMOVDQU lowNibbles<>(SB), Y4
	VPXOR   Y5, Y5, Y5
	CMPQ    R10, $1
	JEQ     avx2b1
	CMPQ    R10, $2
	JEQ     avx2b2
	CMPQ    R10, $3
	JEQ     avx2b3
	CMPQ    R10, $4
	JEQ     avx2b4
	CMPQ    R10, $5
	JEQ     avx2b5
	CMPQ    R10, $6
	JEQ     avx2b6
	CMPQ    R10, $7
	JEQ     avx2b7
	CMPQ    R10, $8
	JEQ     avx2b8
	DECQ    R10

avx2bn:
	TESTQ R8, R8
	JZ    avx2done
	MOVQ  R11, DI
	MOVQ  R12, CX

avx2qn:
	MOVL    (DI), BX
	VMOVDQU (SI)(BX*1), Y0
	MOVQ    DI, DX
	MOVQ    R10, R13

avx2cn:
	ADDQ  $4, DX
	MOVL  (DX), BX
	VPAND (SI)(BX*1), Y0, Y0
	DECQ  R13
	JNZ   avx2cn
	POPADD
	ADDQ  R14, DI
	DECQ  CX
	JNZ   avx2qn
	ADDQ  R9, SI
	DECQ  R8
	JMP   avx2bn

	UNROLLED(avx2b1, avx2p1, avx2s1, avx2q1, CHUNKS1)
	UNROLLED(avx2b2, avx2p2, avx2s2, avx2q2, CHUNKS2)
	UNROLLED(avx2b3, avx2p3, avx2s3, avx2q3, CHUNKS3)
	UNROLLED(avx2b4, avx2p4, avx2s4, avx2q4, CHUNKS4)
	UNROLLED(avx2b5, avx2p5, avx2s5, avx2q5, CHUNKS5)
	UNROLLED(avx2b6, avx2p6, avx2s6, avx2q6, CHUNKS6)
	UNROLLED(avx2b7, avx2p7, avx2s7, avx2q7, CHUNKS7)
	UNROLLED(avx2b8, avx2p8, avx2s8, avx2q8, CHUNKS8)

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
