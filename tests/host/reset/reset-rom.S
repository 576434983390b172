/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A 64 KiB boot ROM (QEMU -bios, linked at 0xf0000 by tests/host/rom.sh)
 * for tests/host/reset.t: the KNC PMU's registers across a warm reset,
 * section 1.4.4 of Intel document 327357-001. It runs in real mode at the
 * reset vector, twice:
 *
 *  1. power-on: prints the registers (all zero), gives each a value (and
 *     overflows counter 0, for a status bit), prints them again, marks
 *     CMOS byte 0x34 and resets the machine through the keyboard
 *     controller (a warm reset: RESET#, not INIT);
 *  2. after the reset: prints them (all zero again) and leaves QEMU
 *     through isa-debug-exit.
 *
 * Each line on the debug console (port 0xe9) is "BOOT MSR HIGH LOW" in
 * hex; the test reads them. IA32_PERF_GLOBAL_OVF_CONTROL (0x2e) is
 * write-only and not read.
 */
	.code16
	.text
rom:					/* 0xf0000: ld -Ttext=0xf0000 */

msrs:	.byte	0x20, 0x21, 0x28, 0x29, 0x2c, 0x2d, 0x2f, 0

/* the value written to each, in the order of msrs: low, high */
vals:	.long	0xfffffff0, 0x000000ff	/* PerfCntr0: 16 to overflow */
	.long	0x12345678, 0x00000012	/* PerfCntr1 */
	.long	0x00420016, 0		/* EvtSel0: INSTRUCTIONS_EXECUTED, OS, EN */
	.long	0x00410016, 0		/* EvtSel1: USR, EN */
	.long	0x00000003, 0x80000000	/* SPFLT: USER_PREF, both counters */
	.long	0, 0			/* GLOBAL_STATUS: read-only */
	.long	0x00000003, 0		/* GLOBAL_CTRL: both */

	.include "rom-print.S"

/* print "%bl MSR HIGH LOW" for each MSR */
dump:
	movw	$(msrs - rom), %si
1:	movzbl	%cs:(%si), %ecx
	testl	%ecx, %ecx
	jz	2f
	movb	%bl, %al
	call	putc
	movb	$' ', %al
	call	putc
	movl	%ecx, %eax
	call	hex32
	rdmsr
	pushl	%eax
	movb	$' ', %al
	call	putc
	movl	%edx, %eax
	call	hex32
	movb	$' ', %al
	call	putc
	popl	%eax
	call	hex32
	movb	$'\n', %al
	call	putc
	incw	%si
	jmp	1b
2:	ret

start:
	cli
	xorw	%ax, %ax
	movw	%ax, %ss
	movw	$0x7000, %sp
	movb	$0x34, %al		/* CMOS 0x34: 0xa5 once reset */
	outb	%al, $0x70
	inb	$0x71, %al
	cmpb	$0xa5, %al
	je	after_reset

	movb	$'P', %bl		/* power-on */
	call	dump
	movw	$(msrs - rom), %si
	movw	$(vals - rom), %di
1:	movzbl	%cs:(%si), %ecx
	testl	%ecx, %ecx
	jz	2f
	movl	%cs:(%di), %eax
	movl	%cs:4(%di), %edx
	cmpl	$0x2d, %ecx		/* read-only */
	je	3f
	wrmsr
3:	incw	%si
	addw	$8, %di
	jmp	1b
2:	movb	$'S', %bl		/* set, counter 0 overflowed */
	call	dump
	movb	$0x34, %al
	outb	%al, $0x70
	movb	$0xa5, %al
	outb	%al, $0x71
	movb	$0xfe, %al		/* the keyboard controller pulses RESET# */
	outb	%al, $0x64
4:	hlt
	jmp	4b

after_reset:
	movb	$'R', %bl		/* after the warm reset */
	call	dump
	movb	$0x34, %al
	outb	%al, $0x70
	xorb	%al, %al
	outb	%al, $0x71
	movw	$0xf4, %dx		/* isa-debug-exit: QEMU exits with 1 */
	outb	%al, %dx
5:	hlt
	jmp	5b

	.org	0xfff0
	ljmp	$0xf000, $(start - rom)
	.org	0x10000
