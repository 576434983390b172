// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit tests for the simulator's register model: SPFLT's per-counter
 * gating by USER_PREF, and the thread count mode (ANY: the sibling's
 * events, user mode only, under this thread's SPFLT).
 */
#include <kunit/test.h>
#include <linux/kernel.h>

#include "knc_sim_model_test.h"

void test_sim_spflt(struct kunit *test)
{
	static const struct {
		unsigned long long spflt, exp0, exp1;
	} rows[] = {
		{ 0x0, 100, 100 },
		{ 0x1, 0, 100 },
		{ 0x2, 100, 0 },
		{ 0x3, 0, 0 },
		{ T_SPFLT_USER_PREF | 0x1, 100, 100 },
		{ T_SPFLT_USER_PREF | 0x3, 100, 100 },
		{ T_SPFLT_USER_PREF, 100, 100 },
	};
	unsigned int i;
	char ctx[128] = "";

	for (i = 0; i < ARRAY_SIZE(rows); i++) {
		struct knc_sim_regs r;
		struct knc_sim_burst b = burst(0x16, 0x00, true, 1, 100);

		knc_sim_reset(&r);
		knc_sim_write_evtsel_reg(&r, 0, sel(0x16, 0x00, CNT_ALL));
		knc_sim_write_evtsel_reg(&r, 1, sel(0x16, 0x00, CNT_ALL));
		knc_sim_write_global_ctrl_reg(&r, 3);
		r.spflt = rows[i].spflt;
		knc_sim_step(&r, &b);
		snprintf(ctx, sizeof(ctx), "SPFLT %#llx", rows[i].spflt);
		KUNIT_EXPECT_EQ_MSG(test, r.ctr[0], rows[i].exp0, "%s", ctx);
		KUNIT_EXPECT_EQ_MSG(test, r.ctr[1], rows[i].exp1, "%s", ctx);
	}
}

void test_sim_spflt_toggle(struct kunit *test)
{
	struct knc_sim_regs r;
	struct knc_sim_burst b;

	/* a program brackets a region with SPFLT: only that region counts */
	knc_sim_reset(&r);
	knc_sim_write_evtsel_reg(&r, 0, sel(0x16, 0x00, CNT_ALL));
	knc_sim_write_global_ctrl_reg(&r, 1);
	r.spflt = 0x1;
	b = burst(0x16, 0x00, true, 1, 10);
	knc_sim_step(&r, &b);
	r.spflt |= T_SPFLT_USER_PREF;
	b = burst(0x16, 0x00, true, 1, 20);
	knc_sim_step(&r, &b);
	r.spflt &= ~T_SPFLT_USER_PREF;
	b = burst(0x16, 0x00, true, 1, 40);
	knc_sim_step(&r, &b);
	KUNIT_EXPECT_EQ(test, r.ctr[0], 20);
}

void test_sim_thread_count_mode(struct kunit *test)
{
	static const struct {
		bool sibling, user;
		unsigned long long exp0, exp1;
	} rows[] = {
		/* counter 0: this thread; counter 1: ANY, user mode only */
		{ false, true, 100, 100 },
		{ false, false, 100, 0 },
		{ true, true, 0, 100 },
		{ true, false, 0, 0 },
	};
	unsigned int i;
	char ctx[128] = "";

	for (i = 0; i < ARRAY_SIZE(rows); i++) {
		struct knc_sim_regs r;
		struct knc_sim_burst b = burst(0x0c, 0x00, rows[i].user, 1, 100);

		b.sibling = rows[i].sibling;
		knc_sim_reset(&r);
		knc_sim_write_evtsel_reg(&r, 0, sel(0x0c, 0x00, CNT_ALL));
		knc_sim_write_evtsel_reg(&r, 1, sel(0x0c, 0x00, T_EN | T_USR | T_ANY));
		knc_sim_write_global_ctrl_reg(&r, 3);
		knc_sim_step(&r, &b);
		snprintf(ctx, sizeof(ctx), "sibling %d user %d", rows[i].sibling, rows[i].user);
		KUNIT_EXPECT_EQ_MSG(test, r.ctr[0], rows[i].exp0, "%s", ctx);
		KUNIT_EXPECT_EQ_MSG(test, r.ctr[1], rows[i].exp1, "%s", ctx);
	}
}

void test_sim_thread_count_spflt(struct kunit *test)
{
	struct knc_sim_regs r;
	struct knc_sim_burst b = burst(0x16, 0x00, true, 1, 30);

	/* a sibling's events obey this thread's USER_PREF */
	knc_sim_reset(&r);
	knc_sim_write_evtsel_reg(&r, 0, sel(0x16, 0x00, CNT_ALL | T_ANY));
	knc_sim_write_global_ctrl_reg(&r, 1);
	r.spflt = 0x1;
	b.sibling = true;
	knc_sim_step(&r, &b);
	KUNIT_EXPECT_EQ(test, r.ctr[0], 0);
	r.spflt |= T_SPFLT_USER_PREF;
	b = burst(0x16, 0x00, true, 1, 30);
	b.sibling = true;
	knc_sim_step(&r, &b);
	KUNIT_EXPECT_EQ(test, r.ctr[0], 30);
}
