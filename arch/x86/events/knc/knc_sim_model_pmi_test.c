// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit tests for the simulator's register model: overflow, the sticky
 * GLOBAL_STATUS and how GLOBAL_OVF_CONTROL clears it, the PMI line
 * (raised at an INT counter's overflow, once per edge) and the LVT
 * entry's mask (seed 000 1.4.3.9).
 */
#include <kunit/test.h>
#include <linux/kernel.h>

#include "knc_sim_model_test.h"

void test_sim_overflow_without_int(struct kunit *test)
{
	struct knc_sim_regs r;
	struct knc_sim_burst b = burst(0x2a, 0x00, true, 1, 100);

	sim_setup(&r, 0, sel(0x2a, 0x00, CNT_ALL), T_CTR_TOP - 10);
	KUNIT_EXPECT_TRUE(test, !knc_sim_step(&r, &b));
	KUNIT_EXPECT_EQ(test, b.cycles, 0);		/* no INT: no stop */
	KUNIT_EXPECT_EQ(test, r.ctr[0], 90);
	KUNIT_EXPECT_EQ(test, r.global_status, 0x1);	/* sticky status anyway */
	KUNIT_EXPECT_TRUE(test, !r.pmi_line);
	KUNIT_EXPECT_TRUE(test, !r.pmi_raise);
	KUNIT_EXPECT_TRUE(test, !r.lvt_masked);
}

void test_sim_status_sticky(struct kunit *test)
{
	struct knc_sim_regs r;
	struct knc_sim_burst b = burst(0x2a, 0x00, true, 1, 100);

	sim_setup(&r, 1, sel(0x2a, 0x00, CNT_ALL), T_CTR_TOP - 10);
	knc_sim_step(&r, &b);
	KUNIT_EXPECT_EQ(test, r.global_status, 0x2);
	b = burst(0x2a, 0x00, true, 1, 100);
	knc_sim_step(&r, &b);
	knc_sim_write_counter_reg(&r, 1, 0);
	knc_sim_write_evtsel_reg(&r, 1, 0);
	knc_sim_write_global_ctrl_reg(&r, 0);
	KUNIT_EXPECT_EQ(test, r.global_status, 0x2);
	knc_sim_write_ovf_ctrl_reg(&r, 0x1);	/* the other counter's bit */
	KUNIT_EXPECT_EQ(test, r.global_status, 0x2);
	knc_sim_write_ovf_ctrl_reg(&r, 0x0);
	KUNIT_EXPECT_EQ(test, r.global_status, 0x2);
	knc_sim_write_ovf_ctrl_reg(&r, 0x2);
	KUNIT_EXPECT_EQ(test, r.global_status, 0x0);
}

void test_sim_int_overflow_delivers_pmi(struct kunit *test)
{
	struct knc_sim_regs r;
	struct knc_sim_burst b = burst(0x2a, 0x00, true, 1, 100);

	sim_setup(&r, 0, sel(0x2a, 0x00, CNT_ALL | T_INT), T_CTR_TOP - 10);
	KUNIT_EXPECT_TRUE(test, knc_sim_step(&r, &b));
	KUNIT_EXPECT_EQ(test, b.cycles, 90);		/* stopped at the overflow cycle */
	KUNIT_EXPECT_EQ(test, r.ctr[0], 0);
	KUNIT_EXPECT_EQ(test, r.global_status, 0x1);
	KUNIT_EXPECT_TRUE(test, r.pmi_line);
	KUNIT_EXPECT_TRUE(test, r.pmi_raise);
	KUNIT_EXPECT_TRUE(test, r.lvt_masked);
}

void test_sim_pmi_once_per_edge(struct kunit *test)
{
	struct knc_sim_regs r;
	struct knc_sim_burst b = burst(0x2a, 0x00, true, 1, 100);

	sim_setup(&r, 0, sel(0x2a, 0x00, CNT_ALL | T_INT), T_CTR_TOP - 10);
	KUNIT_EXPECT_TRUE(test, knc_sim_step(&r, &b));
	r.pmi_raise = false;		/* the owner took it */
	/* status not cleared, LVT not unmasked: the rest runs, no new PMI */
	KUNIT_EXPECT_TRUE(test, !knc_sim_step(&r, &b));
	KUNIT_EXPECT_EQ(test, b.cycles, 0);
	KUNIT_EXPECT_EQ(test, r.ctr[0], 90);
	KUNIT_EXPECT_TRUE(test, !r.pmi_raise);
	KUNIT_EXPECT_TRUE(test, r.pmi_line);
	/* unmasking while the line stays high delivers nothing */
	knc_sim_unmask_pmi(&r);
	KUNIT_EXPECT_TRUE(test, !r.pmi_raise);
	KUNIT_EXPECT_TRUE(test, !r.lvt_masked);
}

void test_sim_line_high_no_redelivery(struct kunit *test)
{
	struct knc_sim_regs r;
	struct knc_sim_burst b = burst(0x2a, 0x00, true, 1, 100);

	/* PMI taken and the LVT unmasked, but the status never acked */
	sim_setup(&r, 0, sel(0x2a, 0x00, CNT_ALL | T_INT), T_CTR_TOP - 10);
	KUNIT_EXPECT_TRUE(test, knc_sim_step(&r, &b));
	r.pmi_raise = false;
	knc_sim_unmask_pmi(&r);
	KUNIT_EXPECT_TRUE(test, !r.pmi_raise);
	KUNIT_EXPECT_TRUE(test, r.pmi_line);

	/* the line stays high: later steps deliver nothing (no new edge) */
	KUNIT_EXPECT_TRUE(test, !knc_sim_step(&r, &b));
	KUNIT_EXPECT_EQ(test, b.cycles, 0);
	KUNIT_EXPECT_EQ(test, r.ctr[0], 90);
	KUNIT_EXPECT_TRUE(test, !r.pmi_raise);
	KUNIT_EXPECT_TRUE(test, !r.lvt_masked);

	/* counter 1 overflowing rides on the same high line */
	knc_sim_write_counter_reg(&r, 1, T_CTR_TOP - 5);
	knc_sim_write_evtsel_reg(&r, 1, sel(0x2a, 0x00, CNT_ALL | T_INT));
	knc_sim_write_global_ctrl_reg(&r, 3);
	KUNIT_EXPECT_TRUE(test, !r.pmi_raise);
	b = burst(0x2a, 0x00, true, 1, 20);
	KUNIT_EXPECT_TRUE(test, !knc_sim_step(&r, &b));
	KUNIT_EXPECT_EQ(test, b.cycles, 15);		/* still stops at the overflow */
	KUNIT_EXPECT_EQ(test, r.global_status, 0x3);
	KUNIT_EXPECT_TRUE(test, !r.pmi_raise);
	KUNIT_EXPECT_TRUE(test, !r.lvt_masked);

	/* acking both drops the line; the next overflow is an edge again */
	knc_sim_write_ovf_ctrl_reg(&r, 0x3);
	KUNIT_EXPECT_TRUE(test, !r.pmi_line);
	knc_sim_write_counter_reg(&r, 1, T_CTR_TOP - 5);
	KUNIT_EXPECT_TRUE(test, knc_sim_step(&r, &b));
	KUNIT_EXPECT_EQ(test, b.cycles, 10);
	KUNIT_EXPECT_EQ(test, r.global_status, 0x2);
	KUNIT_EXPECT_TRUE(test, r.pmi_raise && r.lvt_masked);
}

void test_sim_masked_overflow_not_delivered(struct kunit *test)
{
	struct knc_sim_regs r;
	struct knc_sim_burst b = burst(0x2a, 0x00, true, 1, 100);

	sim_setup(&r, 0, sel(0x2a, 0x00, CNT_ALL | T_INT), T_CTR_TOP - 10);
	KUNIT_EXPECT_TRUE(test, knc_sim_step(&r, &b));
	r.pmi_raise = false;
	knc_sim_write_ovf_ctrl_reg(&r, 0x1);	/* ack, but forget to unmask */
	KUNIT_EXPECT_TRUE(test, !r.pmi_line);
	KUNIT_EXPECT_TRUE(test, r.lvt_masked);

	knc_sim_write_counter_reg(&r, 0, T_CTR_TOP - 5);
	KUNIT_EXPECT_TRUE(test, !knc_sim_step(&r, &b));
	KUNIT_EXPECT_EQ(test, b.cycles, 0);		/* masked: no stop at the overflow */
	KUNIT_EXPECT_EQ(test, r.ctr[0], 85);		/* counted on past it */
	KUNIT_EXPECT_EQ(test, r.global_status, 0x1);
	KUNIT_EXPECT_TRUE(test, r.pmi_line);
	KUNIT_EXPECT_TRUE(test, !r.pmi_raise);		/* masked: lost */
	knc_sim_unmask_pmi(&r);
	KUNIT_EXPECT_TRUE(test, !r.pmi_raise);		/* and not replayed */
	KUNIT_EXPECT_TRUE(test, !r.lvt_masked);
}

void test_sim_ovf_ctrl_drops_line(struct kunit *test)
{
	struct knc_sim_regs r;
	struct knc_sim_burst b = burst(0x2a, 0x00, true, 1, 100);

	sim_setup(&r, 0, sel(0x2a, 0x00, CNT_ALL | T_INT), T_CTR_TOP - 10);
	knc_sim_step(&r, &b);
	KUNIT_EXPECT_TRUE(test, r.pmi_line);
	knc_sim_write_ovf_ctrl_reg(&r, 0x2);	/* wrong bit: no effect */
	KUNIT_EXPECT_EQ(test, r.global_status, 0x1);
	KUNIT_EXPECT_TRUE(test, r.pmi_line);
	knc_sim_write_ovf_ctrl_reg(&r, ~0ULL);	/* reserved bits: refused */
	KUNIT_EXPECT_EQ(test, r.global_status, 0x1);
	KUNIT_EXPECT_TRUE(test, r.pmi_line);
	knc_sim_write_ovf_ctrl_reg(&r, 0x1);
	KUNIT_EXPECT_EQ(test, r.global_status, 0x0);
	KUNIT_EXPECT_TRUE(test, !r.pmi_line);
}

void test_sim_unmask_then_new_overflow(struct kunit *test)
{
	struct knc_sim_regs r;
	struct knc_sim_burst b = burst(0x2a, 0x00, true, 1, 100);

	sim_setup(&r, 0, sel(0x2a, 0x00, CNT_ALL | T_INT), T_CTR_TOP - 10);
	KUNIT_EXPECT_TRUE(test, knc_sim_step(&r, &b));
	sim_isr(&r);
	KUNIT_EXPECT_TRUE(test, !r.pmi_line && !r.pmi_raise && !r.lvt_masked);
	KUNIT_EXPECT_EQ(test, r.global_status, 0);

	knc_sim_write_counter_reg(&r, 0, T_CTR_TOP - 20);
	KUNIT_EXPECT_TRUE(test, knc_sim_step(&r, &b));
	KUNIT_EXPECT_EQ(test, b.cycles, 70);
	KUNIT_EXPECT_EQ(test, r.global_status, 0x1);
	KUNIT_EXPECT_TRUE(test, r.pmi_raise && r.pmi_line && r.lvt_masked);
}

void test_sim_int_enabled_after_overflow(struct kunit *test)
{
	struct knc_sim_regs r;
	struct knc_sim_burst b = burst(0x2a, 0x00, true, 1, 100);

	/*
	 * Status set with INT off; setting INT then raises nothing: the line
	 * rises only at an INT counter's overflow (1.4.3.9).
	 */
	sim_setup(&r, 0, sel(0x2a, 0x00, CNT_ALL), T_CTR_TOP - 10);
	knc_sim_step(&r, &b);
	KUNIT_EXPECT_TRUE(test, !r.pmi_line && !r.pmi_raise);
	knc_sim_write_evtsel_reg(&r, 0, sel(0x2a, 0x00, CNT_ALL | T_INT));
	KUNIT_EXPECT_TRUE(test, !r.pmi_line && !r.pmi_raise && !r.lvt_masked);
	KUNIT_EXPECT_EQ(test, r.global_status, 0x1);
	/* the next overflow, INT set now, raises it */
	knc_sim_write_counter_reg(&r, 0, T_CTR_TOP - 5);
	b = burst(0x2a, 0x00, true, 1, 100);
	KUNIT_EXPECT_TRUE(test, knc_sim_step(&r, &b));
	KUNIT_EXPECT_TRUE(test, r.pmi_line && r.pmi_raise && r.lvt_masked);
	/* clearing INT leaves the line latched */
	r.pmi_raise = false;
	knc_sim_write_evtsel_reg(&r, 0, sel(0x2a, 0x00, CNT_ALL));
	KUNIT_EXPECT_TRUE(test, r.pmi_line);
	KUNIT_EXPECT_EQ(test, r.global_status, 0x1);
}

void test_sim_two_counters_one_line(struct kunit *test)
{
	struct knc_sim_regs r;
	struct knc_sim_burst b = burst(0x2a, 0x00, true, 1, 100);

	knc_sim_reset(&r);
	knc_sim_write_counter_reg(&r, 0, T_CTR_TOP - 10);
	knc_sim_write_counter_reg(&r, 1, T_CTR_TOP - 5);
	knc_sim_write_evtsel_reg(&r, 0, sel(0x2a, 0x00, CNT_ALL | T_INT));
	knc_sim_write_evtsel_reg(&r, 1, sel(0x2a, 0x00, CNT_ALL | T_INT));
	knc_sim_write_global_ctrl_reg(&r, 3);

	KUNIT_EXPECT_TRUE(test, knc_sim_step(&r, &b));	/* counter 1 first */
	KUNIT_EXPECT_EQ(test, b.cycles, 95);
	KUNIT_EXPECT_EQ(test, r.ctr[0], T_CTR_TOP - 5);
	KUNIT_EXPECT_EQ(test, r.ctr[1], 0);
	KUNIT_EXPECT_EQ(test, r.global_status, 0x2);
	r.pmi_raise = false;
	/* the PMI masked the LVT entry: the rest counts in one step */
	KUNIT_EXPECT_TRUE(test, !knc_sim_step(&r, &b));
	KUNIT_EXPECT_EQ(test, b.cycles, 0);
	KUNIT_EXPECT_EQ(test, r.ctr[0], 90);
	KUNIT_EXPECT_EQ(test, r.ctr[1], 95);
	KUNIT_EXPECT_EQ(test, r.global_status, 0x3);	/* both reported at once */
	KUNIT_EXPECT_TRUE(test, !r.pmi_raise);
	/* acking one still leaves the line high */
	knc_sim_write_ovf_ctrl_reg(&r, 0x2);
	KUNIT_EXPECT_TRUE(test, r.pmi_line);
	knc_sim_write_ovf_ctrl_reg(&r, 0x1);
	KUNIT_EXPECT_TRUE(test, !r.pmi_line);
}
