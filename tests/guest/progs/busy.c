// SPDX-License-Identifier: GPL-2.0
/*
 * busy: a CPU-bound workload for sampling tests. Spends about 90% of its
 * time in knc_hot() and the rest in knc_cold(), for SECONDS of CPU time,
 * then prints the CPU time it used in nanoseconds.
 */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

static volatile unsigned long sink;

static unsigned long long cpu_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
	return ts.tv_sec * 1000000000ULL + ts.tv_nsec;
}

__attribute__((noinline)) void knc_hot(void)
{
	for (int i = 0; i < 90000; i++)
		sink += i;
}

__attribute__((noinline)) void knc_cold(void)
{
	for (int i = 0; i < 10000; i++)
		sink += i;
}

int main(int argc, char **argv)
{
	double seconds = argc > 1 ? atof(argv[1]) : 1.0;
	unsigned long long end = cpu_ns() + seconds * 1e9;

	while (cpu_ns() < end) {
		knc_hot();
		knc_cold();
	}
	printf("%llu\n", cpu_ns());
	return 0;
}
