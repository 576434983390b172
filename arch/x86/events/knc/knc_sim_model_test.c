// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit tests for the simulated KNC PMU's register model (knc_sim_model.c):
 * write masks, counting by event, mode, edge and cmask, overflow, the
 * sticky status, the PMI line and its LVT mask, SPFLT gating, and the
 * driver's sampling loop run against it. Expectations follow Intel
 * document 327357-001 (section 1.4) as knc_logic_test.c's do. Runs on the
 * host (tests/unit) and in a KUnit kernel (.kunitconfig).
 */
#include <kunit/test.h>
#include <linux/kernel.h>
#include <linux/string.h>

#include "knc_logic.h"
#include "knc_sim_model.h"
#include "knc_test.h"

static unsigned long long sel(unsigned int event, unsigned int umask,
			      unsigned long long flags)
{
	return cfg(event, umask) | flags;
}

static struct knc_sim_burst burst(unsigned int event, unsigned int umask,
				  bool user, unsigned int per_cycle,
				  unsigned long long cycles)
{
	struct knc_sim_burst b = {
		.event = (u8)event, .umask = (u8)umask, .user = user,
		.per_cycle = (u8)per_cycle, .cycles = cycles, .started = false,
	};
	return b;
}

/* A PMU with counter @idx counting @evtsel, enabled globally. */
static void sim_setup(struct knc_sim_regs *r, unsigned int idx,
		      unsigned long long evtsel, unsigned long long start)
{
	knc_sim_reset(r);
	knc_sim_write_counter_reg(r, idx, start);
	knc_sim_write_evtsel_reg(r, idx, evtsel);
	knc_sim_write_global_ctrl_reg(r, 1ULL << idx);
}

/* The ISR of seed 000 1.4.3.9 as far as the register model goes. */
static void sim_isr(struct knc_sim_regs *r)
{
	unsigned long long status = r->global_status;

	r->pmi_raise = false;
	knc_sim_write_ovf_ctrl_reg(r, status);
	knc_sim_unmask_pmi(r);
}

#define CNT_ALL (T_EN | T_USR | T_OS)

static void test_sim_reset(struct kunit *test)
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
static void test_sim_write_masks(struct kunit *test)
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

static void test_sim_counts_basic(struct kunit *test)
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

static void test_sim_zero_burst(struct kunit *test)
{
	struct knc_sim_regs r;
	struct knc_sim_burst b = burst(0x2a, 0x00, true, 1, 0);

	sim_setup(&r, 0, sel(0x2a, 0x00, CNT_ALL | T_INT), T_CTR_MASK);
	KUNIT_EXPECT_TRUE(test, !knc_sim_step(&r, &b));
	KUNIT_EXPECT_EQ(test, r.ctr[0], T_CTR_MASK);
	KUNIT_EXPECT_EQ(test, r.global_status, 0);
	KUNIT_EXPECT_EQ(test, b.cycles, 0);
}

static void test_sim_needs_en_and_global(struct kunit *test)
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

static void test_sim_mode_filter(struct kunit *test)
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

static void test_sim_event_must_match(struct kunit *test)
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

static void test_sim_undefined_never_counts(struct kunit *test)
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
static void test_sim_l2_counter0_only(struct kunit *test)
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

static void test_sim_per_cycle(struct kunit *test)
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

static void test_sim_cmask(struct kunit *test)
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

static void test_sim_edge(struct kunit *test)
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

static void test_sim_edge_across_steps(struct kunit *test)
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
static void test_sim_edge_real_runs(struct kunit *test)
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

static void test_sim_edge_int_overflow(struct kunit *test)
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

static void test_sim_overflow_without_int(struct kunit *test)
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

static void test_sim_status_sticky(struct kunit *test)
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

static void test_sim_int_overflow_delivers_pmi(struct kunit *test)
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

static void test_sim_pmi_once_per_edge(struct kunit *test)
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

static void test_sim_line_high_no_redelivery(struct kunit *test)
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

static void test_sim_masked_overflow_not_delivered(struct kunit *test)
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

static void test_sim_ovf_ctrl_drops_line(struct kunit *test)
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

static void test_sim_unmask_then_new_overflow(struct kunit *test)
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

static void test_sim_int_enabled_after_overflow(struct kunit *test)
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

static void test_sim_two_counters_one_line(struct kunit *test)
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

static void test_sim_step_stops_at_overflow(struct kunit *test)
{
	struct knc_sim_regs r;
	struct knc_sim_burst b = burst(0x2a, 0x00, true, 1, 100);

	sim_setup(&r, 0, sel(0x2a, 0x00, CNT_ALL | T_INT), T_CTR_TOP - 10);
	knc_sim_step(&r, &b);
	KUNIT_EXPECT_EQ(test, b.cycles, 90);	/* first step consumed 10 cycles */
	KUNIT_EXPECT_EQ(test, r.ctr[0], 0);
	sim_isr(&r);
	KUNIT_EXPECT_TRUE(test, !knc_sim_step(&r, &b));
	KUNIT_EXPECT_EQ(test, b.cycles, 0);
	KUNIT_EXPECT_EQ(test, r.ctr[0], 90);
	KUNIT_EXPECT_EQ(test, r.global_status, 0);

	/* overflow exactly on the last cycle */
	b = burst(0x2a, 0x00, true, 1, 100);
	sim_setup(&r, 0, sel(0x2a, 0x00, CNT_ALL | T_INT), T_CTR_TOP - 100);
	KUNIT_EXPECT_TRUE(test, knc_sim_step(&r, &b));
	KUNIT_EXPECT_EQ(test, b.cycles, 0);
	KUNIT_EXPECT_EQ(test, r.ctr[0], 0);

	/* one short of it: no overflow */
	b = burst(0x2a, 0x00, true, 1, 99);
	sim_setup(&r, 0, sel(0x2a, 0x00, CNT_ALL | T_INT), T_CTR_TOP - 100);
	KUNIT_EXPECT_TRUE(test, !knc_sim_step(&r, &b));
	KUNIT_EXPECT_EQ(test, b.cycles, 0);
	KUNIT_EXPECT_EQ(test, r.ctr[0], T_CTR_MASK);
	KUNIT_EXPECT_EQ(test, r.global_status, 0);
}

static void test_sim_step_overshoot(struct kunit *test)
{
	struct knc_sim_regs r;
	struct knc_sim_burst b = burst(0x16, 0x00, true, 7, 100);

	/* 7 per cycle from 2^40-10: the 2nd cycle overflows, to 4 */
	sim_setup(&r, 0, sel(0x16, 0x00, CNT_ALL | T_INT), T_CTR_TOP - 10);
	KUNIT_EXPECT_TRUE(test, knc_sim_step(&r, &b));
	KUNIT_EXPECT_EQ(test, b.cycles, 98);
	KUNIT_EXPECT_EQ(test, r.ctr[0], 4);
	KUNIT_EXPECT_EQ(test, r.global_status, 1);

	/* with CMASK the counter adds 1 per qualifying cycle */
	b = burst(0x16, 0x00, true, 7, 100);
	sim_setup(&r, 0, sel(0x16, 0x00, CNT_ALL | T_INT | T_CMASK(2)),
		  T_CTR_TOP - 10);
	KUNIT_EXPECT_TRUE(test, knc_sim_step(&r, &b));
	KUNIT_EXPECT_EQ(test, b.cycles, 90);
	KUNIT_EXPECT_EQ(test, r.ctr[0], 0);
}

/* Run a burst with an ISR after every PMI; check the wraps and the end value. */
static void check_long_burst(struct kunit *test, unsigned long long start,
			     unsigned int per_cycle, unsigned long long cycles)
{
	unsigned __int128 total = (unsigned __int128)start +
				  (unsigned __int128)per_cycle * cycles;
	unsigned long long exp_wraps = (unsigned long long)(total >> 40);
	unsigned long long exp_end = (unsigned long long)total & T_CTR_MASK;
	unsigned long long pmis = 0, steps = 0, cycles_seen = 0;
	struct knc_sim_regs r;
	struct knc_sim_burst b = burst(0x2a, 0x00, true, per_cycle, cycles);
	bool bad_step = false;
	char ctx[128];

	snprintf(ctx, sizeof(ctx), "start %#llx per_cycle %u cycles %#llx",
		 start, per_cycle, cycles);
	sim_setup(&r, 0, sel(0x2a, 0x00, CNT_ALL | T_INT), start);
	/* counter 1 counts the same events without INT */
	knc_sim_write_counter_reg(&r, 1, start);
	knc_sim_write_evtsel_reg(&r, 1, sel(0x2a, 0x00, CNT_ALL));
	knc_sim_write_global_ctrl_reg(&r, 3);

	while (b.cycles && steps < 100) {
		unsigned long long before = b.cycles, prev = r.ctr[0];
		bool pmi = knc_sim_step(&r, &b);

		steps++;
		cycles_seen += before - b.cycles;
		if (pmi) {
			/* a PMI step ends on the overflowing cycle */
			if (r.ctr[0] >= per_cycle ||
			    (before - b.cycles) * per_cycle < T_CTR_TOP - prev)
				bad_step = true;
			pmis++;
			/*
			 * counter 1 wrapped in the same cycle: the ISR clears
			 * both bits, or the line would stay high (1.4.3.9)
			 */
			if (r.global_status != 0x3)
				bad_step = true;
			sim_isr(&r);
		}
	}
	KUNIT_EXPECT_EQ_MSG(test, b.cycles, 0, "%s", ctx);
	KUNIT_EXPECT_EQ_MSG(test, cycles_seen, cycles, "%s", ctx);
	KUNIT_EXPECT_TRUE_MSG(test, !bad_step, "%s", ctx);
	KUNIT_EXPECT_EQ_MSG(test, pmis, exp_wraps, "%s", ctx);
	/* one step per wrap, plus one unless the last cycle wrapped */
	KUNIT_EXPECT_EQ_MSG(test, steps,
			    exp_wraps + (exp_wraps && exp_end < per_cycle ? 0 : 1),
			    "%s", ctx);
	KUNIT_EXPECT_EQ_MSG(test, r.ctr[0], exp_end, "%s", ctx);
	KUNIT_EXPECT_EQ_MSG(test, r.ctr[1], exp_end, "%s", ctx);
	KUNIT_EXPECT_EQ_MSG(test, r.global_status, 0, "%s", ctx);
}

static void test_sim_burst_2_40_plus_5(struct kunit *test)
{
	/* from 0: one wrap after 2^40 cycles, then 5 more */
	check_long_burst(test, 0, 1, T_CTR_TOP + 5);
	/* from 2^40-3: wraps after 3 and 2^40+3 cycles, ends at 2 */
	check_long_burst(test, T_CTR_TOP - 3, 1, T_CTR_TOP + 5);
}

static void test_sim_long_bursts(struct kunit *test)
{
	check_long_burst(test, 0, 1, 1000);
	check_long_burst(test, T_CTR_MASK, 1, 1);
	check_long_burst(test, T_CTR_MASK, 255, 3);
	check_long_burst(test, 0x123456789ULL, 255, 3 * T_CTR_TOP / 255 + 17);
	check_long_burst(test, T_CTR_TOP - 1000, 7, 5 * T_CTR_TOP / 7);
	check_long_burst(test, knc_counter_start(2000003), 1, 2000003);
}

static void test_sim_int_counter_not_counting_does_not_stop(struct kunit *test)
{
	struct knc_sim_regs r;
	struct knc_sim_burst b = burst(0x2a, 0x00, true, 1, 100);

	/* counter 0: INT, near the top, but kernel only; counter 1 counts */
	sim_setup(&r, 0, sel(0x2a, 0x00, T_EN | T_OS | T_INT), T_CTR_TOP - 10);
	knc_sim_write_evtsel_reg(&r, 1, sel(0x2a, 0x00, CNT_ALL));
	knc_sim_write_global_ctrl_reg(&r, 3);
	KUNIT_EXPECT_TRUE(test, !knc_sim_step(&r, &b));
	KUNIT_EXPECT_EQ(test, b.cycles, 0);
	KUNIT_EXPECT_EQ(test, r.ctr[0], T_CTR_TOP - 10);
	KUNIT_EXPECT_EQ(test, r.ctr[1], 100);
	KUNIT_EXPECT_EQ(test, r.global_status, 0);
}

static void test_sim_no_counter_consumes_all(struct kunit *test)
{
	struct knc_sim_regs r;
	struct knc_sim_burst b = burst(0x2a, 0x00, true, 1, 123456789);

	knc_sim_reset(&r);
	KUNIT_EXPECT_TRUE(test, !knc_sim_step(&r, &b));
	KUNIT_EXPECT_EQ(test, b.cycles, 0);
	KUNIT_EXPECT_TRUE(test, b.started);
	KUNIT_EXPECT_EQ(test, r.ctr[0], 0);
	KUNIT_EXPECT_EQ(test, r.ctr[1], 0);
}

static void test_sim_spflt(struct kunit *test)
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

static void test_sim_spflt_toggle(struct kunit *test)
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

static void test_sim_thread_count_mode(struct kunit *test)
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

static void test_sim_thread_count_spflt(struct kunit *test)
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

static void test_sim_driver_cycle(struct kunit *test)
{
	/*
	 * The driver's sampling loop end to end: start at -period, take the
	 * PMI, fold the delta, adjust the period, restart. 3 periods and a
	 * bit of events give 3 samples and an exact count.
	 */
	const unsigned long long period = 1000;
	unsigned long long count = 0, prev, samples = 0;
	s64 left = (s64)period;
	struct knc_sim_regs r;
	struct knc_sim_burst b = burst(0x2a, 0x00, true, 3, 1100);
	unsigned int guard = 0;
	u64 evtsel = knc_evtsel(0x2a, true, true);

	knc_sim_reset(&r);
	prev = knc_counter_start(left);
	knc_sim_write_counter_reg(&r, 0, prev);
	knc_sim_write_evtsel_reg(&r, 0, evtsel);
	knc_sim_write_global_ctrl_reg(&r, 1);
	while (b.cycles && guard++ < 100) {
		if (!knc_sim_step(&r, &b))
			continue;
		knc_sim_write_global_ctrl_reg(&r, 0);
		{
			u64 now = r.ctr[0], d = knc_delta(prev, now);

			count += d;
			left -= (s64)d;
			prev = now;
		}
		knc_sim_write_ovf_ctrl_reg(&r, r.global_status);
		r.pmi_raise = false;
		knc_sim_unmask_pmi(&r);
		if (knc_period_adjust(&left, period))
			samples++;
		prev = knc_counter_start(left);
		knc_sim_write_counter_reg(&r, 0, prev);
		knc_sim_write_global_ctrl_reg(&r, 1);
	}
	count += knc_delta(prev, r.ctr[0]);
	KUNIT_EXPECT_EQ(test, count, 3300);
	KUNIT_EXPECT_EQ(test, samples, 3);
}

static struct kunit_case knc_sim_model_cases[] = {
	KUNIT_CASE(test_sim_reset),
	KUNIT_CASE(test_sim_write_masks),
	KUNIT_CASE(test_sim_counts_basic),
	KUNIT_CASE(test_sim_zero_burst),
	KUNIT_CASE(test_sim_needs_en_and_global),
	KUNIT_CASE(test_sim_mode_filter),
	KUNIT_CASE(test_sim_event_must_match),
	KUNIT_CASE(test_sim_undefined_never_counts),
	KUNIT_CASE(test_sim_l2_counter0_only),
	KUNIT_CASE(test_sim_per_cycle),
	KUNIT_CASE(test_sim_cmask),
	KUNIT_CASE(test_sim_edge),
	KUNIT_CASE(test_sim_edge_across_steps),
	KUNIT_CASE(test_sim_edge_int_overflow),
	KUNIT_CASE(test_sim_edge_real_runs),
	KUNIT_CASE(test_sim_overflow_without_int),
	KUNIT_CASE(test_sim_status_sticky),
	KUNIT_CASE(test_sim_int_overflow_delivers_pmi),
	KUNIT_CASE(test_sim_pmi_once_per_edge),
	KUNIT_CASE(test_sim_line_high_no_redelivery),
	KUNIT_CASE(test_sim_masked_overflow_not_delivered),
	KUNIT_CASE(test_sim_ovf_ctrl_drops_line),
	KUNIT_CASE(test_sim_unmask_then_new_overflow),
	KUNIT_CASE(test_sim_int_enabled_after_overflow),
	KUNIT_CASE(test_sim_two_counters_one_line),
	KUNIT_CASE(test_sim_step_stops_at_overflow),
	KUNIT_CASE(test_sim_step_overshoot),
	KUNIT_CASE(test_sim_burst_2_40_plus_5),
	KUNIT_CASE(test_sim_long_bursts),
	KUNIT_CASE(test_sim_int_counter_not_counting_does_not_stop),
	KUNIT_CASE(test_sim_no_counter_consumes_all),
	KUNIT_CASE(test_sim_spflt),
	KUNIT_CASE(test_sim_spflt_toggle),
	KUNIT_CASE(test_sim_thread_count_mode),
	KUNIT_CASE(test_sim_thread_count_spflt),
	KUNIT_CASE(test_sim_driver_cycle),
	{}
};

static struct kunit_suite knc_sim_model_suite = {
	.name = "knc_sim_model",
	.test_cases = knc_sim_model_cases,
};

kunit_test_suite(knc_sim_model_suite);
