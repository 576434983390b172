// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit tests for the simulator's register model: a step ends on the
 * cycle an INT counter overflows, bursts longer than the counter's 40
 * bits wrap as often as they should, and the driver's sampling loop
 * (knc_logic.c's period arithmetic) run against the model.
 */
#include <kunit/test.h>
#include <linux/kernel.h>

#include "knc_logic.h"
#include "knc_sim_model_test.h"

void test_sim_step_stops_at_overflow(struct kunit *test)
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

void test_sim_step_overshoot(struct kunit *test)
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

void test_sim_burst_2_40_plus_5(struct kunit *test)
{
	/* from 0: one wrap after 2^40 cycles, then 5 more */
	check_long_burst(test, 0, 1, T_CTR_TOP + 5);
	/* from 2^40-3: wraps after 3 and 2^40+3 cycles, ends at 2 */
	check_long_burst(test, T_CTR_TOP - 3, 1, T_CTR_TOP + 5);
}

void test_sim_long_bursts(struct kunit *test)
{
	check_long_burst(test, 0, 1, 1000);
	check_long_burst(test, T_CTR_MASK, 1, 1);
	check_long_burst(test, T_CTR_MASK, 255, 3);
	check_long_burst(test, 0x123456789ULL, 255, 3 * T_CTR_TOP / 255 + 17);
	check_long_burst(test, T_CTR_TOP - 1000, 7, 5 * T_CTR_TOP / 7);
	check_long_burst(test, knc_counter_start(2000003), 1, 2000003);
}

void test_sim_int_counter_not_counting_does_not_stop(struct kunit *test)
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

void test_sim_no_counter_consumes_all(struct kunit *test)
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

void test_sim_driver_cycle(struct kunit *test)
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
