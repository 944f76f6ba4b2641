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

// PACK4 stores at DI the lanes of Y4 that the 4-bit mask in AX selects, packed by their
// VPERMD indexes in cellPerm (R15), and moves DI past them (AVX2 kernels).
#define PACK4 MOVQ AX, DX; SHLQ $5, DX; VMOVDQU (R15)(DX*1), Y5; VPERMD Y4, Y5, Y4; VMOVDQU Y4, (DI); POPCNTL AX, AX; LEAQ (DI)(AX*8), DI

// NORTH8 loads the north pieces at R8 that K1 selects (Z8), keeps those off the forbidden
// masks (Z20: K2), makes their clash words (Z11: down and up halves shifted by X22 and
// masked by Z21, Z26) and signatures (Z14: shifted by X23, X24, X25), packs both to the
// front by K2, puts the number kept in CX (AX clobbered) and clears the index Z16.
#define NORTH8 VMOVDQU64.Z (R8), K1, Z8; VPTESTNMQ Z20, Z8, K1, K2; VPANDQ Z26, Z8, Z9; VPSRLQ $32, Z8, Z10; VPSLLQ X22, Z9, Z11; VPANDQ Z21, Z11, Z11; VPANDQ Z21, Z10, Z12; VPSLLQ $32, Z12, Z12; VPORQ Z12, Z11, Z11; VPSLLQ X23, Z9, Z14; VPANDQ Z21, Z14, Z14; VPSRLQ X24, Z10, Z15; VPANDQ Z21, Z15, Z15; VPSLLQ X25, Z15, Z15; VPORQ Z15, Z14, Z14; VPCOMPRESSQ.Z Z11, K2, Z11; VPCOMPRESSQ.Z Z14, K2, Z14; KMOVW K2, AX; POPCNTL AX, CX; VPXORQ Z16, Z16, Z16

// NORTH8NF is NORTH8 for a frame without forbidden masks: every piece K1 selects is
// kept, so the test and the packing are left out; the number kept (CX) is K1's count,
// which the caller puts in CX.
#define NORTH8NF VMOVDQU64.Z (R8), K1, Z8; VPANDQ Z26, Z8, Z9; VPSRLQ $32, Z8, Z10; VPSLLQ X22, Z9, Z11; VPANDQ Z21, Z11, Z11; VPANDQ Z21, Z10, Z12; VPSLLQ $32, Z12, Z12; VPORQ Z12, Z11, Z11; VPSLLQ X23, Z9, Z14; VPANDQ Z21, Z14, Z14; VPSRLQ X24, Z10, Z15; VPANDQ Z21, Z15, Z15; VPSLLQ X25, Z15, Z15; VPORQ Z15, Z14, Z14; VPXORQ Z16, Z16, Z16

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
	NORTH8
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

// cellPerm holds, for each 4-bit mask of compatible south pieces, the VPERMD index that
// packs the selected quadwords of a 256-bit register to its front, in order.
DATA cellPerm<>+0(SB)/4, $0
DATA cellPerm<>+4(SB)/4, $0
DATA cellPerm<>+8(SB)/4, $0
DATA cellPerm<>+12(SB)/4, $0
DATA cellPerm<>+16(SB)/4, $0
DATA cellPerm<>+20(SB)/4, $0
DATA cellPerm<>+24(SB)/4, $0
DATA cellPerm<>+28(SB)/4, $0
DATA cellPerm<>+32(SB)/4, $0
DATA cellPerm<>+36(SB)/4, $1
DATA cellPerm<>+40(SB)/4, $0
DATA cellPerm<>+44(SB)/4, $0
DATA cellPerm<>+48(SB)/4, $0
DATA cellPerm<>+52(SB)/4, $0
DATA cellPerm<>+56(SB)/4, $0
DATA cellPerm<>+60(SB)/4, $0
DATA cellPerm<>+64(SB)/4, $2
DATA cellPerm<>+68(SB)/4, $3
DATA cellPerm<>+72(SB)/4, $0
DATA cellPerm<>+76(SB)/4, $0
DATA cellPerm<>+80(SB)/4, $0
DATA cellPerm<>+84(SB)/4, $0
DATA cellPerm<>+88(SB)/4, $0
DATA cellPerm<>+92(SB)/4, $0
DATA cellPerm<>+96(SB)/4, $0
DATA cellPerm<>+100(SB)/4, $1
DATA cellPerm<>+104(SB)/4, $2
DATA cellPerm<>+108(SB)/4, $3
DATA cellPerm<>+112(SB)/4, $0
DATA cellPerm<>+116(SB)/4, $0
DATA cellPerm<>+120(SB)/4, $0
DATA cellPerm<>+124(SB)/4, $0
DATA cellPerm<>+128(SB)/4, $4
DATA cellPerm<>+132(SB)/4, $5
DATA cellPerm<>+136(SB)/4, $0
DATA cellPerm<>+140(SB)/4, $0
DATA cellPerm<>+144(SB)/4, $0
DATA cellPerm<>+148(SB)/4, $0
DATA cellPerm<>+152(SB)/4, $0
DATA cellPerm<>+156(SB)/4, $0
DATA cellPerm<>+160(SB)/4, $0
DATA cellPerm<>+164(SB)/4, $1
DATA cellPerm<>+168(SB)/4, $4
DATA cellPerm<>+172(SB)/4, $5
DATA cellPerm<>+176(SB)/4, $0
DATA cellPerm<>+180(SB)/4, $0
DATA cellPerm<>+184(SB)/4, $0
DATA cellPerm<>+188(SB)/4, $0
DATA cellPerm<>+192(SB)/4, $2
DATA cellPerm<>+196(SB)/4, $3
DATA cellPerm<>+200(SB)/4, $4
DATA cellPerm<>+204(SB)/4, $5
DATA cellPerm<>+208(SB)/4, $0
DATA cellPerm<>+212(SB)/4, $0
DATA cellPerm<>+216(SB)/4, $0
DATA cellPerm<>+220(SB)/4, $0
DATA cellPerm<>+224(SB)/4, $0
DATA cellPerm<>+228(SB)/4, $1
DATA cellPerm<>+232(SB)/4, $2
DATA cellPerm<>+236(SB)/4, $3
DATA cellPerm<>+240(SB)/4, $4
DATA cellPerm<>+244(SB)/4, $5
DATA cellPerm<>+248(SB)/4, $0
DATA cellPerm<>+252(SB)/4, $0
DATA cellPerm<>+256(SB)/4, $6
DATA cellPerm<>+260(SB)/4, $7
DATA cellPerm<>+264(SB)/4, $0
DATA cellPerm<>+268(SB)/4, $0
DATA cellPerm<>+272(SB)/4, $0
DATA cellPerm<>+276(SB)/4, $0
DATA cellPerm<>+280(SB)/4, $0
DATA cellPerm<>+284(SB)/4, $0
DATA cellPerm<>+288(SB)/4, $0
DATA cellPerm<>+292(SB)/4, $1
DATA cellPerm<>+296(SB)/4, $6
DATA cellPerm<>+300(SB)/4, $7
DATA cellPerm<>+304(SB)/4, $0
DATA cellPerm<>+308(SB)/4, $0
DATA cellPerm<>+312(SB)/4, $0
DATA cellPerm<>+316(SB)/4, $0
DATA cellPerm<>+320(SB)/4, $2
DATA cellPerm<>+324(SB)/4, $3
DATA cellPerm<>+328(SB)/4, $6
DATA cellPerm<>+332(SB)/4, $7
DATA cellPerm<>+336(SB)/4, $0
DATA cellPerm<>+340(SB)/4, $0
DATA cellPerm<>+344(SB)/4, $0
DATA cellPerm<>+348(SB)/4, $0
DATA cellPerm<>+352(SB)/4, $0
DATA cellPerm<>+356(SB)/4, $1
DATA cellPerm<>+360(SB)/4, $2
DATA cellPerm<>+364(SB)/4, $3
DATA cellPerm<>+368(SB)/4, $6
DATA cellPerm<>+372(SB)/4, $7
DATA cellPerm<>+376(SB)/4, $0
DATA cellPerm<>+380(SB)/4, $0
DATA cellPerm<>+384(SB)/4, $4
DATA cellPerm<>+388(SB)/4, $5
DATA cellPerm<>+392(SB)/4, $6
DATA cellPerm<>+396(SB)/4, $7
DATA cellPerm<>+400(SB)/4, $0
DATA cellPerm<>+404(SB)/4, $0
DATA cellPerm<>+408(SB)/4, $0
DATA cellPerm<>+412(SB)/4, $0
DATA cellPerm<>+416(SB)/4, $0
DATA cellPerm<>+420(SB)/4, $1
DATA cellPerm<>+424(SB)/4, $4
DATA cellPerm<>+428(SB)/4, $5
DATA cellPerm<>+432(SB)/4, $6
DATA cellPerm<>+436(SB)/4, $7
DATA cellPerm<>+440(SB)/4, $0
DATA cellPerm<>+444(SB)/4, $0
DATA cellPerm<>+448(SB)/4, $2
DATA cellPerm<>+452(SB)/4, $3
DATA cellPerm<>+456(SB)/4, $4
DATA cellPerm<>+460(SB)/4, $5
DATA cellPerm<>+464(SB)/4, $6
DATA cellPerm<>+468(SB)/4, $7
DATA cellPerm<>+472(SB)/4, $0
DATA cellPerm<>+476(SB)/4, $0
DATA cellPerm<>+480(SB)/4, $0
DATA cellPerm<>+484(SB)/4, $1
DATA cellPerm<>+488(SB)/4, $2
DATA cellPerm<>+492(SB)/4, $3
DATA cellPerm<>+496(SB)/4, $4
DATA cellPerm<>+500(SB)/4, $5
DATA cellPerm<>+504(SB)/4, $6
DATA cellPerm<>+508(SB)/4, $7
GLOBL cellPerm<>(SB), RODATA|NOPTR, $512

// func cellPairsAVX2(dst, north *uint64, nn int, clash, sig *uint64, ns int, f *pairFrame) int
//
// cellPairsGo for ns south pieces, ns a multiple of 4: for each north piece off the
// forbidden masks, its clash word and signature in the frame are made (scalar, SHLX and
// SHRX for the frame's shifts) and broadcast; then four south pieces a step: their clash
// words ANDed with the north's and compared with zero (VPCMPEQQ, VMOVMSKPD: a 4-bit mask),
// their signatures ORed with the north's, packed by the mask (VPERMD, cellPerm) and stored
// whole at DI, which moves on by the mask's popcount. It stores up to 3 words past the
// last one it counts, and returns how many it wrote.
TEXT ·cellPairsAVX2(SB), NOSPLIT, $0-64
	MOVQ  dst+0(FP), DI
	MOVQ  north+8(FP), R8
	MOVQ  nn+16(FP), R9
	MOVQ  clash+24(FP), R10
	MOVQ  sig+32(FP), R11
	MOVQ  ns+40(FP), R12
	SHLQ  $3, R12
	MOVQ  f+48(FP), R13
	MOVQ  F_FORBID(R13), R14
	LEAQ  cellPerm<>(SB), R15
	VPXOR Y0, Y0, Y0
	TESTQ R9, R9
	JZ    avx2CellDone
	TESTQ R12, R12
	JZ    avx2CellDone

avx2CellNorth:
	MOVQ         (R8), AX
	ADDQ         $8, R8
	TESTQ        R14, AX
	JNZ          avx2CellNext
	MOVL         AX, BX          // down mask
	SHRQ         $32, AX         // up mask
	MOVQ         F_M(R13), CX
	MOVQ         F_S(R13), DX
	SHLXQ        DX, BX, SI
	ANDQ         CX, SI
	MOVQ         AX, DX
	ANDQ         CX, DX
	SHLQ         $32, DX
	ORQ          DX, SI          // clash word: down<<s & m | (up & m)<<32
	MOVQ         F_DL(R13), DX
	SHLXQ        DX, BX, BX
	ANDQ         CX, BX
	MOVQ         F_UR(R13), DX
	SHRXQ        DX, AX, AX
	ANDQ         CX, AX
	MOVQ         F_W(R13), DX
	SHLXQ        DX, AX, AX
	ORQ          AX, BX          // signature: down<<dl & m | (up>>ur & m)<<W
	VMOVQ        SI, X1
	VPBROADCASTQ X1, Y1
	VMOVQ        BX, X2
	VPBROADCASTQ X2, Y2
	XORQ         CX, CX
	PCALIGN      $32

avx2CellSouth:
	VPAND     (R10)(CX*1), Y1, Y3
	VPCMPEQQ  Y0, Y3, Y3
	VMOVMSKPD Y3, AX
	VPOR      (R11)(CX*1), Y2, Y4
	PACK4
	ADDQ      $32, CX
	CMPQ      CX, R12
	JLT       avx2CellSouth

avx2CellNext:
	DECQ R9
	JNZ  avx2CellNorth

avx2CellDone:
	MOVQ       DI, AX
	SUBQ       dst+0(FP), AX
	SHRQ       $3, AX
	MOVQ       AX, ret+56(FP)
	VZEROUPPER
	RET

// cellTail<> holds, for r = 0 to 3, a lane mask with the low r of four quadwords set:
// the masked load of a last, partial block of north pieces (VPMASKMOVQ) reads no word
// past the list.
DATA cellTail<>+0(SB)/8, $0
DATA cellTail<>+8(SB)/8, $0
DATA cellTail<>+16(SB)/8, $0
DATA cellTail<>+24(SB)/8, $0
DATA cellTail<>+32(SB)/8, $-1
DATA cellTail<>+40(SB)/8, $0
DATA cellTail<>+48(SB)/8, $0
DATA cellTail<>+56(SB)/8, $0
DATA cellTail<>+64(SB)/8, $-1
DATA cellTail<>+72(SB)/8, $-1
DATA cellTail<>+80(SB)/8, $0
DATA cellTail<>+88(SB)/8, $0
DATA cellTail<>+96(SB)/8, $-1
DATA cellTail<>+104(SB)/8, $-1
DATA cellTail<>+112(SB)/8, $-1
DATA cellTail<>+120(SB)/8, $0
GLOBL cellTail<>(SB), RODATA|NOPTR, $128

// func cellPairsAVX2South(dst, north *uint64, nn int, clash, sig *uint64, ns int, f *pairFrame) int
//
// cellPairsGo for any nn and ns, south piece by south piece: the north pieces go four at
// a time, their clash words (Y1) and signatures (Y2) made in vector registers (the last
// block loaded under a lane mask) and the lanes off the forbidden masks kept as a 4-bit
// mask (BX); then each south piece's clash word is broadcast, ANDed with the block's and
// compared with zero, and the block's signatures ORed with the piece's are packed by the
// mask (VPERMD, cellPerm) and stored whole at DI, which moves on by the mask's popcount.
// It stores up to 3 words past the last one it counts, and returns how many it wrote.
TEXT ·cellPairsAVX2South(SB), NOSPLIT, $0-64
	MOVQ     dst+0(FP), DI
	MOVQ     north+8(FP), R8
	MOVQ     nn+16(FP), R9
	MOVQ     clash+24(FP), R10
	MOVQ     sig+32(FP), R11
	MOVQ     ns+40(FP), R12
	MOVQ     f+48(FP), R13
	LEAQ     cellPerm<>(SB), R15
	TESTQ    R9, R9
	JZ       southDone
	TESTQ    R12, R12
	JZ       southDone
	VPXOR    Y0, Y0, Y0
	VPCMPEQQ Y11, Y11, Y11
	VPSRLQ   $32, Y11, Y11       // the low 32 bits of each lane
	VPBROADCASTQ F_FORBID(R13), Y10
	VPBROADCASTQ F_M(R13), Y9
	VMOVQ    F_S(R13), X12
	VMOVQ    F_DL(R13), X13
	VMOVQ    F_UR(R13), X14
	VMOVQ    F_W(R13), X15

southBlock:
	CMPQ       R9, $4
	JLT        southPartial
	VMOVDQU    (R8), Y8
	MOVL       $15, R14
	ADDQ       $32, R8
	SUBQ       $4, R9
	JMP        southMake

southPartial:
	MOVQ       R9, DX
	SHLQ       $5, DX
	LEAQ       cellTail<>(SB), AX
	VMOVDQU    (AX)(DX*1), Y3
	VPMASKMOVQ (R8), Y3, Y8
	MOVL       $1, R14
	SHLXL      R9, R14, R14
	DECL       R14           // the low r lanes
	XORQ       R9, R9

southMake:
	VPAND     Y10, Y8, Y3
	VPCMPEQQ  Y0, Y3, Y3
	VMOVMSKPD Y3, BX
	ANDL      R14, BX        // the lanes there and off the forbidden masks
	JZ        southNextBlock
	VPAND     Y11, Y8, Y4    // down masks
	VPSRLQ    $32, Y8, Y5    // up masks
	VPSLLQ    X12, Y4, Y1
	VPAND     Y9, Y1, Y1
	VPAND     Y9, Y5, Y6
	VPSLLQ    $32, Y6, Y6
	VPOR      Y6, Y1, Y1     // clash words: down<<s & m | (up & m)<<32
	VPSLLQ    X13, Y4, Y2
	VPAND     Y9, Y2, Y2
	VPSRLQ    X14, Y5, Y6
	VPAND     Y9, Y6, Y6
	VPSLLQ    X15, Y6, Y6
	VPOR      Y6, Y2, Y2     // signatures: down<<dl & m | (up>>ur & m)<<W
	XORQ      CX, CX
	PCALIGN   $32

southPiece:
	VPBROADCASTQ (R10)(CX*8), Y3
	VPAND        Y1, Y3, Y3
	VPCMPEQQ     Y0, Y3, Y3
	VMOVMSKPD    Y3, AX
	ANDL         BX, AX
	VPBROADCASTQ (R11)(CX*8), Y4
	VPOR         Y2, Y4, Y4
	PACK4
	INCQ         CX
	CMPQ         CX, R12
	JLT          southPiece

southNextBlock:
	TESTQ R9, R9
	JNZ   southBlock

southDone:
	MOVQ       DI, AX
	SUBQ       dst+0(FP), AX
	SHRQ       $3, AX
	MOVQ       AX, ret+56(FP)
	VZEROUPPER
	RET

// cellJob's fields (half.go).
#define J_NORTH 0
#define J_NN 8
#define J_CLASH 16
#define J_SIG 24
#define J_NS 32
#define J_SIZE 40

// cellLay42 and cellLay24 are the two-step layouts of cellRunAVX512's short cells: the
// longer side's lane indexes of the first step and of the second, then the shorter
// side's, eight quadwords each. cellLay42: four pieces of the longer side a step (0–3,
// 4–7), each twice, against the shorter side's two; cellLay24: two a step (0–1, 2–3),
// each four times, against the shorter side's four.
DATA cellLay42<>+0(SB)/8, $0
DATA cellLay42<>+8(SB)/8, $0
DATA cellLay42<>+16(SB)/8, $1
DATA cellLay42<>+24(SB)/8, $1
DATA cellLay42<>+32(SB)/8, $2
DATA cellLay42<>+40(SB)/8, $2
DATA cellLay42<>+48(SB)/8, $3
DATA cellLay42<>+56(SB)/8, $3
DATA cellLay42<>+64(SB)/8, $4
DATA cellLay42<>+72(SB)/8, $4
DATA cellLay42<>+80(SB)/8, $5
DATA cellLay42<>+88(SB)/8, $5
DATA cellLay42<>+96(SB)/8, $6
DATA cellLay42<>+104(SB)/8, $6
DATA cellLay42<>+112(SB)/8, $7
DATA cellLay42<>+120(SB)/8, $7
DATA cellLay42<>+128(SB)/8, $0
DATA cellLay42<>+136(SB)/8, $1
DATA cellLay42<>+144(SB)/8, $0
DATA cellLay42<>+152(SB)/8, $1
DATA cellLay42<>+160(SB)/8, $0
DATA cellLay42<>+168(SB)/8, $1
DATA cellLay42<>+176(SB)/8, $0
DATA cellLay42<>+184(SB)/8, $1
GLOBL cellLay42<>(SB), RODATA|NOPTR, $192

DATA cellLay24<>+0(SB)/8, $0
DATA cellLay24<>+8(SB)/8, $0
DATA cellLay24<>+16(SB)/8, $0
DATA cellLay24<>+24(SB)/8, $0
DATA cellLay24<>+32(SB)/8, $1
DATA cellLay24<>+40(SB)/8, $1
DATA cellLay24<>+48(SB)/8, $1
DATA cellLay24<>+56(SB)/8, $1
DATA cellLay24<>+64(SB)/8, $2
DATA cellLay24<>+72(SB)/8, $2
DATA cellLay24<>+80(SB)/8, $2
DATA cellLay24<>+88(SB)/8, $2
DATA cellLay24<>+96(SB)/8, $3
DATA cellLay24<>+104(SB)/8, $3
DATA cellLay24<>+112(SB)/8, $3
DATA cellLay24<>+120(SB)/8, $3
DATA cellLay24<>+128(SB)/8, $0
DATA cellLay24<>+136(SB)/8, $1
DATA cellLay24<>+144(SB)/8, $2
DATA cellLay24<>+152(SB)/8, $3
DATA cellLay24<>+160(SB)/8, $0
DATA cellLay24<>+168(SB)/8, $1
DATA cellLay24<>+176(SB)/8, $2
DATA cellLay24<>+184(SB)/8, $3
GLOBL cellLay24<>(SB), RODATA|NOPTR, $192

// SHORT2 writes at DI the pairs of a short cell in two steps, or jumps to long if it is
// not short: the marked north block (clash words nz, signatures nsg; CX pieces) against
// the marked south pieces in Z2, Z3 (R12 of them), both at most 8. A cell is short where
// its shorter side has at most two pieces (cellLay42: four of the longer side a step,
// each against both) or both at most four (cellLay24: two against four). The longer side
// goes to Z17, Z18 and is read by the step's index, the shorter to Z9, Z10, repeated
// across the lanes, chosen without a branch (VPBLENDMQ under K2, all ones where the
// north side is the longer). Lanes past either side's pieces keep their marks, so they
// meet whatever they are paired with. t1 and t2 are scratch, as are AX, K2, Z0, Z1, Z4,
// Z9, Z10, Z12, Z17 and Z18.
#define SHORT2(nz, nsg, t1, t2, long) \
	MOVQ CX, AX; MOVQ CX, t1; CMPQ CX, R12; CMOVQGT R12, AX; CMOVQLT R12, t1; \
	LEAQ -3(AX), t2; SUBQ $5, t1; ORQ t2, t1; JGE long; \
	LEAQ cellLay24<>(SB), t2; LEAQ cellLay42<>(SB), t1; CMPQ AX, $2; CMOVQLE t1, t2; \
	XORL t1, t1; MOVL $0xff, AX; CMPQ CX, R12; CMOVQGT AX, t1; KMOVW t1, K2; \
	VPBLENDMQ nz, Z2, K2, Z17; VPBLENDMQ nsg, Z3, K2, Z18; VPBLENDMQ Z2, nz, K2, Z9; VPBLENDMQ Z3, nsg, K2, Z10; \
	VMOVDQU64 128(t2), Z12; VPERMQ Z9, Z12, Z9; VPERMQ Z10, Z12, Z10; \
	VMOVDQU64 (t2), Z12; VPERMQ Z17, Z12, Z0; VPERMQ Z18, Z12, Z1; VPTESTNMQ Z9, Z0, K1; VPORQ Z10, Z1, Z4; COMPRESS8; \
	VMOVDQU64 64(t2), Z12; VPERMQ Z17, Z12, Z0; VPERMQ Z18, Z12, Z1; VPTESTNMQ Z9, Z0, K1; VPORQ Z10, Z1, Z4; COMPRESS8

// RUNREGS sets the registers cellRunAVX512 and quadScanAVX512 keep for a whole run: the
// frame at f broadcast (Z20–Z25), the 32-bit mask (Z26), ones (Z27), and the marks of
// lanes (see rshort): a north piece's (bit 63, Z5), a lane past the north pieces' (62 and
// 61, Z6), a lane past the south pieces' (63 and 61, Z7), a south piece's (62, Z13). AX
// is scratch.
#define RUNREGS(f) \
	VPBROADCASTQ F_FORBID(f), Z20; VPBROADCASTQ F_M(f), Z21; VPBROADCASTQ F_S(f), Z22; \
	VPBROADCASTQ F_DL(f), Z23; VPBROADCASTQ F_UR(f), Z24; VPBROADCASTQ F_W(f), Z25; \
	MOVL $0xffffffff, AX; VPBROADCASTQ AX, Z26; MOVL $1, AX; VPBROADCASTQ AX, Z27; \
	SHLQ $63, AX; VPBROADCASTQ AX, Z5; MOVL $3, AX; SHLQ $61, AX; VPBROADCASTQ AX, Z6; \
	MOVL $5, AX; SHLQ $61, AX; VPBROADCASTQ AX, Z7; MOVL $1, AX; SHLQ $62, AX; VPBROADCASTQ AX, Z13

// func cellRunAVX512(dst *uint64, jobs *cellJob, nj int, f *pairFrame) int
//
// cellPairsAVX512 for each of nj cells in turn, their signatures one after another at dst:
// the frame's registers are set once for the run, and a cell's loads follow the last
// one's stores without a return to Go between them. A cell with no north or no south
// pieces writes nothing. It stores up to 7 words past the last one it counts, and returns
// how many it wrote.
// NSTEP makes the pairs of the block's next north piece (the lane Z16 names, which it
// moves on) with the south pieces in Z2, Z3; SSTEP those of the next south piece with
// the block (rshort).
#define NSTEP VPERMQ Z11, Z16, Z0; VPERMQ Z14, Z16, Z1; VPADDQ Z27, Z16, Z16; VPTESTNMQ Z2, Z0, K1; VPORQ Z3, Z1, Z4; COMPRESS8
#define SSTEP VPERMQ Z2, Z16, Z0; VPERMQ Z3, Z16, Z1; VPADDQ Z27, Z16, Z16; VPTESTNMQ Z11, Z0, K1; VPORQ Z14, Z1, Z4; COMPRESS8

// NSTEP2 is NSTEP against the south pieces in Z2, Z3 and in Z17, Z18; SSTEPB is SSTEP
// for the next south piece of Z17, Z18 (rmedium).
#define NSTEP2 VPERMQ Z11, Z16, Z0; VPERMQ Z14, Z16, Z1; VPADDQ Z27, Z16, Z16; VPTESTNMQ Z2, Z0, K1; VPORQ Z3, Z1, Z4; COMPRESS8; VPTESTNMQ Z17, Z0, K1; VPORQ Z18, Z1, Z4; COMPRESS8
#define SSTEPB VPERMQ Z17, Z16, Z0; VPERMQ Z18, Z16, Z1; VPADDQ Z27, Z16, Z16; VPTESTNMQ Z11, Z0, K1; VPORQ Z14, Z1, Z4; COMPRESS8

TEXT ·cellRunAVX512(SB), NOSPLIT, $0-40
	MOVQ dst+0(FP), DI
	MOVQ jobs+8(FP), R14
	MOVQ nj+16(FP), R15
	MOVQ f+24(FP), R13
	RUNREGS(R13)

	TESTQ R15, R15
	JLE   rdone

rjob:
	// The north pieces are the table's, a cell's far from the last one's: their load
	// missed the cache and held up every step after it, so the cell two on has them
	// fetched now.
	CMPQ R15, $2
	JLE  rnoPrefetch
	MOVQ (2*J_SIZE+J_NORTH)(R14), AX
	PREFETCHT0 (AX)

rnoPrefetch:
	MOVQ J_NORTH(R14), R8
	MOVQ J_NN(R14), R9
	MOVQ J_CLASH(R14), R10
	MOVQ J_SIG(R14), R11
	MOVQ J_NS(R14), R12
	TESTQ R9, R9
	JLE   rnextJob
	TESTQ R12, R12
	JLE   rnextJob

	CALL ·cellBodyAVX512(SB)

rnextJob:
	ADDQ $J_SIZE, R14
	DECQ R15
	JNZ  rjob

rdone:
	MOVQ dst+0(FP), AX
	SUBQ AX, DI
	SHRQ $3, DI
	MOVQ DI, ret+32(FP)
	VZEROUPPER
	RET

// quadScan's fields (quad.go), then its scratch: a column set's north pieces, their
// counts off and on D2, and its two south lists (clash words, signatures, count).
#define S_CS 0
#define S_END 8
#define S_TOFF 16
#define S_PIECES 24
#define S_O0 32
#define S_C0 40
#define S_S0 48
#define S_O1 56
#define S_C1 64
#define S_S1 72
#define S_COLS 80
#define S_SMAX 88
#define S_BUDGET 96
#define S_NORTH 104
#define S_NOFF 112
#define S_NON 120
#define S_CLASH0 128
#define S_SIG0 136
#define S_NS0 144
#define S_CLASH1 152
#define S_SIG1 160
#define S_NS1 168
#define S_NORTHON 176
#define S_REM 184
#define S_CURC 192
#define S_CURS 200


// QNORTHNF makes the block of the AX ≤ 8 north pieces at R8 as NORTH8 does for a frame
// without forbidden masks (half B of even N, the only frame quads are made for: every
// piece is kept, so NORTH8's test and packing are left out), marks its lanes as rshort
// does (a piece's bit 63, a lane past them 62 and 61), and leaves the clash words in cz,
// the signatures in sz and the number in cnt.
#define QNORTHNF(cz, sz, cnt) MOVQ AX, CX; MOVL $1, AX; SHLXL CX, AX, AX; DECL AX; KMOVW AX, K1; VMOVDQU64.Z (R8), K1, Z8; VPANDQ Z26, Z8, Z9; VPSRLQ $32, Z8, Z10; VPSLLQ X22, Z9, Z11; VPANDQ Z21, Z11, Z11; VPANDQ Z21, Z10, Z12; VPSLLQ $32, Z12, Z12; VPORQ Z12, Z11, Z11; VPSLLQ X23, Z9, Z14; VPANDQ Z21, Z14, Z14; VPSRLQ X24, Z10, Z15; VPANDQ Z21, Z15, Z15; VPSLLQ X25, Z15, Z15; VPORQ Z15, Z14, sz; VPXORQ Z16, Z16, Z16; KNOTW K1, K5; VPORQ Z5, Z11, K1, cz; VPORQ Z6, Z11, K5, cz; MOVQ CX, cnt

// QSOUTH loads the R12 ≤ 8 south pieces (clash words at R8, signatures at R9) into Z2,
// Z3, marked as rshort marks them (a piece's bit 62, a lane past them 63 and 61).
#define QSOUTH MOVL $1, AX; SHLXL R12, AX, AX; DECL AX; KMOVW AX, K6; KNOTW K6, K5; VMOVDQU64.Z (R8), K6, Z2; VMOVDQU64.Z (R9), K6, Z3; VPORQ Z13, Z2, K6, Z2; VPORQ Z7, Z2, K5, Z2

// QSOUTH2 loads the R12 = 9…16 south pieces (clash words at R8, signatures at R9): the
// first eight into Z2, Z3, the rest into Z17, Z18, marked as rmedium marks them. AX and
// CX are scratch.
#define QSOUTH2 LEAQ -8(R12), CX; MOVL $1, AX; SHLXL CX, AX, AX; DECL AX; KMOVW AX, K6; KNOTW K6, K5; VMOVDQU64 (R8), Z2; VMOVDQU64 (R9), Z3; VPORQ Z13, Z2, Z2; VMOVDQU64.Z 64(R8), K6, Z17; VMOVDQU64.Z 64(R9), K6, Z18; VPORQ Z13, Z17, K6, Z17; VPORQ Z7, Z17, K5, Z17

// QPAIRSM writes at the cursor cur the pairs of the marked north block (cz, sz; cnt
// pieces, none if 0) with the 9 to 16 south pieces of QSOUTH2 as rmedium does: up to four
// north pieces each against both registers, more each south piece against the block.
// smaj, wb and skip name its labels.
#define QPAIRSM(cz, sz, cnt, cur, smaj, wb, skip) \
	TESTQ cnt, cnt; JZ skip; MOVQ cur, DI; \
	VMOVDQA64 cz, Z11; VMOVDQA64 sz, Z14; VPXORQ Z16, Z16, Z16; CMPQ cnt, $4; JGT smaj; \
	NSTEP2; NSTEP2; NSTEP2; NSTEP2; JMP wb; \
	smaj: SSTEP; SSTEP; SSTEP; SSTEP; SSTEP; SSTEP; SSTEP; SSTEP; \
	SSTEPB; SSTEPB; SSTEPB; SSTEPB; CMPQ R12, $12; JLE wb; SSTEPB; SSTEPB; SSTEPB; SSTEPB; \
	wb: MOVQ DI, cur; skip:

// QPAIRS writes at the cursor cur the pairs of the marked north block (cz, sz; cnt
// pieces, none if 0) with the south pieces of QSOUTH as cellRunAVX512 makes a cell whose
// sides fit a register: two steps if it is short (SHORT2), else four or eight by the
// shorter side. long, smaj, wb and skip name its labels.
#define QPAIRS(cz, sz, cnt, cur, long, smaj, wb, skip) \
	TESTQ cnt, cnt; JZ skip; MOVQ cnt, CX; MOVQ cur, DI; \
	SHORT2(cz, sz, R8, R9, long); JMP wb; \
	long: VMOVDQA64 cz, Z11; VMOVDQA64 sz, Z14; VPXORQ Z16, Z16, Z16; CMPQ CX, R12; JGT smaj; \
	NSTEP; NSTEP; NSTEP; NSTEP; CMPQ CX, $4; JLE wb; NSTEP; NSTEP; NSTEP; NSTEP; JMP wb; \
	smaj: SSTEP; SSTEP; SSTEP; SSTEP; CMPQ R12, $4; JLE wb; SSTEP; SSTEP; SSTEP; SSTEP; \
	wb: MOVQ DI, cur; skip:

// COLSET reads column set R15 of a scan at R14 (its fields cs, end, cols and toff at the
// offsets given) for quadScanAVX512 and cellScanAVX512: past the end it jumps to done, and
// to next where the set has a column outside cols; else it leaves in CX the columns left
// to the south (cols &^ c) and in R8 the set's offsets in the row, and jumps to nopf if no
// column set lies two on (nothing to prefetch). AX and DX are scratch.
#define COLSET(fcs, fend, fcols, ftoff, next, done, nopf) \
	CMPQ R15, fend(R14); JGE done; \
	MOVQ fcs(R14), AX; MOVL (AX)(R15*4), CX; MOVQ fcols(R14), DX; MOVL DX, AX; NOTL AX; TESTL CX, AX; JNZ next; \
	NOTL CX; ANDL DX, CX; \
	MOVQ ftoff(R14), R8; MOVQ R15, AX; SHLQ $4, AX; ADDQ AX, R8; \
	LEAQ 2(R15), AX; CMPQ AX, fend(R14); JGE nopf

// QLIST reads a quad's south list from the south row's offsets fo (index CX, the columns
// left to the south), clash words fc and signatures fs: its length into n, which past
// S_SMAX ends the scan (sdone), and its length and the places of its words into the
// scratch fns, fclash, fsig. AX and R8 are scratch.
#define QLIST(fo, fc, fs, n, fns, fclash, fsig) \
	MOVQ fo(R14), AX; MOVLQSX 0(AX)(CX*4), R8; MOVLQSX 4(AX)(CX*4), n; SUBQ R8, n; \
	CMPQ n, S_SMAX(R14); JGT sdone; MOVQ n, fns(R14); \
	MOVQ fc(R14), AX; LEAQ (AX)(R8*8), AX; MOVQ AX, fclash(R14); \
	MOVQ fs(R14), AX; LEAQ (AX)(R8*8), AX; MOVQ AX, fsig(R14)

// QMNEXT moves a quad's medium south list (the scratch's S_REM pieces left, at S_CURC and
// S_CURS) sixteen pieces on: to done where none is left, else with the rest's length in
// R12 and its places in R8, R9 to short (eight or fewer) or to loop.
#define QMNEXT(done, short, loop) \
	MOVQ S_REM(R14), R12; SUBQ $16, R12; JLE done; MOVQ R12, S_REM(R14); \
	ADDQ $128, S_CURC(R14); ADDQ $128, S_CURS(R14); MOVQ S_CURC(R14), R8; MOVQ S_CURS(R14), R9; \
	CMPQ R12, $8; JLE short; JMP loop

// func quadScanAVX512(cur *[3]uintptr, s *quadScan, from int, f *pairFrame, zero bool) int
//
// From column set from on (R15), while the column set's lists fit and the budget holds
// (quadSouthMax of each), its offsets are read and its quad made: north pieces off D2
// (block A) and on D2 (B) with the south pieces off D1 (list 0) and on D1 (list 1), A×0
// to the list at cur[0] where zero, A×1 and B×0 to cur[1], B×1 to cur[2], each cursor
// moved past what it wrote (up to 7 words stored past each). A quad's two north blocks
// are made once (QNORTHNF) and its south lists loaded once each: a list of up to 8 into one
// register (QSOUTH, QPAIRS), of 9 to 16 into two (QSOUTH2, QPAIRSM). A column set's
// lists go through the scratch of s, the registers being the quad's. It returns the
// first column set not made.
TEXT ·quadScanAVX512(SB), NOSPLIT, $0-48
	MOVQ    s+8(FP), R14
	MOVQ    from+16(FP), R15
	MOVQ    f+24(FP), R13
	MOVBQZX zero+32(FP), BX
	RUNREGS(R13)

	MOVQ cur+0(FP), AX
	MOVQ 0(AX), R10
	MOVQ 8(AX), R11
	MOVQ 16(AX), R13
	JMP  scol

snext:
	INCQ R15

scol:
	COLSET(S_CS, S_END, S_COLS, S_TOFF, snext, sdone, spieces)
	MOVL 32(R8), AX
	MOVQ S_PIECES(R14), DX
	PREFETCHT0 (DX)(AX*8) // the north pieces two column sets on (see cellRunAVX512)

spieces:
	MOVL 0(R8), R9
	MOVL 8(R8), R12
	MOVL 16(R8), SI
	CMPL R9, SI
	JEQ  snext // no north pieces
	SUBL R12, SI // on D2
	SUBL R9, R12 // off D2
	CMPQ SI, $16 // quadNorthMax
	JGT  sdone
	CMPQ R12, $16 // quadNorthMax
	JGT  sdone
	MOVQ R12, S_NOFF(R14)
	MOVQ SI, S_NON(R14)
	ADDQ R12, SI // north pieces
	MOVQ S_PIECES(R14), AX
	LEAQ (AX)(R9*8), AX
	MOVQ AX, S_NORTH(R14)
	LEAQ (AX)(R12*8), AX
	MOVQ AX, S_NORTHON(R14)
	QLIST(S_O0, S_C0, S_S0, R9, S_NS0, S_CLASH0, S_SIG0) // south off D1
	QLIST(S_O1, S_C1, S_S1, DX, S_NS1, S_CLASH1, S_SIG1) // south on D1
	MOVQ S_BUDGET(R14), AX
	CMPQ AX, $3072 // quadCandMax
	JLT  sdone
	ADDQ R9, DX
	IMULQ SI, DX // the quad's candidates
	SUBQ DX, AX
	MOVQ AX, S_BUDGET(R14)

qchunk:
	// The quad's next eight north pieces (or fewer) of each class.
	MOVQ    S_NORTH(R14), R8
	MOVQ    S_NOFF(R14), AX
	MOVQ    $8, CX
	CMPQ    AX, CX
	CMOVQGT CX, AX
	QNORTHNF(Z28, Z29, SI)
	MOVQ    S_NORTHON(R14), R8
	MOVQ    S_NON(R14), AX
	MOVQ    $8, CX
	CMPQ    AX, CX
	CMOVQGT CX, AX
	QNORTHNF(Z30, Z31, DX)

	MOVQ  S_NS0(R14), R12
	TESTQ R12, R12
	JZ    qsouth1
	MOVQ  S_CLASH0(R14), R8
	MOVQ  S_SIG0(R14), R9
	CMPQ  R12, $8
	JGT   qmedium0

qshort0:
	QSOUTH
	TESTQ BX, BX
	JZ    qb0
	QPAIRS(Z28, Z29, SI, R10, qlong0, qsm0, qwb0, qb0)
	QPAIRS(Z30, Z31, DX, R11, qlong1, qsm1, qwb1, qsouth1)
	MOVQ  S_NS1(R14), R12
	TESTQ R12, R12
	JZ    qchunkNext
	MOVQ  S_CLASH1(R14), R8
	MOVQ  S_SIG1(R14), R9
	CMPQ  R12, $8
	JGT   qmedium1

qshort1:
	QSOUTH
	QPAIRS(Z28, Z29, SI, R11, qlong2, qsm2, qwb2, qa1)
	QPAIRS(Z30, Z31, DX, R13, qlong3, qsm3, qwb3, qnext)
	JMP   qchunkNext

qmedium0:
	// List 0 holds 9 or more south pieces: both blocks against sixteen of them at a time
	// as rmedium (the last eight or fewer as rshort, qshort0), then list 1. The list's
	// place and what is left of it go through the scratch (R8, R9 are SHORT2's).
	MOVQ    R12, S_REM(R14)
	MOVQ    R8, S_CURC(R14)
	MOVQ    R9, S_CURS(R14)

qm0:
	MOVQ    $16, AX
	CMPQ    R12, AX
	CMOVQGT AX, R12
	QSOUTH2
	TESTQ   BX, BX
	JZ      qmb0
	QPAIRSM(Z28, Z29, SI, R10, qmsm0, qmwb0, qmb0)
	QPAIRSM(Z30, Z31, DX, R11, qmsm1, qmwb1, qmb1)
	QMNEXT(qsouth1, qshort0, qm0)

qmedium1:
	MOVQ    R12, S_REM(R14)
	MOVQ    R8, S_CURC(R14)
	MOVQ    R9, S_CURS(R14)

qm1:
	MOVQ    $16, AX
	CMPQ    R12, AX
	CMOVQGT AX, R12
	QSOUTH2
	QPAIRSM(Z28, Z29, SI, R11, qmsm2, qmwb2, qmb2)
	QPAIRSM(Z30, Z31, DX, R13, qmsm3, qmwb3, qmb3)
	QMNEXT(qchunkNext, qshort1, qm1)

qchunkNext:
	// Eight north pieces of each class fewer; the quad is done where none is left.
	MOVQ    S_NOFF(R14), AX
	MOVQ    S_NON(R14), CX
	XORL    DX, DX
	SUBQ    $8, AX
	CMOVQLT DX, AX
	SUBQ    $8, CX
	CMOVQLT DX, CX
	MOVQ    AX, S_NOFF(R14)
	MOVQ    CX, S_NON(R14)
	ORQ     AX, CX
	JZ      snext
	ADDQ    $64, S_NORTH(R14)
	ADDQ    $64, S_NORTHON(R14)
	JMP     qchunk

sdone:
	MOVQ cur+0(FP), AX
	MOVQ R10, 0(AX)
	MOVQ R11, 8(AX)
	MOVQ R13, 16(AX)
	MOVQ R15, ret+40(FP)
	VZEROUPPER
	RET

// cellScan's fields (scan.go).
#define C_CS 0
#define C_END 8
#define C_TOFF 16
#define C_PIECES 24
#define C_SO 32
#define C_SC 40
#define C_SS 48
#define C_COLS 56
#define C_LO 64
#define C_HI 72
#define C_BUDGET 80

// func cellScanAVX512(dst *uint64, s *cellScan, from int, f *pairFrame) (int, int)
//
// From column set from on (R15), while the budget covers the cell's candidates: the
// cell's north pieces (R8, R9 of them) and south pieces (clash words R10, signatures
// R11, R12 of them) are read from the offsets of s and its pairs written at DI as
// cellRunAVX512 writes a cell's. It returns how many it wrote and the first column set
// not made.
TEXT ·cellScanAVX512(SB), NOSPLIT, $0-48
	MOVQ dst+0(FP), DI
	MOVQ s+8(FP), R14
	MOVQ from+16(FP), R15
	MOVQ f+24(FP), R13
	RUNREGS(R13)
	JMP  ccol

cnext:
	INCQ R15

ccol:
	COLSET(C_CS, C_END, C_COLS, C_TOFF, cnext, cdone, cpieces)
	MOVQ C_LO(R14), AX
	MOVL 32(R8)(AX*4), AX
	MOVQ C_PIECES(R14), DX
	PREFETCHT0 (DX)(AX*8) // the north pieces two column sets on (see cellRunAVX512)

cpieces:
	MOVL 0(R8), AX
	CMPL AX, 16(R8)
	JEQ  cnext // no pieces
	MOVQ C_LO(R14), AX
	MOVL (R8)(AX*4), R9
	MOVQ C_HI(R14), AX
	MOVL (R8)(AX*4), AX
	SUBL R9, AX // north pieces
	MOVQ C_PIECES(R14), R8
	LEAQ (R8)(R9*8), R8
	MOVQ AX, R9
	MOVQ C_SO(R14), AX
	MOVLQSX 0(AX)(CX*4), R12
	MOVLQSX 4(AX)(CX*4), DX
	SUBQ R12, DX // south pieces
	MOVQ C_SC(R14), R10
	LEAQ (R10)(R12*8), R10
	MOVQ C_SS(R14), R11
	LEAQ (R11)(R12*8), R11
	MOVQ DX, R12
	MOVQ R9, AX
	IMULQ R12, AX // candidates
	MOVQ C_BUDGET(R14), DX
	CMPQ AX, DX
	JGT  cdone
	SUBQ AX, DX
	MOVQ DX, C_BUDGET(R14)
	TESTQ AX, AX
	JZ   cnext

	CALL ·cellBodyAVX512(SB)
	JMP  cnext


cdone:
	MOVQ dst+0(FP), AX
	SUBQ AX, DI
	SHRQ $3, DI
	MOVQ DI, ret+32(FP)
	MOVQ R15, ret1+40(FP)
	VZEROUPPER
	RET

// func cellBodyAVX512()
//
// The pairs of one cell, called from cellRunAVX512 and cellScanAVX512 with the run's
// registers set (RUNREGS): the cell's nn > 0 north pieces at R8 (R9 of them) and ns > 0
// south pieces (clash words at R10, signatures at R11, R12 of them); the signatures of
// the compatible pairs are written at DI, which it moves past them (up to 7 words stored
// past the last). North pieces are tested against the frame's forbidden masks (Z20) only
// where it has any. It keeps R14, R15 and Z5–Z7, Z13, Z20–Z27; AX, BX, CX, DX, SI, R8–R13,
// the other vector registers and K1–K7 are its own.
TEXT ·cellBodyAVX512(SB), NOSPLIT, $0-0
	// BX = 1 where the south pieces fit one register (ns ≤ 8): Z2, Z3 hold them, marked
	// (rshort). BX = 2 where they fit two (ns ≤ 16): Z2, Z3 the first eight, Z17, Z18 the
	// rest, marked (bmedium). Else K7 holds the lanes of the last, partial step (none if
	// ns is a multiple of 8) and R12 the whole steps.
	XORQ  BX, BX
	CMPQ  R12, $8
	JGT   bmediumCell
	MOVL  $1, AX
	SHLXL R12, AX, AX
	DECL  AX
	KMOVW AX, K6
	KNOTW K6, K5
	VMOVDQU64.Z (R10), K6, Z2
	VMOVDQU64.Z (R11), K6, Z3
	VPORQ Z13, Z2, K6, Z2
	VPORQ Z7, Z2, K5, Z2
	MOVQ  $1, BX
	JMP   bblock

bmediumCell:
	CMPQ  R12, $16
	JGT   blong
	LEAQ  -8(R12), CX
	MOVL  $1, AX
	SHLXL CX, AX, AX
	DECL  AX
	KMOVW AX, K6
	KNOTW K6, K5
	VMOVDQU64 (R10), Z2
	VMOVDQU64 (R11), Z3
	VPORQ Z13, Z2, Z2
	VMOVDQU64.Z 64(R10), K6, Z17
	VMOVDQU64.Z 64(R11), K6, Z18
	VPORQ Z13, Z17, K6, Z17
	VPORQ Z7, Z17, K5, Z17
	MOVQ  $2, BX
	JMP   bblock

blong:
	MOVQ  R12, CX
	ANDQ  $7, CX
	MOVL  $1, AX
	SHLL  CX, AX
	DECL  AX
	KMOVW AX, K7
	SHRQ  $3, R12

bblock:
	// K1: the north lanes of this block.
	MOVL  $0xff, AX
	CMPQ  R9, $8
	JGE   bwhole
	MOVL  $1, AX
	SHLXL R9, AX, AX
	DECL  AX

bwhole:
	KMOVW     AX, K1
	VPTESTMQ  Z20, Z20, K2
	KORTESTW  K2, K2
	JNZ       bforbid
	POPCNTL AX, CX
	NORTH8NF
	JMP   bnorth

bforbid:
	NORTH8

bnorth:
	TESTQ     CX, CX
	JZ        bnextBlock
	TESTQ     BX, BX
	JZ        blong2
	CMPQ      BX, $1
	JGT       bmedium

	// rshort: the block's CX north pieces against the ns ≤ 8 south pieces, both in
	// registers. Every lane carries a mark above any frame's bits (W ≤ 29 puts the clash
	// words in bits 0–60): a north piece bit 63, a south piece bit 62, a lane past the
	// north pieces 62 and 61, one past the south pieces 63 and 61. So a pair of real
	// pieces meets only where their clash words do, and any pair with a lane past the
	// pieces meets; the steps need no lane mask. A short cell takes two steps (SHORT2:
	// about 80 % of N = 16's cells, which took four before), the others four or eight,
	// unrolled, by the shorter side: no loop whose count varies from cell to cell.
	MOVL  $1, AX
	SHLXL CX, AX, AX
	DECL  AX
	KMOVW AX, K4
	KNOTW K4, K5
	VPORQ Z5, Z11, K4, Z11
	VPORQ Z6, Z11, K5, Z11
	SHORT2(Z11, Z14, SI, R13, blongCell)
	JMP bnextBlock

blongCell:
	CMPQ  CX, R12
	JGT   bsouthMajor
	NSTEP; NSTEP; NSTEP; NSTEP
	CMPQ  CX, $4
	JLE   bnextBlock
	NSTEP; NSTEP; NSTEP; NSTEP
	JMP   bnextBlock

bsouthMajor:
	SSTEP; SSTEP; SSTEP; SSTEP
	CMPQ  R12, $4
	JLE   bnextBlock
	SSTEP; SSTEP; SSTEP; SSTEP
	JMP   bnextBlock

bmedium:
	// The block's CX north pieces against 9 to 16 south pieces in two registers, marked
	// as in rshort: up to four north pieces, each against both registers (eight tests);
	// more, each south piece against the block (twelve or sixteen).
	MOVL  $1, AX
	SHLXL CX, AX, AX
	DECL  AX
	KMOVW AX, K4
	KNOTW K4, K5
	VPORQ Z5, Z11, K4, Z11
	VPORQ Z6, Z11, K5, Z11
	CMPQ  CX, $4
	JGT   bmediumSouth
	NSTEP2; NSTEP2; NSTEP2; NSTEP2
	JMP   bnextBlock

bmediumSouth:
	// VPERMQ reads the low three bits of an index: Z16 goes on from 8 for Z17, Z18.
	SSTEP; SSTEP; SSTEP; SSTEP; SSTEP; SSTEP; SSTEP; SSTEP
	SSTEPB; SSTEPB; SSTEPB; SSTEPB
	CMPQ  R12, $12
	JLE   bnextBlock
	SSTEPB; SSTEPB; SSTEPB; SSTEPB
	JMP   bnextBlock

blong2:
	// More than eight south pieces: as cellPairsAVX512, south piece by south piece
	// where 4·CX·⌈ns/8⌉ > 3·ns.
	KMOVW    K7, DX // ns: the whole steps and the last one's lanes
	POPCNTL  DX, DX
	LEAQ     (DX)(R12*8), DX
	MOVQ     R12, AX
	KORTESTW K7, K7
	JZ       bnoTail
	INCQ     AX

bnoTail:
	IMULQ CX, AX
	SHLQ  $2, AX
	LEAQ  (DX)(DX*2), SI
	CMPQ  AX, SI
	JLE   blongPiece

bswapped:
	// Each of the DX south pieces against the block's CX north pieces (lanes K3) at once.
	MOVL  $0xff, AX
	BZHIL CX, AX, AX
	KMOVW AX, K3
	MOVQ  R10, SI
	MOVQ  R11, R13

bsouthPiece:
	VPBROADCASTQ (SI), Z0
	VPBROADCASTQ (R13), Z1
	VPTESTNMQ    Z11, Z0, K3, K1
	VPORQ        Z14, Z1, Z4
	COMPRESS8
	ADDQ         $8, SI
	ADDQ         $8, R13
	DECQ         DX
	JNZ          bsouthPiece
	JMP          bnextBlock

blongPiece:
	VPERMQ Z11, Z16, Z0
	VPERMQ Z14, Z16, Z1
	VPADDQ Z27, Z16, Z16
	MOVQ   R10, SI
	MOVQ   R11, R13
	MOVQ   R12, DX

bstep:
	VMOVDQU64 (SI), Z2
	VPTESTNMQ Z2, Z0, K1
	VPORQ     (R13), Z1, Z4
	COMPRESS8
	ADDQ      $64, SI
	ADDQ      $64, R13
	DECQ      DX
	JNZ       bstep

	KORTESTW    K7, K7
	JZ          bnextPiece
	VMOVDQU64.Z (SI), K7, Z2
	VPTESTNMQ   Z2, Z0, K7, K1
	VMOVDQU64.Z (R13), K7, Z3
	VPORQ       Z3, Z1, Z4
	COMPRESS8

bnextPiece:
	DECQ CX
	JNZ  blongPiece

bnextBlock:
	ADDQ $64, R8
	SUBQ $8, R9
	JGT  bblock
	RET
