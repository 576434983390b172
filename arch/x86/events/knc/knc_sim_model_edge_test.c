// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit tests for the simulator's register model: EDGE, on injected
 * bursts (one edge per burst, however many steps it takes) and on real
 * execution (one per run of cycles), and an edge count that overflows.
 */
#include <kunit/test.h>
#include <linux/kernel.h>

#include "knc_sim_model_test.h"

void test_sim_edge(struct kunit *test)
{
	static const struct {
		unsigned int cmask, inv, per_cycle;
		unsigned long long exp;
	} rows[] = {
		{ 0, 0, 4, 1 }, { 0, 0, 1, 1 }, { 3, 0, 2, 0 }, { 3, 0, 5, 1 },
		{ 3, 1, 2, 1 }, { 3, 1, 5, 0 },
	};
	unsigned int i;
	char ctx[128] = "";

	for (i = 0; i < ARRAY_SIZE(rows); i++) {
		struct knc_sim_regs r;
		struct knc_sim_burst b = burst(0x1f, 0x00, true, rows[i].per_cycle, 100);

		sim_setup(&r, 0, sel(0x1f, 0x00, CNT_ALL | T_EDGE |
				     T_CMASK(rows[i].cmask) |
				     (rows[i].inv ? T_INV : 0)), 0);
		knc_sim_step(&r, &b);
		snprintf(ctx, sizeof(ctx), "edge cmask %u inv %u per_cycle %u", rows[i].cmask,
			  rows[i].inv, rows[i].per_cycle);
		KUNIT_EXPECT_EQ_MSG(test, r.ctr[0], rows[i].exp, "%s", ctx);
		KUNIT_EXPECT_EQ_MSG(test, b.cycles, 0, "%s", ctx);
	}
}

void test_sim_edge_across_steps(struct kunit *test)
{
	struct knc_sim_regs r;
	struct knc_sim_burst b = burst(0x2a, 0x00, true, 1, 100);

	/* counter 1 interrupts after 10 cycles and splits the burst */
	sim_setup(&r, 0, sel(0x2a, 0x00, CNT_ALL | T_EDGE), 0);
	knc_sim_write_counter_reg(&r, 1, T_CTR_TOP - 10);
	knc_sim_write_evtsel_reg(&r, 1, sel(0x2a, 0x00, CNT_ALL | T_INT));
	knc_sim_write_global_ctrl_reg(&r, 3);

	KUNIT_EXPECT_TRUE(test, knc_sim_step(&r, &b));
	KUNIT_EXPECT_EQ(test, b.cycles, 90);
	KUNIT_EXPECT_EQ(test, r.ctr[0], 1);
	sim_isr(&r);
	KUNIT_EXPECT_TRUE(test, !knc_sim_step(&r, &b));
	KUNIT_EXPECT_EQ(test, b.cycles, 0);
	KUNIT_EXPECT_EQ(test, r.ctr[0], 1);	/* the burst started once */
	KUNIT_EXPECT_EQ(test, r.ctr[1], 90);

	/* a new burst is a new edge */
	b = burst(0x2a, 0x00, true, 1, 5);
	knc_sim_step(&r, &b);
	KUNIT_EXPECT_EQ(test, r.ctr[0], 2);
}

/* @cycles of the clock model's real execution, in ring @user */
static void real_cycles(struct knc_sim_regs *r, bool user, unsigned long long cycles)
{
	struct knc_sim_burst b = burst(0x2a, 0x00, user, 1, cycles);

	b.real = true;
	while (b.cycles)
		knc_sim_step(r, &b);
}

/*
 * Real execution is one run of cycles: EDGE counts it once however many
 * bursts bring it, and again after the CPU idled, after a ring the counter
 * does not select, or after its EvtSel was written.
 */
void test_sim_edge_real_runs(struct kunit *test)
{
	static const unsigned long long edges[] = {
		T_EDGE, T_EDGE | T_CMASK(1), T_EDGE | T_CMASK(2) | T_INV,
	};
	struct knc_sim_regs r;
	unsigned int i, j;

	for (i = 0; i < ARRAY_SIZE(edges); i++) {
		sim_setup(&r, 0, sel(0x2a, 0x00, T_EN | T_OS | edges[i]), 0);
		knc_sim_write_evtsel_reg(&r, 1, sel(0x2a, 0x00, CNT_ALL | edges[i]));
		knc_sim_write_global_ctrl_reg(&r, 3);
		for (j = 0; j < 3; j++)
			real_cycles(&r, false, 100);
		KUNIT_EXPECT_EQ_MSG(test, r.ctr[0], 1, "%#llx: three bursts", edges[i]);
		knc_sim_edge_break(&r);
		real_cycles(&r, false, 100);
		KUNIT_EXPECT_EQ_MSG(test, r.ctr[0], 2, "%#llx: after a break", edges[i]);
		/* ring 3: counter 0 does not select it, counter 1 does */
		real_cycles(&r, true, 100);
		real_cycles(&r, false, 100);
		KUNIT_EXPECT_EQ_MSG(test, r.ctr[0], 3, "%#llx: after ring 3", edges[i]);
		KUNIT_EXPECT_EQ_MSG(test, r.ctr[1], 2, "%#llx: both rings", edges[i]);
		knc_sim_write_evtsel_reg(&r, 1, sel(0x2a, 0x00, CNT_ALL | edges[i]));
		real_cycles(&r, false, 100);
		KUNIT_EXPECT_EQ_MSG(test, r.ctr[1], 3, "%#llx: after a write", edges[i]);
		/* an injected burst is a run of its own */
		knc_sim_step(&r, &(struct knc_sim_burst){ .event = 0x2a, .per_cycle = 1,
							  .cycles = 5 });
		KUNIT_EXPECT_EQ_MSG(test, r.ctr[0], 4, "%#llx: injected", edges[i]);
	}
	/* CMASK 2 without INV: never a cycle with two */
	sim_setup(&r, 0, sel(0x2a, 0x00, CNT_ALL | T_EDGE | T_CMASK(2)), 0);
	real_cycles(&r, false, 100);
	KUNIT_EXPECT_EQ(test, r.ctr[0], 0);
}

void test_sim_edge_int_overflow(struct kunit *test)
{
	struct knc_sim_regs r;
	struct knc_sim_burst b = burst(0x2a, 0x00, true, 1, 50);

	/* the one edge count overflows: the step ends on that cycle */
	sim_setup(&r, 0, sel(0x2a, 0x00, CNT_ALL | T_EDGE | T_INT), T_CTR_MASK);
	KUNIT_EXPECT_TRUE(test, knc_sim_step(&r, &b));
	KUNIT_EXPECT_EQ(test, b.cycles, 49);
	KUNIT_EXPECT_EQ(test, r.ctr[0], 0);
	KUNIT_EXPECT_EQ(test, r.global_status, 1);

	/* one below: no overflow, the burst runs through */
	b = burst(0x2a, 0x00, true, 1, 50);
	sim_setup(&r, 0, sel(0x2a, 0x00, CNT_ALL | T_EDGE | T_INT), T_CTR_MASK - 1);
	KUNIT_EXPECT_TRUE(test, !knc_sim_step(&r, &b));
	KUNIT_EXPECT_EQ(test, b.cycles, 0);
	KUNIT_EXPECT_EQ(test, r.ctr[0], T_CTR_MASK);
	KUNIT_EXPECT_EQ(test, r.global_status, 0);
}
