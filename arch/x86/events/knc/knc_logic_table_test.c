// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit tests for knc_logic.c's event table, generated from the JSON:
 * its rows against the specification's, and the lookups by code, by name
 * (the events and the generic aliases) and by hw-cache config.
 */
#include <kunit/test.h>
#include <linux/errno.h>
#include <linux/kernel.h>
#include <linux/string.h>

#include "knc_logic.h"
#include "knc_logic_test.h"

void test_table_count(struct kunit *test)
{
	KUNIT_EXPECT_EQ(test, knc_num_events, 59);
	KUNIT_EXPECT_EQ(test, knc_num_aliases, knc_spec_num_aliases);
}

void test_table_matches_spec(struct kunit *test)
{
	unsigned int i;
	int s;
	char ctx[128] = "";

	/* Every table row is a spec row with the same name ... */
	for (i = 0; i < knc_num_events; i++) {
		const struct knc_event_desc *e = &knc_events[i];

		snprintf(ctx, sizeof(ctx), "knc_events[%u] = %s %#x/%#x", i,
			  e->name ? e->name : "(null)", e->event, e->umask);
		s = knc_spec_find(e->event, e->umask);
		KUNIT_EXPECT_TRUE_MSG(test, s >= 0, "%s", ctx);
		if (!(s >= 0))
			continue;
		KUNIT_EXPECT_STREQ_MSG(test, e->name, knc_spec_events[s].name, "%s", ctx);
	}
	/* ... and every spec row is in the table. */
	for (s = 0; s < knc_spec_num_events; s++) {
		int idx;

		snprintf(ctx, sizeof(ctx), "spec %s", knc_spec_events[s].name);
		idx = knc_table_find_name(knc_spec_events[s].name);
		KUNIT_EXPECT_TRUE_MSG(test, idx >= 0, "%s", ctx);
		if (!(idx >= 0))
			continue;
		KUNIT_EXPECT_EQ_MSG(test, knc_events[idx].event,
				    knc_spec_events[s].event, "%s", ctx);
		KUNIT_EXPECT_EQ_MSG(test, knc_events[idx].umask,
				    knc_spec_events[s].umask, "%s", ctx);
	}
}

void test_table_names_lower_case(struct kunit *test)
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

void test_table_unique(struct kunit *test)
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

void test_table_cntmask(struct kunit *test)
{
	unsigned int i, restricted = 0;
	char ctx[128] = "";

	for (i = 0; i < knc_num_events; i++) {
		const struct knc_event_desc *e = &knc_events[i];
		unsigned int exp = knc_spec_counter0_only(e->event) ? 0x1 : 0x3;

		snprintf(ctx, sizeof(ctx), "%s (event %#x)", e->name, e->event);
		KUNIT_EXPECT_EQ_MSG(test, e->cntmask, exp, "%s", ctx);
		restricted += exp == 0x1;
	}
	snprintf(ctx, sizeof(ctx), "restricted events present in the table");
	/* c8 c9 ca cb cc d7 e3 e6 e7 f1 f2 f6 f7 fc fd fe ff */
	KUNIT_EXPECT_EQ_MSG(test, restricted, 17, "%s", ctx);
	/* The two code-read fills share the L2 unit but are unrestricted. */
	snprintf(ctx, sizeof(ctx), "%s", "");
	i = (unsigned int)knc_table_find_name("l2_code_read_miss_cache_fill");
	KUNIT_EXPECT_TRUE_MSG(test, i < knc_num_events, "%s", ctx);
	if (i < knc_num_events)
		KUNIT_EXPECT_EQ_MSG(test, knc_events[i].cntmask, 0x3, "%s", ctx);
	i = (unsigned int)knc_table_find_name("l2_code_read_miss_mem_fill");
	KUNIT_EXPECT_TRUE_MSG(test, i < knc_num_events, "%s", ctx);
	if (i < knc_num_events)
		KUNIT_EXPECT_EQ_MSG(test, knc_events[i].cntmask, 0x3, "%s", ctx);
}

void test_table_periods(struct kunit *test)
{
	unsigned int i;
	char ctx[128] = "";

	for (i = 0; i < knc_num_events; i++) {
		snprintf(ctx, sizeof(ctx), "%s", knc_events[i].name);
		KUNIT_EXPECT_TRUE_MSG(test, knc_events[i].period > 0, "%s", ctx);
	}
}

void test_lookup_known(struct kunit *test)
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

void test_lookup_undefined(struct kunit *test)
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
void test_hw_cache_map(struct kunit *test)
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

void test_hw_cache_errors(struct kunit *test)
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

/* The name of the table event a PERF_TYPE_HARDWARE id maps to, or NULL. */
static const char *generic_name(u64 id)
{
	int idx = knc_generic_lookup(id);

	return idx < 0 ? NULL : knc_events[idx].name;
}

/*
 * The generic map at both ends of its range: id 0 and the ids KNC has,
 * the last id (ref-cycles, which KNC does not have), then the first id
 * beyond the map and ids far beyond it, which must not index it.
 */
void test_generic_map(struct kunit *test)
{
	KUNIT_EXPECT_STREQ(test, generic_name(0), "cpu_clk_unhalted");
	KUNIT_EXPECT_STREQ(test, generic_name(1), "instructions_executed");
	KUNIT_EXPECT_STREQ(test, generic_name(4), "branches");
	KUNIT_EXPECT_STREQ(test, generic_name(5), "branches_mispredicted");
	/* bus-cycles, the stalled cycles: none on KNC */
	KUNIT_EXPECT_EQ(test, knc_generic_lookup(6), -EINVAL);
	KUNIT_EXPECT_EQ(test, knc_generic_lookup(KNC_GENERIC_IDS - 1), -EINVAL);
	KUNIT_EXPECT_EQ(test, knc_generic_lookup(KNC_GENERIC_IDS), -EINVAL);
	KUNIT_EXPECT_EQ(test, knc_generic_lookup(KNC_GENERIC_IDS + 1), -EINVAL);
	/* not truncated to a smaller type on the way to the map */
	KUNIT_EXPECT_EQ(test, knc_generic_lookup(1ULL << 32), -EINVAL);
	KUNIT_EXPECT_EQ(test, knc_generic_lookup(~0ULL), -EINVAL);
}

void test_lookup_exhaustive(struct kunit *test)
{
	unsigned int ev, um;
	char ctx[128] = "";

	for (um = 0; um < 256; um++)
		for (ev = 0; ev < 256; ev++) {
			int s = knc_spec_find(ev, um), idx = knc_event_lookup(ev, um);

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

void test_lookup_name_events(struct kunit *test)
{
	int s, idx;
	char ctx[128] = "";

	for (s = 0; s < knc_spec_num_events; s++) {
		snprintf(ctx, sizeof(ctx), "%s", knc_spec_events[s].name);
		idx = knc_event_lookup_name(knc_spec_events[s].name);
		KUNIT_EXPECT_TRUE_MSG(test, idx >= 0 && (unsigned int)idx < knc_num_events,
				      "%s", ctx);
		if (!(idx >= 0 && (unsigned int)idx < knc_num_events))
			continue;
		KUNIT_EXPECT_STREQ_MSG(test, knc_events[idx].name,
				       knc_spec_events[s].name, "%s", ctx);
		KUNIT_EXPECT_TRUE_MSG(test, knc_event_by_name(knc_spec_events[s].name) ==
				      &knc_events[idx], "%s", ctx);
		KUNIT_EXPECT_EQ_MSG(test, knc_events[idx].event,
				    knc_spec_events[s].event, "%s", ctx);
		KUNIT_EXPECT_EQ_MSG(test, knc_events[idx].umask,
				    knc_spec_events[s].umask, "%s", ctx);
	}
}

void test_lookup_name_aliases(struct kunit *test)
{
	unsigned int i;
	int idx;
	char ctx[128] = "";

	for (i = 0; i < knc_spec_num_aliases; i++) {
		snprintf(ctx, sizeof(ctx), "alias %s", knc_spec_aliases[i].alias);
		idx = knc_event_lookup_name(knc_spec_aliases[i].alias);
		KUNIT_EXPECT_TRUE_MSG(test, idx >= 0 && (unsigned int)idx < knc_num_events,
				      "%s", ctx);
		if (!(idx >= 0 && (unsigned int)idx < knc_num_events))
			continue;
		KUNIT_EXPECT_STREQ_MSG(test, knc_events[idx].name, knc_spec_aliases[i].target,
				       "%s", ctx);
		KUNIT_EXPECT_TRUE_MSG(test, knc_event_by_name(knc_spec_aliases[i].alias) ==
				      &knc_events[idx], "%s", ctx);
		KUNIT_EXPECT_EQ_MSG(test, knc_events[idx].event,
				    knc_spec_aliases[i].event, "%s", ctx);
		KUNIT_EXPECT_EQ_MSG(test, knc_events[idx].umask,
				    knc_spec_aliases[i].umask, "%s", ctx);
	}
}

void test_alias_table(struct kunit *test)
{
	unsigned int i, j;
	char ctx[128] = "";

	for (i = 0; i < knc_num_aliases; i++) {
		const struct knc_event_desc *a = &knc_aliases[i];
		int t = -1;

		snprintf(ctx, sizeof(ctx), "knc_aliases[%u] = %s", i, a->name);
		for (j = 0; j < knc_spec_num_aliases; j++)
			if (!strcmp(knc_spec_aliases[j].alias, a->name))
				t = knc_table_find_name(knc_spec_aliases[j].target);
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
		KUNIT_EXPECT_EQ_MSG(test, knc_spec_find_name(a->name), -1, "%s", ctx);
	}
}

void test_lookup_name_unknown(struct kunit *test)
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
