/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A 64 KiB boot ROM (QEMU -bios, linked at 0xf0000 by tests/host/rom.sh)
 * for tests/host/rings.t: which rings the
 * KNC PMU's USR and OS bits count (section 1.4.3.3, table 1-5: OS ring 0,
 * USR rings 1, 2 and 3). From the reset vector it enters 32-bit protected
 * mode with a code and a stack segment for each ring, counter 0 counting
 * INSTRUCTIONS_EXECUTED with USR, counter 1 with OS; then, for rings 1, 2
 * and 3, it reads both counters, IRETs to a loop in that ring (MOV, 1000
 * times DEC and JNZ, INT: 2002 instructions), whose INT comes back to
 * ring 0 through a gate, and reads them again. Each ring's two deltas come
 * out on the debug console (port 0xe9) as "RING USR OS" in hex; QEMU exits
 * through isa-debug-exit.
 */
	.set	GDT, 0x1000		/* the tables, copied to RAM */
	.set	IDT, 0x1100
	.set	TSS, 0x1400
	.set	VARS, 0x1500		/* before: counter 0, counter 1; next */
	.set	VEC, 0x30
	.set	STACK0, 0x8000		/* ring 0 */
	.set	STACK_TSS, 0x9000	/* ring 0, entered from the others */
	.set	STACK_OUT, 0x7000	/* rings 1-3 */

	.text
	.code16
rom:					/* 0xf0000: ld -Ttext=0xf0000 */
/* GDT: null, then a code and a data segment for rings 0-3 (flat), a TSS */
gdt:	.quad	0
	.quad	0x00cf9a000000ffff, 0x00cf92000000ffff	/* 0x08, 0x10: ring 0 */
	.quad	0x00cfba000000ffff, 0x00cfb2000000ffff	/* 0x18, 0x20: ring 1 */
	.quad	0x00cfda000000ffff, 0x00cfd2000000ffff	/* 0x28, 0x30: ring 2 */
	.quad	0x00cffa000000ffff, 0x00cff2000000ffff	/* 0x38, 0x40: ring 3 */
	.word	0x67, TSS, 0x8900, 0			/* 0x48: TSS */
gdt_end:
gdtr:	.word	gdt_end - gdt - 1
	.long	GDT
idtr:	.word	VEC * 8 + 7
	.long	IDT

	.include "rom-pm32.S"
start16:
	enter_pm32

	.code32
	.include "rom-print.S"

pm32:
	flat_data32
	movl	$STACK0, %esp
	/* the TSS: ring 0's stack for entries from the other rings */
	movl	$TSS, %edi
	movl	$(0x68 / 4), %ecx
	xorl	%eax, %eax
	rep stosl
	movl	$STACK_TSS, TSS + 4
	movl	$0x10, TSS + 8
	movw	$0x68, TSS + 0x66	/* no I/O bitmap */
	/* the gate of VEC: 32-bit interrupt gate, DPL 3, to back0 */
	movl	$back0, %eax
	movw	%ax, IDT + VEC * 8
	movw	$0x08, IDT + VEC * 8 + 2
	movw	$0xee00, IDT + VEC * 8 + 4
	shrl	$16, %eax
	movw	%ax, IDT + VEC * 8 + 6
	lidtl	idtr
	movw	$0x48, %ax
	ltr	%ax
	/* counter 0: USR, counter 1: OS, both INSTRUCTIONS_EXECUTED */
	movl	$0x20, %ecx
	xorl	%eax, %eax
	call	wrmsr0
	movl	$0x21, %ecx
	call	wrmsr0
	movl	$0x28, %ecx
	movl	$0x410016, %eax
	call	wrmsr0
	movl	$0x29, %ecx
	movl	$0x420016, %eax
	call	wrmsr0
	movl	$0x2f, %ecx
	movl	$3, %eax
	call	wrmsr0

	movl	$1, %ebx		/* the ring */
ring:
	movl	$0x20, %ecx
	rdmsr
	movl	%eax, VARS
	movl	$0x21, %ecx
	rdmsr
	movl	%eax, VARS + 4
	movl	%ebx, %eax		/* this ring's data segment, RPL */
	shll	$4, %eax
	addl	$0x10, %eax
	orl	%ebx, %eax
	pushl	%eax			/* SS */
	pushl	$STACK_OUT		/* ESP */
	pushfl
	subl	$8, %eax		/* its code segment */
	pushl	%eax			/* CS */
	pushl	$outer			/* EIP */
	iretl

outer:					/* in ring %ebx */
	movl	$1000, %ecx
1:	decl	%ecx
	jnz	1b
	int	$VEC

back0:					/* ring 0 again */
	movw	$0x10, %ax
	movw	%ax, %ds
	movl	$0x20, %ecx
	rdmsr
	subl	VARS, %eax
	movl	%eax, %esi
	movl	$0x21, %ecx
	rdmsr
	subl	VARS + 4, %eax
	movl	%eax, %edi
	movl	$STACK0, %esp
	movb	%bl, %al
	addb	$'0', %al
	call	putc
	movb	$' ', %al
	call	putc
	movl	%esi, %eax
	call	hex32
	movb	$' ', %al
	call	putc
	movl	%edi, %eax
	call	hex32
	movb	$'\n', %al
	call	putc
	incl	%ebx
	cmpl	$3, %ebx
	jbe	ring

	xorb	%al, %al
	outb	%al, $0xf4		/* isa-debug-exit: QEMU exits with 1 */
2:	hlt
	jmp	2b

	.code16
	.org	0xfff0
	ljmp	$0xf000, $(start16 - rom)
	.org	0x10000
