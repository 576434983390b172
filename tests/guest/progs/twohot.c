// SPDX-License-Identifier: GPL-2.0
/*
 * knc-record's workload (tests/guest/lib/card.sh): two hot functions,
 * hot_a with three times hot_b's iterations, each called by a caller of
 * its own (caller_a, caller_b), built with frame pointers so that call
 * chains name them (-O0: gcc leaves the frame out of a leaf at -O2, and
 * shrink-wraps it). twohot [N]: hot_b runs N iterations (default 2000000).
 */
#include <stdlib.h>

volatile unsigned long sink;

__attribute__((noinline)) void hot_a(unsigned long n)
{
	unsigned long i;

	for (i = 0; i < n; i++)
		sink += i;
}

__attribute__((noinline)) void hot_b(unsigned long n)
{
	unsigned long i;

	for (i = 0; i < n; i++)
		sink ^= i;
}

__attribute__((noinline)) void caller_a(unsigned long n)
{
	hot_a(n);
	sink++;
}

__attribute__((noinline)) void caller_b(unsigned long n)
{
	hot_b(n);
	sink++;
}

int main(int argc, char **argv)
{
	unsigned long n = argc > 1 ? strtoul(argv[1], NULL, 0) : 2000000;

	caller_a(3 * n);
	caller_b(n);
	return 0;
}
