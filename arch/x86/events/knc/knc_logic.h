/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Knights Corner core PMU: register layout and the pure logic shared by the
 * driver and its unit tests, which build on the host too. Nothing in here
 * touches hardware or perf core state.
 */
#ifndef _KNC_LOGIC_H
#define _KNC_LOGIC_H

#include <linux/types.h>
#include <linux/bits.h>

/*
 * The symbol namespace of knc_pmu's exports: EXPORT_SYMBOL_NS_GPL(sym,
 * KNC_NS), MODULE_IMPORT_NS(KNC_NS). A string literal since 6.13; before,
 * a bare identifier the macros stringify.
 */
#ifdef KNC_NS_IDENT
#define KNC_NS KNC_PMU
#else
#define KNC_NS "KNC_PMU"
#endif

#define KNC_NUM_COUNTERS	2
#define KNC_CNTVAL_BITS		40
#define KNC_CNTVAL_MASK		GENMASK_ULL(KNC_CNTVAL_BITS - 1, 0)
/* Largest period: the counter is started at -period, keep it positive. */
#define KNC_MAX_PERIOD		(BIT_ULL(KNC_CNTVAL_BITS - 1) - 1)
#define KNC_COUNTERS_MASK	GENMASK(KNC_NUM_COUNTERS - 1, 0)

/* MSRs (Intel 327357-001, table 1-2); all per hardware thread. */
#define KNC_MSR_PERFCTR0	0x20
#define KNC_MSR_EVNTSEL0	0x28
#define KNC_MSR_SPFLT_CTRL	0x2c
#define KNC_MSR_GLOBAL_STATUS	0x2d
#define KNC_MSR_GLOBAL_OVF_CTRL	0x2e
#define KNC_MSR_GLOBAL_CTRL	0x2f

/* IA32_PerfEvtSelX (Intel 327357-001, table 1-5). */
#define KNC_EVTSEL_EVENT	GENMASK_ULL(7, 0)
#define KNC_EVTSEL_UMASK	GENMASK_ULL(15, 8)
#define KNC_EVTSEL_USR		BIT_ULL(16)
#define KNC_EVTSEL_OS		BIT_ULL(17)
#define KNC_EVTSEL_EDGE		BIT_ULL(18)
#define KNC_EVTSEL_INT		BIT_ULL(20)
#define KNC_EVTSEL_ANY		BIT_ULL(21)
#define KNC_EVTSEL_EN		BIT_ULL(22)
#define KNC_EVTSEL_INV		BIT_ULL(23)
#define KNC_EVTSEL_CMASK	GENMASK_ULL(31, 24)

/* PERF_SPFLT_CONTROL (Intel 327357-001, table 1-7). */
#define KNC_SPFLT_USER_PREF	BIT_ULL(63)

/*
 * Reserved bits (tables 1-4, 1-5, 1-7, 1-9, 1-10): a WRMSR with one set
 * raises #GP. EvtSel bit 19 is the P6's pin control, reserved here.
 */
#define KNC_CNTVAL_RESERVED	GENMASK_ULL(63, KNC_CNTVAL_BITS)
#define KNC_EVTSEL_RESERVED	(GENMASK_ULL(63, 32) | BIT_ULL(19))
#define KNC_SPFLT_RESERVED	GENMASK_ULL(62, KNC_NUM_COUNTERS)
#define KNC_GLOBAL_RESERVED	GENMASK_ULL(63, KNC_NUM_COUNTERS)

/*
 * The perf_event_attr::config bits a user may set (the sysfs format); ANY
 * only with the privilege the driver checks.
 */
#define KNC_CONFIG_MASK		(KNC_EVTSEL_EVENT | KNC_EVTSEL_UMASK | \
				 KNC_EVTSEL_EDGE | KNC_EVTSEL_ANY | \
				 KNC_EVTSEL_INV | KNC_EVTSEL_CMASK)

/**
 * struct knc_event_desc - one event of the KNC event table
 * @name: sysfs alias name (lower case)
 * @event: event select code, EvtSel bits 7:0
 * @umask: unit mask, EvtSel bits 15:8
 * @cntmask: counters the event may use (bit N: counter N)
 * @period: default sampling period (the JSON SampleAfterValue)
 *
 * The tables are generated from tools/perf/pmu-events/knc/ JSON.
 */
struct knc_event_desc {
	const char *name;
	u8 event;
	u8 umask;
	u8 cntmask;
	u32 period;
};

/* PERF_TYPE_HARDWARE ids (PERF_COUNT_HW_MAX) */
#define KNC_GENERIC_IDS		10

/* PERF_TYPE_HW_CACHE id ranges (PERF_COUNT_HW_CACHE_{,OP_,RESULT_}MAX) */
#define KNC_HW_CACHE_IDS	7
#define KNC_HW_CACHE_OPS	3
#define KNC_HW_CACHE_RESULTS	2

/*
 * knc_events.tbl, generated from the perf JSON event tables, defines
 * these; knc_logic.c includes it.
 */
extern const struct knc_event_desc knc_events[];
extern const unsigned int knc_num_events;
/* perf's generic names (cycles, ...): sysfs aliases of table events */
extern const struct knc_event_desc knc_aliases[];
extern const unsigned int knc_num_aliases;
/* a PERF_TYPE_HARDWARE id's knc_events[] index + 1; 0: none */
extern const u8 knc_generic_map[KNC_GENERIC_IDS];
/* a PERF_TYPE_HW_CACHE config's index + 1; 0: none; -1: makes no sense */
extern const s8 knc_hw_cache_map[KNC_HW_CACHE_IDS][KNC_HW_CACHE_OPS]
				[KNC_HW_CACHE_RESULTS];

int knc_event_lookup(u8 event, u8 umask);
int knc_generic_lookup(u64 id);
int knc_hw_cache_lookup(u64 config);
int knc_event_lookup_name(const char *name);
const struct knc_event_desc *knc_event_by_code(u8 event, u8 umask);
const struct knc_event_desc *knc_event_by_name(const char *name);
int knc_config_check(u64 config);
u64 knc_evtsel(u64 config, bool usr, bool os);
int knc_assign(const u8 *cntmask, const int *hint, int n, int *assign);

/*
 * The counter arithmetic of every context switch and PMI: inline, so that
 * add() and del() do not pay a call for an instruction or three.
 */

/**
 * knc_delta - events between two reads of a 40-bit counter
 * @prev: earlier value
 * @now: later value
 *
 * Exact as long as the counter wrapped at most once in between, which the
 * period (at most KNC_MAX_PERIOD, half the range) guarantees.
 *
 * Return: the events counted, modulo 2^40.
 */
static inline u64 knc_delta(u64 prev, u64 now)
{
	return (now - prev) & KNC_CNTVAL_MASK;
}

/**
 * knc_period_adjust - start a new sampling period when the last one ended
 * @left: events left in the current period; updated
 * @period: the sampling period
 *
 * Return: true when a period elapsed (the event overflowed).
 */
static inline bool knc_period_adjust(s64 *left, u64 period)
{
	if (*left <= -(s64)period) {
		*left = period;
		return true;
	}
	if (*left <= 0) {
		*left += period;
		return true;
	}
	return false;
}

/**
 * knc_counter_start - the counter value that overflows after @left events
 * @left: events left in the period (positive)
 *
 * Periods beyond KNC_MAX_PERIOD are counted in KNC_MAX_PERIOD pieces.
 *
 * Return: the 40-bit value to write to the counter.
 */
static inline u64 knc_counter_start(s64 left)
{
	if (left > (s64)KNC_MAX_PERIOD)
		left = KNC_MAX_PERIOD;
	return (u64)(-left) & KNC_CNTVAL_MASK;
}

#endif /* _KNC_LOGIC_H */
