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

// func cpuHasAVX512Popcnt() bool
TEXT ·cpuHasAVX512Popcnt(SB), NOSPLIT, $0-1
	XORL AX, AX
	CPUID
	CMPL AX, $7
	JLT  no
	MOVL $1, AX
	XORL CX, CX
	CPUID
	BTL  $27, CX // OSXSAVE
	JCC  no
	XORL CX, CX
	XGETBV
	ANDL $0xe6, AX // SSE, AVX, opmask, ZMM upper halves, ZMM16-31
	CMPL AX, $0xe6
	JNE  no
	MOVL $7, AX
	XORL CX, CX
	CPUID
	BTL  $16, BX // AVX512F
	JCC  no
	BTL  $14, CX // AVX512_VPOPCNTDQ
	JCC  no
	MOVB $1, ret+0(FP)
	RET

no:
	MOVB $0, ret+0(FP)
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

// func countBatchesAVX2(tab *uint64, nb, bs, nch int, cq *uint64, nq int) uint64
//
// The loops of countBatchesGo4 (join_match.go): for each of nb batches of bs words, for
// each of nq queries, AND the 32-byte rows tab[batch + j·1024 + (c>>5j & 31)·32] of
// chunks j < nch and add the popcount of the result: nibbles looked up with VPSHUFB, bytes
// summed into the four quadword accumulators of Y2 by VPSADBW.
TEXT ·countBatchesAVX2(SB), NOSPLIT, $0-56
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

batch2:
	TESTQ R8, R8
	JZ    done2
	MOVQ  R11, DI
	MOVQ  R12, CX

query2:
	MOVQ    (DI), AX
	MOVQ    AX, BX
	ANDQ    $31, BX
	SHLQ    $5, BX
	VMOVDQU (SI)(BX*1), Y0
	MOVQ    SI, DX
	MOVQ    R10, R13
	TESTQ   R13, R13
	JZ      chunksDone2

chunk2:
	SHRQ  $5, AX
	ADDQ  $1024, DX
	MOVQ  AX, BX
	ANDQ  $31, BX
	SHLQ  $5, BX
	VPAND (DX)(BX*1), Y0, Y0
	DECQ  R13
	JNZ   chunk2

chunksDone2:
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
	JNZ     query2
	ADDQ    R9, SI
	DECQ    R8
	JMP     batch2

done2:
	VEXTRACTI128 $1, Y2, X1
	VPADDQ       X1, X2, X2
	VPSHUFD      $0x4e, X2, X1
	VPADDQ       X1, X2, X2
	VMOVQ        X2, AX
	VZEROUPPER
	MOVQ         AX, ret+48(FP)
	RET

// func cpuHasAVX2() bool
TEXT ·cpuHasAVX2(SB), NOSPLIT, $0-1
	XORL AX, AX
	CPUID
	CMPL AX, $7
	JLT  no2
	MOVL $1, AX
	XORL CX, CX
	CPUID
	BTL  $27, CX // OSXSAVE
	JCC  no2
	BTL  $28, CX // AVX
	JCC  no2
	XORL CX, CX
	XGETBV
	ANDL $6, AX // SSE and AVX state
	CMPL AX, $6
	JNE  no2
	MOVL $7, AX
	XORL CX, CX
	CPUID
	BTL  $5, BX // AVX2
	JCC  no2
	MOVB $1, ret+0(FP)
	RET

no2:
	MOVB $0, ret+0(FP)
	RET
