// SPDX-License-Identifier: GPL-2.0
/*
 * Host unit tests for the knc PMU's pure logic (knc_logic.c) and its
 * simulated register model (knc_sim_model.c), compiled unchanged against
 * the shims in tests/unit/include.
 *
 * Output is TAP version 13: one test point per case below, diagnostics as
 * "# file:line: ..." lines after a failing point. Expectations come from
 * the KNC PMU document (seed 000, tables 1-2, 1-5, 1-6, section 1.4) and
 * /work/shared/KNC-FACTS.md, written out here or computed independently;
 * never from the function under test.
 *
 * Usage: test_knc [SUBSTRING...]  runs only the cases whose name contains
 * one of the substrings (all cases without arguments).
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <linux/errno.h>
#include <linux/kernel.h>

#include "knc_logic.h"
#include "knc_sim_model.h"

/* ------------------------------------------------------------------ */
/* TAP harness                                                         */
/* ------------------------------------------------------------------ */

static unsigned int t_failed_checks;	/* failed checks in the current case */
static char t_diag[32768];		/* diagnostics of the current case */
static size_t t_diag_len;
static char t_ctx[256];			/* what a loop is looking at, or "" */

static __printf(1, 2) void t_diag_add(const char *fmt, ...);

static void t_diag_add(const char *fmt, ...)
{
	size_t room = sizeof(t_diag) - t_diag_len;
	va_list ap;
	int n;

	if (room < 2)
		return;
	va_start(ap, fmt);
	n = vsnprintf(t_diag + t_diag_len, room, fmt, ap);
	va_end(ap);
	if (n < 0)
		return;
	t_diag_len += (size_t)n < room ? (size_t)n : room - 1;
}

static __printf(1, 2) void t_set_ctx(const char *fmt, ...);

static void t_set_ctx(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(t_ctx, sizeof(t_ctx), fmt, ap);
	va_end(ap);
}

static void t_fail_head(const char *file, int line, const char *what)
{
	t_failed_checks++;
	t_diag_add("# %s:%d: %s%s%s\n", file, line, what,
		   t_ctx[0] ? " -- " : "", t_ctx);
}

static bool t_check_u64(const char *file, int line, const char *what,
			unsigned long long exp, unsigned long long act)
{
	if (exp == act)
		return true;
	t_fail_head(file, line, what);
	t_diag_add("#   expected: %#llx (%llu)\n#   actual:   %#llx (%llu)\n",
		   exp, exp, act, act);
	return false;
}

static bool t_check_s64(const char *file, int line, const char *what,
			long long exp, long long act)
{
	if (exp == act)
		return true;
	t_fail_head(file, line, what);
	t_diag_add("#   expected: %lld\n#   actual:   %lld\n", exp, act);
	return false;
}

static bool t_check_str(const char *file, int line, const char *what,
			const char *exp, const char *act)
{
	if (exp && act && !strcmp(exp, act))
		return true;
	t_fail_head(file, line, what);
	t_diag_add("#   expected: \"%s\"\n#   actual:   \"%s\"\n",
		   exp ? exp : "(null)", act ? act : "(null)");
	return false;
}

static bool t_check_true(const char *file, int line, const char *what,
			 bool cond)
{
	if (cond)
		return true;
	t_fail_head(file, line, what);
	t_diag_add("#   expected: true\n#   actual:   false\n");
	return false;
}

#define EXPECT_U64(exp, act) \
	t_check_u64(__FILE__, __LINE__, #act, (exp), (act))
#define EXPECT_S64(exp, act) \
	t_check_s64(__FILE__, __LINE__, #act, (exp), (act))
#define EXPECT_STR(exp, act) \
	t_check_str(__FILE__, __LINE__, #act, (exp), (act))
#define EXPECT_TRUE(cond) \
	t_check_true(__FILE__, __LINE__, #cond, (cond))

struct t_case {
	const char *name;
	void (*fn)(void);
};

/* ------------------------------------------------------------------ */
/* Independent expectations                                            */
/* ------------------------------------------------------------------ */

/* IA32_PerfEvtSelX bits (seed 000, table 1-5). */
#define T_USR		BIT_ULL(16)
#define T_OS		BIT_ULL(17)
#define T_EDGE		BIT_ULL(18)
#define T_INT		BIT_ULL(20)
#define T_ANY		BIT_ULL(21)
#define T_EN		BIT_ULL(22)
#define T_INV		BIT_ULL(23)
#define T_CMASK(c)	((unsigned long long)(c) << 24)
#define T_SPFLT_USER_PREF BIT_ULL(63)

#define T_CTR_MASK	0xffffffffffULL		/* 40 bits */
#define T_CTR_TOP	0x10000000000ULL	/* 2^40 */
#define T_MAX_PERIOD	0x7fffffffffULL		/* 2^39 - 1 */

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

static unsigned long long cfg(unsigned int event, unsigned int umask)
{
	return (unsigned long long)event | (unsigned long long)umask << 8;
}

/* ------------------------------------------------------------------ */
/* Register layout                                                     */
/* ------------------------------------------------------------------ */

static void test_layout_msrs(void)
{
	EXPECT_U64(0x20, KNC_MSR_PERFCTR0);
	EXPECT_U64(0x28, KNC_MSR_EVNTSEL0);
	EXPECT_U64(0x2c, KNC_MSR_SPFLT_CTRL);
	EXPECT_U64(0x2d, KNC_MSR_GLOBAL_STATUS);
	EXPECT_U64(0x2e, KNC_MSR_GLOBAL_OVF_CTRL);
	EXPECT_U64(0x2f, KNC_MSR_GLOBAL_CTRL);
	EXPECT_U64(2, KNC_NUM_COUNTERS);
}

static void test_layout_evtsel_bits(void)
{
	EXPECT_U64(0xff, KNC_EVTSEL_EVENT);
	EXPECT_U64(0xff00, KNC_EVTSEL_UMASK);
	EXPECT_U64(T_USR, KNC_EVTSEL_USR);
	EXPECT_U64(T_OS, KNC_EVTSEL_OS);
	EXPECT_U64(T_EDGE, KNC_EVTSEL_EDGE);
	EXPECT_U64(T_INT, KNC_EVTSEL_INT);
	EXPECT_U64(T_ANY, KNC_EVTSEL_ANY);
	EXPECT_U64(T_EN, KNC_EVTSEL_EN);
	EXPECT_U64(T_INV, KNC_EVTSEL_INV);
	EXPECT_U64(0xff000000ULL, KNC_EVTSEL_CMASK);
	EXPECT_U64(T_SPFLT_USER_PREF, KNC_SPFLT_USER_PREF);
	/* sysfs format: event 0-7, umask 8-15, edge 18, inv 23, cmask 24-31 */
	EXPECT_U64(0xff84ffffULL, KNC_CONFIG_MASK);
}

static void test_layout_widths(void)
{
	EXPECT_U64(40, KNC_CNTVAL_BITS);
	EXPECT_U64(T_CTR_MASK, KNC_CNTVAL_MASK);
	EXPECT_U64(T_MAX_PERIOD, KNC_MAX_PERIOD);
	EXPECT_U64(0x3, KNC_COUNTERS_MASK);
}

/* ------------------------------------------------------------------ */
/* Event table                                                         */
/* ------------------------------------------------------------------ */

static void test_table_count(void)
{
	EXPECT_U64(59, knc_num_events);
	EXPECT_U64(ARRAY_SIZE(spec_aliases), knc_num_aliases);
}

static void test_table_matches_spec(void)
{
	unsigned int i;
	int s;

	/* Every table row is a spec row with the same name ... */
	for (i = 0; i < knc_num_events; i++) {
		const struct knc_event_desc *e = &knc_events[i];

		t_set_ctx("knc_events[%u] = %s %#x/%#x", i,
			  e->name ? e->name : "(null)", e->event, e->umask);
		s = spec_find(e->event, e->umask);
		if (!EXPECT_TRUE(s >= 0))
			continue;
		EXPECT_STR(spec_events[s].name, e->name);
	}
	/* ... and every spec row is in the table. */
	for (s = 0; s < SPEC_NUM_EVENTS; s++) {
		int idx;

		t_set_ctx("spec %s", spec_events[s].name);
		idx = table_find_name(spec_events[s].name);
		if (!EXPECT_TRUE(idx >= 0))
			continue;
		EXPECT_U64(spec_events[s].event, knc_events[idx].event);
		EXPECT_U64(spec_events[s].umask, knc_events[idx].umask);
	}
}

static void test_table_names_lower_case(void)
{
	unsigned int i;
	const char *p;

	for (i = 0; i < knc_num_events; i++) {
		const char *name = knc_events[i].name;
		bool ok = name && name[0];

		for (p = name; ok && *p; p++)
			ok = (*p >= 'a' && *p <= 'z') ||
			     (*p >= '0' && *p <= '9') || *p == '_';
		t_set_ctx("knc_events[%u] = \"%s\"", i, name ? name : "(null)");
		EXPECT_TRUE(ok);
	}
}

static void test_table_unique(void)
{
	unsigned int i, j;

	for (i = 0; i < knc_num_events; i++)
		for (j = i + 1; j < knc_num_events; j++) {
			t_set_ctx("knc_events[%u] %s vs knc_events[%u] %s",
				  i, knc_events[i].name, j, knc_events[j].name);
			EXPECT_TRUE(strcmp(knc_events[i].name,
					   knc_events[j].name) != 0);
			EXPECT_TRUE(knc_events[i].event != knc_events[j].event ||
				    knc_events[i].umask != knc_events[j].umask);
		}
}

static void test_table_cntmask(void)
{
	unsigned int i, restricted = 0;

	for (i = 0; i < knc_num_events; i++) {
		const struct knc_event_desc *e = &knc_events[i];
		unsigned int exp = is_counter0_only(e->event) ? 0x1 : 0x3;

		t_set_ctx("%s (event %#x)", e->name, e->event);
		EXPECT_U64(exp, e->cntmask);
		restricted += exp == 0x1;
	}
	t_set_ctx("restricted events present in the table");
	/* c8 c9 ca cb cc d7 e3 e6 e7 f1 f2 f6 f7 fc fd fe ff */
	EXPECT_U64(17, restricted);
	/* The two code-read fills share the L2 unit but are unrestricted. */
	t_set_ctx("%s", "");
	i = (unsigned int)table_find_name("l2_code_read_miss_cache_fill");
	if (EXPECT_TRUE(i < knc_num_events))
		EXPECT_U64(0x3, knc_events[i].cntmask);
	i = (unsigned int)table_find_name("l2_code_read_miss_mem_fill");
	if (EXPECT_TRUE(i < knc_num_events))
		EXPECT_U64(0x3, knc_events[i].cntmask);
}

static void test_table_periods(void)
{
	unsigned int i;

	for (i = 0; i < knc_num_events; i++) {
		t_set_ctx("%s", knc_events[i].name);
		EXPECT_TRUE(knc_events[i].period > 0);
	}
}

static void test_lookup_known(void)
{
	int idx;

	idx = knc_event_lookup(0x00, 0x00);
	if (EXPECT_TRUE(idx >= 0))
		EXPECT_STR("data_read", knc_events[idx].name);
	idx = knc_event_lookup(0xcb, 0x10);
	if (EXPECT_TRUE(idx >= 0))
		EXPECT_STR("l2_read_miss", knc_events[idx].name);
	idx = knc_event_lookup(0x00, 0x20);
	if (EXPECT_TRUE(idx >= 0))
		EXPECT_STR("vpu_data_read", knc_events[idx].name);
	idx = knc_event_lookup(0x18, 0x20);
	if (EXPECT_TRUE(idx >= 0))
		EXPECT_STR("vpu_elements_active", knc_events[idx].name);
	idx = knc_event_lookup(0x2a, 0x00);
	if (EXPECT_TRUE(idx >= 0))
		EXPECT_STR("cpu_clk_unhalted", knc_events[idx].name);
}

static void test_lookup_undefined(void)
{
	EXPECT_S64(-ENOENT, knc_event_lookup(0x05, 0x00));	/* gap in P54C */
	EXPECT_S64(-ENOENT, knc_event_lookup(0x3c, 0x00));
	EXPECT_S64(-ENOENT, knc_event_lookup(0xcb, 0x00));	/* wrong umask */
	EXPECT_S64(-ENOENT, knc_event_lookup(0x00, 0x10));
	EXPECT_S64(-ENOENT, knc_event_lookup(0xc3, 0x10));	/* constrained, not in table */
	EXPECT_S64(-ENOENT, knc_event_lookup(0x19, 0x20));
	EXPECT_S64(-ENOENT, knc_event_lookup(0xff, 0xff));
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
static void test_hw_cache_map(void)
{
	/* ids: L1D 0, L1I 1, LL 2, DTLB 3, ITLB 4, BPU 5, NODE 6 */
	EXPECT_STR("data_read", hwc_name(hwc(0, 0, 0)));
	EXPECT_STR("data_read_miss", hwc_name(hwc(0, 0, 1)));
	EXPECT_STR("data_write", hwc_name(hwc(0, 1, 0)));
	EXPECT_STR("data_write_miss", hwc_name(hwc(0, 1, 1)));
	EXPECT_STR("l1_data_pf1", hwc_name(hwc(0, 2, 0)));
	EXPECT_STR("l1_data_pf1_miss", hwc_name(hwc(0, 2, 1)));
	EXPECT_STR("code_read", hwc_name(hwc(1, 0, 0)));
	EXPECT_STR("code_cache_miss", hwc_name(hwc(1, 0, 1)));
	EXPECT_STR("l2_read_miss", hwc_name(hwc(2, 0, 1)));
	EXPECT_STR("l2_write_hit", hwc_name(hwc(2, 1, 0)));
	EXPECT_STR("l2_data_pf2", hwc_name(hwc(2, 2, 0)));
	EXPECT_STR("l2_data_pf2_miss", hwc_name(hwc(2, 2, 1)));
	EXPECT_STR("data_read", hwc_name(hwc(3, 0, 0)));
	EXPECT_STR("data_page_walk", hwc_name(hwc(3, 0, 1)));
	EXPECT_STR("data_write", hwc_name(hwc(3, 1, 0)));
	EXPECT_STR("data_page_walk", hwc_name(hwc(3, 1, 1)));
	EXPECT_STR("code_read", hwc_name(hwc(4, 0, 0)));
	EXPECT_STR("code_page_walk", hwc_name(hwc(4, 0, 1)));
	EXPECT_STR("branches", hwc_name(hwc(5, 0, 0)));
	EXPECT_STR("branches_mispredicted", hwc_name(hwc(5, 0, 1)));
	/* bits above the result byte are not the map's (x86 ignores them) */
	EXPECT_STR("data_read_miss", hwc_name(hwc(0, 0, 1) | 0xff000000ULL));
}

static void test_hw_cache_errors(void)
{
	unsigned int op, result;

	/* -1 upstream: makes no sense */
	EXPECT_S64(-EINVAL, knc_hw_cache_lookup(hwc(1, 1, 0)));
	EXPECT_S64(-EINVAL, knc_hw_cache_lookup(hwc(1, 1, 1)));
	for (op = 1; op < 3; op++)
		for (result = 0; result < 2; result++) {
			EXPECT_S64(-EINVAL, knc_hw_cache_lookup(hwc(4, op, result)));
			EXPECT_S64(-EINVAL, knc_hw_cache_lookup(hwc(5, op, result)));
		}
	/* 0 upstream: not countable */
	EXPECT_S64(-ENOENT, knc_hw_cache_lookup(hwc(1, 2, 0)));
	EXPECT_S64(-ENOENT, knc_hw_cache_lookup(hwc(2, 0, 0)));
	EXPECT_S64(-ENOENT, knc_hw_cache_lookup(hwc(2, 1, 1)));
	EXPECT_S64(-ENOENT, knc_hw_cache_lookup(hwc(3, 2, 1)));
	EXPECT_S64(-ENOENT, knc_hw_cache_lookup(hwc(6, 0, 0)));
	/* out of range */
	EXPECT_S64(-EINVAL, knc_hw_cache_lookup(hwc(7, 0, 0)));
	EXPECT_S64(-EINVAL, knc_hw_cache_lookup(hwc(0xff, 0, 0)));
	EXPECT_S64(-EINVAL, knc_hw_cache_lookup(hwc(0, 3, 0)));
	EXPECT_S64(-EINVAL, knc_hw_cache_lookup(hwc(0, 0, 2)));
}

static void test_lookup_exhaustive(void)
{
	unsigned int ev, um;

	for (um = 0; um < 256; um++)
		for (ev = 0; ev < 256; ev++) {
			int s = spec_find(ev, um), idx = knc_event_lookup(ev, um);

			if (s < 0 && idx == -ENOENT)
				continue;
			t_set_ctx("event %#x umask %#x", ev, um);
			if (s < 0) {
				EXPECT_S64(-ENOENT, idx);
				continue;
			}
			if (!EXPECT_TRUE(idx >= 0 && (unsigned int)idx < knc_num_events))
				continue;
			EXPECT_U64(ev, knc_events[idx].event);
			EXPECT_U64(um, knc_events[idx].umask);
		}
}

static void test_lookup_name_events(void)
{
	int s, idx;

	for (s = 0; s < SPEC_NUM_EVENTS; s++) {
		t_set_ctx("%s", spec_events[s].name);
		idx = knc_event_lookup_name(spec_events[s].name);
		if (!EXPECT_TRUE(idx >= 0 && (unsigned int)idx < knc_num_events))
			continue;
		EXPECT_STR(spec_events[s].name, knc_events[idx].name);
		EXPECT_U64(spec_events[s].event, knc_events[idx].event);
		EXPECT_U64(spec_events[s].umask, knc_events[idx].umask);
	}
}

static void test_lookup_name_aliases(void)
{
	unsigned int i;
	int idx;

	for (i = 0; i < ARRAY_SIZE(spec_aliases); i++) {
		t_set_ctx("alias %s", spec_aliases[i].alias);
		idx = knc_event_lookup_name(spec_aliases[i].alias);
		if (!EXPECT_TRUE(idx >= 0 && (unsigned int)idx < knc_num_events))
			continue;
		EXPECT_STR(spec_aliases[i].target, knc_events[idx].name);
		EXPECT_U64(spec_aliases[i].event, knc_events[idx].event);
		EXPECT_U64(spec_aliases[i].umask, knc_events[idx].umask);
	}
}

static void test_alias_table(void)
{
	unsigned int i, j;

	for (i = 0; i < knc_num_aliases; i++) {
		const struct knc_event_desc *a = &knc_aliases[i];
		int t = -1;

		t_set_ctx("knc_aliases[%u] = %s", i, a->name);
		for (j = 0; j < ARRAY_SIZE(spec_aliases); j++)
			if (!strcmp(spec_aliases[j].alias, a->name))
				t = table_find_name(spec_aliases[j].target);
		/* an alias we do not expect, or one whose target is missing */
		if (!EXPECT_TRUE(t >= 0))
			continue;
		/* the alias row repeats its target's row */
		EXPECT_U64(knc_events[t].event, a->event);
		EXPECT_U64(knc_events[t].umask, a->umask);
		EXPECT_U64(knc_events[t].cntmask, a->cntmask);
		EXPECT_U64(knc_events[t].period, a->period);
		/* an alias must not shadow a table name */
		EXPECT_S64(-1, spec_find_name(a->name));
	}
}

static void test_lookup_name_unknown(void)
{
	static const char *const bad[] = {
		"", "CYCLES", "L2_READ_MISS", "l2_read_mis", "l2_read_miss_",
		" l2_read_miss", "cache_misses", "branch_misses",
		"cpu-cycles", "unknown", "knc/cycles/",
	};
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(bad); i++) {
		t_set_ctx("\"%s\"", bad[i]);
		EXPECT_S64(-ENOENT, knc_event_lookup_name(bad[i]));
	}
}

/* ------------------------------------------------------------------ */
/* knc_config_check                                                    */
/* ------------------------------------------------------------------ */

static void test_config_zero_is_data_read(void)
{
	int idx = knc_config_check(0);

	if (EXPECT_TRUE(idx >= 0))
		EXPECT_STR("data_read", knc_events[idx].name);
}

static void test_config_driver_bits_rejected(void)
{
	static const unsigned int bits[] = { 16, 17, 19, 20, 21, 22 };
	static const unsigned int pairs[][2] = {
		{ 0x00, 0x00 }, { 0xcb, 0x10 }, { 0x18, 0x20 },
	};
	unsigned int i, p;

	for (p = 0; p < ARRAY_SIZE(pairs); p++)
		for (i = 0; i < ARRAY_SIZE(bits); i++) {
			t_set_ctx("config %#llx | bit %u",
				  cfg(pairs[p][0], pairs[p][1]), bits[i]);
			EXPECT_S64(-EINVAL,
				   knc_config_check(cfg(pairs[p][0], pairs[p][1]) |
						    1ULL << bits[i]));
		}
	t_set_ctx("%s", "");
	EXPECT_S64(-EINVAL, knc_config_check(T_USR | T_OS | 0x2a));
	EXPECT_S64(-EINVAL, knc_config_check(T_EN | T_INT | 0x2a));
}

static void test_config_high_bits_rejected(void)
{
	unsigned int b;

	for (b = 32; b < 64; b++) {
		t_set_ctx("bit %u", b);
		EXPECT_S64(-EINVAL, knc_config_check(1ULL << b));
		EXPECT_S64(-EINVAL, knc_config_check(cfg(0xcb, 0x10) | 1ULL << b));
	}
	t_set_ctx("%s", "");
	EXPECT_S64(-EINVAL, knc_config_check(~0ULL));
	EXPECT_S64(-EINVAL, knc_config_check(0xffffffff00000000ULL));
}

static void test_config_pairs_exhaustive(void)
{
	unsigned int ev, um;

	for (um = 0; um < 256; um++)
		for (ev = 0; ev < 256; ev++) {
			int s = spec_find(ev, um), idx = knc_config_check(cfg(ev, um));

			if (s < 0 && idx == -EINVAL)
				continue;
			t_set_ctx("event %#x umask %#x", ev, um);
			if (s < 0) {
				EXPECT_S64(-EINVAL, idx);
				continue;
			}
			if (!EXPECT_TRUE(idx >= 0 && (unsigned int)idx < knc_num_events))
				continue;
			EXPECT_STR(spec_events[s].name, knc_events[idx].name);
		}
}

static void test_config_format_bits_accepted(void)
{
	static const unsigned long long extra[] = {
		T_EDGE, T_INV, T_CMASK(1), T_CMASK(0x80), T_CMASK(0xff),
		T_EDGE | T_INV, T_INV | T_CMASK(3), T_EDGE | T_INV | T_CMASK(0xff),
	};
	int want = table_find_name("l2_read_miss");
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(extra); i++) {
		t_set_ctx("0x10cb | %#llx", extra[i]);
		EXPECT_S64(want, knc_config_check(cfg(0xcb, 0x10) | extra[i]));
	}
	t_set_ctx("%s", "");
	EXPECT_S64(table_find_name("data_read"),
		   knc_config_check(T_EDGE | T_INV | T_CMASK(0xff)));
	/* the format bits alone do not make an undefined pair valid */
	EXPECT_S64(-EINVAL, knc_config_check(cfg(0x05, 0x00) | T_CMASK(1)));
}

/* ------------------------------------------------------------------ */
/* knc_evtsel                                                          */
/* ------------------------------------------------------------------ */

static void test_evtsel_mode_flags(void)
{
	static const unsigned long long configs[] = {
		0x0, 0x10cb, 0x2018, 0x12 | T_EDGE | T_INV | T_CMASK(2),
	};
	unsigned int i, m;

	for (i = 0; i < ARRAY_SIZE(configs); i++)
		for (m = 0; m < 4; m++) {
			bool usr = m & 1, os = m & 2;
			unsigned long long exp = configs[i] | T_EN | T_INT |
				(usr ? T_USR : 0) | (os ? T_OS : 0);

			t_set_ctx("config %#llx usr %d os %d", configs[i], usr, os);
			EXPECT_U64(exp, knc_evtsel(configs[i], usr, os));
		}
}

static void test_evtsel_format_bits_kept(void)
{
	/* every format bit set: event ff, umask ff, edge, inv, cmask ff */
	EXPECT_U64(0xff84ffffULL | T_EN | T_INT | T_USR | T_OS,
		   knc_evtsel(0xff84ffffULL, true, true));
	EXPECT_U64(0xff84ffffULL | T_EN | T_INT,
		   knc_evtsel(0xff84ffffULL, false, false));
}

static void test_evtsel_never_sets_driver_bits(void)
{
	/* bit 19 reserved, bit 21 thread-count mode, 63:32 reserved */
	unsigned long long v = knc_evtsel(~0ULL, false, false);

	EXPECT_U64(0, v & (1ULL << 19));
	EXPECT_U64(0, v & T_ANY);
	EXPECT_U64(0, v & T_USR);
	EXPECT_U64(0, v & T_OS);
	EXPECT_U64(0, v >> 32);
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

static void check_assignment(const u8 *mask, const int *hint, int n)
{
	int assign[3] = { -7, -7, -7 }, ret, exp_kept, i, kept = 0;
	unsigned int used = 0;

	exp_kept = n > 2 ? -1 : best_kept(mask, hint, n);
	ret = knc_assign(mask, hint, n, assign);
	if (exp_kept < 0) {
		EXPECT_S64(-ENOSPC, ret);
		return;
	}
	if (!EXPECT_S64(0, ret))
		return;
	for (i = 0; i < n; i++) {
		if (!EXPECT_TRUE(assign[i] >= 0 && assign[i] < 2))
			return;
		/* allowed, and not shared */
		EXPECT_TRUE(mask[i] >> assign[i] & 1);
		EXPECT_TRUE(!(used >> assign[i] & 1));
		used |= 1u << assign[i];
		if (hint && hint[i] == assign[i])
			kept++;
	}
	for (i = n; i < 3; i++)
		EXPECT_S64(-7, assign[i]);	/* nothing written past n */
	EXPECT_S64(exp_kept, kept);
}

static void test_assign_all_combinations(void)
{
	/* masks 0x1 and 0x3 (the table's), plus 0x2 and 0 for generality */
	static const u8 masks[] = { 0x1, 0x3, 0x2, 0x0 };
	int n, code, limit;

	for (n = 0; n <= 3; n++) {
		limit = 1;
		for (code = 0; code < n; code++)
			limit *= 4;
		for (code = 0; code < limit; code++) {
			u8 mask[3];
			int i, c = code;

			for (i = 0; i < n; i++, c /= 4)
				mask[i] = masks[c % 4];
			t_set_ctx("n %d masks %#x %#x %#x, no hints", n,
				  n > 0 ? mask[0] : 0, n > 1 ? mask[1] : 0,
				  n > 2 ? mask[2] : 0);
			check_assignment(mask, NULL, n);
		}
	}
}

static void test_assign_all_combinations_hints(void)
{
	static const u8 masks[] = { 0x1, 0x3, 0x2 };
	static const int hints[] = { -1, 0, 1 };
	int n, code, limit;

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
			t_set_ctx("n %d masks %#x %#x %#x hints %d %d %d", n,
				  mask[0], mask[1], mask[2],
				  hint[0], hint[1], hint[2]);
			check_assignment(mask, hint, n);
		}
	}
}

static void test_assign_counter0_only_pair_fails(void)
{
	const u8 mask[2] = { 0x1, 0x1 };
	const int hint[2] = { 0, -1 };
	int assign[2];

	EXPECT_S64(-ENOSPC, knc_assign(mask, NULL, 2, assign));
	EXPECT_S64(-ENOSPC, knc_assign(mask, hint, 2, assign));
}

static void test_assign_evicts_via_hint(void)
{
	/* an unconstrained event on counter 0; a counter-0-only one arrives */
	const u8 mask_a[2] = { 0x3, 0x1 };
	const int hint_a[2] = { 0, -1 };
	const u8 mask_b[2] = { 0x1, 0x3 };
	const int hint_b[2] = { -1, 0 };
	int assign[2] = { -7, -7 };

	EXPECT_S64(0, knc_assign(mask_a, hint_a, 2, assign));
	EXPECT_S64(1, assign[0]);
	EXPECT_S64(0, assign[1]);

	assign[0] = -7;
	assign[1] = -7;
	EXPECT_S64(0, knc_assign(mask_b, hint_b, 2, assign));
	EXPECT_S64(0, assign[0]);
	EXPECT_S64(1, assign[1]);
}

static void test_assign_keeps_hints(void)
{
	const u8 mask[2] = { 0x3, 0x3 };
	const int h10[2] = { 1, 0 }, h1n[2] = { 1, -1 }, hn0[2] = { -1, 0 };
	const int h01[2] = { 0, 1 }, h11[2] = { 1, 1 };
	const u8 one = 0x3;
	const int h1 = 1;
	int a[2];

	EXPECT_S64(0, knc_assign(mask, h10, 2, a));
	EXPECT_S64(1, a[0]);
	EXPECT_S64(0, a[1]);
	EXPECT_S64(0, knc_assign(mask, h1n, 2, a));
	EXPECT_S64(1, a[0]);
	EXPECT_S64(0, a[1]);
	EXPECT_S64(0, knc_assign(mask, hn0, 2, a));
	EXPECT_S64(1, a[0]);
	EXPECT_S64(0, a[1]);
	EXPECT_S64(0, knc_assign(mask, h01, 2, a));
	EXPECT_S64(0, a[0]);
	EXPECT_S64(1, a[1]);
	/* conflicting hints: one of them stays */
	EXPECT_S64(0, knc_assign(mask, h11, 2, a));
	EXPECT_TRUE(a[0] == 1 || a[1] == 1);
	EXPECT_TRUE(a[0] != a[1]);
	/* a single event stays on counter 1 */
	EXPECT_S64(0, knc_assign(&one, &h1, 1, a));
	EXPECT_S64(1, a[0]);
}

static void test_assign_bounds(void)
{
	const u8 mask[3] = { 0x3, 0x3, 0x3 };
	int a[3];

	EXPECT_S64(0, knc_assign(mask, NULL, 0, a));
	EXPECT_S64(-ENOSPC, knc_assign(mask, NULL, 3, a));
	EXPECT_S64(-ENOSPC, knc_assign(mask, NULL, -1, a));
}

static void test_assign_table_pairs(void)
{
	unsigned int i, j;

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
			t_set_ctx("%s + %s", knc_events[i].name, knc_events[j].name);
			EXPECT_S64(both ? -ENOSPC : 0, ret);
			if (!both) {
				EXPECT_TRUE(a[0] != a[1]);
				if (is_counter0_only(knc_events[i].event))
					EXPECT_S64(0, a[0]);
				if (is_counter0_only(knc_events[j].event))
					EXPECT_S64(0, a[1]);
			}
		}
}

/* ------------------------------------------------------------------ */
/* 40-bit arithmetic                                                   */
/* ------------------------------------------------------------------ */

static void test_delta_plain(void)
{
	EXPECT_U64(0, knc_delta(0, 0));
	EXPECT_U64(150, knc_delta(100, 250));
	EXPECT_U64(0, knc_delta(0x1234567890ULL, 0x1234567890ULL));
	EXPECT_U64(T_CTR_MASK, knc_delta(0, T_CTR_MASK));
}

static void test_delta_wrap(void)
{
	EXPECT_U64(15, knc_delta(T_CTR_TOP - 10, 5));
	EXPECT_U64(1, knc_delta(T_CTR_MASK, 0));
	EXPECT_U64(T_CTR_MASK, knc_delta(1, 0));
	/* a half-range step across the wrap */
	EXPECT_U64(T_MAX_PERIOD + 1, knc_delta(T_CTR_TOP - 5, T_MAX_PERIOD - 4));
	/* started at -period (knc_counter_start), read back after the wrap */
	EXPECT_U64(1000 + 17, knc_delta(T_CTR_TOP - 1000, 17));
}

static void test_period_adjust_not_elapsed(void)
{
	s64 left = 5;

	EXPECT_TRUE(!knc_period_adjust(&left, 100));
	EXPECT_S64(5, left);
	left = 1;
	EXPECT_TRUE(!knc_period_adjust(&left, 100));
	EXPECT_S64(1, left);
	left = 1000;	/* more than a period left: untouched */
	EXPECT_TRUE(!knc_period_adjust(&left, 100));
	EXPECT_S64(1000, left);
}

static void test_period_adjust_elapsed(void)
{
	s64 left = 0;

	EXPECT_TRUE(knc_period_adjust(&left, 100));
	EXPECT_S64(100, left);
	left = -30;	/* overshoot carries into the next period */
	EXPECT_TRUE(knc_period_adjust(&left, 100));
	EXPECT_S64(70, left);
	left = -99;
	EXPECT_TRUE(knc_period_adjust(&left, 100));
	EXPECT_S64(1, left);
}

static void test_period_adjust_reset(void)
{
	s64 left = -100;	/* left <= -period: restart at period */

	EXPECT_TRUE(knc_period_adjust(&left, 100));
	EXPECT_S64(100, left);
	left = -101;
	EXPECT_TRUE(knc_period_adjust(&left, 100));
	EXPECT_S64(100, left);
	left = -250000;
	EXPECT_TRUE(knc_period_adjust(&left, 100));
	EXPECT_S64(100, left);
	left = -(1LL << 50) - 1;
	EXPECT_TRUE(knc_period_adjust(&left, 1ULL << 50));
	EXPECT_S64(1LL << 50, left);
	left = -(1LL << 50) + 1;
	EXPECT_TRUE(knc_period_adjust(&left, 1ULL << 50));
	EXPECT_S64(1, left);
}

static void test_counter_start(void)
{
	EXPECT_U64(T_CTR_MASK, knc_counter_start(1));
	EXPECT_U64(T_CTR_TOP - 100, knc_counter_start(100));
	EXPECT_U64(T_CTR_TOP - 200003, knc_counter_start(200003));
	EXPECT_U64(0x8000000001ULL, knc_counter_start((s64)T_MAX_PERIOD));
	EXPECT_U64(0x8000000002ULL, knc_counter_start((s64)T_MAX_PERIOD - 1));
}

static void test_counter_start_clamps(void)
{
	EXPECT_U64(0x8000000001ULL, knc_counter_start((s64)T_MAX_PERIOD + 1));
	EXPECT_U64(0x8000000001ULL, knc_counter_start(1LL << 40));
	EXPECT_U64(0x8000000001ULL, knc_counter_start(1LL << 62));
	EXPECT_U64(0x8000000001ULL, knc_counter_start(0x7fffffffffffffffLL));
}

static void test_counter_start_overflows_after_left(void)
{
	static const s64 lefts[] = { 1, 2, 7, 10007, 2000003, 1LL << 38,
				     (s64)T_MAX_PERIOD };
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(lefts); i++) {
		unsigned long long v = knc_counter_start(lefts[i]);

		t_set_ctx("left %lld", (long long)lefts[i]);
		EXPECT_U64(0, v & ~T_CTR_MASK);
		EXPECT_U64(T_CTR_TOP, v + (unsigned long long)lefts[i]);
	}
}

/* ------------------------------------------------------------------ */
/* Simulated PMU                                                       */
/* ------------------------------------------------------------------ */

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

static void test_sim_reset(void)
{
	struct knc_sim_regs r, zero;

	memset(&r, 0xa5, sizeof(r));
	memset(&zero, 0, sizeof(zero));
	knc_sim_reset(&r);
	EXPECT_U64(0, r.ctr[0]);
	EXPECT_U64(0, r.ctr[1]);
	EXPECT_U64(0, r.evtsel[0]);
	EXPECT_U64(0, r.evtsel[1]);
	EXPECT_U64(0, r.global_ctrl);
	EXPECT_U64(0, r.global_status);
	EXPECT_U64(0, r.spflt);
	EXPECT_TRUE(!r.lvt_masked);
	EXPECT_TRUE(!r.pmi_line);
	EXPECT_TRUE(!r.pmi_raise);
	EXPECT_TRUE(!memcmp(&r, &zero, sizeof(r)));
}

static void test_sim_write_masks(void)
{
	struct knc_sim_regs r;

	knc_sim_reset(&r);
	knc_sim_write_counter_reg(&r, 0, ~0ULL);
	EXPECT_U64(T_CTR_MASK, r.ctr[0]);
	knc_sim_write_counter_reg(&r, 1, 0xab123456789aULL);
	EXPECT_U64(0x123456789aULL, r.ctr[1]);
	knc_sim_write_counter_reg(&r, 1, T_CTR_TOP);
	EXPECT_U64(0, r.ctr[1]);
	knc_sim_write_evtsel_reg(&r, 1, 0xdeadbeef004100cbULL);
	EXPECT_U64(0x004100cbULL, r.evtsel[1]);
	knc_sim_write_global_ctrl_reg(&r, ~0ULL);
	EXPECT_U64(0x3, r.global_ctrl);
	EXPECT_U64(0, r.global_status);
	EXPECT_TRUE(!r.pmi_line && !r.pmi_raise && !r.lvt_masked);
}

static void test_sim_counts_basic(void)
{
	struct knc_sim_regs r;
	struct knc_sim_burst b = burst(0x00, 0x00, true, 1, 1000);

	sim_setup(&r, 0, sel(0x00, 0x00, CNT_ALL), 0);
	EXPECT_TRUE(!knc_sim_step(&r, &b));
	EXPECT_U64(1000, r.ctr[0]);
	EXPECT_U64(0, r.ctr[1]);
	EXPECT_U64(0, b.cycles);
	EXPECT_TRUE(b.started);
	EXPECT_U64(0, r.global_status);

	/* counter 1 alone */
	b = burst(0xcb, 0x10, false, 3, 50);
	sim_setup(&r, 1, sel(0xcb, 0x10, CNT_ALL), 7);
	EXPECT_TRUE(!knc_sim_step(&r, &b));
	EXPECT_U64(0, r.ctr[0]);
	EXPECT_U64(7 + 150, r.ctr[1]);
}

static void test_sim_zero_burst(void)
{
	struct knc_sim_regs r;
	struct knc_sim_burst b = burst(0x2a, 0x00, true, 1, 0);

	sim_setup(&r, 0, sel(0x2a, 0x00, CNT_ALL | T_INT), T_CTR_MASK);
	EXPECT_TRUE(!knc_sim_step(&r, &b));
	EXPECT_U64(T_CTR_MASK, r.ctr[0]);
	EXPECT_U64(0, r.global_status);
	EXPECT_U64(0, b.cycles);
}

static void test_sim_needs_en_and_global(void)
{
	unsigned int en, gc;

	for (en = 0; en < 2; en++)
		for (gc = 0; gc < 4; gc++) {
			struct knc_sim_regs r;
			struct knc_sim_burst b = burst(0x16, 0x00, true, 1, 100);

			knc_sim_reset(&r);
			knc_sim_write_evtsel_reg(&r, 0, sel(0x16, 0x00, T_USR | T_OS |
							    (en ? T_EN : 0)));
			knc_sim_write_global_ctrl_reg(&r, gc);
			knc_sim_step(&r, &b);
			t_set_ctx("EvtSel0.EN %u GLOBAL_CTRL %#x", en, gc);
			EXPECT_U64(en && (gc & 1) ? 100 : 0, r.ctr[0]);
			EXPECT_U64(0, r.ctr[1]);
			EXPECT_U64(0, b.cycles);
		}
}

static void test_sim_mode_filter(void)
{
	unsigned int m, u;

	for (m = 0; m < 4; m++)
		for (u = 0; u < 2; u++) {
			unsigned long long flags = T_EN | (m & 1 ? T_USR : 0) |
						   (m & 2 ? T_OS : 0);
			bool counts = u ? (m & 1) : (m & 2);
			struct knc_sim_regs r;
			struct knc_sim_burst b = burst(0x2a, 0x00, u, 2, 10);

			sim_setup(&r, 0, sel(0x2a, 0x00, flags), 0);
			knc_sim_step(&r, &b);
			t_set_ctx("USR %u OS %u, burst in %s", m & 1, !!(m & 2),
				  u ? "user" : "kernel");
			EXPECT_U64(counts ? 20 : 0, r.ctr[0]);
		}
}

static void test_sim_event_must_match(void)
{
	struct knc_sim_regs r;
	struct knc_sim_burst b;

	sim_setup(&r, 0, sel(0x2a, 0x00, CNT_ALL), 0);
	b = burst(0x16, 0x00, true, 1, 10);	/* other event */
	knc_sim_step(&r, &b);
	EXPECT_U64(0, r.ctr[0]);
	sim_setup(&r, 0, sel(0x16, 0x00, CNT_ALL), 0);
	b = burst(0x16, 0x20, true, 1, 10);	/* same code, VPU umask */
	knc_sim_step(&r, &b);
	EXPECT_U64(0, r.ctr[0]);
	b = burst(0x16, 0x00, true, 1, 10);
	knc_sim_step(&r, &b);
	EXPECT_U64(10, r.ctr[0]);
}

static void test_sim_undefined_never_counts(void)
{
	static const unsigned int pairs[][2] = {
		{ 0x05, 0x00 }, { 0xcb, 0x00 }, { 0xc3, 0x10 }, { 0x3c, 0x00 },
		{ 0x00, 0x10 }, { 0x19, 0x20 }, { 0xff, 0xff },
	};
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(pairs); i++) {
		struct knc_sim_regs r;
		struct knc_sim_burst b = burst(pairs[i][0], pairs[i][1], true, 5, 100);

		sim_setup(&r, 0, sel(pairs[i][0], pairs[i][1], CNT_ALL | T_INT),
			  T_CTR_MASK);
		knc_sim_write_evtsel_reg(&r, 1, sel(pairs[i][0], pairs[i][1],
						    CNT_ALL | T_CMASK(1)));
		knc_sim_write_global_ctrl_reg(&r, 3);
		t_set_ctx("event %#x umask %#x", pairs[i][0], pairs[i][1]);
		EXPECT_TRUE(!knc_sim_step(&r, &b));
		EXPECT_U64(T_CTR_MASK, r.ctr[0]);
		EXPECT_U64(0, r.ctr[1]);
		EXPECT_U64(0, r.global_status);
		EXPECT_U64(0, b.cycles);
	}
}

static void test_sim_per_cycle(void)
{
	struct knc_sim_regs r;
	struct knc_sim_burst b = burst(0x16, 0x00, true, 7, 10);

	sim_setup(&r, 0, sel(0x16, 0x00, CNT_ALL), 0);
	knc_sim_step(&r, &b);
	EXPECT_U64(70, r.ctr[0]);
	b = burst(0x16, 0x00, true, 255, 1000);
	knc_sim_step(&r, &b);
	EXPECT_U64(70 + 255000, r.ctr[0]);
	/* INV without CMASK changes nothing */
	sim_setup(&r, 0, sel(0x16, 0x00, CNT_ALL | T_INV), 0);
	b = burst(0x16, 0x00, true, 7, 10);
	knc_sim_step(&r, &b);
	EXPECT_U64(70, r.ctr[0]);
}

static void test_sim_cmask(void)
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

	for (i = 0; i < ARRAY_SIZE(rows); i++) {
		struct knc_sim_regs r;
		struct knc_sim_burst b = burst(0x1f, 0x00, false, rows[i].per_cycle, 40);

		sim_setup(&r, 1, sel(0x1f, 0x00, CNT_ALL | T_CMASK(rows[i].cmask) |
				     (rows[i].inv ? T_INV : 0)), 0);
		knc_sim_step(&r, &b);
		t_set_ctx("cmask %u inv %u per_cycle %u", rows[i].cmask,
			  rows[i].inv, rows[i].per_cycle);
		EXPECT_U64(rows[i].exp, r.ctr[1]);
	}
}

static void test_sim_edge(void)
{
	static const struct {
		unsigned int cmask, inv, per_cycle;
		unsigned long long exp;
	} rows[] = {
		{ 0, 0, 4, 1 }, { 0, 0, 1, 1 }, { 3, 0, 2, 0 }, { 3, 0, 5, 1 },
		{ 3, 1, 2, 1 }, { 3, 1, 5, 0 },
	};
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(rows); i++) {
		struct knc_sim_regs r;
		struct knc_sim_burst b = burst(0x1f, 0x00, true, rows[i].per_cycle, 100);

		sim_setup(&r, 0, sel(0x1f, 0x00, CNT_ALL | T_EDGE |
				     T_CMASK(rows[i].cmask) |
				     (rows[i].inv ? T_INV : 0)), 0);
		knc_sim_step(&r, &b);
		t_set_ctx("edge cmask %u inv %u per_cycle %u", rows[i].cmask,
			  rows[i].inv, rows[i].per_cycle);
		EXPECT_U64(rows[i].exp, r.ctr[0]);
		EXPECT_U64(0, b.cycles);
	}
}

static void test_sim_edge_across_steps(void)
{
	struct knc_sim_regs r;
	struct knc_sim_burst b = burst(0x2a, 0x00, true, 1, 100);

	/* counter 1 interrupts after 10 cycles and splits the burst */
	sim_setup(&r, 0, sel(0x2a, 0x00, CNT_ALL | T_EDGE), 0);
	knc_sim_write_counter_reg(&r, 1, T_CTR_TOP - 10);
	knc_sim_write_evtsel_reg(&r, 1, sel(0x2a, 0x00, CNT_ALL | T_INT));
	knc_sim_write_global_ctrl_reg(&r, 3);

	EXPECT_TRUE(knc_sim_step(&r, &b));
	EXPECT_U64(90, b.cycles);
	EXPECT_U64(1, r.ctr[0]);
	sim_isr(&r);
	EXPECT_TRUE(!knc_sim_step(&r, &b));
	EXPECT_U64(0, b.cycles);
	EXPECT_U64(1, r.ctr[0]);	/* the burst started once */
	EXPECT_U64(90, r.ctr[1]);

	/* a new burst is a new edge */
	b = burst(0x2a, 0x00, true, 1, 5);
	knc_sim_step(&r, &b);
	EXPECT_U64(2, r.ctr[0]);
}

static void test_sim_edge_int_overflow(void)
{
	struct knc_sim_regs r;
	struct knc_sim_burst b = burst(0x2a, 0x00, true, 1, 50);

	/* the one edge count overflows: the step ends on that cycle */
	sim_setup(&r, 0, sel(0x2a, 0x00, CNT_ALL | T_EDGE | T_INT), T_CTR_MASK);
	EXPECT_TRUE(knc_sim_step(&r, &b));
	EXPECT_U64(49, b.cycles);
	EXPECT_U64(0, r.ctr[0]);
	EXPECT_U64(1, r.global_status);

	/* one below: no overflow, the burst runs through */
	b = burst(0x2a, 0x00, true, 1, 50);
	sim_setup(&r, 0, sel(0x2a, 0x00, CNT_ALL | T_EDGE | T_INT), T_CTR_MASK - 1);
	EXPECT_TRUE(!knc_sim_step(&r, &b));
	EXPECT_U64(0, b.cycles);
	EXPECT_U64(T_CTR_MASK, r.ctr[0]);
	EXPECT_U64(0, r.global_status);
}

static void test_sim_overflow_without_int(void)
{
	struct knc_sim_regs r;
	struct knc_sim_burst b = burst(0x2a, 0x00, true, 1, 100);

	sim_setup(&r, 0, sel(0x2a, 0x00, CNT_ALL), T_CTR_TOP - 10);
	EXPECT_TRUE(!knc_sim_step(&r, &b));
	EXPECT_U64(0, b.cycles);		/* no INT: no stop */
	EXPECT_U64(90, r.ctr[0]);
	EXPECT_U64(0x1, r.global_status);	/* sticky status anyway */
	EXPECT_TRUE(!r.pmi_line);
	EXPECT_TRUE(!r.pmi_raise);
	EXPECT_TRUE(!r.lvt_masked);
}

static void test_sim_status_sticky(void)
{
	struct knc_sim_regs r;
	struct knc_sim_burst b = burst(0x2a, 0x00, true, 1, 100);

	sim_setup(&r, 1, sel(0x2a, 0x00, CNT_ALL), T_CTR_TOP - 10);
	knc_sim_step(&r, &b);
	EXPECT_U64(0x2, r.global_status);
	b = burst(0x2a, 0x00, true, 1, 100);
	knc_sim_step(&r, &b);
	knc_sim_write_counter_reg(&r, 1, 0);
	knc_sim_write_evtsel_reg(&r, 1, 0);
	knc_sim_write_global_ctrl_reg(&r, 0);
	EXPECT_U64(0x2, r.global_status);
	knc_sim_write_ovf_ctrl_reg(&r, 0x1);	/* the other counter's bit */
	EXPECT_U64(0x2, r.global_status);
	knc_sim_write_ovf_ctrl_reg(&r, 0x0);
	EXPECT_U64(0x2, r.global_status);
	knc_sim_write_ovf_ctrl_reg(&r, 0x2);
	EXPECT_U64(0x0, r.global_status);
}

static void test_sim_int_overflow_delivers_pmi(void)
{
	struct knc_sim_regs r;
	struct knc_sim_burst b = burst(0x2a, 0x00, true, 1, 100);

	sim_setup(&r, 0, sel(0x2a, 0x00, CNT_ALL | T_INT), T_CTR_TOP - 10);
	EXPECT_TRUE(knc_sim_step(&r, &b));
	EXPECT_U64(90, b.cycles);		/* stopped at the overflow cycle */
	EXPECT_U64(0, r.ctr[0]);
	EXPECT_U64(0x1, r.global_status);
	EXPECT_TRUE(r.pmi_line);
	EXPECT_TRUE(r.pmi_raise);
	EXPECT_TRUE(r.lvt_masked);
}

static void test_sim_pmi_once_per_edge(void)
{
	struct knc_sim_regs r;
	struct knc_sim_burst b = burst(0x2a, 0x00, true, 1, 100);

	sim_setup(&r, 0, sel(0x2a, 0x00, CNT_ALL | T_INT), T_CTR_TOP - 10);
	EXPECT_TRUE(knc_sim_step(&r, &b));
	r.pmi_raise = false;		/* the owner took it */
	/* status not cleared, LVT not unmasked: the rest runs, no new PMI */
	EXPECT_TRUE(!knc_sim_step(&r, &b));
	EXPECT_U64(0, b.cycles);
	EXPECT_U64(90, r.ctr[0]);
	EXPECT_TRUE(!r.pmi_raise);
	EXPECT_TRUE(r.pmi_line);
	/* unmasking while the line stays high delivers nothing */
	knc_sim_unmask_pmi(&r);
	EXPECT_TRUE(!r.pmi_raise);
	EXPECT_TRUE(!r.lvt_masked);
}

static void test_sim_line_high_no_redelivery(void)
{
	struct knc_sim_regs r;
	struct knc_sim_burst b = burst(0x2a, 0x00, true, 1, 100);

	/* PMI taken and the LVT unmasked, but the status never acked */
	sim_setup(&r, 0, sel(0x2a, 0x00, CNT_ALL | T_INT), T_CTR_TOP - 10);
	EXPECT_TRUE(knc_sim_step(&r, &b));
	r.pmi_raise = false;
	knc_sim_unmask_pmi(&r);
	EXPECT_TRUE(!r.pmi_raise);
	EXPECT_TRUE(r.pmi_line);

	/* the line stays high: later steps deliver nothing (no new edge) */
	EXPECT_TRUE(!knc_sim_step(&r, &b));
	EXPECT_U64(0, b.cycles);
	EXPECT_U64(90, r.ctr[0]);
	EXPECT_TRUE(!r.pmi_raise);
	EXPECT_TRUE(!r.lvt_masked);

	/* counter 1 overflowing rides on the same high line */
	knc_sim_write_counter_reg(&r, 1, T_CTR_TOP - 5);
	knc_sim_write_evtsel_reg(&r, 1, sel(0x2a, 0x00, CNT_ALL | T_INT));
	knc_sim_write_global_ctrl_reg(&r, 3);
	EXPECT_TRUE(!r.pmi_raise);
	b = burst(0x2a, 0x00, true, 1, 20);
	EXPECT_TRUE(!knc_sim_step(&r, &b));
	EXPECT_U64(15, b.cycles);		/* still stops at the overflow */
	EXPECT_U64(0x3, r.global_status);
	EXPECT_TRUE(!r.pmi_raise);
	EXPECT_TRUE(!r.lvt_masked);

	/* acking both drops the line; the next overflow is an edge again */
	knc_sim_write_ovf_ctrl_reg(&r, 0x3);
	EXPECT_TRUE(!r.pmi_line);
	knc_sim_write_counter_reg(&r, 1, T_CTR_TOP - 5);
	EXPECT_TRUE(knc_sim_step(&r, &b));
	EXPECT_U64(10, b.cycles);
	EXPECT_U64(0x2, r.global_status);
	EXPECT_TRUE(r.pmi_raise && r.lvt_masked);
}

static void test_sim_masked_overflow_not_delivered(void)
{
	struct knc_sim_regs r;
	struct knc_sim_burst b = burst(0x2a, 0x00, true, 1, 100);

	sim_setup(&r, 0, sel(0x2a, 0x00, CNT_ALL | T_INT), T_CTR_TOP - 10);
	EXPECT_TRUE(knc_sim_step(&r, &b));
	r.pmi_raise = false;
	knc_sim_write_ovf_ctrl_reg(&r, 0x1);	/* ack, but forget to unmask */
	EXPECT_TRUE(!r.pmi_line);
	EXPECT_TRUE(r.lvt_masked);

	knc_sim_write_counter_reg(&r, 0, T_CTR_TOP - 5);
	EXPECT_TRUE(!knc_sim_step(&r, &b));
	EXPECT_U64(0, b.cycles);		/* masked: no stop at the overflow */
	EXPECT_U64(85, r.ctr[0]);		/* counted on past it */
	EXPECT_U64(0x1, r.global_status);
	EXPECT_TRUE(r.pmi_line);
	EXPECT_TRUE(!r.pmi_raise);		/* masked: lost */
	knc_sim_unmask_pmi(&r);
	EXPECT_TRUE(!r.pmi_raise);		/* and not replayed */
	EXPECT_TRUE(!r.lvt_masked);
}

static void test_sim_ovf_ctrl_drops_line(void)
{
	struct knc_sim_regs r;
	struct knc_sim_burst b = burst(0x2a, 0x00, true, 1, 100);

	sim_setup(&r, 0, sel(0x2a, 0x00, CNT_ALL | T_INT), T_CTR_TOP - 10);
	knc_sim_step(&r, &b);
	EXPECT_TRUE(r.pmi_line);
	knc_sim_write_ovf_ctrl_reg(&r, 0x2);	/* wrong bit: no effect */
	EXPECT_U64(0x1, r.global_status);
	EXPECT_TRUE(r.pmi_line);
	knc_sim_write_ovf_ctrl_reg(&r, ~0ULL);	/* bits above 1 ignored */
	EXPECT_U64(0x0, r.global_status);
	EXPECT_TRUE(!r.pmi_line);
}

static void test_sim_unmask_then_new_overflow(void)
{
	struct knc_sim_regs r;
	struct knc_sim_burst b = burst(0x2a, 0x00, true, 1, 100);

	sim_setup(&r, 0, sel(0x2a, 0x00, CNT_ALL | T_INT), T_CTR_TOP - 10);
	EXPECT_TRUE(knc_sim_step(&r, &b));
	sim_isr(&r);
	EXPECT_TRUE(!r.pmi_line && !r.pmi_raise && !r.lvt_masked);
	EXPECT_U64(0, r.global_status);

	knc_sim_write_counter_reg(&r, 0, T_CTR_TOP - 20);
	EXPECT_TRUE(knc_sim_step(&r, &b));
	EXPECT_U64(70, b.cycles);
	EXPECT_U64(0x1, r.global_status);
	EXPECT_TRUE(r.pmi_raise && r.pmi_line && r.lvt_masked);
}

static void test_sim_int_enabled_after_overflow(void)
{
	struct knc_sim_regs r;
	struct knc_sim_burst b = burst(0x2a, 0x00, true, 1, 100);

	/* status set with INT off; setting INT raises the line then */
	sim_setup(&r, 0, sel(0x2a, 0x00, CNT_ALL), T_CTR_TOP - 10);
	knc_sim_step(&r, &b);
	EXPECT_TRUE(!r.pmi_line && !r.pmi_raise);
	knc_sim_write_evtsel_reg(&r, 0, sel(0x2a, 0x00, CNT_ALL | T_INT));
	EXPECT_TRUE(r.pmi_line);
	EXPECT_TRUE(r.pmi_raise);
	EXPECT_TRUE(r.lvt_masked);
	/* clearing INT drops the line but leaves the status */
	r.pmi_raise = false;
	knc_sim_write_evtsel_reg(&r, 0, sel(0x2a, 0x00, CNT_ALL));
	EXPECT_TRUE(!r.pmi_line);
	EXPECT_U64(0x1, r.global_status);
}

static void test_sim_two_counters_one_line(void)
{
	struct knc_sim_regs r;
	struct knc_sim_burst b = burst(0x2a, 0x00, true, 1, 100);

	knc_sim_reset(&r);
	knc_sim_write_counter_reg(&r, 0, T_CTR_TOP - 10);
	knc_sim_write_counter_reg(&r, 1, T_CTR_TOP - 5);
	knc_sim_write_evtsel_reg(&r, 0, sel(0x2a, 0x00, CNT_ALL | T_INT));
	knc_sim_write_evtsel_reg(&r, 1, sel(0x2a, 0x00, CNT_ALL | T_INT));
	knc_sim_write_global_ctrl_reg(&r, 3);

	EXPECT_TRUE(knc_sim_step(&r, &b));	/* counter 1 first */
	EXPECT_U64(95, b.cycles);
	EXPECT_U64(T_CTR_TOP - 5, r.ctr[0]);
	EXPECT_U64(0, r.ctr[1]);
	EXPECT_U64(0x2, r.global_status);
	r.pmi_raise = false;
	/* the PMI masked the LVT entry: the rest counts in one step */
	EXPECT_TRUE(!knc_sim_step(&r, &b));
	EXPECT_U64(0, b.cycles);
	EXPECT_U64(90, r.ctr[0]);
	EXPECT_U64(95, r.ctr[1]);
	EXPECT_U64(0x3, r.global_status);	/* both reported at once */
	EXPECT_TRUE(!r.pmi_raise);
	/* acking one still leaves the line high */
	knc_sim_write_ovf_ctrl_reg(&r, 0x2);
	EXPECT_TRUE(r.pmi_line);
	knc_sim_write_ovf_ctrl_reg(&r, 0x1);
	EXPECT_TRUE(!r.pmi_line);
}

static void test_sim_step_stops_at_overflow(void)
{
	struct knc_sim_regs r;
	struct knc_sim_burst b = burst(0x2a, 0x00, true, 1, 100);

	sim_setup(&r, 0, sel(0x2a, 0x00, CNT_ALL | T_INT), T_CTR_TOP - 10);
	knc_sim_step(&r, &b);
	EXPECT_U64(90, b.cycles);	/* first step consumed 10 cycles */
	EXPECT_U64(0, r.ctr[0]);
	sim_isr(&r);
	EXPECT_TRUE(!knc_sim_step(&r, &b));
	EXPECT_U64(0, b.cycles);
	EXPECT_U64(90, r.ctr[0]);
	EXPECT_U64(0, r.global_status);

	/* overflow exactly on the last cycle */
	b = burst(0x2a, 0x00, true, 1, 100);
	sim_setup(&r, 0, sel(0x2a, 0x00, CNT_ALL | T_INT), T_CTR_TOP - 100);
	EXPECT_TRUE(knc_sim_step(&r, &b));
	EXPECT_U64(0, b.cycles);
	EXPECT_U64(0, r.ctr[0]);

	/* one short of it: no overflow */
	b = burst(0x2a, 0x00, true, 1, 99);
	sim_setup(&r, 0, sel(0x2a, 0x00, CNT_ALL | T_INT), T_CTR_TOP - 100);
	EXPECT_TRUE(!knc_sim_step(&r, &b));
	EXPECT_U64(0, b.cycles);
	EXPECT_U64(T_CTR_MASK, r.ctr[0]);
	EXPECT_U64(0, r.global_status);
}

static void test_sim_step_overshoot(void)
{
	struct knc_sim_regs r;
	struct knc_sim_burst b = burst(0x16, 0x00, true, 7, 100);

	/* 7 per cycle from 2^40-10: the 2nd cycle overflows, to 4 */
	sim_setup(&r, 0, sel(0x16, 0x00, CNT_ALL | T_INT), T_CTR_TOP - 10);
	EXPECT_TRUE(knc_sim_step(&r, &b));
	EXPECT_U64(98, b.cycles);
	EXPECT_U64(4, r.ctr[0]);
	EXPECT_U64(1, r.global_status);

	/* with CMASK the counter adds 1 per qualifying cycle */
	b = burst(0x16, 0x00, true, 7, 100);
	sim_setup(&r, 0, sel(0x16, 0x00, CNT_ALL | T_INT | T_CMASK(2)),
		  T_CTR_TOP - 10);
	EXPECT_TRUE(knc_sim_step(&r, &b));
	EXPECT_U64(90, b.cycles);
	EXPECT_U64(0, r.ctr[0]);
}

/* Run a burst with an ISR after every PMI; check the wraps and the end value. */
static void check_long_burst(unsigned long long start, unsigned int per_cycle,
			     unsigned long long cycles)
{
	unsigned __int128 total = (unsigned __int128)start +
				  (unsigned __int128)per_cycle * cycles;
	unsigned long long exp_wraps = (unsigned long long)(total >> 40);
	unsigned long long exp_end = (unsigned long long)total & T_CTR_MASK;
	unsigned long long pmis = 0, steps = 0, cycles_seen = 0;
	struct knc_sim_regs r;
	struct knc_sim_burst b = burst(0x2a, 0x00, true, per_cycle, cycles);
	bool bad_step = false;

	t_set_ctx("start %#llx per_cycle %u cycles %#llx", start, per_cycle, cycles);
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
			/* ack counter 0 only: counter 1's bit stays sticky */
			r.pmi_raise = false;
			knc_sim_write_ovf_ctrl_reg(&r, 0x1);
			knc_sim_unmask_pmi(&r);
		}
	}
	EXPECT_U64(0, b.cycles);
	EXPECT_U64(cycles, cycles_seen);
	EXPECT_TRUE(!bad_step);
	EXPECT_U64(exp_wraps, pmis);
	/* one step per wrap, plus one unless the last cycle wrapped */
	EXPECT_U64(exp_wraps + (exp_wraps && exp_end < per_cycle ? 0 : 1), steps);
	EXPECT_U64(exp_end, r.ctr[0]);
	EXPECT_U64(exp_end, r.ctr[1]);
	EXPECT_U64(exp_wraps ? 0x2 : 0x0, r.global_status);
	t_set_ctx("%s", "");
}

static void test_sim_burst_2_40_plus_5(void)
{
	/* from 0: one wrap after 2^40 cycles, then 5 more */
	check_long_burst(0, 1, T_CTR_TOP + 5);
	/* from 2^40-3: wraps after 3 and 2^40+3 cycles, ends at 2 */
	check_long_burst(T_CTR_TOP - 3, 1, T_CTR_TOP + 5);
}

static void test_sim_long_bursts(void)
{
	check_long_burst(0, 1, 1000);
	check_long_burst(T_CTR_MASK, 1, 1);
	check_long_burst(T_CTR_MASK, 255, 3);
	check_long_burst(0x123456789ULL, 255, 3 * T_CTR_TOP / 255 + 17);
	check_long_burst(T_CTR_TOP - 1000, 7, 5 * T_CTR_TOP / 7);
	check_long_burst(knc_counter_start(2000003), 1, 2000003);
}

static void test_sim_int_counter_not_counting_does_not_stop(void)
{
	struct knc_sim_regs r;
	struct knc_sim_burst b = burst(0x2a, 0x00, true, 1, 100);

	/* counter 0: INT, near the top, but kernel only; counter 1 counts */
	sim_setup(&r, 0, sel(0x2a, 0x00, T_EN | T_OS | T_INT), T_CTR_TOP - 10);
	knc_sim_write_evtsel_reg(&r, 1, sel(0x2a, 0x00, CNT_ALL));
	knc_sim_write_global_ctrl_reg(&r, 3);
	EXPECT_TRUE(!knc_sim_step(&r, &b));
	EXPECT_U64(0, b.cycles);
	EXPECT_U64(T_CTR_TOP - 10, r.ctr[0]);
	EXPECT_U64(100, r.ctr[1]);
	EXPECT_U64(0, r.global_status);
}

static void test_sim_no_counter_consumes_all(void)
{
	struct knc_sim_regs r;
	struct knc_sim_burst b = burst(0x2a, 0x00, true, 1, 123456789);

	knc_sim_reset(&r);
	EXPECT_TRUE(!knc_sim_step(&r, &b));
	EXPECT_U64(0, b.cycles);
	EXPECT_TRUE(b.started);
	EXPECT_U64(0, r.ctr[0]);
	EXPECT_U64(0, r.ctr[1]);
}

static void test_sim_spflt(void)
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

	for (i = 0; i < ARRAY_SIZE(rows); i++) {
		struct knc_sim_regs r;
		struct knc_sim_burst b = burst(0x16, 0x00, true, 1, 100);

		knc_sim_reset(&r);
		knc_sim_write_evtsel_reg(&r, 0, sel(0x16, 0x00, CNT_ALL));
		knc_sim_write_evtsel_reg(&r, 1, sel(0x16, 0x00, CNT_ALL));
		knc_sim_write_global_ctrl_reg(&r, 3);
		r.spflt = rows[i].spflt;
		knc_sim_step(&r, &b);
		t_set_ctx("SPFLT %#llx", rows[i].spflt);
		EXPECT_U64(rows[i].exp0, r.ctr[0]);
		EXPECT_U64(rows[i].exp1, r.ctr[1]);
	}
}

static void test_sim_spflt_toggle(void)
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
	EXPECT_U64(20, r.ctr[0]);
}

static void test_sim_driver_cycle(void)
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
	EXPECT_U64(3300, count);
	EXPECT_U64(3, samples);
}

/* ------------------------------------------------------------------ */

#define CASE(name) { #name, test_##name }

static const struct t_case cases[] = {
	CASE(layout_msrs),
	CASE(layout_evtsel_bits),
	CASE(layout_widths),
	CASE(table_count),
	CASE(table_matches_spec),
	CASE(table_names_lower_case),
	CASE(table_unique),
	CASE(table_cntmask),
	CASE(table_periods),
	CASE(lookup_known),
	CASE(hw_cache_map),
	CASE(hw_cache_errors),
	CASE(lookup_undefined),
	CASE(lookup_exhaustive),
	CASE(lookup_name_events),
	CASE(lookup_name_aliases),
	CASE(alias_table),
	CASE(lookup_name_unknown),
	CASE(config_zero_is_data_read),
	CASE(config_driver_bits_rejected),
	CASE(config_high_bits_rejected),
	CASE(config_pairs_exhaustive),
	CASE(config_format_bits_accepted),
	CASE(evtsel_mode_flags),
	CASE(evtsel_format_bits_kept),
	CASE(evtsel_never_sets_driver_bits),
	CASE(assign_all_combinations),
	CASE(assign_all_combinations_hints),
	CASE(assign_counter0_only_pair_fails),
	CASE(assign_evicts_via_hint),
	CASE(assign_keeps_hints),
	CASE(assign_bounds),
	CASE(assign_table_pairs),
	CASE(delta_plain),
	CASE(delta_wrap),
	CASE(period_adjust_not_elapsed),
	CASE(period_adjust_elapsed),
	CASE(period_adjust_reset),
	CASE(counter_start),
	CASE(counter_start_clamps),
	CASE(counter_start_overflows_after_left),
	CASE(sim_reset),
	CASE(sim_write_masks),
	CASE(sim_counts_basic),
	CASE(sim_zero_burst),
	CASE(sim_needs_en_and_global),
	CASE(sim_mode_filter),
	CASE(sim_event_must_match),
	CASE(sim_undefined_never_counts),
	CASE(sim_per_cycle),
	CASE(sim_cmask),
	CASE(sim_edge),
	CASE(sim_edge_across_steps),
	CASE(sim_edge_int_overflow),
	CASE(sim_overflow_without_int),
	CASE(sim_status_sticky),
	CASE(sim_int_overflow_delivers_pmi),
	CASE(sim_pmi_once_per_edge),
	CASE(sim_line_high_no_redelivery),
	CASE(sim_masked_overflow_not_delivered),
	CASE(sim_ovf_ctrl_drops_line),
	CASE(sim_unmask_then_new_overflow),
	CASE(sim_int_enabled_after_overflow),
	CASE(sim_two_counters_one_line),
	CASE(sim_step_stops_at_overflow),
	CASE(sim_step_overshoot),
	CASE(sim_burst_2_40_plus_5),
	CASE(sim_long_bursts),
	CASE(sim_int_counter_not_counting_does_not_stop),
	CASE(sim_no_counter_consumes_all),
	CASE(sim_spflt),
	CASE(sim_spflt_toggle),
	CASE(sim_driver_cycle),
};

static bool selected(const char *name, int argc, char **argv)
{
	int i;

	if (argc < 2)
		return true;
	for (i = 1; i < argc; i++)
		if (strstr(name, argv[i]))
			return true;
	return false;
}

int main(int argc, char **argv)
{
	unsigned int i, n = 0, num = 0, failed = 0;

	for (i = 0; i < ARRAY_SIZE(cases); i++)
		n += selected(cases[i].name, argc, argv);

	printf("TAP version 13\n1..%u\n", n);
	for (i = 0; i < ARRAY_SIZE(cases); i++) {
		if (!selected(cases[i].name, argc, argv))
			continue;
		t_failed_checks = 0;
		t_diag_len = 0;
		t_diag[0] = '\0';
		t_ctx[0] = '\0';
		cases[i].fn();
		num++;
		if (t_failed_checks) {
			failed++;
			printf("not ok %u - %s\n%s", num, cases[i].name, t_diag);
			if (t_diag_len >= sizeof(t_diag) - 1)
				printf("# (diagnostics truncated)\n");
			printf("# %u check(s) failed\n", t_failed_checks);
		} else {
			printf("ok %u - %s\n", num, cases[i].name);
		}
		fflush(stdout);
	}
	if (failed)
		printf("# %u of %u case(s) failed\n", failed, n);
	return failed ? 1 : 0;
}
