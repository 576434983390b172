/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The boot ROMs' output and their WRMSR (tests/host/rom.sh), included in
 * their .code16 or .code32 text: the same source assembles for either.
 */

/* wrmsr %ecx = %eax (high 0) */
wrmsr0:
	xorl	%edx, %edx
	wrmsr
	ret

/* putc %al on the debug console */
putc:
	outb	%al, $0xe9
	ret

/* print %eax in hex */
hex32:
	pushl	%ecx
	movl	$8, %ecx
1:	roll	$4, %eax
	pushl	%eax
	andb	$0xf, %al
	addb	$'0', %al
	cmpb	$'9', %al
	jbe	2f
	addb	$('a' - '9' - 1), %al
2:	call	putc
	popl	%eax
	loop	1b
	popl	%ecx
	ret
