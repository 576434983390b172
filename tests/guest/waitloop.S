/* SPDX-License-Identifier: GPL-2.0 */
/*
 * waitloop: loop.S behind a read of one byte from stdin. After the read
 * returns it runs exactly what loop runs: mov, 1000000 times (dec, jnz),
 * then mov, xor, syscall (exit): 2000004 instructions in ring 3. So a
 * task pinned to a CPU can wait there, asleep in the kernel, and run a
 * known count on that CPU alone once another one writes to its stdin.
 */
	.globl	_start
	.text
_start:
	xor	%eax, %eax		/* read(0, red zone, 1) */
	xor	%edi, %edi
	lea	-8(%rsp), %rsi
	mov	$1, %edx
	syscall
	mov	$1000000, %ecx
1:	dec	%ecx
	jnz	1b
	mov	$60, %eax
	xor	%edi, %edi
	syscall
