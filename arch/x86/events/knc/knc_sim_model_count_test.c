// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit tests for the simulator's register model: the reset state, the
 * writes a KNC refuses (reserved bits), and what counts: EvtSel's EN and
 * GLOBAL_CTRL, the event and unit mask, the USR and OS modes, the events
 * counter 1 does not count, events per cycle and CMASK with INV.
 */
#include <kunit/test.h>
#include <linux/kernel.h>
#include <linux/string.h>

#include "knc_sim_model_test.h"

void test_sim_reset(struct kunit *test)
{
	struct knc_sim_regs r, zero;

	memset(&r, 0xa5, sizeof(r));
	memset(&zero, 0, sizeof(zero));
	knc_sim_reset(&r);
	KUNIT_EXPECT_EQ(test, r.ctr[0], 0);
	KUNIT_EXPECT_EQ(test, r.ctr[1], 0);
	KUNIT_EXPECT_EQ(test, r.evtsel[0], 0);
	KUNIT_EXPECT_EQ(test, r.evtsel[1], 0);
	KUNIT_EXPECT_EQ(test, r.global_ctrl, 0);
	KUNIT_EXPECT_EQ(test, r.global_status, 0);
	KUNIT_EXPECT_EQ(test, r.spflt, 0);
	KUNIT_EXPECT_TRUE(test, !r.lvt_masked);
	KUNIT_EXPECT_TRUE(test, !r.pmi_line);
	KUNIT_EXPECT_TRUE(test, !r.pmi_raise);
	KUNIT_EXPECT_TRUE(test, !memcmp(&r, &zero, sizeof(r)));
}

/*
 * Tables 1-4, 1-5, 1-7, 1-9 and 1-10: a write with a reserved bit set is
 * refused (#GP on a KNC) and changes nothing; the defined bits are kept
 * as written, all 40 of a counter.
 */
void test_sim_write_masks(struct kunit *test)
{
	struct knc_sim_regs r;
	int b;

	knc_sim_reset(&r);
	KUNIT_EXPECT_TRUE(test, knc_sim_write_counter_reg(&r, 0, T_CTR_MASK));
	KUNIT_EXPECT_EQ(test, r.ctr[0], T_CTR_MASK);
	KUNIT_EXPECT_TRUE(test, knc_sim_write_counter_reg(&r, 1, 0x7fffffffULL));
	KUNIT_EXPECT_EQ(test, r.ctr[1], 0x7fffffffULL);
	for (b = 40; b < 64; b++)
		KUNIT_EXPECT_FALSE(test, knc_sim_write_counter_reg(&r, 1, 1ULL << b));
	KUNIT_EXPECT_FALSE(test, knc_sim_write_counter_reg(&r, 1, 0xab123456789aULL));
	KUNIT_EXPECT_EQ(test, r.ctr[1], 0x7fffffffULL);

	KUNIT_EXPECT_TRUE(test, knc_sim_write_evtsel_reg(&r, 1, 0xfff7ffffULL & ~T_EN));
	KUNIT_EXPECT_EQ(test, r.evtsel[1], 0xfff7ffffULL & ~T_EN);
	KUNIT_EXPECT_FALSE(test, knc_sim_write_evtsel_reg(&r, 1, 1ULL << 19));
	KUNIT_EXPECT_FALSE(test, knc_sim_write_evtsel_reg(&r, 1, 0xdeadbeef004100cbULL));
	KUNIT_EXPECT_EQ(test, r.evtsel[1], 0xfff7ffffULL & ~T_EN);

	KUNIT_EXPECT_TRUE(test, knc_sim_write_global_ctrl_reg(&r, 0x3));
	KUNIT_EXPECT_FALSE(test, knc_sim_write_global_ctrl_reg(&r, 0x4));
	KUNIT_EXPECT_FALSE(test, knc_sim_write_global_ctrl_reg(&r, ~0ULL));
	KUNIT_EXPECT_EQ(test, r.global_ctrl, 0x3);
	KUNIT_EXPECT_FALSE(test, knc_sim_write_ovf_ctrl_reg(&r, 0x4));
	KUNIT_EXPECT_FALSE(test, knc_sim_write_ovf_ctrl_reg(&r, 1ULL << 63));
	KUNIT_EXPECT_EQ(test, r.global_status, 0);
	KUNIT_EXPECT_TRUE(test, !r.pmi_line && !r.pmi_raise && !r.lvt_masked);

	KUNIT_EXPECT_TRUE(test, knc_sim_write_spflt_reg(&r, T_SPFLT_USER_PREF | 0x3));
	KUNIT_EXPECT_FALSE(test, knc_sim_write_spflt_reg(&r, 0x4));
	KUNIT_EXPECT_FALSE(test, knc_sim_write_spflt_reg(&r, ~0ULL));
	KUNIT_EXPECT_EQ(test, r.spflt, T_SPFLT_USER_PREF | 0x3);
}

void test_sim_counts_basic(struct kunit *test)
{
	struct knc_sim_regs r;
	struct knc_sim_burst b = burst(0x00, 0x00, true, 1, 1000);

	sim_setup(&r, 0, sel(0x00, 0x00, CNT_ALL), 0);
	KUNIT_EXPECT_TRUE(test, !knc_sim_step(&r, &b));
	KUNIT_EXPECT_EQ(test, r.ctr[0], 1000);
	KUNIT_EXPECT_EQ(test, r.ctr[1], 0);
	KUNIT_EXPECT_EQ(test, b.cycles, 0);
	KUNIT_EXPECT_TRUE(test, b.started);
	KUNIT_EXPECT_EQ(test, r.global_status, 0);

	/* counter 1 alone (vpu_data_read: both counters) */
	b = burst(0x00, 0x20, false, 3, 50);
	sim_setup(&r, 1, sel(0x00, 0x20, CNT_ALL), 7);
	KUNIT_EXPECT_TRUE(test, !knc_sim_step(&r, &b));
	KUNIT_EXPECT_EQ(test, r.ctr[0], 0);
	KUNIT_EXPECT_EQ(test, r.ctr[1], 7 + 150);
}

void test_sim_zero_burst(struct kunit *test)
{
	struct knc_sim_regs r;
	struct knc_sim_burst b = burst(0x2a, 0x00, true, 1, 0);

	sim_setup(&r, 0, sel(0x2a, 0x00, CNT_ALL | T_INT), T_CTR_MASK);
	KUNIT_EXPECT_TRUE(test, !knc_sim_step(&r, &b));
	KUNIT_EXPECT_EQ(test, r.ctr[0], T_CTR_MASK);
	KUNIT_EXPECT_EQ(test, r.global_status, 0);
	KUNIT_EXPECT_EQ(test, b.cycles, 0);
}

void test_sim_needs_en_and_global(struct kunit *test)
{
	unsigned int en, gc;
	char ctx[128] = "";

	for (en = 0; en < 2; en++)
		for (gc = 0; gc < 4; gc++) {
			struct knc_sim_regs r;
			struct knc_sim_burst b = burst(0x16, 0x00, true, 1, 100);

			knc_sim_reset(&r);
			knc_sim_write_evtsel_reg(&r, 0, sel(0x16, 0x00, T_USR | T_OS |
							    (en ? T_EN : 0)));
			knc_sim_write_global_ctrl_reg(&r, gc);
			knc_sim_step(&r, &b);
			snprintf(ctx, sizeof(ctx), "EvtSel0.EN %u GLOBAL_CTRL %#x", en, gc);
			KUNIT_EXPECT_EQ_MSG(test, r.ctr[0], en && (gc & 1) ? 100ULL : 0, "%s", ctx);
			KUNIT_EXPECT_EQ_MSG(test, r.ctr[1], 0, "%s", ctx);
			KUNIT_EXPECT_EQ_MSG(test, b.cycles, 0, "%s", ctx);
		}
}

void test_sim_mode_filter(struct kunit *test)
{
	unsigned int m, u;
	char ctx[128] = "";

	for (m = 0; m < 4; m++)
		for (u = 0; u < 2; u++) {
			unsigned long long flags = T_EN | (m & 1 ? T_USR : 0) |
						   (m & 2 ? T_OS : 0);
			bool counts = u ? (m & 1) : (m & 2);
			struct knc_sim_regs r;
			struct knc_sim_burst b = burst(0x2a, 0x00, u, 2, 10);

			sim_setup(&r, 0, sel(0x2a, 0x00, flags), 0);
			knc_sim_step(&r, &b);
			snprintf(ctx, sizeof(ctx), "USR %u OS %u, burst in %s", m & 1, !!(m & 2),
				  u ? "user" : "kernel");
			KUNIT_EXPECT_EQ_MSG(test, r.ctr[0], counts ? 20ULL : 0, "%s", ctx);
		}
}

void test_sim_event_must_match(struct kunit *test)
{
	struct knc_sim_regs r;
	struct knc_sim_burst b;

	sim_setup(&r, 0, sel(0x2a, 0x00, CNT_ALL), 0);
	b = burst(0x16, 0x00, true, 1, 10);	/* other event */
	knc_sim_step(&r, &b);
	KUNIT_EXPECT_EQ(test, r.ctr[0], 0);
	sim_setup(&r, 0, sel(0x16, 0x00, CNT_ALL), 0);
	b = burst(0x16, 0x20, true, 1, 10);	/* same code, VPU umask */
	knc_sim_step(&r, &b);
	KUNIT_EXPECT_EQ(test, r.ctr[0], 0);
	b = burst(0x16, 0x00, true, 1, 10);
	knc_sim_step(&r, &b);
	KUNIT_EXPECT_EQ(test, r.ctr[0], 10);
}

void test_sim_undefined_never_counts(struct kunit *test)
{
	static const unsigned int pairs[][2] = {
		{ 0x05, 0x00 }, { 0xcb, 0x00 }, { 0xc3, 0x10 }, { 0x3c, 0x00 },
		{ 0x00, 0x10 }, { 0x19, 0x20 }, { 0xff, 0xff },
	};
	unsigned int i;
	char ctx[128] = "";

	for (i = 0; i < ARRAY_SIZE(pairs); i++) {
		struct knc_sim_regs r;
		struct knc_sim_burst b = burst(pairs[i][0], pairs[i][1], true, 5, 100);

		sim_setup(&r, 0, sel(pairs[i][0], pairs[i][1], CNT_ALL | T_INT),
			  T_CTR_MASK);
		knc_sim_write_evtsel_reg(&r, 1, sel(pairs[i][0], pairs[i][1],
						    CNT_ALL | T_CMASK(1)));
		knc_sim_write_global_ctrl_reg(&r, 3);
		snprintf(ctx, sizeof(ctx), "event %#x umask %#x", pairs[i][0], pairs[i][1]);
		KUNIT_EXPECT_TRUE_MSG(test, !knc_sim_step(&r, &b), "%s", ctx);
		KUNIT_EXPECT_EQ_MSG(test, r.ctr[0], T_CTR_MASK, "%s", ctx);
		KUNIT_EXPECT_EQ_MSG(test, r.ctr[1], 0, "%s", ctx);
		KUNIT_EXPECT_EQ_MSG(test, r.global_status, 0, "%s", ctx);
		KUNIT_EXPECT_EQ_MSG(test, b.cycles, 0, "%s", ctx);
	}
}

/* Table 1-6: the L2 events count on counter 0 only; on counter 1, nothing. */
void test_sim_l2_counter0_only(struct kunit *test)
{
	struct knc_sim_regs r;
	struct knc_sim_burst b = burst(0xcb, 0x10, true, 1, 100);

	sim_setup(&r, 0, sel(0xcb, 0x10, CNT_ALL), 0);
	knc_sim_write_evtsel_reg(&r, 1, sel(0xcb, 0x10, CNT_ALL));
	knc_sim_write_global_ctrl_reg(&r, 3);
	KUNIT_EXPECT_TRUE(test, !knc_sim_step(&r, &b));
	KUNIT_EXPECT_EQ(test, r.ctr[0], 100);
	KUNIT_EXPECT_EQ(test, r.ctr[1], 0);
}

void test_sim_per_cycle(struct kunit *test)
{
	struct knc_sim_regs r;
	struct knc_sim_burst b = burst(0x16, 0x00, true, 7, 10);

	sim_setup(&r, 0, sel(0x16, 0x00, CNT_ALL), 0);
	knc_sim_step(&r, &b);
	KUNIT_EXPECT_EQ(test, r.ctr[0], 70);
	b = burst(0x16, 0x00, true, 255, 1000);
	knc_sim_step(&r, &b);
	KUNIT_EXPECT_EQ(test, r.ctr[0], 70 + 255000);
	/* INV without CMASK changes nothing */
	sim_setup(&r, 0, sel(0x16, 0x00, CNT_ALL | T_INV), 0);
	b = burst(0x16, 0x00, true, 7, 10);
	knc_sim_step(&r, &b);
	KUNIT_EXPECT_EQ(test, r.ctr[0], 70);
}

void test_sim_cmask(struct kunit *test)
{
	static const struct {
		unsigned int cmask, inv, per_cycle;
		unsigned long long exp;	/* after 40 cycles */
	} rows[] = {
		{ 3, 0, 2, 0 }, { 3, 0, 3, 40 }, { 3, 0, 5, 40 },
		{ 1, 0, 1, 40 }, { 255, 0, 254, 0 }, { 255, 0, 255, 40 },
		{ 3, 1, 2, 40 }, { 3, 1, 3, 0 }, { 3, 1, 5, 0 },
		{ 1, 1, 1, 0 }, { 255, 1, 254, 40 },
	};
	unsigned int i;
	char ctx[128] = "";

	for (i = 0; i < ARRAY_SIZE(rows); i++) {
		struct knc_sim_regs r;
		struct knc_sim_burst b = burst(0x1f, 0x00, false, rows[i].per_cycle, 40);

		sim_setup(&r, 1, sel(0x1f, 0x00, CNT_ALL | T_CMASK(rows[i].cmask) |
				     (rows[i].inv ? T_INV : 0)), 0);
		knc_sim_step(&r, &b);
		snprintf(ctx, sizeof(ctx), "cmask %u inv %u per_cycle %u", rows[i].cmask,
			  rows[i].inv, rows[i].per_cycle);
		KUNIT_EXPECT_EQ_MSG(test, r.ctr[1], rows[i].exp, "%s", ctx);
	}
}
