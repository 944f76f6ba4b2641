//go:build amd64 && !purego

#include "textflag.h"

// func scanRowsAsm(free, d1, d2, rem uint64, tie *[MaxCountN]uint16) (best uint, once, twice, thrice uint64)
//
// The loop of scanRowsGo (search.go), kept in registers: for each set bit k of rem,
//	o := free &^ (d1>>k | (d2<<k)>>32)
//	thrice |= twice & o; twice |= once & o; once |= o
//	best = min(best, popcount(o)<<16 | tie[k])
// with BMI1/BMI2 instructions when the processor has them (haveBMI2).
TEXT ·scanRowsAsm(SB), NOSPLIT, $0-72
	MOVQ free+0(FP), AX
	MOVQ d1+8(FP), BX
	MOVQ d2+16(FP), DX
	MOVQ rem+24(FP), DI
	MOVQ tie+32(FP), SI
	MOVQ $16777216, R8 // best
	XORQ R9, R9        // once
	XORQ R10, R10      // twice
	XORQ R11, R11      // thrice
	TESTQ DI, DI
	JZ done
	CMPB ·haveBMI2(SB), $0
	JNE loopBMI2

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
	MOVWQZX (SI)(CX*2), R12
	ORQ R12, R13     // popcount(o)<<16 | tie[k]
	CMPQ R13, R8
	CMOVQCS R13, R8  // best = min(best, that)
	LEAQ -1(DI), R12
	ANDQ R12, DI     // next row
	JNZ loop
	JMP done

loopBMI2:
	TZCNTQ DI, CX        // k
	SHRXQ CX, BX, R12    // d1 >> k
	SHLXQ CX, DX, R13
	SHRQ $32, R13        // (d2 << k) >> 32
	ORQ R13, R12
	ANDNQ AX, R12, R12   // o = free &^ that
	MOVQ R10, R13
	ANDQ R12, R13
	ORQ R13, R11         // thrice |= twice & o
	MOVQ R9, R13
	ANDQ R12, R13
	ORQ R13, R10         // twice |= once & o
	ORQ R12, R9          // once |= o
	POPCNTQ R12, R13
	SHLQ $16, R13
	MOVWQZX (SI)(CX*2), R12
	ORQ R12, R13         // popcount(o)<<16 | tie[k]
	CMPQ R13, R8
	CMOVQCS R13, R8      // best = min(best, that)
	BLSRQ DI, DI         // next row
	JNZ loopBMI2

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

// func cpuHasBMI2() bool
TEXT ·cpuHasBMI2(SB), NOSPLIT, $0-1
	XORL AX, AX
	CPUID
	CMPL AX, $7
	JLT no
	MOVL $7, AX
	XORL CX, CX
	CPUID
	MOVL BX, AX
	SHRL $3, AX      // BMI1: EBX bit 3
	SHRL $8, BX      // BMI2: EBX bit 8
	ANDL BX, AX
	ANDL $1, AX
	MOVB AX, ret+0(FP)
	RET
no:
	MOVB $0, ret+0(FP)
	RET
