/* SPDX-License-Identifier: GPL-2.0 */
/*
 * loop: a static program whose user-mode instruction count is known
 * exactly: mov, 1000000 times (dec, jnz), then mov, xor, syscall (exit):
 * 2000004 instructions in ring 3, nothing else (no libc, no data access).
 * The loop is at _start+5 .. _start+8.
 *
 * waitloop (built with -DWAIT_STDIN): the same behind a read of one byte
 * from stdin, after which it runs exactly what loop runs. So a task
 * pinned to a CPU can wait there, asleep in the kernel, and run a known
 * count on that CPU alone once another one writes to its stdin.
 *
 * longloop (built with -DLOOP_ITERS=50000000): the same loop, long enough
 * for perf to rotate multiplexed events many times: 100000004
 * instructions.
 */
#ifndef LOOP_ITERS
#define LOOP_ITERS 1000000
#endif
	.globl	_start
	.text
_start:
#ifdef WAIT_STDIN
	xor	%eax, %eax		/* read(0, red zone, 1) */
	xor	%edi, %edi
	lea	-8(%rsp), %rsi
	mov	$1, %edx
	syscall
#endif
	mov	$LOOP_ITERS, %ecx
1:	dec	%ecx
	jnz	1b
	mov	$60, %eax
	xor	%edi, %edi
	syscall
