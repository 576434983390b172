// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit tests for knc_logic.c's 40-bit arithmetic: the delta between two
 * counter reads across a wrap, the sampling period's adjustment, and the
 * value a counter starts from to overflow after the period left.
 */
#include <kunit/test.h>
#include <linux/kernel.h>

#include "knc_logic.h"
#include "knc_logic_test.h"
#include "knc_test.h"

void test_delta_plain(struct kunit *test)
{
	KUNIT_EXPECT_EQ(test, knc_delta(0, 0), 0);
	KUNIT_EXPECT_EQ(test, knc_delta(100, 250), 150);
	KUNIT_EXPECT_EQ(test, knc_delta(0x1234567890ULL, 0x1234567890ULL), 0);
	KUNIT_EXPECT_EQ(test, knc_delta(0, T_CTR_MASK), T_CTR_MASK);
}

void test_delta_wrap(struct kunit *test)
{
	KUNIT_EXPECT_EQ(test, knc_delta(T_CTR_TOP - 10, 5), 15);
	KUNIT_EXPECT_EQ(test, knc_delta(T_CTR_MASK, 0), 1);
	KUNIT_EXPECT_EQ(test, knc_delta(1, 0), T_CTR_MASK);
	/* a half-range step across the wrap */
	KUNIT_EXPECT_EQ(test, knc_delta(T_CTR_TOP - 5, T_MAX_PERIOD - 4), T_MAX_PERIOD + 1);
	/* started at -period (knc_counter_start), read back after the wrap */
	KUNIT_EXPECT_EQ(test, knc_delta(T_CTR_TOP - 1000, 17), 1000 + 17);
}

void test_period_adjust_not_elapsed(struct kunit *test)
{
	s64 left = 5;

	KUNIT_EXPECT_TRUE(test, !knc_period_adjust(&left, 100));
	KUNIT_EXPECT_EQ(test, left, 5);
	left = 1;
	KUNIT_EXPECT_TRUE(test, !knc_period_adjust(&left, 100));
	KUNIT_EXPECT_EQ(test, left, 1);
	left = 1000;	/* more than a period left: untouched */
	KUNIT_EXPECT_TRUE(test, !knc_period_adjust(&left, 100));
	KUNIT_EXPECT_EQ(test, left, 1000);
}

void test_period_adjust_elapsed(struct kunit *test)
{
	s64 left = 0;

	KUNIT_EXPECT_TRUE(test, knc_period_adjust(&left, 100));
	KUNIT_EXPECT_EQ(test, left, 100);
	left = -30;	/* overshoot carries into the next period */
	KUNIT_EXPECT_TRUE(test, knc_period_adjust(&left, 100));
	KUNIT_EXPECT_EQ(test, left, 70);
	left = -99;
	KUNIT_EXPECT_TRUE(test, knc_period_adjust(&left, 100));
	KUNIT_EXPECT_EQ(test, left, 1);
}

void test_period_adjust_reset(struct kunit *test)
{
	s64 left = -100;	/* left <= -period: restart at period */

	KUNIT_EXPECT_TRUE(test, knc_period_adjust(&left, 100));
	KUNIT_EXPECT_EQ(test, left, 100);
	left = -101;
	KUNIT_EXPECT_TRUE(test, knc_period_adjust(&left, 100));
	KUNIT_EXPECT_EQ(test, left, 100);
	left = -250000;
	KUNIT_EXPECT_TRUE(test, knc_period_adjust(&left, 100));
	KUNIT_EXPECT_EQ(test, left, 100);
	left = -(1LL << 50) - 1;
	KUNIT_EXPECT_TRUE(test, knc_period_adjust(&left, 1ULL << 50));
	KUNIT_EXPECT_EQ(test, left, 1LL << 50);
	left = -(1LL << 50) + 1;
	KUNIT_EXPECT_TRUE(test, knc_period_adjust(&left, 1ULL << 50));
	KUNIT_EXPECT_EQ(test, left, 1);
}

void test_counter_start(struct kunit *test)
{
	KUNIT_EXPECT_EQ(test, knc_counter_start(1), T_CTR_MASK);
	KUNIT_EXPECT_EQ(test, knc_counter_start(100), T_CTR_TOP - 100);
	KUNIT_EXPECT_EQ(test, knc_counter_start(200003), T_CTR_TOP - 200003);
	KUNIT_EXPECT_EQ(test, knc_counter_start((s64)T_MAX_PERIOD), 0x8000000001ULL);
	KUNIT_EXPECT_EQ(test, knc_counter_start((s64)T_MAX_PERIOD - 1), 0x8000000002ULL);
}

void test_counter_start_clamps(struct kunit *test)
{
	KUNIT_EXPECT_EQ(test, knc_counter_start((s64)T_MAX_PERIOD + 1), 0x8000000001ULL);
	KUNIT_EXPECT_EQ(test, knc_counter_start(1LL << 40), 0x8000000001ULL);
	KUNIT_EXPECT_EQ(test, knc_counter_start(1LL << 62), 0x8000000001ULL);
	KUNIT_EXPECT_EQ(test, knc_counter_start(0x7fffffffffffffffLL), 0x8000000001ULL);
}

void test_counter_start_overflows_after_left(struct kunit *test)
{
	static const s64 lefts[] = { 1, 2, 7, 10007, 2000003, 1LL << 38,
				     (s64)T_MAX_PERIOD };
	unsigned int i;
	char ctx[128] = "";

	for (i = 0; i < ARRAY_SIZE(lefts); i++) {
		unsigned long long v = knc_counter_start(lefts[i]);

		snprintf(ctx, sizeof(ctx), "left %lld", (long long)lefts[i]);
		KUNIT_EXPECT_EQ_MSG(test, v & ~T_CTR_MASK, 0, "%s", ctx);
		KUNIT_EXPECT_EQ_MSG(test, v + (unsigned long long)lefts[i], T_CTR_TOP, "%s", ctx);
	}
}
