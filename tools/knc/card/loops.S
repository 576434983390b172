/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Workloads whose user-mode instruction count is known exactly, for
 * knc-check (and tests/guest/progs/threads.S). Only general registers and
 * system calls: a Knights Corner core runs them as any x86-64 does.
 */
#define SYS_read	0
#define SYS_ioctl	16
#define SYS_clone	56
#define SYS_exit	60
#define IOC_ENABLE	0x2400
#define IOC_DISABLE	0x2401
/* CLONE_VM | CLONE_FS | CLONE_FILES | CLONE_SIGHAND | CLONE_THREAD | CLONE_SYSVSEM */
#define THREAD_FLAGS	0x50f00

	.text

/*
 * void knc_loop_counted(int fd, unsigned long n), n >= 1: enable the event
 * fd (PERF_EVENT_IOC_ENABLE; a group leader starts its group), loop n
 * times, disable it. User-mode instructions between the enable's return
 * and the disable: 2n + 3 (n times dec, jnz; mov, mov, syscall).
 */
	.globl	knc_loop_counted
knc_loop_counted:
	mov	%rsi, %r8
	mov	$SYS_ioctl, %eax
	mov	$IOC_ENABLE, %esi
	xor	%edx, %edx
	syscall
1:	dec	%r8
	jnz	1b
	mov	$SYS_ioctl, %eax
	mov	$IOC_DISABLE, %esi
	syscall
	ret

/* void knc_loop(unsigned long n), n >= 1: loop n times (dec, jnz) */
	.globl	knc_loop
knc_loop:
	mov	%rdi, %rcx
3:	dec	%rcx
	jnz	3b
	ret

/*
 * void knc_threads_wait(int fd, long threads, long n, char *stack,
 *                       long stride), never returns: read one byte from
 * fd, then knc_threads_go with threads in %r13, n in %r12, the first
 * thread's stack top in %r14 and the stride between stacks in %r15.
 *
 * knc_threads_go starts the threads one by one (clone, CLONE_THREAD),
 * each looping n times (dec, jnz) and exiting, and exits the calling
 * thread; the process ends with its last thread. User-mode instructions
 * after the read returns, over every thread: the calling thread 12 a
 * thread and 3 (mov, xor, syscall), each thread 2n + 6 (test, jz, mov,
 * the loop, mov, xor, syscall): threads * (2n + 18) + 3.
 */
	.globl	knc_threads_wait
knc_threads_wait:
	mov	%rsi, %r13
	mov	%rdx, %r12
	mov	%rcx, %r14
	mov	%r8, %r15
	xor	%eax, %eax		/* read(fd, red zone, 1) */
	lea	-8(%rsp), %rsi
	mov	$1, %edx
	syscall
	.globl	knc_threads_go
knc_threads_go:
2:	mov	$SYS_clone, %eax
	mov	$THREAD_FLAGS, %edi
	mov	%r14, %rsi
	xor	%edx, %edx
	xor	%r10d, %r10d
	xor	%r8d, %r8d
	syscall
	test	%rax, %rax
	jz	4f
	add	%r15, %r14
	dec	%r13
	jnz	2b
	mov	$SYS_exit, %eax
	xor	%edi, %edi
	syscall
4:	mov	%r12, %rcx
5:	dec	%rcx
	jnz	5b
	mov	$SYS_exit, %eax
	xor	%edi, %edi
	syscall

	.section .note.GNU-stack, "", @progbits
