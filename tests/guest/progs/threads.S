/* SPDX-License-Identifier: GPL-2.0 */
/*
 * threads: a static program whose user-mode instruction count is known
 * exactly, over 128 threads: knc_threads_go of tools/knc/card/loops.S
 * (the workload of knc-check's inheritance check) starts them, each
 * looping 100000 times, after 5 instructions here (4 mov, jmp):
 * 128 * (2 * 100000 + 18) + 3 + 5 = 25602312 instructions in ring 3, for
 * the counts of knc-stat and perf stat that follow every thread.
 */
#include "../../../tools/knc/card/loops.S"

#define THREADS	128
#define STACK	4096

	.text
	.globl	_start
_start:
	mov	$THREADS, %r13
	mov	$100000, %r12
	lea	stacks + STACK(%rip), %r14
	mov	$STACK, %r15
	jmp	knc_threads_go

	.bss
	.balign	STACK
stacks:
	.skip	THREADS * STACK
