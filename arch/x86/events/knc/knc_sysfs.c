// SPDX-License-Identifier: GPL-2.0
/*
 * Knights Corner core PMU: sysfs, /sys/bus/event_source/devices/knc/.
 * format/ names the EvtSel fields perf_event_attr::config carries (and
 * config1's spflt); events/ has one alias per event of the generated
 * table, knc_events.tbl, and per generic name.
 */
#include <linux/perf_event.h>
#include <linux/sysfs.h>

#include "knc_pmu.h"

PMU_FORMAT_ATTR(event, "config:0-7");
PMU_FORMAT_ATTR(umask, "config:8-15");
PMU_FORMAT_ATTR(edge, "config:18");
PMU_FORMAT_ATTR(any, "config:21");
PMU_FORMAT_ATTR(inv, "config:23");
PMU_FORMAT_ATTR(cmask, "config:24-31");
PMU_FORMAT_ATTR(spflt, "config1:0");

static struct attribute *knc_format_attrs[] = {
	&format_attr_event.attr,
	&format_attr_umask.attr,
	&format_attr_edge.attr,
	&format_attr_any.attr,
	&format_attr_inv.attr,
	&format_attr_cmask.attr,
	&format_attr_spflt.attr,
	NULL,
};

static const struct attribute_group knc_format_group = {
	.name = "format",
	.attrs = knc_format_attrs,
};

/*
 * events/: one alias per table event and generic name, from the generated
 * table: "event=0xNN,umask=0xNN,period=N", the period being the event's
 * default sampling period (the JSON SampleAfterValue).
 */
#define KNC_GENERIC(_hw_id, _target)
#define KNC_HW_CACHE(_c, _o, _r, _target)
#define KNC_HW_CACHE_INVALID(_c, _o, _r)

enum knc_event_attr_idx {
#define KNC_EVENT(_name, _ev, _um, _cm, _p)	KNC_ATTR_##_name,
#define KNC_ALIAS(_id, _name, _target, _ev, _um, _cm, _p) KNC_ATTR_##_id,
#include "knc_events.tbl"
#undef KNC_EVENT
#undef KNC_ALIAS
	KNC_NR_EVENT_ATTRS
};

#define KNC_EVENT_ATTR(_id, _name, _ev, _um, _p)			\
	[KNC_ATTR_##_id] = {						\
		.attr = { .attr = { .name = _name, .mode = 0444 },	\
			  .show = perf_event_sysfs_show },		\
		.event_str = "event=" #_ev ",umask=" #_um ",period=" #_p, \
	}

static struct perf_pmu_events_attr knc_event_attr[KNC_NR_EVENT_ATTRS] = {
#define KNC_EVENT(_name, _ev, _um, _cm, _p) \
	KNC_EVENT_ATTR(_name, #_name, _ev, _um, _p),
#define KNC_ALIAS(_id, _name, _target, _ev, _um, _cm, _p) \
	KNC_EVENT_ATTR(_id, _name, _ev, _um, _p),
#include "knc_events.tbl"
#undef KNC_EVENT
#undef KNC_ALIAS
};

#define KNC_EVENT_PTR(_id)	(&knc_event_attr[KNC_ATTR_##_id].attr.attr)

static struct attribute *knc_event_attrs[] = {
#define KNC_EVENT(_name, _ev, _um, _cm, _p)	KNC_EVENT_PTR(_name),
#define KNC_ALIAS(_id, _name, _target, _ev, _um, _cm, _p) KNC_EVENT_PTR(_id),
#include "knc_events.tbl"
#undef KNC_EVENT
#undef KNC_ALIAS
#undef KNC_GENERIC
#undef KNC_HW_CACHE
#undef KNC_HW_CACHE_INVALID
	NULL,
};

static const struct attribute_group knc_events_group = {
	.name = "events",
	.attrs = knc_event_attrs,
};

const struct attribute_group *knc_attr_groups[] = {
	&knc_format_group,
	&knc_events_group,
	NULL,
};
