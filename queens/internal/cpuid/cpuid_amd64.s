//go:build amd64 && !purego

#include "textflag.h"

// func hasPOPCNT() bool
TEXT ·hasPOPCNT(SB), NOSPLIT, $0-1
	MOVL $1, AX
	XORL CX, CX
	CPUID
	SHRL $23, CX
	ANDL $1, CX
	MOVB CX, ret+0(FP)
	RET

// func hasBMI2() bool
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

// func hasAVX2() bool
TEXT ·hasAVX2(SB), NOSPLIT, $0-1
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

// func hasAVX512Popcnt() bool
TEXT ·hasAVX512Popcnt(SB), NOSPLIT, $0-1
	XORL AX, AX
	CPUID
	CMPL AX, $7
	JLT  no512
	MOVL $1, AX
	XORL CX, CX
	CPUID
	BTL  $27, CX // OSXSAVE
	JCC  no512
	XORL CX, CX
	XGETBV
	ANDL $0xe6, AX // SSE, AVX, opmask, ZMM upper halves, ZMM16-31
	CMPL AX, $0xe6
	JNE  no512
	MOVL $7, AX
	XORL CX, CX
	CPUID
	BTL  $16, BX // AVX512F
	JCC  no512
	BTL  $14, CX // AVX512_VPOPCNTDQ
	JCC  no512
	MOVB $1, ret+0(FP)
	RET

no512:
	MOVB $0, ret+0(FP)
	RET
