// SPDX-License-Identifier: GPL-2.0
/*
 * spflt: mark code regions for counters under SPFLT control
 * (knc/...,spflt=1/), with an exactly known user-mode instruction count
 * inside the region. On a Knights Corner the ring-3 SPFLT instruction sets
 * and clears USER_PREF; on the QEMU KNC PMU model (knc-pmu=on) CPUID leaf
 * 0x4b4e4353 stands in for it (TCG does not decode SPFLT).
 *
 *   spflt probe        print what the stand-in returns in EAX (1 on the model)
 *   spflt region N     a region of 2N+3 user-mode instructions: a loop of N
 *                      (dec, jnz) and the three that clear USER_PREF; loops
 *                      of 1000 before and after it, outside
 *   spflt sleep N FIFO a region of 2N+6: read(FIFO, 1 byte) (xor, mov, syscall),
 *                      the loop of N, the clear; the task sleeps inside it
 *                      until a byte is written to FIFO (opened first,
 *                      outside the region)
 *   spflt spin N       the loop of N and no region
 */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define SPFLT_LEAF "0x4b4e4353"

/* USER_PREF = 1, a loop of @n, USER_PREF = 0: 2n + 3 counted. */
static void region(unsigned long n)
{
	asm volatile("mov %[n], %%r8\n\t"
		     "mov $" SPFLT_LEAF ", %%eax\n\t"
		     "mov $1, %%ecx\n\t"
		     "cpuid\n\t"
		     "1: dec %%r8\n\t"
		     "jnz 1b\n\t"
		     "mov $" SPFLT_LEAF ", %%eax\n\t"
		     "xor %%ecx, %%ecx\n\t"
		     "cpuid\n\t"
		     : : [n] "r" (n)
		     : "rax", "rbx", "rcx", "rdx", "r8", "cc");
}

/*
 * The same with read(@fd, @buf, 1) first, inside: 2n + 6 counted. The task
 * sleeps in it until a byte comes, however long the tests take meanwhile.
 */
static void sleep_region(unsigned long n, int fd, char *buf)
{
	asm volatile("mov %[n], %%r8\n\t"
		     "mov %[fd], %%edi\n\t"
		     "mov %[buf], %%rsi\n\t"
		     "mov $" SPFLT_LEAF ", %%eax\n\t"
		     "mov $1, %%ecx\n\t"
		     "cpuid\n\t"		/* sets EDX too */
		     "xor %%eax, %%eax\n\t"	/* read */
		     "mov $1, %%edx\n\t"
		     "syscall\n\t"
		     "1: dec %%r8\n\t"
		     "jnz 1b\n\t"
		     "mov $" SPFLT_LEAF ", %%eax\n\t"
		     "xor %%ecx, %%ecx\n\t"
		     "cpuid\n\t"
		     : : [n] "r" (n), [fd] "r" (fd), [buf] "r" (buf)
		     : "rax", "rbx", "rcx", "rdx", "rsi", "rdi", "r8", "r11",
		       "memory", "cc");
}

static void spin(unsigned long n)
{
	asm volatile("mov %[n], %%r8\n\t"
		     "1: dec %%r8\n\t"
		     "jnz 1b\n\t"
		     : : [n] "r" (n) : "r8", "cc");
}

static unsigned int probe(void)
{
	unsigned int eax = 0x4b4e4353, ebx, ecx = 0, edx;

	asm volatile("cpuid" : "+a" (eax), "=b" (ebx), "+c" (ecx), "=d" (edx));
	return eax;
}

static unsigned long arg(const char *s)
{
	char *end;
	unsigned long v = strtoul(s, &end, 0);

	if (!*s || *end || !v) {
		fprintf(stderr, "spflt: bad number '%s'\n", s);
		exit(2);
	}
	return v;
}

int main(int argc, char **argv)
{
	if (argc == 2 && !strcmp(argv[1], "probe")) {
		printf("%u\n", probe());
	} else if (argc == 3 && !strcmp(argv[1], "region")) {
		spin(1000);
		region(arg(argv[2]));
		spin(1000);
	} else if (argc == 4 && !strcmp(argv[1], "sleep")) {
		unsigned long n = arg(argv[2]);
		int fd = open(argv[3], O_RDONLY);
		char c;

		if (fd < 0) {
			perror(argv[3]);
			return 1;
		}
		sleep_region(n, fd, &c);
	} else if (argc == 3 && !strcmp(argv[1], "spin")) {
		spin(arg(argv[2]));
	} else {
		fprintf(stderr, "usage: spflt probe | region N | sleep N FIFO | spin N\n");
		return 2;
	}
	return 0;
}
