//go:build amd64 && !purego

#include "textflag.h"

// The block-swap masks of transpose64's six rounds (swapBlocks), from 32×32 blocks down
// to 1×1.
DATA swapMasks<>+0(SB)/8, $0x00000000ffffffff
DATA swapMasks<>+8(SB)/8, $0x0000ffff0000ffff
DATA swapMasks<>+16(SB)/8, $0x00ff00ff00ff00ff
DATA swapMasks<>+24(SB)/8, $0x0f0f0f0f0f0f0f0f
DATA swapMasks<>+32(SB)/8, $0x3333333333333333
DATA swapMasks<>+40(SB)/8, $0x5555555555555555
GLOBL swapMasks<>(SB), RODATA|NOPTR, $48

// SWAP(a, b, j, m) is one block swap of swapBlocks on four words at once: a holds row k,
// b row k+j, m the round's mask; t = (a>>j ^ b) & m; a ^= t<<j; b ^= t (Y14 scratch).
#define SWAP(a, b, j, m) VPSRLQ $j, a, Y14; VPXOR b, Y14, Y14; VPAND m, Y14, Y14; VPXOR Y14, b, b; VPSLLQ $j, Y14, Y14; VPXOR Y14, a, a

// ROUNDS3(j1, j2, j3) runs three rounds of swaps (blocks of j1, j2, j3 = j1/2, j3 = j2/2
// rows) on the eight rows in Y0–Y7, Y_i being the group's row i·j3 apart, with the
// masks in Y8, Y9, Y10.
#define ROUNDS3(j1, j2, j3) \
	SWAP(Y0, Y4, j1, Y8); SWAP(Y1, Y5, j1, Y8); SWAP(Y2, Y6, j1, Y8); SWAP(Y3, Y7, j1, Y8); \
	SWAP(Y0, Y2, j2, Y9); SWAP(Y1, Y3, j2, Y9); SWAP(Y4, Y6, j2, Y9); SWAP(Y5, Y7, j2, Y9); \
	SWAP(Y0, Y1, j3, Y10); SWAP(Y2, Y3, j3, Y10); SWAP(Y4, Y5, j3, Y10); SWAP(Y6, Y7, j3, Y10)

// LOAD8(s) and STORE8(s) move the eight rows at DI, s bytes apart, to and from Y0–Y7.
#define LOAD8(s) VMOVDQU 0*s(DI), Y0; VMOVDQU 1*s(DI), Y1; VMOVDQU 2*s(DI), Y2; VMOVDQU 3*s(DI), Y3; VMOVDQU 4*s(DI), Y4; VMOVDQU 5*s(DI), Y5; VMOVDQU 6*s(DI), Y6; VMOVDQU 7*s(DI), Y7
#define STORE8(s) VMOVDQU Y0, 0*s(DI); VMOVDQU Y1, 1*s(DI); VMOVDQU Y2, 2*s(DI); VMOVDQU Y3, 3*s(DI); VMOVDQU Y4, 4*s(DI); VMOVDQU Y5, 5*s(DI); VMOVDQU Y6, 6*s(DI); VMOVDQU Y7, 7*s(DI)

// NOT8 complements Y0–Y7 (Y15 all ones).
#define NOT8 VPXOR Y15, Y0, Y0; VPXOR Y15, Y1, Y1; VPXOR Y15, Y2, Y2; VPXOR Y15, Y3, Y3; VPXOR Y15, Y4, Y4; VPXOR Y15, Y5, Y5; VPXOR Y15, Y6, Y6; VPXOR Y15, Y7, Y7

// func transposeNot4AVX2(rows *[64 + wideChunkBits][8]uint64)
//
// Four transpose64s side by side, each complemented: afterwards bit i of word w of row b
// (w < 4) is NOT what bit b of word w of row i was. Rows are 64 bytes apart; words 4–7
// and rows 64 on are not touched. The six rounds of swapBlocks on all four words at once
// (one 256-bit register a row), in two passes over eight groups of eight rows held in
// registers: the rounds of 32, 16 and 8 on rows k, k+8, …, k+56, then those of 4, 2 and 1
// on rows 8g … 8g+7, complemented as they are stored.
TEXT ·transposeNot4AVX2(SB), NOSPLIT, $0-8
	MOVQ         rows+0(FP), DI
	VPBROADCASTQ swapMasks<>+0(SB), Y8
	VPBROADCASTQ swapMasks<>+8(SB), Y9
	VPBROADCASTQ swapMasks<>+16(SB), Y10
	MOVQ         $8, CX

wide:
	LOAD8(512)
	ROUNDS3(32, 16, 8)
	STORE8(512)
	ADDQ $64, DI
	DECQ CX
	JNZ  wide

	MOVQ         rows+0(FP), DI
	VPBROADCASTQ swapMasks<>+24(SB), Y8
	VPBROADCASTQ swapMasks<>+32(SB), Y9
	VPBROADCASTQ swapMasks<>+40(SB), Y10
	VPCMPEQQ     Y15, Y15, Y15
	MOVQ         $8, CX

narrow:
	LOAD8(64)
	ROUNDS3(4, 2, 1)
	NOT8
	STORE8(64)
	ADDQ $512, DI
	DECQ CX
	JNZ  narrow
	VZEROUPPER
	RET

// func fillChunks4AVX2(t *uint64, rows *[64 + wideChunkBits][8]uint64, nch, cb int)
//
// buildBatch's four-Russians fill of a batch of 4-word rows: for each of the nch chunks
// (2^cb entries of 32 bytes each, entry 0 set by the caller), entries 2^i … 2^(i+1) − 1
// are entries 0 … 2^i − 1 ANDed with row j·cb + i (words 0–3 of the 64-byte rows), for
// i < cb: one load-AND and one store an entry.
TEXT ·fillChunks4AVX2(SB), NOSPLIT, $0-32
	MOVQ t+0(FP), SI
	MOVQ rows+8(FP), R8
	MOVQ nch+16(FP), R10
	MOVQ cb+24(FP), R11

chunk:
	MOVQ $1, R12 // 2^i
	MOVQ R11, R13

row:
	VMOVDQU (R8), Y1
	MOVQ    R12, DX
	SHLQ    $5, DX   // 2^i entries in bytes: from entry x to entry 2^i + x
	MOVQ    SI, AX
	MOVQ    R12, CX

entry:
	VPAND   (AX), Y1, Y0
	VMOVDQU Y0, (AX)(DX*1)
	ADDQ    $32, AX
	DECQ    CX
	JNZ     entry
	ADDQ    $64, R8
	SHLQ    $1, R12
	DECQ    R13
	JNZ     row
	SHLQ    $5, R12  // the chunk's 2^cb entries in bytes
	ADDQ    R12, SI
	DECQ    R10
	JNZ     chunk
	VZEROUPPER
	RET

// SWAPZ(a, b, j, m) is SWAP on eight words at once (512-bit registers, Z14 scratch).
#define SWAPZ(a, b, j, m) VPSRLQ $j, a, Z14; VPXORQ b, Z14, Z14; VPANDQ m, Z14, Z14; VPXORQ Z14, b, b; VPSLLQ $j, Z14, Z14; VPXORQ Z14, a, a

// ROUNDS3Z is ROUNDS3 on Z0–Z7, the masks in Z8, Z9, Z10.
#define ROUNDS3Z(j1, j2, j3) \
	SWAPZ(Z0, Z4, j1, Z8); SWAPZ(Z1, Z5, j1, Z8); SWAPZ(Z2, Z6, j1, Z8); SWAPZ(Z3, Z7, j1, Z8); \
	SWAPZ(Z0, Z2, j2, Z9); SWAPZ(Z1, Z3, j2, Z9); SWAPZ(Z4, Z6, j2, Z9); SWAPZ(Z5, Z7, j2, Z9); \
	SWAPZ(Z0, Z1, j3, Z10); SWAPZ(Z2, Z3, j3, Z10); SWAPZ(Z4, Z5, j3, Z10); SWAPZ(Z6, Z7, j3, Z10)

// LOAD8Z(s) and STORE8Z(s) are LOAD8 and STORE8 of whole 64-byte rows, to and from Z0–Z7.
#define LOAD8Z(s) VMOVDQU64 0*s(DI), Z0; VMOVDQU64 1*s(DI), Z1; VMOVDQU64 2*s(DI), Z2; VMOVDQU64 3*s(DI), Z3; VMOVDQU64 4*s(DI), Z4; VMOVDQU64 5*s(DI), Z5; VMOVDQU64 6*s(DI), Z6; VMOVDQU64 7*s(DI), Z7
#define STORE8Z(s) VMOVDQU64 Z0, 0*s(DI); VMOVDQU64 Z1, 1*s(DI); VMOVDQU64 Z2, 2*s(DI); VMOVDQU64 Z3, 3*s(DI); VMOVDQU64 Z4, 4*s(DI); VMOVDQU64 Z5, 5*s(DI); VMOVDQU64 Z6, 6*s(DI); VMOVDQU64 Z7, 7*s(DI)

// NOT8Z complements Z0–Z7 (Z15 all ones).
#define NOT8Z VPXORQ Z15, Z0, Z0; VPXORQ Z15, Z1, Z1; VPXORQ Z15, Z2, Z2; VPXORQ Z15, Z3, Z3; VPXORQ Z15, Z4, Z4; VPXORQ Z15, Z5, Z5; VPXORQ Z15, Z6, Z6; VPXORQ Z15, Z7, Z7

// func transposeNot8AVX512(rows *[64 + wideChunkBits][8]uint64)
//
// transposeNot4AVX2 on all eight words of the rows (one 512-bit register a row):
// afterwards bit i of word w of row b is NOT what bit b of word w of row i was, for
// every w < 8; rows 64 on are not touched. The same two passes.
TEXT ·transposeNot8AVX512(SB), NOSPLIT, $0-8
	MOVQ         rows+0(FP), DI
	VPBROADCASTQ swapMasks<>+0(SB), Z8
	VPBROADCASTQ swapMasks<>+8(SB), Z9
	VPBROADCASTQ swapMasks<>+16(SB), Z10
	MOVQ         $8, CX

wideZ:
	LOAD8Z(512)
	ROUNDS3Z(32, 16, 8)
	STORE8Z(512)
	ADDQ $64, DI
	DECQ CX
	JNZ  wideZ

	MOVQ         rows+0(FP), DI
	VPBROADCASTQ swapMasks<>+24(SB), Z8
	VPBROADCASTQ swapMasks<>+32(SB), Z9
	VPBROADCASTQ swapMasks<>+40(SB), Z10
	VPTERNLOGQ   $0xff, Z15, Z15, Z15
	MOVQ         $8, CX

narrowZ:
	LOAD8Z(64)
	ROUNDS3Z(4, 2, 1)
	NOT8Z
	STORE8Z(64)
	ADDQ $512, DI
	DECQ CX
	JNZ  narrowZ
	VZEROUPPER
	RET

// func fillChunks8AVX512(t *uint64, rows *[8]uint64, nch, cb int)
//
// fillChunks4AVX2 for a batch of 8-word rows (entries of 64 bytes): for each of the nch
// chunks, entries 2^i … 2^(i+1) − 1 are entries 0 … 2^i − 1 ANDed with row j·cb + i
// (rows counted from the one given), for i < cb, entry 0 set by the caller.
TEXT ·fillChunks8AVX512(SB), NOSPLIT, $0-32
	MOVQ t+0(FP), SI
	MOVQ rows+8(FP), R8
	MOVQ nch+16(FP), R10
	MOVQ cb+24(FP), R11

chunkZ:
	MOVQ $1, R12 // 2^i
	MOVQ R11, R13

rowZ:
	VMOVDQU64 (R8), Z1
	MOVQ      R12, DX
	SHLQ      $6, DX  // 2^i entries in bytes: from entry x to entry 2^i + x
	MOVQ      SI, AX
	MOVQ      R12, CX

entryZ:
	VPANDQ    (AX), Z1, Z0
	VMOVDQU64 Z0, (AX)(DX*1)
	ADDQ      $64, AX
	DECQ      CX
	JNZ       entryZ
	ADDQ      $64, R8
	SHLQ      $1, R12
	DECQ      R13
	JNZ       rowZ
	SHLQ      $6, R12 // the chunk's 2^cb entries in bytes
	ADDQ      R12, SI
	DECQ      R10
	JNZ       chunkZ
	VZEROUPPER
	RET
