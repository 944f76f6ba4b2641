//go:build amd64 && !purego

#include "go_asm.h"
#include "textflag.h"

// The scan of a node's rows, in the registers both functions use: AX free columns, BX d1,
// DX d2, DI the rows left to scan (consumed), SI the tie-break table; out R8 best, R9
// once, R10 twice, R11 thrice; CX the row k, R12 and R13 scratch.

// SCANINIT(done) sets best, once, twice and thrice to their starts and jumps to done when
// no row is left.
#define SCANINIT(done) MOVQ $16777216, R8; XORQ R9, R9; XORQ R10, R10; XORQ R11, R11; TESTQ DI, DI; JZ done

// ATTACKED(dst, t) sets dst to the columns d1 and d2 attack on row k (CX), with BMI2:
// d1>>k | (d2<<k)>>32; t scratch.
#define ATTACKED(dst, t) SHRXQ CX, BX, dst; SHLXQ CX, DX, t; SHRQ $32, t; ORQ t, dst

// TALLY folds o (R12), the open columns of row k, into once, twice, thrice and best:
//	thrice |= twice & o; twice |= once & o; once |= o
//	best = min(best, popcount(o)<<16 | tie[k])
#define TALLY MOVQ R10, R13; ANDQ R12, R13; ORQ R13, R11; MOVQ R9, R13; ANDQ R12, R13; ORQ R13, R10; ORQ R12, R9; POPCNTQ R12, R13; SHLQ $16, R13; MOVWQZX (SI)(CX*2), R12; ORQ R12, R13; CMPQ R13, R8; CMOVQCS R13, R8

// SCANBMI2(loop) is the scan loop with BMI1 and BMI2, at label loop: for each set bit k of
// DI, o := free &^ ATTACKED, then TALLY.
#define SCANBMI2(loop) \
loop:                         \
	TZCNTQ DI, CX;             \
	ATTACKED(R12, R13);        \
	ANDNQ  AX, R12, R12;       \
	TALLY;                     \
	BLSRQ  DI, DI;             \
	JNZ    loop

// func scanRowsAsm(free, d1, d2, rem uint64, tie *[count.MaxN]uint16) (best uint, once, twice, thrice uint64)
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
	SCANINIT(done)
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
	TALLY
	LEAQ -1(DI), R12
	ANDQ R12, DI     // next row
	JNZ loop
	JMP done

	SCANBMI2(loopBMI2)

done:
	MOVQ R8, best+40(FP)
	MOVQ R9, once+48(FP)
	MOVQ R10, twice+56(FP)
	MOVQ R11, thrice+64(FP)
	RET

// func settleAsm(st *settleState)
//
// settleGo (search.go) with the BMI2 scan loop inlined. The settleState fields are at
// 0 cols, 8 d1, 16 d2, 24 rem, 32 mask, 40 tie, 48 best, 56 once, 64 twice, 72 thrice,
// 80 forced.
TEXT ·settleAsm(SB), NOSPLIT, $0-8
	MOVQ st+0(FP), R12

settle:
	MOVQ settleState_mask(R12), AX
	MOVQ settleState_cols(R12), R13
	ANDNQ AX, R13, AX    // free = mask &^ cols
	MOVQ settleState_d1(R12), BX      // d1
	MOVQ settleState_d2(R12), DX     // d2
	MOVQ settleState_rem(R12), DI     // rem, consumed by the scan
	MOVQ settleState_tie(R12), SI     // tie
	SCANINIT(decide)
	SCANBMI2(scan)

decide:
	MOVQ st+0(FP), R12
	MOVQ R8, settleState_best(R12)
	MOVQ R9, settleState_once(R12)
	MOVQ R10, settleState_twice(R12)
	MOVQ R11, settleState_thrice(R12)
	CMPQ R9, AX
	JNE done             // a free column open on no row: dead
	MOVQ R8, R13
	SHRQ $16, R13        // c
	JZ done              // a row with no open column: dead
	MOVQ R8, CX
	ANDL $63, CX         // the most constrained row
	MOVQ settleState_rem(R12), DI
	BTRQ CX, DI          // rest
	BLSRQ DI, SI
	JZ done              // at most two empty rows: the caller counts them
	CMPQ R13, $1
	JNE single
	ATTACKED(SI, R13)
	ANDNQ AX, SI, SI     // the row's only open column
	JMP place

single:
	ANDNQ AX, R10, R13   // free columns open on one row only
	JZ done              // none: the caller branches
	BLSIQ R13, SI        // the lowest of them
	MOVQ settleState_rem(R12), DI

find:
	TZCNTQ DI, CX        // the first row where it is open
	ATTACKED(R13, R9)
	TESTQ SI, R13
	JZ found
	BLSRQ DI, DI
	JNZ find
	JMP done             // not reached: the column is open on one row

found:
	MOVQ settleState_rem(R12), DI
	BTRQ CX, DI          // rem without that row

place:
	ORQ SI, settleState_cols(R12)       // cols |= bit
	SHLXQ CX, SI, R13
	ORQ R13, settleState_d1(R12)      // d1 |= bit << row
	MOVQ SI, R13
	SHLQ $32, R13
	SHRXQ CX, R13, R13
	ORQ R13, settleState_d2(R12)     // d2 |= (bit << 32) >> row
	MOVQ DI, settleState_rem(R12)
	INCQ settleState_forced(R12)         // forced++
	JMP settle

done:
	RET
