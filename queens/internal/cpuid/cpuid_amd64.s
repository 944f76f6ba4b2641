//go:build amd64 && !purego

#include "textflag.h"

// func cpuHasPOPCNT() bool
TEXT ·hasPOPCNT(SB), NOSPLIT, $0-1
	MOVL $1, AX
	XORL CX, CX
	CPUID
	SHRL $23, CX
	ANDL $1, CX
	MOVB CX, ret+0(FP)
	RET

// func cpuHasBMI2() bool
TEXT ·hasBMI2(SB), NOSPLIT, $0-1
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
