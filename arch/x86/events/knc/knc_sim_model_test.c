// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit tests for the simulated KNC PMU's register model (knc_sim_model.c):
 * write masks, counting by event, mode, edge and cmask, overflow, the
 * sticky status, the PMI line and its LVT mask, SPFLT gating, and the
 * driver's sampling loop run against it, a file per concern
 * (knc_sim_model_*_test.c); this one holds the suite. Expectations follow
 * Intel document 327357-001 (section 1.4) as knc_logic's tests do. Runs
 * on the host (tests/unit) and in a KUnit kernel (.kunitconfig).
 */
#include <kunit/test.h>

#include "knc_sim_model_test.h"

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
