// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit tests for the knc PMU's pure logic (knc_logic.c): the register
 * layout, the event table generated from the JSON, config validation and
 * EvtSel encoding, counter assignment and the period arithmetic, a file
 * per concern (knc_logic_*_test.c). This one holds what the cases check
 * against, the specification's tables, and the suite.
 *
 * Expectations come from Intel document 327357-001 (tables 1-2, 1-5, 1-6,
 * section 1.4) and the upstream driver's choices, written out here or
 * computed independently; never from the function under test. The same
 * files run on the host, against a KUnit shim, with ASan and UBSan, and in
 * a KUnit kernel (.kunitconfig).
 */
#include <kunit/test.h>
#include <linux/kernel.h>
#include <linux/string.h>

#include "knc_logic.h"
#include "knc_logic_test.h"

/* Seed 000 table 1-6, row by row: 59 events. */
const struct knc_spec_event knc_spec_events[] = {
	{ "data_read", 0x00, 0x00 },
	{ "data_write", 0x01, 0x00 },
	{ "data_page_walk", 0x02, 0x00 },
	{ "data_read_miss", 0x03, 0x00 },
	{ "data_write_miss", 0x04, 0x00 },
	{ "data_cache_lines_written_back", 0x06, 0x00 },
	{ "memory_accesses_in_both_pipes", 0x09, 0x00 },
	{ "bank_conflicts", 0x0a, 0x00 },
	{ "code_read", 0x0c, 0x00 },
	{ "code_page_walk", 0x0d, 0x00 },
	{ "code_cache_miss", 0x0e, 0x00 },
	{ "l1_data_pf1", 0x11, 0x00 },
	{ "branches", 0x12, 0x00 },
	{ "pipeline_flushes", 0x15, 0x00 },
	{ "instructions_executed", 0x16, 0x00 },
	{ "instructions_executed_v_pipe", 0x17, 0x00 },
	{ "l1_data_pf1_miss", 0x1c, 0x00 },
	{ "l1_data_pf1_drop", 0x1e, 0x00 },
	{ "pipeline_agi_stalls", 0x1f, 0x00 },
	{ "l1_data_hit_inflight_pf1", 0x20, 0x00 },
	{ "pipeline_sg_agi_stalls", 0x21, 0x00 },
	{ "data_read_or_write", 0x28, 0x00 },
	{ "data_read_miss_or_write_miss", 0x29, 0x00 },
	{ "cpu_clk_unhalted", 0x2a, 0x00 },
	{ "branches_mispredicted", 0x2b, 0x00 },
	{ "microcode_cycles", 0x2c, 0x00 },
	{ "fe_stalled", 0x2d, 0x00 },
	{ "exec_stage_cycles", 0x2e, 0x00 },
	{ "l1_data_pf2", 0x37, 0x00 },
	{ "l2_data_pf1_miss", 0x38, 0x00 },
	{ "long_data_page_walk", 0x3a, 0x00 },
	{ "long_code_page_walk", 0x3b, 0x00 },
	{ "l2_read_hit_e", 0xc8, 0x10 },
	{ "l2_read_hit_m", 0xc9, 0x10 },
	{ "l2_read_hit_s", 0xca, 0x10 },
	{ "l2_read_miss", 0xcb, 0x10 },
	{ "l2_write_hit", 0xcc, 0x10 },
	{ "l2_victim_req_with_data", 0xd7, 0x10 },
	{ "snp_hitm_bunit", 0xe3, 0x10 },
	{ "snp_hit_l2", 0xe6, 0x10 },
	{ "snp_hitm_l2", 0xe7, 0x10 },
	{ "l2_code_read_miss_cache_fill", 0xf0, 0x10 },
	{ "l2_data_read_miss_cache_fill", 0xf1, 0x10 },
	{ "l2_data_write_miss_cache_fill", 0xf2, 0x10 },
	{ "l2_code_read_miss_mem_fill", 0xf5, 0x10 },
	{ "l2_data_read_miss_mem_fill", 0xf6, 0x10 },
	{ "l2_data_write_miss_mem_fill", 0xf7, 0x10 },
	{ "l2_data_pf2", 0xfc, 0x10 },
	{ "l2_data_pf2_drop", 0xfd, 0x10 },
	{ "l2_data_pf2_miss", 0xfe, 0x10 },
	{ "l2_data_hit_inflight_pf2", 0xff, 0x10 },
	{ "vpu_data_read", 0x00, 0x20 },
	{ "vpu_data_write", 0x01, 0x20 },
	{ "vpu_data_read_miss", 0x03, 0x20 },
	{ "vpu_data_write_miss", 0x04, 0x20 },
	{ "vpu_stall_reg", 0x05, 0x20 },
	{ "vpu_instructions_executed", 0x16, 0x20 },
	{ "vpu_instructions_executed_v_pipe", 0x17, 0x20 },
	{ "vpu_elements_active", 0x18, 0x20 },
};

const int knc_spec_num_events = ARRAY_SIZE(knc_spec_events);

/* Event codes the upstream driver restricts to counter 0, any umask. */
static const unsigned int counter0_only_codes[] = {
	0xc3, 0xc4, 0xc8, 0xc9, 0xca, 0xcb, 0xcc, 0xce, 0xcf, 0xd7, 0xe3,
	0xe6, 0xe7, 0xf1, 0xf2, 0xf6, 0xf7, 0xfc, 0xfd, 0xfe, 0xff,
};

/* Generic aliases and the table event each one must select. */
const struct knc_spec_alias knc_spec_aliases[] = {
	{ "cycles", "cpu_clk_unhalted", 0x2a, 0x00 },
	{ "instructions", "instructions_executed", 0x16, 0x00 },
	{ "cache-references", "data_read_or_write", 0x28, 0x00 },
	{ "cache-misses", "data_read_miss_or_write_miss", 0x29, 0x00 },
	{ "branch-misses", "branches_mispredicted", 0x2b, 0x00 },
};

const unsigned int knc_spec_num_aliases = ARRAY_SIZE(knc_spec_aliases);

bool knc_spec_counter0_only(unsigned int code)
{
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(counter0_only_codes); i++)
		if (counter0_only_codes[i] == code)
			return true;
	return false;
}

/* Index in knc_spec_events of (event, umask), or -1. */
int knc_spec_find(unsigned int event, unsigned int umask)
{
	int i;

	for (i = 0; i < knc_spec_num_events; i++)
		if (knc_spec_events[i].event == event && knc_spec_events[i].umask == umask)
			return i;
	return -1;
}

int knc_spec_find_name(const char *name)
{
	int i;

	for (i = 0; i < knc_spec_num_events; i++)
		if (!strcmp(knc_spec_events[i].name, name))
			return i;
	return -1;
}

/* Index in knc_events[] of a name, by a plain scan of the table. */
int knc_table_find_name(const char *name)
{
	unsigned int i;

	for (i = 0; i < knc_num_events; i++)
		if (!strcmp(knc_events[i].name, name))
			return (int)i;
	return -1;
}

static struct kunit_case knc_logic_cases[] = {
	KUNIT_CASE(test_layout_msrs),
	KUNIT_CASE(test_layout_reserved_bits),
	KUNIT_CASE(test_layout_evtsel_bits),
	KUNIT_CASE(test_layout_widths),
	KUNIT_CASE(test_table_count),
	KUNIT_CASE(test_table_matches_spec),
	KUNIT_CASE(test_table_names_lower_case),
	KUNIT_CASE(test_table_unique),
	KUNIT_CASE(test_table_cntmask),
	KUNIT_CASE(test_table_periods),
	KUNIT_CASE(test_lookup_known),
	KUNIT_CASE(test_hw_cache_map),
	KUNIT_CASE(test_hw_cache_errors),
	KUNIT_CASE(test_generic_map),
	KUNIT_CASE(test_lookup_undefined),
	KUNIT_CASE(test_lookup_exhaustive),
	KUNIT_CASE(test_lookup_name_events),
	KUNIT_CASE(test_lookup_name_aliases),
	KUNIT_CASE(test_alias_table),
	KUNIT_CASE(test_lookup_name_unknown),
	KUNIT_CASE(test_config_zero_is_data_read),
	KUNIT_CASE(test_config_driver_bits_rejected),
	KUNIT_CASE(test_config_high_bits_rejected),
	KUNIT_CASE(test_config_pairs_exhaustive),
	KUNIT_CASE(test_config_format_bits_accepted),
	KUNIT_CASE(test_evtsel_mode_flags),
	KUNIT_CASE(test_evtsel_format_bits_kept),
	KUNIT_CASE(test_evtsel_never_sets_driver_bits),
	KUNIT_CASE(test_assign_all_combinations),
	KUNIT_CASE(test_assign_all_combinations_hints),
	KUNIT_CASE(test_assign_counter0_only_pair_fails),
	KUNIT_CASE(test_assign_evicts_via_hint),
	KUNIT_CASE(test_assign_keeps_hints),
	KUNIT_CASE(test_assign_bounds),
	KUNIT_CASE(test_assign_matches_search),
	KUNIT_CASE(test_assign_table_pairs),
	KUNIT_CASE(test_delta_plain),
	KUNIT_CASE(test_delta_wrap),
	KUNIT_CASE(test_period_adjust_not_elapsed),
	KUNIT_CASE(test_period_adjust_elapsed),
	KUNIT_CASE(test_period_adjust_reset),
	KUNIT_CASE(test_counter_start),
	KUNIT_CASE(test_counter_start_clamps),
	KUNIT_CASE(test_counter_start_overflows_after_left),
	{}
};

static struct kunit_suite knc_logic_suite = {
	.name = "knc_logic",
	.test_cases = knc_logic_cases,
};

kunit_test_suite(knc_logic_suite);
