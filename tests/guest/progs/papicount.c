// SPDX-License-Identifier: GPL-2.0
/*
 * papicount: count one PAPI native event (libpfm4's name, e.g.
 * INSTRUCTIONS_EXECUTED) around a known piece of work, through Debian's
 * unpatched PAPI and libpfm4.
 *
 *   papicount EVENT loop N          N iterations of a two-instruction loop
 *   papicount EVENT inject SIMEV N  write "SIMEV N" to knc_sim's inject file
 *
 * Prints "EVENT COUNT", or the PAPI error and, when its perf_event
 * component is disabled, the reason PAPI gives; exits 1 on an error.
 */
#include <papi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int fail(const char *what, int ret)
{
	const PAPI_component_info_t *ci = PAPI_get_component_info(0);

	printf("%s: %s\n", what, PAPI_strerror(ret));
	if (ci && ci->disabled)
		printf("component %s disabled: %s\n", ci->name,
		       ci->disabled_reason);
	return 1;
}

static void loop(unsigned long n)
{
	asm volatile("1: dec %0\n\tjnz 1b" : "+r"(n) : : "cc");
}

static int inject(const char *ev, const char *n)
{
	FILE *f = fopen("/sys/kernel/debug/knc_sim/inject", "w");

	if (!f || fprintf(f, "%s %s\n", ev, n) < 0 || fclose(f)) {
		perror("inject");
		return -1;
	}
	return 0;
}

int main(int argc, char **argv)
{
	int es = PAPI_NULL, ret;
	long long count;

	if (argc < 4 || (strcmp(argv[2], "loop") && strcmp(argv[2], "inject")) ||
	    (!strcmp(argv[2], "inject") && argc < 5)) {
		fprintf(stderr, "usage: papicount EVENT loop N | EVENT inject SIMEV N\n");
		return 2;
	}
	ret = PAPI_library_init(PAPI_VER_CURRENT);
	if (ret != PAPI_VER_CURRENT)
		return fail("PAPI_library_init", ret);
	ret = PAPI_create_eventset(&es);
	if (ret != PAPI_OK)
		return fail("PAPI_create_eventset", ret);
	ret = PAPI_add_named_event(es, argv[1]);
	if (ret != PAPI_OK)
		return fail(argv[1], ret);
	ret = PAPI_start(es);
	if (ret != PAPI_OK)
		return fail("PAPI_start", ret);
	if (!strcmp(argv[2], "loop"))
		loop(strtoul(argv[3], NULL, 0));
	else if (inject(argv[3], argv[4]))
		return 1;
	ret = PAPI_stop(es, &count);
	if (ret != PAPI_OK)
		return fail("PAPI_stop", ret);
	printf("%s %lld\n", argv[1], count);
	return 0;
}
