/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The parts of the knc_sim_model KUnit suite: what its cases share, the
 * cases, a file per concern, and the suite (knc_sim_model_test.c).
 */
#ifndef _KNC_SIM_MODEL_TEST_H
#define _KNC_SIM_MODEL_TEST_H

#include <kunit/test.h>
#include <linux/types.h>

#include "knc_sim_model.h"
#include "knc_test.h"

/* An EvtSel of @event and @umask with @flags. */
static inline unsigned long long sel(unsigned int event, unsigned int umask,
				     unsigned long long flags)
{
	return cfg(event, umask) | flags;
}

/* @cycles cycles of @event/@umask, @per_cycle a cycle, in user mode if @user. */
static inline struct knc_sim_burst burst(unsigned int event,
					 unsigned int umask, bool user,
					 unsigned int per_cycle,
					 unsigned long long cycles)
{
	struct knc_sim_burst b = {
		.event = (u8)event, .umask = (u8)umask, .user = user,
		.per_cycle = (u8)per_cycle, .cycles = cycles, .started = false,
	};
	return b;
}

/* A PMU with counter @idx counting @evtsel, enabled globally. */
static inline void sim_setup(struct knc_sim_regs *r, unsigned int idx,
			     unsigned long long evtsel,
			     unsigned long long start)
{
	knc_sim_reset(r);
	knc_sim_write_counter_reg(r, idx, start);
	knc_sim_write_evtsel_reg(r, idx, evtsel);
	knc_sim_write_global_ctrl_reg(r, 1ULL << idx);
}

/* The ISR of seed 000 1.4.3.9 as far as the register model goes. */
static inline void sim_isr(struct knc_sim_regs *r)
{
	unsigned long long status = r->global_status;

	r->pmi_raise = false;
	knc_sim_write_ovf_ctrl_reg(r, status);
	knc_sim_unmask_pmi(r);
}

/* Enabled, counting in both rings. */
#define CNT_ALL (T_EN | T_USR | T_OS)

/* knc_sim_model_count_test.c: registers, what counts */
void test_sim_reset(struct kunit *test);
void test_sim_write_masks(struct kunit *test);
void test_sim_counts_basic(struct kunit *test);
void test_sim_zero_burst(struct kunit *test);
void test_sim_needs_en_and_global(struct kunit *test);
void test_sim_mode_filter(struct kunit *test);
void test_sim_event_must_match(struct kunit *test);
void test_sim_undefined_never_counts(struct kunit *test);
void test_sim_l2_counter0_only(struct kunit *test);
void test_sim_per_cycle(struct kunit *test);
void test_sim_cmask(struct kunit *test);

/* knc_sim_model_edge_test.c: EDGE */
void test_sim_edge(struct kunit *test);
void test_sim_edge_across_steps(struct kunit *test);
void test_sim_edge_real_runs(struct kunit *test);
void test_sim_edge_int_overflow(struct kunit *test);

/* knc_sim_model_pmi_test.c: overflow, status, the PMI line */
void test_sim_overflow_without_int(struct kunit *test);
void test_sim_status_sticky(struct kunit *test);
void test_sim_int_overflow_delivers_pmi(struct kunit *test);
void test_sim_pmi_once_per_edge(struct kunit *test);
void test_sim_line_high_no_redelivery(struct kunit *test);
void test_sim_masked_overflow_not_delivered(struct kunit *test);
void test_sim_ovf_ctrl_drops_line(struct kunit *test);
void test_sim_unmask_then_new_overflow(struct kunit *test);
void test_sim_int_enabled_after_overflow(struct kunit *test);
void test_sim_two_counters_one_line(struct kunit *test);

/* knc_sim_model_step_test.c: steps, long bursts, the sampling loop */
void test_sim_step_stops_at_overflow(struct kunit *test);
void test_sim_step_overshoot(struct kunit *test);
void test_sim_burst_2_40_plus_5(struct kunit *test);
void test_sim_long_bursts(struct kunit *test);
void test_sim_int_counter_not_counting_does_not_stop(struct kunit *test);
void test_sim_no_counter_consumes_all(struct kunit *test);
void test_sim_driver_cycle(struct kunit *test);

/* knc_sim_model_filter_test.c: SPFLT, the thread count mode */
void test_sim_spflt(struct kunit *test);
void test_sim_spflt_toggle(struct kunit *test);
void test_sim_thread_count_mode(struct kunit *test);
void test_sim_thread_count_spflt(struct kunit *test);

#endif
