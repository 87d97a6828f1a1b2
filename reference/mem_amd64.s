#include "textflag.h"

// Plain machine loads and stores, so the processor's own memory model shows
// (x86-64: TSO, with a store buffer). The Go compiler cannot move accesses across
// these calls, and the processor executes exactly one MOVQ for each.

// func load(p *int64) int64
TEXT ·load(SB), NOSPLIT, $0-16
	MOVQ p+0(FP), AX
	MOVQ (AX), AX
	MOVQ AX, ret+8(FP)
	RET

// func store(p *int64, v int64)
TEXT ·store(SB), NOSPLIT, $0-16
	MOVQ p+0(FP), AX
	MOVQ v+8(FP), BX
	MOVQ BX, (AX)
	RET

// func fence()
TEXT ·fence(SB), NOSPLIT, $0-0
	MFENCE
	RET

// func cycles() int64
TEXT ·cycles(SB), NOSPLIT, $0-8
	RDTSC
	SHLQ $32, DX
	ORQ DX, AX
	MOVQ AX, ret+0(FP)
	RET
