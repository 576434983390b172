// SPDX-License-Identifier: GPL-2.0
/*
 * Knights Corner core PMU: event table, config validation, counter
 * assignment and 40-bit counter arithmetic. Built both into the driver and
 * into the host unit tests, so it only uses <linux/types.h>-level helpers.
 */
#include <linux/errno.h>
#include <linux/export.h>
#include <linux/kernel.h>
#include <linux/nospec.h>
#include <linux/string.h>

#include "knc_logic.h"

#include "knc_events.tbl"

/**
 * knc_generic_lookup - the table event a PERF_TYPE_HARDWARE id selects
 * @id: perf_event_attr::config, a PERF_COUNT_HW_* id
 *
 * The map is the upstream driver's (the JSON's generic aliases and the
 * "branches" event). As the x86 core answers on KNC, an id beyond the map
 * or one KNC does not have is invalid.
 *
 * Return: the index in knc_events[], or -EINVAL.
 */
int knc_generic_lookup(u64 id)
{
	if (id >= KNC_GENERIC_IDS)
		return -EINVAL;
	id = array_index_nospec(id, KNC_GENERIC_IDS);
	return knc_generic_map[id] ? knc_generic_map[id] - 1 : -EINVAL;
}

/**
 * knc_hw_cache_lookup - the table event a PERF_TYPE_HW_CACHE config selects
 * @config: cache id | op << 8 | result << 16 (perf_event_attr::config)
 *
 * The map is the upstream driver's (hw-cache/hw-cache.json). As the x86
 * core, ids out of range and combinations that make no sense give -EINVAL,
 * ones the hardware cannot count -ENOENT; higher config bits are ignored.
 *
 * Return: the index in knc_events[], or -EINVAL or -ENOENT.
 */
int knc_hw_cache_lookup(u64 config)
{
	unsigned int cache = config & 0xff, op = (config >> 8) & 0xff;
	unsigned int result = (config >> 16) & 0xff;
	int val;

	if (cache >= KNC_HW_CACHE_IDS || op >= KNC_HW_CACHE_OPS ||
	    result >= KNC_HW_CACHE_RESULTS)
		return -EINVAL;
	cache = array_index_nospec(cache, KNC_HW_CACHE_IDS);
	op = array_index_nospec(op, KNC_HW_CACHE_OPS);
	result = array_index_nospec(result, KNC_HW_CACHE_RESULTS);
	val = knc_hw_cache_map[cache][op][result];
	if (!val)
		return -ENOENT;
	return val < 0 ? -EINVAL : val - 1;
}

/**
 * knc_event_lookup - find an (event, umask) pair in the event table
 * @event: event select code
 * @umask: unit mask
 *
 * Return: the index in knc_events[], or -ENOENT for an undefined pair.
 */
int knc_event_lookup(u8 event, u8 umask)
{
	unsigned int i;

	for (i = 0; i < knc_num_events; i++)
		if (knc_events[i].event == event && knc_events[i].umask == umask)
			return i;
	return -ENOENT;
}

/**
 * knc_event_lookup_name - find a table event or generic alias by name
 * @name: sysfs alias name, e.g. "l2_read_miss" or "cycles"
 *
 * Return: the index in knc_events[] of the event the name selects, or
 * -ENOENT.
 */
int knc_event_lookup_name(const char *name)
{
	unsigned int i;

	for (i = 0; i < knc_num_events; i++)
		if (!strcmp(knc_events[i].name, name))
			return i;
	for (i = 0; i < knc_num_aliases; i++)
		if (!strcmp(knc_aliases[i].name, name))
			return knc_event_lookup(knc_aliases[i].event,
						knc_aliases[i].umask);
	return -ENOENT;
}

/*
 * Lookups for a backend that makes events happen itself: a simulator
 * injects them by name and counts a burst only on the counters its event
 * may use.
 */

/**
 * knc_event_by_code - a table event, by its encoding
 * @event: event select code
 * @umask: unit mask
 *
 * Return: the table entry, or NULL for an undefined pair.
 */
const struct knc_event_desc *knc_event_by_code(u8 event, u8 umask)
{
	int idx = knc_event_lookup(event, umask);

	return idx < 0 ? NULL : &knc_events[idx];
}
EXPORT_SYMBOL_NS_GPL(knc_event_by_code, KNC_NS);

/**
 * knc_event_by_name - a table event or generic alias, by name
 * @name: sysfs alias name, e.g. "l2_read_miss" or "cycles"
 *
 * Return: the table entry of the event the name selects, or NULL.
 */
const struct knc_event_desc *knc_event_by_name(const char *name)
{
	int idx = knc_event_lookup_name(name);

	return idx < 0 ? NULL : &knc_events[idx];
}
EXPORT_SYMBOL_NS_GPL(knc_event_by_name, KNC_NS);

/**
 * knc_config_check - validate a perf_event_attr::config for the knc PMU
 * @config: the user's config
 *
 * Only the fields of the sysfs format may be set: USR/OS come from the
 * exclude_* attributes, and EN, INT, bit 19 and bits 63:32 belong to the
 * driver or are reserved. The thread-count bit 21 is accepted here; the
 * caller checks the privilege it needs. The (event, umask) pair
 * must be one of the table's events: the hardware silently never counts an
 * undefined encoding, which would read as a believable zero.
 *
 * Return: the index in knc_events[], or -EINVAL.
 */
int knc_config_check(u64 config)
{
	int idx;

	if (config & ~KNC_CONFIG_MASK)
		return -EINVAL;
	idx = knc_event_lookup(config & KNC_EVTSEL_EVENT,
			       (config & KNC_EVTSEL_UMASK) >> 8);
	return idx < 0 ? -EINVAL : idx;
}

/**
 * knc_evtsel - the EvtSel value that counts a validated config
 * @config: a config accepted by knc_config_check()
 * @usr: count in rings 1-3
 * @os: count in ring 0
 *
 * EN and INT are always set: counting events take a PMI near the 40-bit
 * wrap as well, to fold the counter into the 64-bit count.
 *
 * Return: the IA32_PerfEvtSelX value.
 */
u64 knc_evtsel(u64 config, bool usr, bool os)
{
	u64 val = (config & KNC_CONFIG_MASK) | KNC_EVTSEL_EN | KNC_EVTSEL_INT;

	if (usr)
		val |= KNC_EVTSEL_USR;
	if (os)
		val |= KNC_EVTSEL_OS;
	return val;
}

static_assert(KNC_NUM_COUNTERS == 2);

/**
 * knc_assign - assign counters to a set of events
 * @cntmask: per event, the counters it may use
 * @hint: per event, the counter it holds now, or -1 (NULL: no hints)
 * @n: number of events
 * @assign: out: per event, its counter
 *
 * Of the valid assignments, one that moves the fewest events off their
 * hinted counter is chosen, so that adding an event disturbs running ones
 * only when a constraint forces it; of equals, the one that gives the
 * first event the lower counter. Two counters leave two events two
 * assignments to weigh, (0, 1) and (1, 0), and one event its two counters.
 *
 * Return: 0, or -ENOSPC when the events cannot be counted together.
 */
int knc_assign(const u8 *cntmask, const int *hint, int n, int *assign)
{
	bool ok01, ok10;
	int kept01, kept10;

	switch (n) {
	case 0:
		return 0;
	case 1:
		if (!(cntmask[0] & KNC_COUNTERS_MASK))
			return -ENOSPC;
		/* Counter 1 if it is the hint, or the only one allowed. */
		assign[0] = (hint && hint[0] == 1 && (cntmask[0] & BIT(1))) ||
			    !(cntmask[0] & BIT(0));
		return 0;
	case 2:
		ok01 = (cntmask[0] & BIT(0)) && (cntmask[1] & BIT(1));
		ok10 = (cntmask[0] & BIT(1)) && (cntmask[1] & BIT(0));
		if (!ok01 && !ok10)
			return -ENOSPC;
		kept01 = hint ? (hint[0] == 0) + (hint[1] == 1) : 0;
		kept10 = hint ? (hint[0] == 1) + (hint[1] == 0) : 0;
		assign[0] = ok10 && (!ok01 || kept10 > kept01);
		assign[1] = !assign[0];
		return 0;
	default:
		return -ENOSPC;
	}
}
