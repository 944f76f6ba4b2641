//go:build amd64 && !purego

#include "textflag.h"

// pairFrame's fields (join.go).
#define F_FORBID 0
#define F_S 8
#define F_DL 16
#define F_UR 24
#define F_W 32
#define F_M 40

// COMPRESS8 stores at DI the lanes of Z4 that K1 selects, packed, and moves DI past them.
#define COMPRESS8 VPCOMPRESSQ.Z Z4, K1, Z4; VMOVDQU64 Z4, (DI); KMOVW K1, AX; POPCNTL AX, AX; LEAQ (DI)(AX*8), DI

// func cellPairsAVX512(dst, north *uint64, nn int, clash, sig *uint64, ns int, f *pairFrame) int
//
// North pieces go eight at a time: their clash words (Z11) and signatures (Z14) are made
// in vector registers, those off the forbidden masks packed to the front (VPCOMPRESSQ).
// Then either each is broadcast (VPERMQ by the index Z16) against the south pieces, held
// in Z2, Z3 where there are at most eight of them, else read eight a step; or, where that
// takes fewer steps (swapped), each south piece is broadcast against the block.
TEXT ·cellPairsAVX512(SB), NOSPLIT, $0-64
	MOVQ dst+0(FP), DI
	MOVQ north+8(FP), R8
	MOVQ nn+16(FP), R9
	MOVQ clash+24(FP), R10
	MOVQ sig+32(FP), R11
	MOVQ ns+40(FP), R12
	MOVQ f+48(FP), R13

	VPBROADCASTQ F_FORBID(R13), Z20
	VPBROADCASTQ F_M(R13), Z21
	VPBROADCASTQ F_S(R13), Z22
	VPBROADCASTQ F_DL(R13), Z23
	VPBROADCASTQ F_UR(R13), Z24
	VPBROADCASTQ F_W(R13), Z25
	MOVL         $0xffffffff, AX
	VPBROADCASTQ AX, Z26
	MOVL         $1, AX
	VPBROADCASTQ AX, Z27

	// BX = 1 where the south pieces fit one register (ns ≤ 8): Z2, Z3 hold them and K6
	// their lanes. Else K7 holds the lanes of the last, partial step (none if ns is a
	// multiple of 8) and R12 the whole steps.
	XORQ  BX, BX
	CMPQ  R12, $8
	JGT   long
	MOVQ  R12, CX
	MOVL  $1, AX
	SHLL  CX, AX
	DECL  AX
	KMOVW AX, K6
	VMOVDQU64.Z (R10), K6, Z2
	VMOVDQU64.Z (R11), K6, Z3
	MOVQ  $1, BX
	JMP   blocks

long:
	MOVQ  R12, CX
	ANDQ  $7, CX
	MOVL  $1, AX
	SHLL  CX, AX
	DECL  AX
	KMOVW AX, K7
	SHRQ  $3, R12

blocks:
	TESTQ R9, R9
	JLE   done

block:
	// K1: the north lanes of this block.
	MOVL  $0xff, AX
	CMPQ  R9, $8
	JGE   whole
	MOVQ  R9, CX
	MOVL  $1, AX
	SHLL  CX, AX
	DECL  AX

whole:
	KMOVW AX, K1
	VMOVDQU64.Z (R8), K1, Z8
	VPTESTNMQ Z20, Z8, K1, K2 // off the forbidden masks
	VPANDQ    Z26, Z8, Z9     // down
	VPSRLQ    $32, Z8, Z10    // up
	VPSLLQ    X22, Z9, Z11
	VPANDQ    Z21, Z11, Z11
	VPANDQ    Z21, Z10, Z12
	VPSLLQ    $32, Z12, Z12
	VPORQ     Z12, Z11, Z11   // clash words
	VPSLLQ    X23, Z9, Z14
	VPANDQ    Z21, Z14, Z14
	VPSRLQ    X24, Z10, Z15
	VPANDQ    Z21, Z15, Z15
	VPSLLQ    X25, Z15, Z15
	VPORQ     Z15, Z14, Z14   // signatures
	VPCOMPRESSQ.Z Z11, K2, Z11
	VPCOMPRESSQ.Z Z14, K2, Z14
	KMOVW     K2, AX
	POPCNTL   AX, CX
	VPXORQ    Z16, Z16, Z16
	TESTQ     CX, CX
	JZ        nextBlock
	TESTQ     BX, BX
	JZ        long2
	MOVQ      R12, DX
	CMPQ      CX, R12
	JGT       swapped

shortPiece:
	VPERMQ    Z11, Z16, Z0
	VPERMQ    Z14, Z16, Z1
	VPADDQ    Z27, Z16, Z16
	VPTESTNMQ Z2, Z0, K6, K1
	VPORQ     Z3, Z1, Z4
	COMPRESS8
	DECQ      CX
	JNZ       shortPiece
	JMP       nextBlock

long2:
	// More than eight south pieces: north piece by north piece takes CX·⌈ns/8⌉ steps,
	// south piece by south piece ns; the latter where 4·CX·⌈ns/8⌉ > 3·ns (a step against
	// memory costs about 4/3 of one against registers).
	MOVQ     ns+40(FP), DX
	MOVQ     R12, AX
	KORTESTW K7, K7
	JZ       noTail
	INCQ     AX

noTail:
	IMULQ CX, AX
	SHLQ  $2, AX
	LEAQ  (DX)(DX*2), SI
	CMPQ  AX, SI
	JLE   longPiece

swapped:
	// Each of the DX south pieces against the block's CX north pieces (lanes K3) at once.
	MOVL  $0xff, AX
	BZHIL CX, AX, AX
	KMOVW AX, K3
	MOVQ  R10, SI
	MOVQ  R11, R13

southPiece:
	VPBROADCASTQ (SI), Z0
	VPBROADCASTQ (R13), Z1
	VPTESTNMQ    Z11, Z0, K3, K1
	VPORQ        Z14, Z1, Z4
	COMPRESS8
	ADDQ         $8, SI
	ADDQ         $8, R13
	DECQ         DX
	JNZ          southPiece
	JMP          nextBlock

longPiece:
	VPERMQ Z11, Z16, Z0
	VPERMQ Z14, Z16, Z1
	VPADDQ Z27, Z16, Z16
	MOVQ   R10, SI
	MOVQ   R11, R13
	MOVQ   R12, DX

step:
	VMOVDQU64 (SI), Z2
	VPTESTNMQ Z2, Z0, K1
	VPORQ     (R13), Z1, Z4
	COMPRESS8
	ADDQ      $64, SI
	ADDQ      $64, R13
	DECQ      DX
	JNZ       step

	KORTESTW    K7, K7
	JZ          nextPiece
	VMOVDQU64.Z (SI), K7, Z2
	VPTESTNMQ   Z2, Z0, K7, K1
	VMOVDQU64.Z (R13), K7, Z3
	VPORQ       Z3, Z1, Z4
	COMPRESS8

nextPiece:
	DECQ CX
	JNZ  longPiece

nextBlock:
	ADDQ $64, R8
	SUBQ $8, R9
	JGT  block

done:
	MOVQ dst+0(FP), AX
	SUBQ AX, DI
	SHRQ $3, DI
	MOVQ DI, ret+56(FP)
	VZEROUPPER
	RET
