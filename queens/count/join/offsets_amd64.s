//go:build amd64 && !purego

#include "textflag.h"

// func offsetsAVX2(dst *uint32, qs *uint64, n, strideBytes int, k *offsetKeys)
//
// For each of the n queries at qs: broadcast it, shift each quadword lane right by its
// chunk's j·cb (VPSRLVQ, chunks 0–3 and 4–7), mask to cb bits, gather the eight low
// halves into dwords (VPERMD), shift left by the row shift and add chunk j's first row:
// slot j of the query, all eight stored at once at dst, which then moves on strideBytes.
TEXT ·offsetsAVX2(SB), NOSPLIT, $0-40
	MOVQ         dst+0(FP), DI
	MOVQ         qs+8(FP), SI
	MOVQ         n+16(FP), CX
	MOVQ         strideBytes+24(FP), DX
	MOVQ         k+32(FP), AX
	VMOVDQU      0(AX), Y4     // shifts of chunks 0–3
	VMOVDQU      32(AX), Y5    // shifts of chunks 4–7
	VPBROADCASTQ 64(AX), Y6    // mask
	VMOVQ        72(AX), X7    // row shift
	VMOVDQU      80(AX), Y8    // first rows
	VMOVDQU      112(AX), Y9   // gather index
	PCALIGN      $32

query:
	VPBROADCASTQ (SI), Y0
	VPSRLVQ      Y4, Y0, Y1
	VPSRLVQ      Y5, Y0, Y2
	VPAND        Y6, Y1, Y1
	VPAND        Y6, Y2, Y2
	VPERMD       Y1, Y9, Y1
	VPERMD       Y2, Y9, Y2
	VINSERTI128  $1, X2, Y1, Y1
	VPSLLD       X7, Y1, Y1
	VPADDD       Y8, Y1, Y1
	VMOVDQU      Y1, (DI)
	ADDQ         $8, SI
	ADDQ         DX, DI
	DECQ         CX
	JNZ          query
	VZEROUPPER
	RET
