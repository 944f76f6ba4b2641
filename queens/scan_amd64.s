//go:build amd64 && !purego

#include "textflag.h"

// func scanRowsAsm(free, d1, d2, rem uint64, tie *[MaxCountN]uint8) (best uint, once, twice, thrice uint64)
//
// The loop of scanRowsGo (search.go), kept in registers: for each set bit k of rem,
//	o := free &^ (d1>>k | (d2<<k)>>32)
//	thrice |= twice & o; twice |= once & o; once |= o
//	best = min(best, popcount(o)<<16 | tie[k]<<8 | k)
TEXT ·scanRowsAsm(SB), NOSPLIT, $0-72
	MOVQ free+0(FP), AX
	MOVQ d1+8(FP), BX
	MOVQ d2+16(FP), DX
	MOVQ rem+24(FP), DI
	MOVQ tie+32(FP), SI
	MOVQ $16777216, R8 // best
	XORQ R9, R9      // once
	XORQ R10, R10    // twice
	XORQ R11, R11    // thrice
	TESTQ DI, DI
	JZ done

loop:
	BSFQ DI, CX      // k
	MOVQ BX, R12
	SHRQ CX, R12     // d1 >> k
	MOVQ DX, R13
	SHLQ CX, R13
	SHRQ $32, R13    // (d2 << k) >> 32
	ORQ R13, R12
	NOTQ R12
	ANDQ AX, R12     // o
	MOVQ R10, R13
	ANDQ R12, R13
	ORQ R13, R11     // thrice |= twice & o
	MOVQ R9, R13
	ANDQ R12, R13
	ORQ R13, R10     // twice |= once & o
	ORQ R12, R9      // once |= o
	POPCNTQ R12, R13
	SHLQ $16, R13
	MOVBQZX (SI)(CX*1), R12
	SHLQ $8, R12
	ORQ R12, R13
	ORQ CX, R13      // popcount(o)<<16 | tie[k]<<8 | k
	CMPQ R13, R8
	CMOVQCS R13, R8  // best = min(best, that)
	LEAQ -1(DI), R12
	ANDQ R12, DI     // next row
	JNZ loop

done:
	MOVQ R8, best+40(FP)
	MOVQ R9, once+48(FP)
	MOVQ R10, twice+56(FP)
	MOVQ R11, thrice+64(FP)
	RET

// func cpuHasPOPCNT() bool
TEXT ·cpuHasPOPCNT(SB), NOSPLIT, $0-1
	MOVL $1, AX
	XORL CX, CX
	CPUID
	SHRL $23, CX
	ANDL $1, CX
	MOVB CX, ret+0(FP)
	RET
