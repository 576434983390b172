// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit tests for the knc PMU's pure logic (knc_logic.c): the register
 * layout, the event table generated from the JSON, config validation and
 * EvtSel encoding, counter assignment and the period arithmetic.
 *
 * Expectations come from Intel document 327357-001 (tables 1-2, 1-5, 1-6,
 * section 1.4) and the upstream driver's choices, written out here or
 * computed independently; never from the function under test. The same
 * file runs on the host, against a KUnit shim, with ASan and UBSan, and in
 * a KUnit kernel (.kunitconfig).
 */
#include <kunit/test.h>
#include <linux/errno.h>
#include <linux/kernel.h>
#include <linux/string.h>

#include "knc_logic.h"
#include "knc_test.h"

/* Seed 000 table 1-6, row by row: 59 events. */
static const struct {
	const char *name;
	unsigned int event, umask;
} spec_events[] = {
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

#define SPEC_NUM_EVENTS ((int)ARRAY_SIZE(spec_events))

/* Event codes the upstream driver restricts to counter 0, any umask. */
static const unsigned int counter0_only_codes[] = {
	0xc3, 0xc4, 0xc8, 0xc9, 0xca, 0xcb, 0xcc, 0xce, 0xcf, 0xd7, 0xe3,
	0xe6, 0xe7, 0xf1, 0xf2, 0xf6, 0xf7, 0xfc, 0xfd, 0xfe, 0xff,
};

/* Generic aliases and the table event each one must select. */
static const struct {
	const char *alias, *target;
	unsigned int event, umask;
} spec_aliases[] = {
	{ "cycles", "cpu_clk_unhalted", 0x2a, 0x00 },
	{ "instructions", "instructions_executed", 0x16, 0x00 },
	{ "cache-references", "data_read_or_write", 0x28, 0x00 },
	{ "cache-misses", "data_read_miss_or_write_miss", 0x29, 0x00 },
	{ "branch-misses", "branches_mispredicted", 0x2b, 0x00 },
};

static bool is_counter0_only(unsigned int code)
{
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(counter0_only_codes); i++)
		if (counter0_only_codes[i] == code)
			return true;
	return false;
}

/* Index in spec_events of (event, umask), or -1. */
static int spec_find(unsigned int event, unsigned int umask)
{
	int i;

	for (i = 0; i < SPEC_NUM_EVENTS; i++)
		if (spec_events[i].event == event && spec_events[i].umask == umask)
			return i;
	return -1;
}

static int spec_find_name(const char *name)
{
	int i;

	for (i = 0; i < SPEC_NUM_EVENTS; i++)
		if (!strcmp(spec_events[i].name, name))
			return i;
	return -1;
}

/* Index in knc_events[] of a name, by a plain scan of the table. */
static int table_find_name(const char *name)
{
	unsigned int i;

	for (i = 0; i < knc_num_events; i++)
		if (!strcmp(knc_events[i].name, name))
			return (int)i;
	return -1;
}

/* ------------------------------------------------------------------ */
/* Register layout                                                     */
/* ------------------------------------------------------------------ */

static void test_layout_msrs(struct kunit *test)
{
	KUNIT_EXPECT_EQ(test, KNC_MSR_PERFCTR0, 0x20);
	KUNIT_EXPECT_EQ(test, KNC_MSR_EVNTSEL0, 0x28);
	KUNIT_EXPECT_EQ(test, KNC_MSR_SPFLT_CTRL, 0x2c);
	KUNIT_EXPECT_EQ(test, KNC_MSR_GLOBAL_STATUS, 0x2d);
	KUNIT_EXPECT_EQ(test, KNC_MSR_GLOBAL_OVF_CTRL, 0x2e);
	KUNIT_EXPECT_EQ(test, KNC_MSR_GLOBAL_CTRL, 0x2f);
	KUNIT_EXPECT_EQ(test, KNC_NUM_COUNTERS, 2);
}

/* Tables 1-4, 1-5, 1-7, 1-9, 1-10: what a WRMSR may not set. */
static void test_layout_reserved_bits(struct kunit *test)
{
	KUNIT_EXPECT_EQ(test, KNC_CNTVAL_RESERVED, 0xffffff0000000000ULL);
	KUNIT_EXPECT_EQ(test, KNC_EVTSEL_RESERVED, 0xffffffff00080000ULL);
	KUNIT_EXPECT_EQ(test, KNC_SPFLT_RESERVED, 0x7ffffffffffffffcULL);
	KUNIT_EXPECT_EQ(test, KNC_GLOBAL_RESERVED, 0xfffffffffffffffcULL);
}

static void test_layout_evtsel_bits(struct kunit *test)
{
	KUNIT_EXPECT_EQ(test, KNC_EVTSEL_EVENT, 0xff);
	KUNIT_EXPECT_EQ(test, KNC_EVTSEL_UMASK, 0xff00);
	KUNIT_EXPECT_EQ(test, KNC_EVTSEL_USR, T_USR);
	KUNIT_EXPECT_EQ(test, KNC_EVTSEL_OS, T_OS);
	KUNIT_EXPECT_EQ(test, KNC_EVTSEL_EDGE, T_EDGE);
	KUNIT_EXPECT_EQ(test, KNC_EVTSEL_INT, T_INT);
	KUNIT_EXPECT_EQ(test, KNC_EVTSEL_ANY, T_ANY);
	KUNIT_EXPECT_EQ(test, KNC_EVTSEL_EN, T_EN);
	KUNIT_EXPECT_EQ(test, KNC_EVTSEL_INV, T_INV);
	KUNIT_EXPECT_EQ(test, KNC_EVTSEL_CMASK, 0xff000000ULL);
	KUNIT_EXPECT_EQ(test, KNC_SPFLT_USER_PREF, T_SPFLT_USER_PREF);
	/* sysfs format: event 0-7, umask 8-15, edge 18, any 21, inv 23, cmask 24-31 */
	KUNIT_EXPECT_EQ(test, KNC_CONFIG_MASK, 0xffa4ffffULL);
}

static void test_layout_widths(struct kunit *test)
{
	KUNIT_EXPECT_EQ(test, KNC_CNTVAL_BITS, 40);
	KUNIT_EXPECT_EQ(test, KNC_CNTVAL_MASK, T_CTR_MASK);
	KUNIT_EXPECT_EQ(test, KNC_MAX_PERIOD, T_MAX_PERIOD);
	KUNIT_EXPECT_EQ(test, KNC_COUNTERS_MASK, 0x3);
}

/* ------------------------------------------------------------------ */
/* Event table                                                         */
/* ------------------------------------------------------------------ */

static void test_table_count(struct kunit *test)
{
	KUNIT_EXPECT_EQ(test, knc_num_events, 59);
	KUNIT_EXPECT_EQ(test, knc_num_aliases, ARRAY_SIZE(spec_aliases));
}

static void test_table_matches_spec(struct kunit *test)
{
	unsigned int i;
	int s;
	char ctx[128] = "";

	/* Every table row is a spec row with the same name ... */
	for (i = 0; i < knc_num_events; i++) {
		const struct knc_event_desc *e = &knc_events[i];

		snprintf(ctx, sizeof(ctx), "knc_events[%u] = %s %#x/%#x", i,
			  e->name ? e->name : "(null)", e->event, e->umask);
		s = spec_find(e->event, e->umask);
		KUNIT_EXPECT_TRUE_MSG(test, s >= 0, "%s", ctx);
		if (!(s >= 0))
			continue;
		KUNIT_EXPECT_STREQ_MSG(test, e->name, spec_events[s].name, "%s", ctx);
	}
	/* ... and every spec row is in the table. */
	for (s = 0; s < SPEC_NUM_EVENTS; s++) {
		int idx;

		snprintf(ctx, sizeof(ctx), "spec %s", spec_events[s].name);
		idx = table_find_name(spec_events[s].name);
		KUNIT_EXPECT_TRUE_MSG(test, idx >= 0, "%s", ctx);
		if (!(idx >= 0))
			continue;
		KUNIT_EXPECT_EQ_MSG(test, knc_events[idx].event, spec_events[s].event, "%s", ctx);
		KUNIT_EXPECT_EQ_MSG(test, knc_events[idx].umask, spec_events[s].umask, "%s", ctx);
	}
}

static void test_table_names_lower_case(struct kunit *test)
{
	unsigned int i;
	const char *p;
	char ctx[128] = "";

	for (i = 0; i < knc_num_events; i++) {
		const char *name = knc_events[i].name;
		bool ok = name && name[0];

		for (p = name; ok && *p; p++)
			ok = (*p >= 'a' && *p <= 'z') ||
			     (*p >= '0' && *p <= '9') || *p == '_';
		snprintf(ctx, sizeof(ctx), "knc_events[%u] = \"%s\"", i, name ? name : "(null)");
		KUNIT_EXPECT_TRUE_MSG(test, ok, "%s", ctx);
	}
}

static void test_table_unique(struct kunit *test)
{
	unsigned int i, j;
	char ctx[128] = "";

	for (i = 0; i < knc_num_events; i++)
		for (j = i + 1; j < knc_num_events; j++) {
			snprintf(ctx, sizeof(ctx), "knc_events[%u] %s vs knc_events[%u] %s",
				  i, knc_events[i].name, j, knc_events[j].name);
			KUNIT_EXPECT_TRUE_MSG(test, strcmp(knc_events[i].name,
					   knc_events[j].name) != 0, "%s", ctx);
			KUNIT_EXPECT_TRUE_MSG(test, knc_events[i].event != knc_events[j].event ||
				    knc_events[i].umask != knc_events[j].umask, "%s", ctx);
		}
}

static void test_table_cntmask(struct kunit *test)
{
	unsigned int i, restricted = 0;
	char ctx[128] = "";

	for (i = 0; i < knc_num_events; i++) {
		const struct knc_event_desc *e = &knc_events[i];
		unsigned int exp = is_counter0_only(e->event) ? 0x1 : 0x3;

		snprintf(ctx, sizeof(ctx), "%s (event %#x)", e->name, e->event);
		KUNIT_EXPECT_EQ_MSG(test, e->cntmask, exp, "%s", ctx);
		restricted += exp == 0x1;
	}
	snprintf(ctx, sizeof(ctx), "restricted events present in the table");
	/* c8 c9 ca cb cc d7 e3 e6 e7 f1 f2 f6 f7 fc fd fe ff */
	KUNIT_EXPECT_EQ_MSG(test, restricted, 17, "%s", ctx);
	/* The two code-read fills share the L2 unit but are unrestricted. */
	snprintf(ctx, sizeof(ctx), "%s", "");
	i = (unsigned int)table_find_name("l2_code_read_miss_cache_fill");
	KUNIT_EXPECT_TRUE_MSG(test, i < knc_num_events, "%s", ctx);
	if (i < knc_num_events)
		KUNIT_EXPECT_EQ_MSG(test, knc_events[i].cntmask, 0x3, "%s", ctx);
	i = (unsigned int)table_find_name("l2_code_read_miss_mem_fill");
	KUNIT_EXPECT_TRUE_MSG(test, i < knc_num_events, "%s", ctx);
	if (i < knc_num_events)
		KUNIT_EXPECT_EQ_MSG(test, knc_events[i].cntmask, 0x3, "%s", ctx);
}

static void test_table_periods(struct kunit *test)
{
	unsigned int i;
	char ctx[128] = "";

	for (i = 0; i < knc_num_events; i++) {
		snprintf(ctx, sizeof(ctx), "%s", knc_events[i].name);
		KUNIT_EXPECT_TRUE_MSG(test, knc_events[i].period > 0, "%s", ctx);
	}
}

static void test_lookup_known(struct kunit *test)
{
	int idx;

	idx = knc_event_lookup(0x00, 0x00);
	KUNIT_EXPECT_TRUE(test, idx >= 0);
	if (idx >= 0)
		KUNIT_EXPECT_STREQ(test, knc_events[idx].name, "data_read");
	idx = knc_event_lookup(0xcb, 0x10);
	KUNIT_EXPECT_TRUE(test, idx >= 0);
	if (idx >= 0)
		KUNIT_EXPECT_STREQ(test, knc_events[idx].name, "l2_read_miss");
	idx = knc_event_lookup(0x00, 0x20);
	KUNIT_EXPECT_TRUE(test, idx >= 0);
	if (idx >= 0)
		KUNIT_EXPECT_STREQ(test, knc_events[idx].name, "vpu_data_read");
	idx = knc_event_lookup(0x18, 0x20);
	KUNIT_EXPECT_TRUE(test, idx >= 0);
	if (idx >= 0)
		KUNIT_EXPECT_STREQ(test, knc_events[idx].name, "vpu_elements_active");
	idx = knc_event_lookup(0x2a, 0x00);
	KUNIT_EXPECT_TRUE(test, idx >= 0);
	if (idx >= 0)
		KUNIT_EXPECT_STREQ(test, knc_events[idx].name, "cpu_clk_unhalted");
	KUNIT_EXPECT_TRUE(test, knc_event_by_code(0x2a, 0x00) == &knc_events[idx]);
}

static void test_lookup_undefined(struct kunit *test)
{
	KUNIT_EXPECT_EQ(test, knc_event_lookup(0x05, 0x00), -ENOENT);	/* gap in P54C */
	KUNIT_EXPECT_TRUE(test, !knc_event_by_code(0x05, 0x00));
	KUNIT_EXPECT_EQ(test, knc_event_lookup(0x3c, 0x00), -ENOENT);
	KUNIT_EXPECT_EQ(test, knc_event_lookup(0xcb, 0x00), -ENOENT);	/* wrong umask */
	KUNIT_EXPECT_EQ(test, knc_event_lookup(0x00, 0x10), -ENOENT);
	/* constrained, not in table */
	KUNIT_EXPECT_EQ(test, knc_event_lookup(0xc3, 0x10), -ENOENT);
	KUNIT_EXPECT_EQ(test, knc_event_lookup(0x19, 0x20), -ENOENT);
	KUNIT_EXPECT_EQ(test, knc_event_lookup(0xff, 0xff), -ENOENT);
}

/* PERF_TYPE_HW_CACHE config: cache id | op << 8 | result << 16 */
static u64 hwc(unsigned int cache, unsigned int op, unsigned int result)
{
	return cache | op << 8 | (u64)result << 16;
}

/* The name of the table event a hw-cache config maps to, or NULL. */
static const char *hwc_name(u64 config)
{
	int idx = knc_hw_cache_lookup(config);

	return idx < 0 ? NULL : knc_events[idx].name;
}

/* The upstream driver's knc_hw_cache_event_ids, written out (facts, 3). */
static void test_hw_cache_map(struct kunit *test)
{
	/* ids: L1D 0, L1I 1, LL 2, DTLB 3, ITLB 4, BPU 5, NODE 6 */
	KUNIT_EXPECT_STREQ(test, hwc_name(hwc(0, 0, 0)), "data_read");
	KUNIT_EXPECT_STREQ(test, hwc_name(hwc(0, 0, 1)), "data_read_miss");
	KUNIT_EXPECT_STREQ(test, hwc_name(hwc(0, 1, 0)), "data_write");
	KUNIT_EXPECT_STREQ(test, hwc_name(hwc(0, 1, 1)), "data_write_miss");
	KUNIT_EXPECT_STREQ(test, hwc_name(hwc(0, 2, 0)), "l1_data_pf1");
	KUNIT_EXPECT_STREQ(test, hwc_name(hwc(0, 2, 1)), "l1_data_pf1_miss");
	KUNIT_EXPECT_STREQ(test, hwc_name(hwc(1, 0, 0)), "code_read");
	KUNIT_EXPECT_STREQ(test, hwc_name(hwc(1, 0, 1)), "code_cache_miss");
	KUNIT_EXPECT_STREQ(test, hwc_name(hwc(2, 0, 1)), "l2_read_miss");
	KUNIT_EXPECT_STREQ(test, hwc_name(hwc(2, 1, 0)), "l2_write_hit");
	KUNIT_EXPECT_STREQ(test, hwc_name(hwc(2, 2, 0)), "l2_data_pf2");
	KUNIT_EXPECT_STREQ(test, hwc_name(hwc(2, 2, 1)), "l2_data_pf2_miss");
	KUNIT_EXPECT_STREQ(test, hwc_name(hwc(3, 0, 0)), "data_read");
	KUNIT_EXPECT_STREQ(test, hwc_name(hwc(3, 0, 1)), "data_page_walk");
	KUNIT_EXPECT_STREQ(test, hwc_name(hwc(3, 1, 0)), "data_write");
	KUNIT_EXPECT_STREQ(test, hwc_name(hwc(3, 1, 1)), "data_page_walk");
	KUNIT_EXPECT_STREQ(test, hwc_name(hwc(4, 0, 0)), "code_read");
	KUNIT_EXPECT_STREQ(test, hwc_name(hwc(4, 0, 1)), "code_page_walk");
	KUNIT_EXPECT_STREQ(test, hwc_name(hwc(5, 0, 0)), "branches");
	KUNIT_EXPECT_STREQ(test, hwc_name(hwc(5, 0, 1)), "branches_mispredicted");
	/* bits above the result byte are not the map's (x86 ignores them) */
	KUNIT_EXPECT_STREQ(test, hwc_name(hwc(0, 0, 1) | 0xff000000ULL), "data_read_miss");
}

static void test_hw_cache_errors(struct kunit *test)
{
	unsigned int op, result;

	/* -1 upstream: makes no sense */
	KUNIT_EXPECT_EQ(test, knc_hw_cache_lookup(hwc(1, 1, 0)), -EINVAL);
	KUNIT_EXPECT_EQ(test, knc_hw_cache_lookup(hwc(1, 1, 1)), -EINVAL);
	for (op = 1; op < 3; op++)
		for (result = 0; result < 2; result++) {
			KUNIT_EXPECT_EQ(test, knc_hw_cache_lookup(hwc(4, op, result)), -EINVAL);
			KUNIT_EXPECT_EQ(test, knc_hw_cache_lookup(hwc(5, op, result)), -EINVAL);
		}
	/* 0 upstream: not countable */
	KUNIT_EXPECT_EQ(test, knc_hw_cache_lookup(hwc(1, 2, 0)), -ENOENT);
	KUNIT_EXPECT_EQ(test, knc_hw_cache_lookup(hwc(2, 0, 0)), -ENOENT);
	KUNIT_EXPECT_EQ(test, knc_hw_cache_lookup(hwc(2, 1, 1)), -ENOENT);
	KUNIT_EXPECT_EQ(test, knc_hw_cache_lookup(hwc(3, 2, 1)), -ENOENT);
	KUNIT_EXPECT_EQ(test, knc_hw_cache_lookup(hwc(6, 0, 0)), -ENOENT);
	/* out of range */
	KUNIT_EXPECT_EQ(test, knc_hw_cache_lookup(hwc(7, 0, 0)), -EINVAL);
	KUNIT_EXPECT_EQ(test, knc_hw_cache_lookup(hwc(0xff, 0, 0)), -EINVAL);
	KUNIT_EXPECT_EQ(test, knc_hw_cache_lookup(hwc(0, 3, 0)), -EINVAL);
	KUNIT_EXPECT_EQ(test, knc_hw_cache_lookup(hwc(0, 0, 2)), -EINVAL);
}

static void test_lookup_exhaustive(struct kunit *test)
{
	unsigned int ev, um;
	char ctx[128] = "";

	for (um = 0; um < 256; um++)
		for (ev = 0; ev < 256; ev++) {
			int s = spec_find(ev, um), idx = knc_event_lookup(ev, um);

			if (s < 0 && idx == -ENOENT)
				continue;
			snprintf(ctx, sizeof(ctx), "event %#x umask %#x", ev, um);
			if (s < 0) {
				KUNIT_EXPECT_EQ_MSG(test, idx, -ENOENT, "%s", ctx);
				continue;
			}
			KUNIT_EXPECT_TRUE_MSG(test, idx >= 0 && (unsigned int)idx < knc_num_events,
					      "%s", ctx);
			if (!(idx >= 0 && (unsigned int)idx < knc_num_events))
				continue;
			KUNIT_EXPECT_EQ_MSG(test, knc_events[idx].event, ev, "%s", ctx);
			KUNIT_EXPECT_EQ_MSG(test, knc_events[idx].umask, um, "%s", ctx);
		}
}

static void test_lookup_name_events(struct kunit *test)
{
	int s, idx;
	char ctx[128] = "";

	for (s = 0; s < SPEC_NUM_EVENTS; s++) {
		snprintf(ctx, sizeof(ctx), "%s", spec_events[s].name);
		idx = knc_event_lookup_name(spec_events[s].name);
		KUNIT_EXPECT_TRUE_MSG(test, idx >= 0 && (unsigned int)idx < knc_num_events,
				      "%s", ctx);
		if (!(idx >= 0 && (unsigned int)idx < knc_num_events))
			continue;
		KUNIT_EXPECT_STREQ_MSG(test, knc_events[idx].name, spec_events[s].name, "%s", ctx);
		KUNIT_EXPECT_TRUE_MSG(test, knc_event_by_name(spec_events[s].name) ==
				      &knc_events[idx], "%s", ctx);
		KUNIT_EXPECT_EQ_MSG(test, knc_events[idx].event, spec_events[s].event, "%s", ctx);
		KUNIT_EXPECT_EQ_MSG(test, knc_events[idx].umask, spec_events[s].umask, "%s", ctx);
	}
}

static void test_lookup_name_aliases(struct kunit *test)
{
	unsigned int i;
	int idx;
	char ctx[128] = "";

	for (i = 0; i < ARRAY_SIZE(spec_aliases); i++) {
		snprintf(ctx, sizeof(ctx), "alias %s", spec_aliases[i].alias);
		idx = knc_event_lookup_name(spec_aliases[i].alias);
		KUNIT_EXPECT_TRUE_MSG(test, idx >= 0 && (unsigned int)idx < knc_num_events,
				      "%s", ctx);
		if (!(idx >= 0 && (unsigned int)idx < knc_num_events))
			continue;
		KUNIT_EXPECT_STREQ_MSG(test, knc_events[idx].name, spec_aliases[i].target,
				       "%s", ctx);
		KUNIT_EXPECT_TRUE_MSG(test, knc_event_by_name(spec_aliases[i].alias) ==
				      &knc_events[idx], "%s", ctx);
		KUNIT_EXPECT_EQ_MSG(test, knc_events[idx].event, spec_aliases[i].event, "%s", ctx);
		KUNIT_EXPECT_EQ_MSG(test, knc_events[idx].umask, spec_aliases[i].umask, "%s", ctx);
	}
}

static void test_alias_table(struct kunit *test)
{
	unsigned int i, j;
	char ctx[128] = "";

	for (i = 0; i < knc_num_aliases; i++) {
		const struct knc_event_desc *a = &knc_aliases[i];
		int t = -1;

		snprintf(ctx, sizeof(ctx), "knc_aliases[%u] = %s", i, a->name);
		for (j = 0; j < ARRAY_SIZE(spec_aliases); j++)
			if (!strcmp(spec_aliases[j].alias, a->name))
				t = table_find_name(spec_aliases[j].target);
		/* an alias we do not expect, or one whose target is missing */
		KUNIT_EXPECT_TRUE_MSG(test, t >= 0, "%s", ctx);
		if (!(t >= 0))
			continue;
		/* the alias row repeats its target's row */
		KUNIT_EXPECT_EQ_MSG(test, a->event, knc_events[t].event, "%s", ctx);
		KUNIT_EXPECT_EQ_MSG(test, a->umask, knc_events[t].umask, "%s", ctx);
		KUNIT_EXPECT_EQ_MSG(test, a->cntmask, knc_events[t].cntmask, "%s", ctx);
		KUNIT_EXPECT_EQ_MSG(test, a->period, knc_events[t].period, "%s", ctx);
		/* an alias must not shadow a table name */
		KUNIT_EXPECT_EQ_MSG(test, spec_find_name(a->name), -1, "%s", ctx);
	}
}

static void test_lookup_name_unknown(struct kunit *test)
{
	static const char *const bad[] = {
		"", "CYCLES", "L2_READ_MISS", "l2_read_mis", "l2_read_miss_",
		" l2_read_miss", "cache_misses", "branch_misses",
		"cpu-cycles", "unknown", "knc/cycles/",
	};
	unsigned int i;
	char ctx[128] = "";

	for (i = 0; i < ARRAY_SIZE(bad); i++) {
		snprintf(ctx, sizeof(ctx), "\"%s\"", bad[i]);
		KUNIT_EXPECT_EQ_MSG(test, knc_event_lookup_name(bad[i]), -ENOENT, "%s", ctx);
		KUNIT_EXPECT_TRUE_MSG(test, !knc_event_by_name(bad[i]), "%s", ctx);
	}
}

/* ------------------------------------------------------------------ */
/* knc_config_check                                                    */
/* ------------------------------------------------------------------ */

static void test_config_zero_is_data_read(struct kunit *test)
{
	int idx = knc_config_check(0);

	KUNIT_EXPECT_TRUE(test, idx >= 0);
	if (idx >= 0)
		KUNIT_EXPECT_STREQ(test, knc_events[idx].name, "data_read");
}

static void test_config_driver_bits_rejected(struct kunit *test)
{
	static const unsigned int bits[] = { 16, 17, 19, 20, 22 };
	static const unsigned int pairs[][2] = {
		{ 0x00, 0x00 }, { 0xcb, 0x10 }, { 0x18, 0x20 },
	};
	unsigned int i, p;
	char ctx[128] = "";

	for (p = 0; p < ARRAY_SIZE(pairs); p++)
		for (i = 0; i < ARRAY_SIZE(bits); i++) {
			snprintf(ctx, sizeof(ctx), "config %#llx | bit %u",
				  cfg(pairs[p][0], pairs[p][1]), bits[i]);
			KUNIT_EXPECT_EQ_MSG(test, knc_config_check(cfg(pairs[p][0], pairs[p][1]) |
						    1ULL << bits[i]), -EINVAL, "%s", ctx);
		}
	snprintf(ctx, sizeof(ctx), "%s", "");
	KUNIT_EXPECT_EQ_MSG(test, knc_config_check(T_USR | T_OS | 0x2a), -EINVAL, "%s", ctx);
	KUNIT_EXPECT_EQ_MSG(test, knc_config_check(T_EN | T_INT | 0x2a), -EINVAL, "%s", ctx);
}

static void test_config_high_bits_rejected(struct kunit *test)
{
	unsigned int b;
	char ctx[128] = "";

	for (b = 32; b < 64; b++) {
		snprintf(ctx, sizeof(ctx), "bit %u", b);
		KUNIT_EXPECT_EQ_MSG(test, knc_config_check(1ULL << b), -EINVAL, "%s", ctx);
		KUNIT_EXPECT_EQ_MSG(test, knc_config_check(cfg(0xcb, 0x10) | 1ULL << b), -EINVAL,
				    "%s", ctx);
	}
	snprintf(ctx, sizeof(ctx), "%s", "");
	KUNIT_EXPECT_EQ_MSG(test, knc_config_check(~0ULL), -EINVAL, "%s", ctx);
	KUNIT_EXPECT_EQ_MSG(test, knc_config_check(0xffffffff00000000ULL), -EINVAL, "%s", ctx);
}

static void test_config_pairs_exhaustive(struct kunit *test)
{
	unsigned int ev, um;
	char ctx[128] = "";

	for (um = 0; um < 256; um++)
		for (ev = 0; ev < 256; ev++) {
			int s = spec_find(ev, um), idx = knc_config_check(cfg(ev, um));

			if (s < 0 && idx == -EINVAL)
				continue;
			snprintf(ctx, sizeof(ctx), "event %#x umask %#x", ev, um);
			if (s < 0) {
				KUNIT_EXPECT_EQ_MSG(test, idx, -EINVAL, "%s", ctx);
				continue;
			}
			KUNIT_EXPECT_TRUE_MSG(test, idx >= 0 && (unsigned int)idx < knc_num_events,
					      "%s", ctx);
			if (!(idx >= 0 && (unsigned int)idx < knc_num_events))
				continue;
			KUNIT_EXPECT_STREQ_MSG(test, knc_events[idx].name, spec_events[s].name,
					       "%s", ctx);
		}
}

static void test_config_format_bits_accepted(struct kunit *test)
{
	static const unsigned long long extra[] = {
		T_EDGE, T_INV, T_CMASK(1), T_CMASK(0x80), T_CMASK(0xff),
		T_EDGE | T_INV, T_INV | T_CMASK(3), T_EDGE | T_INV | T_CMASK(0xff),
		T_ANY, T_ANY | T_EDGE | T_INV | T_CMASK(0xff),
	};
	int want = table_find_name("l2_read_miss");
	unsigned int i;
	char ctx[128] = "";

	for (i = 0; i < ARRAY_SIZE(extra); i++) {
		snprintf(ctx, sizeof(ctx), "0x10cb | %#llx", extra[i]);
		KUNIT_EXPECT_EQ_MSG(test, knc_config_check(cfg(0xcb, 0x10) | extra[i]), want,
				    "%s", ctx);
	}
	snprintf(ctx, sizeof(ctx), "%s", "");
	KUNIT_EXPECT_EQ_MSG(test, knc_config_check(T_EDGE | T_INV | T_CMASK(0xff)),
			    table_find_name("data_read"), "%s", ctx);
	/* the format bits alone do not make an undefined pair valid */
	KUNIT_EXPECT_EQ_MSG(test, knc_config_check(cfg(0x05, 0x00) | T_CMASK(1)), -EINVAL,
			    "%s", ctx);
}

/* ------------------------------------------------------------------ */
/* knc_evtsel                                                          */
/* ------------------------------------------------------------------ */

static void test_evtsel_mode_flags(struct kunit *test)
{
	static const unsigned long long configs[] = {
		0x0, 0x10cb, 0x2018, 0x12 | T_EDGE | T_INV | T_CMASK(2),
	};
	unsigned int i, m;
	char ctx[128] = "";

	for (i = 0; i < ARRAY_SIZE(configs); i++)
		for (m = 0; m < 4; m++) {
			bool usr = m & 1, os = m & 2;
			unsigned long long exp = configs[i] | T_EN | T_INT |
				(usr ? T_USR : 0) | (os ? T_OS : 0);

			snprintf(ctx, sizeof(ctx), "config %#llx usr %d os %d",
				 configs[i], usr, os);
			KUNIT_EXPECT_EQ_MSG(test, knc_evtsel(configs[i], usr, os), exp, "%s", ctx);
		}
}

static void test_evtsel_format_bits_kept(struct kunit *test)
{
	/* every format bit set: event ff, umask ff, edge, any, inv, cmask ff */
	KUNIT_EXPECT_EQ(test, knc_evtsel(0xffa4ffffULL, true, true),
			0xffa4ffffULL | T_EN | T_INT | T_USR | T_OS);
	KUNIT_EXPECT_EQ(test, knc_evtsel(0xffa4ffffULL, false, false),
			0xffa4ffffULL | T_EN | T_INT);
}

static void test_evtsel_never_sets_driver_bits(struct kunit *test)
{
	/* bit 19 reserved, 63:32 reserved */
	unsigned long long v = knc_evtsel(~0ULL, false, false);

	KUNIT_EXPECT_EQ(test, v & (1ULL << 19), 0);
	KUNIT_EXPECT_EQ(test, v & T_USR, 0);
	KUNIT_EXPECT_EQ(test, v & T_OS, 0);
	KUNIT_EXPECT_EQ(test, v >> 32, 0);
}

/* ------------------------------------------------------------------ */
/* knc_assign                                                          */
/* ------------------------------------------------------------------ */

/*
 * Brute force, independent of knc_assign(): the largest number of events
 * that can stay on their hinted counter, or -1 when no assignment exists.
 */
static int best_kept(const u8 *mask, const int *hint, int n)
{
	int best = -1, code, limit = 1, i;

	for (i = 0; i < n; i++)
		limit *= 2;
	for (code = 0; code < limit; code++) {
		unsigned int used = 0;
		int kept = 0;
		bool ok = true;

		for (i = 0; i < n && ok; i++) {
			int c = (code >> i) & 1;

			if (!(mask[i] >> c & 1) || (used >> c & 1))
				ok = false;
			used |= 1u << c;
			if (hint && hint[i] == c)
				kept++;
		}
		if (ok && kept > best)
			best = kept;
	}
	return best;
}

static void check_assignment(struct kunit *test, const char *ctx,
			     const u8 *mask, const int *hint, int n)
{
	int assign[3] = { -7, -7, -7 }, ret, exp_kept, i, kept = 0;
	unsigned int used = 0;

	exp_kept = n > 2 ? -1 : best_kept(mask, hint, n);
	ret = knc_assign(mask, hint, n, assign);
	if (exp_kept < 0) {
		KUNIT_EXPECT_EQ_MSG(test, ret, -ENOSPC, "%s", ctx);
		return;
	}
	KUNIT_EXPECT_EQ_MSG(test, ret, 0, "%s", ctx);
	if (ret)
		return;
	for (i = 0; i < n; i++) {
		KUNIT_EXPECT_TRUE_MSG(test, assign[i] >= 0 && assign[i] < 2, "%s", ctx);
		if (!(assign[i] >= 0 && assign[i] < 2))
			return;
		/* allowed, and not shared */
		KUNIT_EXPECT_TRUE_MSG(test, mask[i] >> assign[i] & 1, "%s", ctx);
		KUNIT_EXPECT_TRUE_MSG(test, !(used >> assign[i] & 1), "%s", ctx);
		used |= 1u << assign[i];
		if (hint && hint[i] == assign[i])
			kept++;
	}
	for (i = n; i < 3; i++)
		KUNIT_EXPECT_EQ_MSG(test, assign[i], -7, "%s", ctx);	/* nothing written past n */
	KUNIT_EXPECT_EQ_MSG(test, kept, exp_kept, "%s", ctx);
}

static void test_assign_all_combinations(struct kunit *test)
{
	/* masks 0x1 and 0x3 (the table's), plus 0x2 and 0 for generality */
	static const u8 masks[] = { 0x1, 0x3, 0x2, 0x0 };
	int n, code, limit;
	char ctx[128] = "";

	for (n = 0; n <= 3; n++) {
		limit = 1;
		for (code = 0; code < n; code++)
			limit *= 4;
		for (code = 0; code < limit; code++) {
			u8 mask[3];
			int i, c = code;

			for (i = 0; i < n; i++, c /= 4)
				mask[i] = masks[c % 4];
			snprintf(ctx, sizeof(ctx), "n %d masks %#x %#x %#x, no hints", n,
				  n > 0 ? mask[0] : 0, n > 1 ? mask[1] : 0,
				  n > 2 ? mask[2] : 0);
			check_assignment(test, ctx, mask, NULL, n);
		}
	}
}

static void test_assign_all_combinations_hints(struct kunit *test)
{
	static const u8 masks[] = { 0x1, 0x3, 0x2 };
	static const int hints[] = { -1, 0, 1 };
	int n, code, limit;
	char ctx[128] = "";

	for (n = 0; n <= 3; n++) {
		limit = 1;
		for (code = 0; code < n; code++)
			limit *= 9;
		for (code = 0; code < limit; code++) {
			u8 mask[3] = { 0 };
			int hint[3] = { -1, -1, -1 }, i, c = code;

			for (i = 0; i < n; i++, c /= 9) {
				mask[i] = masks[c % 3];
				hint[i] = hints[c / 3 % 3];
			}
			snprintf(ctx, sizeof(ctx), "n %d masks %#x %#x %#x hints %d %d %d", n,
				  mask[0], mask[1], mask[2],
				  hint[0], hint[1], hint[2]);
			check_assignment(test, ctx, mask, hint, n);
		}
	}
}

static void test_assign_counter0_only_pair_fails(struct kunit *test)
{
	const u8 mask[2] = { 0x1, 0x1 };
	const int hint[2] = { 0, -1 };
	int assign[2];

	KUNIT_EXPECT_EQ(test, knc_assign(mask, NULL, 2, assign), -ENOSPC);
	KUNIT_EXPECT_EQ(test, knc_assign(mask, hint, 2, assign), -ENOSPC);
}

static void test_assign_evicts_via_hint(struct kunit *test)
{
	/* an unconstrained event on counter 0; a counter-0-only one arrives */
	const u8 mask_a[2] = { 0x3, 0x1 };
	const int hint_a[2] = { 0, -1 };
	const u8 mask_b[2] = { 0x1, 0x3 };
	const int hint_b[2] = { -1, 0 };
	int assign[2] = { -7, -7 };

	KUNIT_EXPECT_EQ(test, knc_assign(mask_a, hint_a, 2, assign), 0);
	KUNIT_EXPECT_EQ(test, assign[0], 1);
	KUNIT_EXPECT_EQ(test, assign[1], 0);

	assign[0] = -7;
	assign[1] = -7;
	KUNIT_EXPECT_EQ(test, knc_assign(mask_b, hint_b, 2, assign), 0);
	KUNIT_EXPECT_EQ(test, assign[0], 0);
	KUNIT_EXPECT_EQ(test, assign[1], 1);
}

static void test_assign_keeps_hints(struct kunit *test)
{
	const u8 mask[2] = { 0x3, 0x3 };
	const int h10[2] = { 1, 0 }, h1n[2] = { 1, -1 }, hn0[2] = { -1, 0 };
	const int h01[2] = { 0, 1 }, h11[2] = { 1, 1 };
	const u8 one = 0x3;
	const int h1 = 1;
	int a[2];

	KUNIT_EXPECT_EQ(test, knc_assign(mask, h10, 2, a), 0);
	KUNIT_EXPECT_EQ(test, a[0], 1);
	KUNIT_EXPECT_EQ(test, a[1], 0);
	KUNIT_EXPECT_EQ(test, knc_assign(mask, h1n, 2, a), 0);
	KUNIT_EXPECT_EQ(test, a[0], 1);
	KUNIT_EXPECT_EQ(test, a[1], 0);
	KUNIT_EXPECT_EQ(test, knc_assign(mask, hn0, 2, a), 0);
	KUNIT_EXPECT_EQ(test, a[0], 1);
	KUNIT_EXPECT_EQ(test, a[1], 0);
	KUNIT_EXPECT_EQ(test, knc_assign(mask, h01, 2, a), 0);
	KUNIT_EXPECT_EQ(test, a[0], 0);
	KUNIT_EXPECT_EQ(test, a[1], 1);
	/* conflicting hints: one of them stays */
	KUNIT_EXPECT_EQ(test, knc_assign(mask, h11, 2, a), 0);
	KUNIT_EXPECT_TRUE(test, a[0] == 1 || a[1] == 1);
	KUNIT_EXPECT_TRUE(test, a[0] != a[1]);
	/* a single event stays on counter 1 */
	KUNIT_EXPECT_EQ(test, knc_assign(&one, &h1, 1, a), 0);
	KUNIT_EXPECT_EQ(test, a[0], 1);
}

static void test_assign_bounds(struct kunit *test)
{
	const u8 mask[3] = { 0x3, 0x3, 0x3 };
	int a[3];

	KUNIT_EXPECT_EQ(test, knc_assign(mask, NULL, 0, a), 0);
	KUNIT_EXPECT_EQ(test, knc_assign(mask, NULL, 3, a), -ENOSPC);
	KUNIT_EXPECT_EQ(test, knc_assign(mask, NULL, -1, a), -ENOSPC);
}

/*
 * The backtracking search knc_assign() replaced, kept as its reference:
 * every counter for each event in turn, the first assignment that keeps
 * the most hints.
 */
struct ref_assign_state {
	const u8 *cntmask;
	const int *hint;
	int n;
	int cur[2];
	int best[2];
	int best_kept;
};

static void ref_assign_search(struct ref_assign_state *st, int i,
			      unsigned int used, int kept)
{
	int c;

	if (i == st->n) {
		if (kept > st->best_kept) {
			st->best_kept = kept;
			memcpy(st->best, st->cur, sizeof(st->best));
		}
		return;
	}
	for (c = 0; c < 2; c++) {
		if (!(st->cntmask[i] & (1u << c)) || (used & (1u << c)))
			continue;
		st->cur[i] = c;
		ref_assign_search(st, i + 1, used | (1u << c),
				  kept + (st->hint && st->hint[i] == c));
	}
}

static int ref_assign(const u8 *cntmask, const int *hint, int n, int *assign)
{
	struct ref_assign_state st = {
		.cntmask = cntmask, .hint = hint, .n = n, .best_kept = -1,
	};

	if (n < 0 || n > 2)
		return -ENOSPC;
	ref_assign_search(&st, 0, 0, 0);
	if (st.best_kept < 0)
		return -ENOSPC;
	memcpy(assign, st.best, n * sizeof(*assign));
	return 0;
}

/*
 * knc_assign() places every combination as the search did: n from -1 to 3,
 * each of the first two events' masks any of bits 0-2 (bit 2, no counter,
 * must not matter), each hint -1, 0, 1 or 2, or no hints at all.
 */
static void test_assign_matches_search(struct kunit *test)
{
	static const int hints[] = { -1, 0, 1, 2 };
	int n, code, limit, i, compared = 0;

	for (n = -1; n <= 3; n++) {
		/* a third event's mask and hint cannot matter: -ENOSPC */
		int k = n < 0 ? 0 : n > 2 ? 2 : n;

		/* per event: 8 masks, 5 hint choices (4 values, or none) */
		limit = 1;
		for (i = 0; i < k; i++)
			limit *= 8 * 4;
		for (code = 0; code < limit * 2; code++) {
			u8 mask[3] = { 0 };
			int hint[3] = { -1, -1, -1 }, c = code / 2;
			int got[3] = { -7, -7, -7 }, want[3] = { -7, -7, -7 };
			const int *h = code % 2 ? hint : NULL;
			int ret, ref;

			for (i = 0; i < k; i++, c /= 32) {
				mask[i] = c % 8;
				hint[i] = hints[c / 8 % 4];
			}
			ret = knc_assign(mask, h, n, got);
			ref = ref_assign(mask, h, n, want);
			KUNIT_EXPECT_EQ_MSG(test, ret, ref,
					    "n %d masks %#x %#x hints %d %d%s", n,
					    mask[0], mask[1], hint[0], hint[1],
					    h ? "" : " (none)");
			for (i = 0; i < 3; i++)
				KUNIT_EXPECT_EQ_MSG(test, got[i], want[i],
						    "n %d masks %#x %#x hints %d %d%s: event %d",
						    n, mask[0], mask[1], hint[0],
						    hint[1], h ? "" : " (none)", i);
			compared++;
		}
	}
	/* n -1 and 0: 2 each; 1: 64; 2 and 3: 2048 each */
	KUNIT_EXPECT_EQ(test, compared, 2 + 2 + 64 + 2048 + 2048);
}

static void test_assign_table_pairs(struct kunit *test)
{
	unsigned int i, j;
	char ctx[128] = "";

	for (i = 0; i < knc_num_events; i++)
		for (j = 0; j < knc_num_events; j++) {
			const u8 mask[2] = { knc_events[i].cntmask,
					     knc_events[j].cntmask };
			bool both = is_counter0_only(knc_events[i].event) &&
				    is_counter0_only(knc_events[j].event);
			int a[2] = { -7, -7 }, ret = knc_assign(mask, NULL, 2, a);

			if (ret == (both ? -ENOSPC : 0) &&
			    (both || (a[0] != a[1] &&
				      (!is_counter0_only(knc_events[i].event) || a[0] == 0) &&
				      (!is_counter0_only(knc_events[j].event) || a[1] == 0))))
				continue;
			snprintf(ctx, sizeof(ctx), "%s + %s", knc_events[i].name,
				 knc_events[j].name);
			KUNIT_EXPECT_EQ_MSG(test, ret, both ? -ENOSPC : 0, "%s", ctx);
			if (!both) {
				KUNIT_EXPECT_TRUE_MSG(test, a[0] != a[1], "%s", ctx);
				if (is_counter0_only(knc_events[i].event))
					KUNIT_EXPECT_EQ_MSG(test, a[0], 0, "%s", ctx);
				if (is_counter0_only(knc_events[j].event))
					KUNIT_EXPECT_EQ_MSG(test, a[1], 0, "%s", ctx);
			}
		}
}

/* ------------------------------------------------------------------ */
/* 40-bit arithmetic                                                   */
/* ------------------------------------------------------------------ */

static void test_delta_plain(struct kunit *test)
{
	KUNIT_EXPECT_EQ(test, knc_delta(0, 0), 0);
	KUNIT_EXPECT_EQ(test, knc_delta(100, 250), 150);
	KUNIT_EXPECT_EQ(test, knc_delta(0x1234567890ULL, 0x1234567890ULL), 0);
	KUNIT_EXPECT_EQ(test, knc_delta(0, T_CTR_MASK), T_CTR_MASK);
}

static void test_delta_wrap(struct kunit *test)
{
	KUNIT_EXPECT_EQ(test, knc_delta(T_CTR_TOP - 10, 5), 15);
	KUNIT_EXPECT_EQ(test, knc_delta(T_CTR_MASK, 0), 1);
	KUNIT_EXPECT_EQ(test, knc_delta(1, 0), T_CTR_MASK);
	/* a half-range step across the wrap */
	KUNIT_EXPECT_EQ(test, knc_delta(T_CTR_TOP - 5, T_MAX_PERIOD - 4), T_MAX_PERIOD + 1);
	/* started at -period (knc_counter_start), read back after the wrap */
	KUNIT_EXPECT_EQ(test, knc_delta(T_CTR_TOP - 1000, 17), 1000 + 17);
}

static void test_period_adjust_not_elapsed(struct kunit *test)
{
	s64 left = 5;

	KUNIT_EXPECT_TRUE(test, !knc_period_adjust(&left, 100));
	KUNIT_EXPECT_EQ(test, left, 5);
	left = 1;
	KUNIT_EXPECT_TRUE(test, !knc_period_adjust(&left, 100));
	KUNIT_EXPECT_EQ(test, left, 1);
	left = 1000;	/* more than a period left: untouched */
	KUNIT_EXPECT_TRUE(test, !knc_period_adjust(&left, 100));
	KUNIT_EXPECT_EQ(test, left, 1000);
}

static void test_period_adjust_elapsed(struct kunit *test)
{
	s64 left = 0;

	KUNIT_EXPECT_TRUE(test, knc_period_adjust(&left, 100));
	KUNIT_EXPECT_EQ(test, left, 100);
	left = -30;	/* overshoot carries into the next period */
	KUNIT_EXPECT_TRUE(test, knc_period_adjust(&left, 100));
	KUNIT_EXPECT_EQ(test, left, 70);
	left = -99;
	KUNIT_EXPECT_TRUE(test, knc_period_adjust(&left, 100));
	KUNIT_EXPECT_EQ(test, left, 1);
}

static void test_period_adjust_reset(struct kunit *test)
{
	s64 left = -100;	/* left <= -period: restart at period */

	KUNIT_EXPECT_TRUE(test, knc_period_adjust(&left, 100));
	KUNIT_EXPECT_EQ(test, left, 100);
	left = -101;
	KUNIT_EXPECT_TRUE(test, knc_period_adjust(&left, 100));
	KUNIT_EXPECT_EQ(test, left, 100);
	left = -250000;
	KUNIT_EXPECT_TRUE(test, knc_period_adjust(&left, 100));
	KUNIT_EXPECT_EQ(test, left, 100);
	left = -(1LL << 50) - 1;
	KUNIT_EXPECT_TRUE(test, knc_period_adjust(&left, 1ULL << 50));
	KUNIT_EXPECT_EQ(test, left, 1LL << 50);
	left = -(1LL << 50) + 1;
	KUNIT_EXPECT_TRUE(test, knc_period_adjust(&left, 1ULL << 50));
	KUNIT_EXPECT_EQ(test, left, 1);
}

static void test_counter_start(struct kunit *test)
{
	KUNIT_EXPECT_EQ(test, knc_counter_start(1), T_CTR_MASK);
	KUNIT_EXPECT_EQ(test, knc_counter_start(100), T_CTR_TOP - 100);
	KUNIT_EXPECT_EQ(test, knc_counter_start(200003), T_CTR_TOP - 200003);
	KUNIT_EXPECT_EQ(test, knc_counter_start((s64)T_MAX_PERIOD), 0x8000000001ULL);
	KUNIT_EXPECT_EQ(test, knc_counter_start((s64)T_MAX_PERIOD - 1), 0x8000000002ULL);
}

static void test_counter_start_clamps(struct kunit *test)
{
	KUNIT_EXPECT_EQ(test, knc_counter_start((s64)T_MAX_PERIOD + 1), 0x8000000001ULL);
	KUNIT_EXPECT_EQ(test, knc_counter_start(1LL << 40), 0x8000000001ULL);
	KUNIT_EXPECT_EQ(test, knc_counter_start(1LL << 62), 0x8000000001ULL);
	KUNIT_EXPECT_EQ(test, knc_counter_start(0x7fffffffffffffffLL), 0x8000000001ULL);
}

static void test_counter_start_overflows_after_left(struct kunit *test)
{
	static const s64 lefts[] = { 1, 2, 7, 10007, 2000003, 1LL << 38,
				     (s64)T_MAX_PERIOD };
	unsigned int i;
	char ctx[128] = "";

	for (i = 0; i < ARRAY_SIZE(lefts); i++) {
		unsigned long long v = knc_counter_start(lefts[i]);

		snprintf(ctx, sizeof(ctx), "left %lld", (long long)lefts[i]);
		KUNIT_EXPECT_EQ_MSG(test, v & ~T_CTR_MASK, 0, "%s", ctx);
		KUNIT_EXPECT_EQ_MSG(test, v + (unsigned long long)lefts[i], T_CTR_TOP, "%s", ctx);
	}
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
