/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What a Knights Corner core has, of what compilers and the card's
 * programs use: knc-isa audit must pass it (tests/host/card.t).
 */
	.text
	.globl f_present
f_present:
	nop
	xchg %ax, %ax
	int3
	rdpmc
	rdtsc
	rdmsr
	cpuid
	lock xaddq %rax, (%rdi)
	lock cmpxchg8b (%rdi)
	lock cmpxchgq %rbx, (%rdi)
	xchgq %rax, (%rdi)
	fldl (%rdi)
	fcomp %st(1)
	fxsave (%rdi)
	fxrstor (%rdi)
	syscall
	sete %al
	sbbq %rax, %rax
	bsfq %rax, %rbx
	bsrq %rax, %rbx
	bswapq %rax
	rep movsb
	rep stosq
	sahf
	lahf
	imulq $7, %rax, %rbx
	divq %rcx
	leaq 8(%rsp), %rsi
	movzbl %al, %eax
	movslq %eax, %rax
	cqto
	shrdq $3, %rax, %rbx
	btq %rax, %rbx
	ud2
	ret
