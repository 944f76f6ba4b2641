//go:build amd64 && !purego

#include "textflag.h"

// func countBatchesAVX512(tab *uint64, nb, bs, nch int, cq *uint64, nq int) uint64
//
// The loops of countBatchesGo (join_match.go): for each of nb batches of bs words, for each
// of nq queries, AND the 64-byte rows tab[batch + j·2048 + (c>>5j & 31)·64]
// of chunks j < nch and add the popcount of the result.
TEXT ·countBatchesAVX512(SB), NOSPLIT, $0-56
	MOVQ tab+0(FP), SI
	MOVQ nb+8(FP), R8
	MOVQ bs+16(FP), R9
	SHLQ $3, R9
	MOVQ nch+24(FP), R10
	DECQ R10
	MOVQ cq+32(FP), R11
	MOVQ nq+40(FP), R12
	VPXORQ Z2, Z2, Z2

batch:
	TESTQ R8, R8
	JZ    done
	MOVQ  R11, DI
	MOVQ  R12, CX

query:
	MOVQ      (DI), AX
	MOVQ      AX, BX
	ANDQ      $31, BX
	SHLQ      $6, BX
	VMOVDQU64 (SI)(BX*1), Z0
	MOVQ      SI, DX
	MOVQ      R10, R13
	TESTQ     R13, R13
	JZ        chunksDone

chunk:
	SHRQ   $5, AX
	ADDQ   $2048, DX
	MOVQ   AX, BX
	ANDQ   $31, BX
	SHLQ   $6, BX
	VPANDQ (DX)(BX*1), Z0, Z0
	DECQ   R13
	JNZ    chunk

chunksDone:
	VPOPCNTQ Z0, Z1
	VPADDQ   Z1, Z2, Z2
	ADDQ     $8, DI
	DECQ     CX
	JNZ      query
	ADDQ     R9, SI
	DECQ     R8
	JMP      batch

done:
	VEXTRACTI64X4 $1, Z2, Y1
	VPADDQ        Y1, Y2, Y2
	VEXTRACTI128  $1, Y2, X1
	VPADDQ        X1, X2, X2
	VPSHUFD       $0x4e, X2, X1
	VPADDQ        X1, X2, X2
	VMOVQ         X2, AX
	VZEROUPPER
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

// func countBatchesAVX2(tab *uint64, nb, bs, nch int, offs *uint32, stride, nq int) uint64
//
// The loops of countBatchesGo4 (join_match.go) on precomputed row offsets: for each of nb
// batches of bs words, for each of nq queries (stride uint32 offsets each, chunkOffsets),
// AND the 32-byte rows at tab[batch] + offs[query·stride + j] for chunks j < nch and add the
// popcount of the result: nibbles looked up with VPSHUFB, bytes summed into the four
// quadword accumulators of Y2 by VPSADBW. The query loop is unrolled for each nch from 1
// to 8 (two instructions a chunk) and runs two batches at a time (one offset load for two
// row ANDs), then the odd last batch alone; more than 8 chunks take a loop.

// ROW(o) ANDs into Y0 the row whose offset is the uint32 at o(DI).
#define ROW(o) MOVL o(DI), BX; VPAND (SI)(BX*1), Y0, Y0

// ROW2(o) ANDs into Y0 and Y6 the rows of two batches (at SI and DX) whose offset is the
// uint32 at o(DI): one offset load for two ANDs.
#define ROW2(o) MOVL o(DI), BX; VPAND (SI)(BX*1), Y0, Y0; VPAND (DX)(BX*1), Y6, Y6

// POPADD2 adds the popcounts of Y0's and Y6's quadwords to Y2's (byte counts of at most 16
// summed before one VPSADBW).
#define POPADD2 VPSRLW $4, Y0, Y1; VPAND Y4, Y0, Y0; VPAND Y4, Y1, Y1; VPSHUFB Y0, Y3, Y0; VPSHUFB Y1, Y3, Y1; VPADDB Y0, Y1, Y0; VPSRLW $4, Y6, Y7; VPAND Y4, Y6, Y6; VPAND Y4, Y7, Y7; VPSHUFB Y6, Y3, Y6; VPSHUFB Y7, Y3, Y7; VPADDB Y6, Y7, Y6; VPADDB Y6, Y0, Y0; VPSADBW Y5, Y0, Y0; VPADDQ Y0, Y2, Y2

// POPADD adds the popcount of Y0's four quadwords to Y2's.
#define POPADD VPSRLW $4, Y0, Y1; VPAND Y4, Y0, Y0; VPAND Y4, Y1, Y1; VPSHUFB Y0, Y3, Y0; VPSHUFB Y1, Y3, Y1; VPADDB Y0, Y1, Y0; VPSADBW Y5, Y0, Y0; VPADDQ Y0, Y2, Y2

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

avx2b1:
	CMPQ R8, $2
	JLT  avx2s1
	MOVQ R11, DI
	MOVQ R12, CX
	LEAQ (SI)(R9*1), DX

avx2p1:
	MOVL    (DI), BX
	VMOVDQU (SI)(BX*1), Y0
	VMOVDQU (DX)(BX*1), Y6
	POPADD2
	ADDQ R14, DI
	DECQ CX
	JNZ  avx2p1
	LEAQ (SI)(R9*2), SI
	SUBQ $2, R8
	JMP  avx2b1

avx2s1:
	TESTQ R8, R8
	JZ    avx2done
	MOVQ  R11, DI
	MOVQ  R12, CX

avx2q1:
	MOVL    (DI), BX
	VMOVDQU (SI)(BX*1), Y0
	POPADD
	ADDQ R14, DI
	DECQ CX
	JNZ  avx2q1
	JMP  avx2done

avx2b2:
	CMPQ R8, $2
	JLT  avx2s2
	MOVQ R11, DI
	MOVQ R12, CX
	LEAQ (SI)(R9*1), DX

avx2p2:
	MOVL    (DI), BX
	VMOVDQU (SI)(BX*1), Y0
	VMOVDQU (DX)(BX*1), Y6
	ROW2(4)
	POPADD2
	ADDQ R14, DI
	DECQ CX
	JNZ  avx2p2
	LEAQ (SI)(R9*2), SI
	SUBQ $2, R8
	JMP  avx2b2

avx2s2:
	TESTQ R8, R8
	JZ    avx2done
	MOVQ  R11, DI
	MOVQ  R12, CX

avx2q2:
	MOVL    (DI), BX
	VMOVDQU (SI)(BX*1), Y0
	ROW(4)
	POPADD
	ADDQ R14, DI
	DECQ CX
	JNZ  avx2q2
	JMP  avx2done

avx2b3:
	CMPQ R8, $2
	JLT  avx2s3
	MOVQ R11, DI
	MOVQ R12, CX
	LEAQ (SI)(R9*1), DX

avx2p3:
	MOVL    (DI), BX
	VMOVDQU (SI)(BX*1), Y0
	VMOVDQU (DX)(BX*1), Y6
	ROW2(4)
	ROW2(8)
	POPADD2
	ADDQ R14, DI
	DECQ CX
	JNZ  avx2p3
	LEAQ (SI)(R9*2), SI
	SUBQ $2, R8
	JMP  avx2b3

avx2s3:
	TESTQ R8, R8
	JZ    avx2done
	MOVQ  R11, DI
	MOVQ  R12, CX

avx2q3:
	MOVL    (DI), BX
	VMOVDQU (SI)(BX*1), Y0
	ROW(4)
	ROW(8)
	POPADD
	ADDQ R14, DI
	DECQ CX
	JNZ  avx2q3
	JMP  avx2done

avx2b4:
	CMPQ R8, $2
	JLT  avx2s4
	MOVQ R11, DI
	MOVQ R12, CX
	LEAQ (SI)(R9*1), DX

avx2p4:
	MOVL    (DI), BX
	VMOVDQU (SI)(BX*1), Y0
	VMOVDQU (DX)(BX*1), Y6
	ROW2(4)
	ROW2(8)
	ROW2(12)
	POPADD2
	ADDQ R14, DI
	DECQ CX
	JNZ  avx2p4
	LEAQ (SI)(R9*2), SI
	SUBQ $2, R8
	JMP  avx2b4

avx2s4:
	TESTQ R8, R8
	JZ    avx2done
	MOVQ  R11, DI
	MOVQ  R12, CX

avx2q4:
	MOVL    (DI), BX
	VMOVDQU (SI)(BX*1), Y0
	ROW(4)
	ROW(8)
	ROW(12)
	POPADD
	ADDQ R14, DI
	DECQ CX
	JNZ  avx2q4
	JMP  avx2done

avx2b5:
	CMPQ R8, $2
	JLT  avx2s5
	MOVQ R11, DI
	MOVQ R12, CX
	LEAQ (SI)(R9*1), DX

avx2p5:
	MOVL    (DI), BX
	VMOVDQU (SI)(BX*1), Y0
	VMOVDQU (DX)(BX*1), Y6
	ROW2(4)
	ROW2(8)
	ROW2(12)
	ROW2(16)
	POPADD2
	ADDQ R14, DI
	DECQ CX
	JNZ  avx2p5
	LEAQ (SI)(R9*2), SI
	SUBQ $2, R8
	JMP  avx2b5

avx2s5:
	TESTQ R8, R8
	JZ    avx2done
	MOVQ  R11, DI
	MOVQ  R12, CX

avx2q5:
	MOVL    (DI), BX
	VMOVDQU (SI)(BX*1), Y0
	ROW(4)
	ROW(8)
	ROW(12)
	ROW(16)
	POPADD
	ADDQ R14, DI
	DECQ CX
	JNZ  avx2q5
	JMP  avx2done

avx2b6:
	CMPQ R8, $2
	JLT  avx2s6
	MOVQ R11, DI
	MOVQ R12, CX
	LEAQ (SI)(R9*1), DX

avx2p6:
	MOVL    (DI), BX
	VMOVDQU (SI)(BX*1), Y0
	VMOVDQU (DX)(BX*1), Y6
	ROW2(4)
	ROW2(8)
	ROW2(12)
	ROW2(16)
	ROW2(20)
	POPADD2
	ADDQ R14, DI
	DECQ CX
	JNZ  avx2p6
	LEAQ (SI)(R9*2), SI
	SUBQ $2, R8
	JMP  avx2b6

avx2s6:
	TESTQ R8, R8
	JZ    avx2done
	MOVQ  R11, DI
	MOVQ  R12, CX

avx2q6:
	MOVL    (DI), BX
	VMOVDQU (SI)(BX*1), Y0
	ROW(4)
	ROW(8)
	ROW(12)
	ROW(16)
	ROW(20)
	POPADD
	ADDQ R14, DI
	DECQ CX
	JNZ  avx2q6
	JMP  avx2done

avx2b7:
	CMPQ R8, $2
	JLT  avx2s7
	MOVQ R11, DI
	MOVQ R12, CX
	LEAQ (SI)(R9*1), DX

avx2p7:
	MOVL    (DI), BX
	VMOVDQU (SI)(BX*1), Y0
	VMOVDQU (DX)(BX*1), Y6
	ROW2(4)
	ROW2(8)
	ROW2(12)
	ROW2(16)
	ROW2(20)
	ROW2(24)
	POPADD2
	ADDQ R14, DI
	DECQ CX
	JNZ  avx2p7
	LEAQ (SI)(R9*2), SI
	SUBQ $2, R8
	JMP  avx2b7

avx2s7:
	TESTQ R8, R8
	JZ    avx2done
	MOVQ  R11, DI
	MOVQ  R12, CX

avx2q7:
	MOVL    (DI), BX
	VMOVDQU (SI)(BX*1), Y0
	ROW(4)
	ROW(8)
	ROW(12)
	ROW(16)
	ROW(20)
	ROW(24)
	POPADD
	ADDQ R14, DI
	DECQ CX
	JNZ  avx2q7
	JMP  avx2done

avx2b8:
	CMPQ R8, $2
	JLT  avx2s8
	MOVQ R11, DI
	MOVQ R12, CX
	LEAQ (SI)(R9*1), DX

avx2p8:
	MOVL    (DI), BX
	VMOVDQU (SI)(BX*1), Y0
	VMOVDQU (DX)(BX*1), Y6
	ROW2(4)
	ROW2(8)
	ROW2(12)
	ROW2(16)
	ROW2(20)
	ROW2(24)
	ROW2(28)
	POPADD2
	ADDQ R14, DI
	DECQ CX
	JNZ  avx2p8
	LEAQ (SI)(R9*2), SI
	SUBQ $2, R8
	JMP  avx2b8

avx2s8:
	TESTQ R8, R8
	JZ    avx2done
	MOVQ  R11, DI
	MOVQ  R12, CX

avx2q8:
	MOVL    (DI), BX
	VMOVDQU (SI)(BX*1), Y0
	ROW(4)
	ROW(8)
	ROW(12)
	ROW(16)
	ROW(20)
	ROW(24)
	ROW(28)
	POPADD
	ADDQ R14, DI
	DECQ CX
	JNZ  avx2q8
	JMP  avx2done
avx2done:
	VEXTRACTI128 $1, Y2, X1
	VPADDQ       X1, X2, X2
	VPSHUFD      $0x4e, X2, X1
	VPADDQ       X1, X2, X2
	VMOVQ        X2, AX
	VZEROUPPER
	MOVQ         AX, ret+56(FP)
	RET

// func countBatchesAVX2Index(tab *uint64, nb, bs, nch int, cq *uint64, nq int) uint64
//
// The loops of countBatchesGo4 (join_match.go), each row's offset computed from the query
// (for stores of one or two batches, where making the offsets first costs as much as the
// matching): for each of nb batches of bs words, for
// each of nq queries, AND the 32-byte rows tab[batch + j·1024 + (c>>5j & 31)·32] of
// chunks j < nch and add the popcount of the result: nibbles looked up with VPSHUFB, bytes
// summed into the four quadword accumulators of Y2 by VPSADBW.
TEXT ·countBatchesAVX2Index(SB), NOSPLIT, $0-56
	MOVQ    tab+0(FP), SI
	MOVQ    nb+8(FP), R8
	MOVQ    bs+16(FP), R9
	SHLQ    $3, R9
	MOVQ    nch+24(FP), R10
	DECQ    R10
	MOVQ    cq+32(FP), R11
	MOVQ    nq+40(FP), R12
	VPXOR   Y2, Y2, Y2
	VMOVDQU popcntNibbles<>(SB), Y3
	VMOVDQU lowNibbles<>(SB), Y4
	VPXOR   Y5, Y5, Y5

idxBatch:
	TESTQ R8, R8
	JZ    idxDone
	MOVQ  R11, DI
	MOVQ  R12, CX

idxQuery:
	MOVQ    (DI), AX
	MOVQ    AX, BX
	ANDQ    $31, BX
	SHLQ    $5, BX
	VMOVDQU (SI)(BX*1), Y0
	MOVQ    SI, DX
	MOVQ    R10, R13
	TESTQ   R13, R13
	JZ      idxChunksDone

idxChunk:
	SHRQ  $5, AX
	ADDQ  $1024, DX
	MOVQ  AX, BX
	ANDQ  $31, BX
	SHLQ  $5, BX
	VPAND (DX)(BX*1), Y0, Y0
	DECQ  R13
	JNZ   idxChunk

idxChunksDone:
	VPSRLW  $4, Y0, Y1
	VPAND   Y4, Y0, Y0
	VPAND   Y4, Y1, Y1
	VPSHUFB Y0, Y3, Y0
	VPSHUFB Y1, Y3, Y1
	VPADDB  Y0, Y1, Y0
	VPSADBW Y5, Y0, Y0
	VPADDQ  Y0, Y2, Y2
	ADDQ    $8, DI
	DECQ    CX
	JNZ     idxQuery
	ADDQ    R9, SI
	DECQ    R8
	JMP     idxBatch

idxDone:
	VEXTRACTI128 $1, Y2, X1
	VPADDQ       X1, X2, X2
	VPSHUFD      $0x4e, X2, X1
	VPADDQ       X1, X2, X2
	VMOVQ        X2, AX
	VZEROUPPER
	MOVQ         AX, ret+48(FP)
	RET
