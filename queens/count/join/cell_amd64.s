//go:build amd64 && !purego

#include "textflag.h"

// pairFrame's fields (join.go).
#define F_FORBID 0
#define F_S 8
#define F_DL 16
#define F_UR 24
#define F_W 32
#define F_M 40

// func joinCellAVX512(dst, north *uint64, nn int, clash, sig *uint64, ns int, f *pairFrame) int
TEXT ·joinCellAVX512(SB), NOSPLIT, $0-64
	MOVQ dst+0(FP), DI
	MOVQ north+8(FP), R8
	MOVQ nn+16(FP), R9
	MOVQ clash+24(FP), R10
	MOVQ sig+32(FP), R11
	MOVQ ns+40(FP), R12
	MOVQ f+48(FP), R13
	MOVQ DI, DX

	// K7: the lanes of the last, partial step (none if ns is a multiple of 8); R12: the
	// whole steps.
	MOVQ R12, CX
	ANDQ $7, CX
	MOVL $1, AX
	SHLL CX, AX
	DECL AX
	KMOVW AX, K7
	SHRQ $3, R12
	TESTQ R9, R9
	JZ   done

north:
	MOVQ  (R8), AX
	TESTQ F_FORBID(R13), AX
	JNZ   next
	MOVL  AX, BX              // down
	SHRQ  $32, AX             // up
	MOVQ  F_S(R13), CX
	SHLXQ CX, BX, SI
	ANDQ  F_M(R13), SI
	MOVQ  AX, CX
	ANDQ  F_M(R13), CX
	SHLQ  $32, CX
	ORQ   CX, SI              // clash word
	VPBROADCASTQ SI, Z0
	MOVQ  F_DL(R13), CX
	SHLXQ CX, BX, BX
	ANDQ  F_M(R13), BX
	MOVQ  F_UR(R13), CX
	SHRXQ CX, AX, AX
	ANDQ  F_M(R13), AX
	MOVQ  F_W(R13), CX
	SHLXQ CX, AX, AX
	ORQ   AX, BX              // signature
	VPBROADCASTQ BX, Z1

	MOVQ R10, SI
	MOVQ R11, BX
	MOVQ R12, CX
	TESTQ CX, CX
	JZ   tail

south:
	VMOVDQU64     (SI), Z2
	VPTESTNMQ     Z2, Z0, K1
	VPORQ         (BX), Z1, Z3
	VPCOMPRESSQ.Z Z3, K1, Z4
	VMOVDQU64     Z4, (DI)
	KMOVW         K1, AX
	POPCNTL       AX, AX
	LEAQ          (DI)(AX*8), DI
	ADDQ          $64, SI
	ADDQ          $64, BX
	DECQ          CX
	JNZ           south

tail:
	KORTESTW      K7, K7
	JZ            next
	VMOVDQU64.Z   (SI), K7, Z2
	VPTESTNMQ     Z2, Z0, K7, K1
	VMOVDQU64.Z   (BX), K7, Z3
	VPORQ         Z3, Z1, Z3
	VPCOMPRESSQ.Z Z3, K1, Z4
	VMOVDQU64     Z4, (DI)
	KMOVW         K1, AX
	POPCNTL       AX, AX
	LEAQ          (DI)(AX*8), DI

next:
	ADDQ $8, R8
	DECQ R9
	JNZ  north

done:
	SUBQ DX, DI
	SHRQ $3, DI
	MOVQ DI, ret+56(FP)
	VZEROUPPER
	RET
