// SPDX-License-Identifier: GPL-2.0
/*
 * Knights Corner core PMU: sysfs, /sys/bus/event_source/devices/knc/.
 * format/ names the EvtSel fields perf_event_attr::config carries (and
 * config1's spflt); events/ has one alias per event of the generated
 * table (knc_events[]) and per generic name (knc_aliases[]).
 */
#include <linux/perf_event.h>
#include <linux/slab.h>
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
 * events/: one alias per table event and generic name, built from the
 * generated table as knc_pmu starts: "event=0xNN,umask=0xNN,period=N",
 * the period being the event's default sampling period (the JSON
 * SampleAfterValue). perf_pmu_events_attr::id indexes knc_events[], then
 * knc_aliases[].
 */
static struct perf_pmu_events_attr *knc_event_attr;

static const struct knc_event_desc *knc_attr_desc(unsigned int id)
{
	return id < knc_num_events ? &knc_events[id] :
	       &knc_aliases[id - knc_num_events];
}

static ssize_t knc_event_show(struct device *dev,
			      struct device_attribute *attr, char *page)
{
	struct perf_pmu_events_attr *pa =
		container_of(attr, struct perf_pmu_events_attr, attr);
	const struct knc_event_desc *d = knc_attr_desc(pa->id);

	return sysfs_emit(page, "event=0x%02x,umask=0x%02x,period=%u\n",
			  d->event, d->umask, d->period);
}

static struct attribute_group knc_events_group = {
	.name = "events",
};

/**
 * knc_sysfs_init - build events/ from the event table
 *
 * Return: 0 or -ENOMEM.
 */
int knc_sysfs_init(void)
{
	unsigned int i, n = knc_num_events + knc_num_aliases;
	struct attribute **attrs;

	knc_event_attr = kcalloc(n, sizeof(*knc_event_attr), GFP_KERNEL);
	attrs = kcalloc(n + 1, sizeof(*attrs), GFP_KERNEL);
	if (!knc_event_attr || !attrs) {
		kfree(attrs);
		kfree(knc_event_attr);
		return -ENOMEM;
	}
	for (i = 0; i < n; i++) {
		struct perf_pmu_events_attr *pa = &knc_event_attr[i];

		sysfs_attr_init(&pa->attr.attr);
		pa->attr.attr.name = knc_attr_desc(i)->name;
		pa->attr.attr.mode = 0444;
		pa->attr.show = knc_event_show;
		pa->id = i;
		attrs[i] = &pa->attr.attr;
	}
	knc_events_group.attrs = attrs;
	return 0;
}

void knc_sysfs_exit(void)
{
	kfree(knc_events_group.attrs);
	kfree(knc_event_attr);
}

const struct attribute_group *knc_attr_groups[] = {
	&knc_format_group,
	&knc_events_group,
	NULL,
};
