/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Host shim of <kunit/test.h>: the part of the KUnit API the knc tests use,
 * so that arch/x86/events/knc/ *_test.c build unchanged on the host
 * (tests/unit, with ASan and UBSan) and in a KUnit kernel. One home for
 * each case, two places it runs. tests/unit/kunit_host.c runs the suites
 * and prints TAP, one point per case, named "suite.case".
 *
 * As in the kernel, a comparison is made in the operands' own types and
 * both values are printed as long long; an ASSERT ends the case.
 */
#ifndef _SHIM_KUNIT_TEST_H
#define _SHIM_KUNIT_TEST_H

#include <setjmp.h>
#include <stddef.h>
#include <string.h>

#include <linux/kernel.h>
#include <linux/types.h>

struct kunit {
	const char *name;	/* the case's name */
	void *priv;		/* for the suite's init and the case */
	unsigned int failed;	/* failed expectations and assertions */
	jmp_buf abort;		/* where a failed ASSERT ends the case */
};

struct kunit_case {
	void (*run_case)(struct kunit *test);
	const char *name;
};

struct kunit_suite {
	const char name[256];
	int (*init)(struct kunit *test);
	void (*exit)(struct kunit *test);
	struct kunit_case *test_cases;
};

#define KUNIT_CASE(test_name) { .run_case = test_name, .name = #test_name }

void kunit_host_register(struct kunit_suite * const *suites, size_t n);

#define kunit_test_suites(...)						\
	static struct kunit_suite * const kunit_host_suites[] = { __VA_ARGS__ }; \
	static void __attribute__((constructor)) kunit_host_ctor(void)	\
	{								\
		kunit_host_register(kunit_host_suites,			\
				    ARRAY_SIZE(kunit_host_suites));	\
	}
#define kunit_test_suite(suite)	kunit_test_suites(&suite)

enum kunit_host_class { KUNIT_HOST_EXPECT, KUNIT_HOST_ASSERT };

__printf(5, 6) void kunit_host_fail(struct kunit *test, enum kunit_host_class c,
				    const char *file, int line,
				    const char *fmt, ...);
__printf(3, 4) void kunit_host_note(struct kunit *test, const char *what,
				    const char *fmt, ...);

#define KUNIT_HOST_END(test, cls, fmt, ...)				\
	do {								\
		kunit_host_note(test, "", fmt, ##__VA_ARGS__);		\
		if ((cls) == KUNIT_HOST_ASSERT)				\
			longjmp((test)->abort, 1);			\
	} while (0)

#define KUNIT_HOST_UNARY(test, cls, cond, want, fmt, ...)		\
	do {								\
		if ((bool)(cond) == (want))					\
			break;						\
		kunit_host_fail(test, cls, __FILE__, __LINE__,		\
				"Expected %s to be %s, but is %s",	\
				#cond, (want) ? "true" : "false",	\
				(want) ? "false" : "true");		\
		KUNIT_HOST_END(test, cls, fmt, ##__VA_ARGS__);		\
	} while (0)

#define KUNIT_HOST_BINARY(test, cls, left, op, right, fmt, ...)	\
	do {								\
		const typeof(left) __left = (left);			\
		const typeof(right) __right = (right);			\
		if (__left op __right)					\
			break;						\
		kunit_host_fail(test, cls, __FILE__, __LINE__,		\
				"Expected %s %s %s, but\n"		\
				"#     %s == %lld (%#llx)\n"		\
				"#     %s == %lld (%#llx)",		\
				#left, #op, #right,			\
				#left, (long long)__left,		\
				(unsigned long long)__left,		\
				#right, (long long)__right,		\
				(unsigned long long)__right);		\
		KUNIT_HOST_END(test, cls, fmt, ##__VA_ARGS__);		\
	} while (0)

#define KUNIT_HOST_PTR(test, cls, left, op, right, fmt, ...)		\
	do {								\
		const void *__left = (left), *__right = (right);	\
		if (__left op __right)					\
			break;						\
		kunit_host_fail(test, cls, __FILE__, __LINE__,		\
				"Expected %s %s %s, but\n"		\
				"#     %s == %p\n#     %s == %p",		\
				#left, #op, #right, #left, __left,	\
				#right, __right);			\
		KUNIT_HOST_END(test, cls, fmt, ##__VA_ARGS__);		\
	} while (0)

#define KUNIT_HOST_STR(test, cls, left, op, right, fmt, ...)		\
	do {								\
		const char *__left = (left), *__right = (right);	\
		if (__left && __right && strcmp(__left, __right) op 0)	\
			break;						\
		kunit_host_fail(test, cls, __FILE__, __LINE__,		\
				"Expected %s %s %s, but\n"		\
				"#     %s == \"%s\"\n#     %s == \"%s\"",	\
				#left, #op, #right,			\
				#left, __left ? __left : "(null)",	\
				#right, __right ? __right : "(null)");	\
		KUNIT_HOST_END(test, cls, fmt, ##__VA_ARGS__);		\
	} while (0)

#define KUNIT_FAIL(test, fmt, ...)					\
	do {								\
		kunit_host_fail(test, KUNIT_HOST_EXPECT, __FILE__,	\
				__LINE__, "%s", "failed");		\
		kunit_host_note(test, "", fmt, ##__VA_ARGS__);		\
	} while (0)

#define KUNIT_EXPECT_TRUE_MSG(t, c, fmt, ...) \
	KUNIT_HOST_UNARY(t, KUNIT_HOST_EXPECT, c, true, fmt, ##__VA_ARGS__)
#define KUNIT_EXPECT_FALSE_MSG(t, c, fmt, ...) \
	KUNIT_HOST_UNARY(t, KUNIT_HOST_EXPECT, c, false, fmt, ##__VA_ARGS__)
#define KUNIT_EXPECT_EQ_MSG(t, l, r, fmt, ...) \
	KUNIT_HOST_BINARY(t, KUNIT_HOST_EXPECT, l, ==, r, fmt, ##__VA_ARGS__)
#define KUNIT_EXPECT_NE_MSG(t, l, r, fmt, ...) \
	KUNIT_HOST_BINARY(t, KUNIT_HOST_EXPECT, l, !=, r, fmt, ##__VA_ARGS__)
#define KUNIT_EXPECT_LT_MSG(t, l, r, fmt, ...) \
	KUNIT_HOST_BINARY(t, KUNIT_HOST_EXPECT, l, <, r, fmt, ##__VA_ARGS__)
#define KUNIT_EXPECT_LE_MSG(t, l, r, fmt, ...) \
	KUNIT_HOST_BINARY(t, KUNIT_HOST_EXPECT, l, <=, r, fmt, ##__VA_ARGS__)
#define KUNIT_EXPECT_GT_MSG(t, l, r, fmt, ...) \
	KUNIT_HOST_BINARY(t, KUNIT_HOST_EXPECT, l, >, r, fmt, ##__VA_ARGS__)
#define KUNIT_EXPECT_GE_MSG(t, l, r, fmt, ...) \
	KUNIT_HOST_BINARY(t, KUNIT_HOST_EXPECT, l, >=, r, fmt, ##__VA_ARGS__)
#define KUNIT_EXPECT_PTR_EQ_MSG(t, l, r, fmt, ...) \
	KUNIT_HOST_PTR(t, KUNIT_HOST_EXPECT, l, ==, r, fmt, ##__VA_ARGS__)
#define KUNIT_EXPECT_NULL_MSG(t, p, fmt, ...) \
	KUNIT_HOST_PTR(t, KUNIT_HOST_EXPECT, p, ==, NULL, fmt, ##__VA_ARGS__)
#define KUNIT_EXPECT_NOT_NULL_MSG(t, p, fmt, ...) \
	KUNIT_HOST_PTR(t, KUNIT_HOST_EXPECT, p, !=, NULL, fmt, ##__VA_ARGS__)
#define KUNIT_EXPECT_STREQ_MSG(t, l, r, fmt, ...) \
	KUNIT_HOST_STR(t, KUNIT_HOST_EXPECT, l, ==, r, fmt, ##__VA_ARGS__)

#define KUNIT_ASSERT_TRUE_MSG(t, c, fmt, ...) \
	KUNIT_HOST_UNARY(t, KUNIT_HOST_ASSERT, c, true, fmt, ##__VA_ARGS__)
#define KUNIT_ASSERT_EQ_MSG(t, l, r, fmt, ...) \
	KUNIT_HOST_BINARY(t, KUNIT_HOST_ASSERT, l, ==, r, fmt, ##__VA_ARGS__)
#define KUNIT_ASSERT_GE_MSG(t, l, r, fmt, ...) \
	KUNIT_HOST_BINARY(t, KUNIT_HOST_ASSERT, l, >=, r, fmt, ##__VA_ARGS__)
#define KUNIT_ASSERT_NOT_NULL_MSG(t, p, fmt, ...) \
	KUNIT_HOST_PTR(t, KUNIT_HOST_ASSERT, p, !=, NULL, fmt, ##__VA_ARGS__)

#define KUNIT_EXPECT_TRUE(t, c)		KUNIT_EXPECT_TRUE_MSG(t, c, NULL)
#define KUNIT_EXPECT_FALSE(t, c)	KUNIT_EXPECT_FALSE_MSG(t, c, NULL)
#define KUNIT_EXPECT_EQ(t, l, r)	KUNIT_EXPECT_EQ_MSG(t, l, r, NULL)
#define KUNIT_EXPECT_NE(t, l, r)	KUNIT_EXPECT_NE_MSG(t, l, r, NULL)
#define KUNIT_EXPECT_LT(t, l, r)	KUNIT_EXPECT_LT_MSG(t, l, r, NULL)
#define KUNIT_EXPECT_LE(t, l, r)	KUNIT_EXPECT_LE_MSG(t, l, r, NULL)
#define KUNIT_EXPECT_GT(t, l, r)	KUNIT_EXPECT_GT_MSG(t, l, r, NULL)
#define KUNIT_EXPECT_GE(t, l, r)	KUNIT_EXPECT_GE_MSG(t, l, r, NULL)
#define KUNIT_EXPECT_PTR_EQ(t, l, r)	KUNIT_EXPECT_PTR_EQ_MSG(t, l, r, NULL)
#define KUNIT_EXPECT_NULL(t, p)		KUNIT_EXPECT_NULL_MSG(t, p, NULL)
#define KUNIT_EXPECT_NOT_NULL(t, p)	KUNIT_EXPECT_NOT_NULL_MSG(t, p, NULL)
#define KUNIT_EXPECT_STREQ(t, l, r)	KUNIT_EXPECT_STREQ_MSG(t, l, r, NULL)
#define KUNIT_ASSERT_TRUE(t, c)		KUNIT_ASSERT_TRUE_MSG(t, c, NULL)
#define KUNIT_ASSERT_EQ(t, l, r)	KUNIT_ASSERT_EQ_MSG(t, l, r, NULL)
#define KUNIT_ASSERT_GE(t, l, r)	KUNIT_ASSERT_GE_MSG(t, l, r, NULL)
#define KUNIT_ASSERT_NOT_NULL(t, p)	KUNIT_ASSERT_NOT_NULL_MSG(t, p, NULL)

#endif
