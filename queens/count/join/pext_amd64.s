//go:build amd64 && !purego

#include "textflag.h"

// func extractPEXT(dst, src *uint64, n int, mask uint64)
TEXT ·extractPEXT(SB), NOSPLIT, $0-32
	MOVQ dst+0(FP), DI
	MOVQ src+8(FP), SI
	MOVQ n+16(FP), CX
	MOVQ mask+24(FP), DX
	TESTQ CX, CX
	JZ    done

loop:
	MOVQ  (SI), AX
	PEXTQ DX, AX, AX
	MOVQ  AX, (DI)
	ADDQ  $8, SI
	ADDQ  $8, DI
	DECQ  CX
	JNZ   loop

done:
	RET
