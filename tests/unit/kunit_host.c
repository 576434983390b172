// SPDX-License-Identifier: GPL-2.0
/*
 * Runs the knc KUnit suites (arch/x86/events/knc/ *_test.c) on the host,
 * against the shim in include/kunit/test.h, and prints TAP version 13:
 * one point per case, named "suite.case", a failed expectation's
 * diagnostics as "# " lines after its point.
 *
 * Usage: test_knc [SUBSTRING...]  runs only the cases whose "suite.case"
 * contains one of the substrings (all cases without arguments).
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <kunit/test.h>

#define MAX_SUITES 8

static struct kunit_suite *suites[MAX_SUITES];
static size_t num_suites;

void kunit_host_register(struct kunit_suite * const *s, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++) {
		if (num_suites == MAX_SUITES) {
			fprintf(stderr, "kunit_host: more than %d suites\n",
				MAX_SUITES);
			exit(2);
		}
		suites[num_suites++] = s[i];
	}
}

/* A case's diagnostics, printed after its test point. */
static char diag[32768];
static size_t diag_len;

static void diag_vadd(const char *fmt, va_list ap)
{
	size_t room = sizeof(diag) - diag_len;
	int n;

	if (room < 2)
		return;
	n = vsnprintf(diag + diag_len, room, fmt, ap);
	if (n > 0)
		diag_len += (size_t)n < room ? (size_t)n : room - 1;
}

static __printf(1, 2) void diag_add(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	diag_vadd(fmt, ap);
	va_end(ap);
}

void kunit_host_fail(struct kunit *test, enum kunit_host_class c,
		     const char *file, int line, const char *fmt, ...)
{
	va_list ap;

	test->failed++;
	diag_add("# %s:%d: %s", file, line,
		 c == KUNIT_HOST_ASSERT ? "ASSERTION FAILED: " : "");
	va_start(ap, fmt);
	diag_vadd(fmt, ap);
	va_end(ap);
	diag_add("\n");
}

void kunit_host_note(struct kunit *test, const char *what, const char *fmt, ...)
{
	va_list ap;

	(void)test;
	if (!fmt)
		return;
	diag_add("#     %s", what);
	va_start(ap, fmt);
	diag_vadd(fmt, ap);
	va_end(ap);
	diag_add("\n");
}

static bool selected(const char *name, int argc, char **argv)
{
	int i;

	if (argc < 2)
		return true;
	for (i = 1; i < argc; i++)
		if (strstr(name, argv[i]))
			return true;
	return false;
}

/* Runs one case; returns how many of its checks failed. */
static unsigned int run_case(struct kunit_suite *suite, struct kunit_case *c)
{
	struct kunit test = { .name = c->name };

	diag_len = 0;
	diag[0] = '\0';
	if (suite->init && suite->init(&test)) {
		diag_add("# %s: suite init failed\n", suite->name);
		return 1;
	}
	if (!setjmp(test.abort))
		c->run_case(&test);
	if (suite->exit)
		suite->exit(&test);
	return test.failed;
}

int main(int argc, char **argv)
{
	unsigned int n = 0, num = 0, failed = 0;
	struct kunit_case *c;
	char name[512];
	size_t s;

	for (s = 0; s < num_suites; s++)
		for (c = suites[s]->test_cases; c->run_case; c++) {
			snprintf(name, sizeof(name), "%s.%s", suites[s]->name, c->name);
			n += selected(name, argc, argv);
		}

	printf("TAP version 13\n1..%u\n", n);
	for (s = 0; s < num_suites; s++) {
		for (c = suites[s]->test_cases; c->run_case; c++) {
			unsigned int nfailed;

			snprintf(name, sizeof(name), "%s.%s", suites[s]->name, c->name);
			if (!selected(name, argc, argv))
				continue;
			nfailed = run_case(suites[s], c);
			num++;
			if (nfailed) {
				failed++;
				printf("not ok %u - %s\n%s", num, name, diag);
				if (diag_len >= sizeof(diag) - 1)
					printf("# (diagnostics truncated)\n");
				printf("# %u check(s) failed\n", nfailed);
			} else {
				printf("ok %u - %s\n", num, name);
			}
			fflush(stdout);
		}
	}
	if (failed)
		printf("# %u of %u case(s) failed\n", failed, n);
	return failed ? 1 : 0;
}
