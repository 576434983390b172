/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The boot ROMs' way into 32-bit protected mode (tests/host/rom.sh),
 * included in their .code16 text, where they define rom (0xf0000), their
 * GDT from gdt to gdt_end with a flat ring-0 code segment at 0x08 and data
 * segment at 0x10, gdtr for its copy at GDT in RAM, and pm32.
 *
 * enter_pm32: with CS = 0xf000, copy the GDT to RAM, load it and jump to
 * pm32 in protected mode, interrupts off.
 * flat_data32: ring 0's flat data segment in DS, ES and SS.
 */
.macro	enter_pm32
	cli
	xorw	%ax, %ax
	movw	%ax, %es
	movw	%cs, %ax
	movw	%ax, %ds
	movw	$(gdt - rom), %si
	movw	$GDT, %di
	movw	$(gdt_end - gdt), %cx
	cld
	rep movsb
	lgdtl	%cs:(gdtr - rom)
	movl	%cr0, %eax
	orl	$1, %eax
	movl	%eax, %cr0
	ljmpl	$0x08, $pm32
.endm

.macro	flat_data32
	movw	$0x10, %ax
	movw	%ax, %ds
	movw	%ax, %es
	movw	%ax, %ss
.endm
