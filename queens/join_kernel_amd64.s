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
