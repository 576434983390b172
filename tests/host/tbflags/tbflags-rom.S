/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A 64 KiB boot ROM (QEMU -bios, linked at 0xf0000 by tests/host/rom.sh)
 * for tests/host/tbflags.t: two vCPUs, the BSP with the KNC PMU model
 * (knc-pmu=on) and the AP without, run the same code, so that a TB
 * translated for one vCPU would be found by the other unless the model is
 * part of the TB's flags.
 *
 * The BSP enters 32-bit protected mode, counts INSTRUCTIONS_EXECUTED in
 * ring 0 on counter 0 and wakes the AP (INIT, SIPI to 0xf1000), which
 * enters protected mode by the same code and runs loop_a. Then the BSP
 * runs loop_a (translated by the AP first) and loop_c (the same code at
 * another address, which the AP never runs), each measured by counter 0,
 * and prints "a DELTA" and "c DELTA" (hex) on the debug console: both
 * must be the same count. Last the BSP runs loop_b first and the AP after
 * it, which must run it without the model's code; the BSP prints "b done"
 * once the AP is back, and QEMU exits through isa-debug-exit.
 */
	.set	GDT, 0x1000		/* the GDT, copied to RAM */
	.set	STEP, 0x1500		/* the AP's: 1 after loop_a, 2 after loop_b */
	.set	GO, 0x1504		/* the BSP's: 1 when the AP may run loop_b */
	.set	STACK_BSP, 0x8000
	.set	STACK_AP, 0x7000
	.set	APIC, 0xfee00000
	.set	N, 1000			/* each loop's iterations */

	.text
	.code16
rom:					/* 0xf0000: ld -Ttext=0xf0000 */
gdt:	.quad	0
	.quad	0x00cf9a000000ffff, 0x00cf92000000ffff	/* 0x08, 0x10: ring 0 */
gdt_end:
gdtr:	.word	gdt_end - gdt - 1
	.long	GDT

	.include "rom-pm32.S"
start16:				/* the BSP from the reset vector, the AP from ap16 */
	enter_pm32

	.code32
	.include "rom-print.S"

/* the same loop three times: 2N + 2 instructions each */
loop_a:
	movl	$N, %ecx
1:	decl	%ecx
	jnz	1b
	ret

loop_b:
	movl	$N, %ecx
1:	decl	%ecx
	jnz	1b
	ret

loop_c:
	movl	$N, %ecx
1:	decl	%ecx
	jnz	1b
	ret

/* measure: call *%ebx; %eax = counter 0's delta across the call */
measure:
	movl	$0x20, %ecx
	rdmsr
	movl	%eax, %esi
	call	*%ebx
	movl	$0x20, %ecx
	rdmsr
	subl	%esi, %eax
	ret

/* print "%bl %eax\n" */
report:
	pushl	%eax
	movb	%bl, %al
	call	putc
	movb	$' ', %al
	call	putc
	popl	%eax
	call	hex32
	movb	$'\n', %al
	call	putc
	ret

pm32:
	flat_data32
	movl	$0x1b, %ecx		/* IA32_APIC_BASE: BSP flag */
	rdmsr
	testl	$0x100, %eax
	jz	ap

	movl	$STACK_BSP, %esp
	movl	$0, STEP
	movl	$0, GO
	/* counter 0: INSTRUCTIONS_EXECUTED, OS, EN */
	movl	$0x20, %ecx
	xorl	%eax, %eax
	call	wrmsr0
	movl	$0x28, %ecx
	movl	$0x420016, %eax
	call	wrmsr0
	movl	$0x2f, %ecx
	movl	$1, %eax
	call	wrmsr0
	/* wake the AP (APIC ID 1): INIT, then SIPI to 0xf1000 */
	movl	$0x01000000, APIC + 0x310
	movl	$0x00004500, APIC + 0x300
	movl	$0x01000000, APIC + 0x310
	movl	$0x000046f1, APIC + 0x300
1:	pause
	cmpl	$1, STEP
	jne	1b

	movl	$loop_a, %ebx
	call	measure
	movb	$'a', %bl
	call	report
	movl	$loop_c, %ebx
	call	measure
	movb	$'c', %bl
	call	report

	call	loop_b
	movl	$1, GO
1:	pause
	cmpl	$2, STEP
	jne	1b
	movl	$'b', %eax
	call	putc
	movb	$' ', %al
	call	putc
	movb	$'d', %al
	call	putc
	movb	$'o', %al
	call	putc
	movb	$'n', %al
	call	putc
	movb	$'e', %al
	call	putc
	movb	$'\n', %al
	call	putc
	xorb	%al, %al
	outb	%al, $0xf4		/* isa-debug-exit: QEMU exits with 1 */
2:	hlt
	jmp	2b

ap:					/* no model here */
	movl	$STACK_AP, %esp
	call	loop_a
	movl	$1, STEP
1:	pause
	cmpl	$1, GO
	jne	1b
	call	loop_b
	movl	$2, STEP
2:	cli
	hlt
	jmp	2b

	.code16
	.org	0x1000			/* 0xf1000: the AP, from the SIPI */
ap16:
	ljmp	$0xf000, $(start16 - rom)

	.org	0xfff0
	ljmp	$0xf000, $(start16 - rom)
	.org	0x10000
