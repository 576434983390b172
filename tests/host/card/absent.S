/* SPDX-License-Identifier: GPL-2.0 */
/*
 * One instruction of each class a Knights Corner core lacks (Intel 327364,
 * appendix B), each in a function of its own: tests/host/card.t checks that
 * knc-isa audit names every one of these functions.
 */
#define F(name) .globl name; name:

	.text
F(f_cmov)	cmovne %rax, %rbx
F(f_fcmov)	fcmovb %st(1), %st
F(f_fcomi)	fcomi %st(1), %st
F(f_fucomip)	fucomip %st(1), %st
F(f_cx16)	cmpxchg16b (%rdi)
F(f_in)		inb %dx, %al
F(f_out)	outb %al, %dx
F(f_ins)	insb
F(f_monitor)	monitor
F(f_mwait)	mwait
F(f_pause)	pause
F(f_sysenter)	sysenter
F(f_lfence)	lfence
F(f_mfence)	mfence
F(f_sfence)	sfence
F(f_prefetch)	prefetcht0 (%rdi)
F(f_prefetchw)	prefetchw (%rdi)
F(f_clflush)	clflush (%rdi)
F(f_rdtscp)	rdtscp
F(f_popcnt)	popcnt %rax, %rbx
F(f_lzcnt)	lzcnt %rax, %rbx
F(f_tzcnt)	tzcnt %rax, %rbx
F(f_andn)	andn %rax, %rbx, %rcx
F(f_shlx)	shlx %rax, %rbx, %rcx
F(f_movbe)	movbe (%rdi), %rax
F(f_xsave)	xsave (%rdi)
F(f_xgetbv)	xgetbv
F(f_mmx)	paddb %mm1, %mm0
F(f_emms)	emms
F(f_sse)	addps %xmm1, %xmm0
F(f_sse2)	movdqa %xmm1, %xmm0
F(f_avx)	vmovdqa %ymm1, %ymm0
F(f_avx512)	vaddps %zmm1, %zmm2, %zmm3
F(f_nopl)	nopl 0(%rax)
F(f_nopw)	nopw 0(%rax,%rax,1)
F(f_endbr)	endbr64
	ret
