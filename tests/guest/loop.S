/* SPDX-License-Identifier: GPL-2.0 */
/*
 * loop: a static program whose user-mode instruction count is known
 * exactly: mov, 1000000 times (dec, jnz), then mov, xor, syscall (exit):
 * 2000004 instructions in ring 3, nothing else (no libc, no data access).
 * The loop is at _start+5 .. _start+8.
 */
	.globl	_start
	.text
_start:
	mov	$1000000, %ecx
1:	dec	%ecx
	jnz	1b
	mov	$60, %eax
	xor	%edi, %edi
	syscall
