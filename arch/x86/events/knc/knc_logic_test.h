/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The parts of the knc_logic KUnit suite: the specification's tables the
 * cases check against (knc_logic_test.c, with the suite) and the cases,
 * a file per concern.
 */
#ifndef _KNC_LOGIC_TEST_H
#define _KNC_LOGIC_TEST_H

#include <kunit/test.h>
#include <linux/types.h>

/* A row of seed 000 table 1-6. */
struct knc_spec_event {
	const char *name;
	unsigned int event, umask;
};

/* A generic alias and the table event it must select. */
struct knc_spec_alias {
	const char *alias, *target;
	unsigned int event, umask;
};

extern const struct knc_spec_event knc_spec_events[];
extern const int knc_spec_num_events;
extern const struct knc_spec_alias knc_spec_aliases[];
extern const unsigned int knc_spec_num_aliases;

bool knc_spec_counter0_only(unsigned int code);
int knc_spec_find(unsigned int event, unsigned int umask);
int knc_spec_find_name(const char *name);
int knc_table_find_name(const char *name);

/* knc_logic_encode_test.c: register layout, config check, EvtSel */
void test_layout_msrs(struct kunit *test);
void test_layout_reserved_bits(struct kunit *test);
void test_layout_evtsel_bits(struct kunit *test);
void test_layout_widths(struct kunit *test);
void test_config_zero_is_data_read(struct kunit *test);
void test_config_driver_bits_rejected(struct kunit *test);
void test_config_high_bits_rejected(struct kunit *test);
void test_config_pairs_exhaustive(struct kunit *test);
void test_config_format_bits_accepted(struct kunit *test);
void test_evtsel_mode_flags(struct kunit *test);
void test_evtsel_format_bits_kept(struct kunit *test);
void test_evtsel_never_sets_driver_bits(struct kunit *test);

/* knc_logic_table_test.c: the event table and its lookups */
void test_table_count(struct kunit *test);
void test_table_matches_spec(struct kunit *test);
void test_table_names_lower_case(struct kunit *test);
void test_table_unique(struct kunit *test);
void test_table_cntmask(struct kunit *test);
void test_table_periods(struct kunit *test);
void test_lookup_known(struct kunit *test);
void test_hw_cache_map(struct kunit *test);
void test_hw_cache_errors(struct kunit *test);
void test_generic_map(struct kunit *test);
void test_lookup_undefined(struct kunit *test);
void test_lookup_exhaustive(struct kunit *test);
void test_lookup_name_events(struct kunit *test);
void test_lookup_name_aliases(struct kunit *test);
void test_alias_table(struct kunit *test);
void test_lookup_name_unknown(struct kunit *test);

/* knc_logic_assign_test.c: counter assignment */
void test_assign_all_combinations(struct kunit *test);
void test_assign_all_combinations_hints(struct kunit *test);
void test_assign_counter0_only_pair_fails(struct kunit *test);
void test_assign_evicts_via_hint(struct kunit *test);
void test_assign_keeps_hints(struct kunit *test);
void test_assign_bounds(struct kunit *test);
void test_assign_matches_search(struct kunit *test);
void test_assign_table_pairs(struct kunit *test);

/* knc_logic_period_test.c: 40-bit deltas and the sampling period */
void test_delta_plain(struct kunit *test);
void test_delta_wrap(struct kunit *test);
void test_period_adjust_not_elapsed(struct kunit *test);
void test_period_adjust_elapsed(struct kunit *test);
void test_period_adjust_reset(struct kunit *test);
void test_counter_start(struct kunit *test);
void test_counter_start_clamps(struct kunit *test);
void test_counter_start_overflows_after_left(struct kunit *test);

#endif
