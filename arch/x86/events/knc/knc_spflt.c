// SPDX-License-Identifier: GPL-2.0
/*
 * Knights Corner core PMU: SPFLT regions (Intel document 327357-001,
 * sections 1.4.2 and 1.4.3.4). An event opened with config1:0 ("spflt")
 * counts only while PERF_SPFLT_CONTROL.USER_PREF is set, which the program
 * itself sets and clears with the SPFLT instruction around the code it
 * wants counted. The counter core calls knc_spflt_start() and
 * knc_spflt_stop() as it starts and stops an spflt event, and
 * knc_spflt_restore() as it adds one, to carry USER_PREF with the task.
 */
#include <linux/perf_event.h>
#include <linux/sched.h>
#include <linux/smp.h>

#include "knc_pmu.h"

/*
 * Put the event's counter under SPFLT control or take it out. USER_PREF
 * belongs to the program (the SPFLT instruction sets and clears it): keep
 * it, and return it.
 */
static u64 knc_spflt_control(const struct knc_hw_ops *ops,
			     struct knc_cpu_hw *cpuc, int idx, bool on)
{
	u64 pref = ops->read_spflt() & KNC_SPFLT_USER_PREF;

	if (on)
		cpuc->spflt |= BIT(idx);
	else
		cpuc->spflt &= ~BIT(idx);
	ops->write_spflt(pref | cpuc->spflt);
	return pref;
}

/* An spflt event starts: its counter counts only inside the task's regions. */
void knc_spflt_start(const struct knc_hw_ops *ops, struct knc_cpu_hw *cpuc,
		     struct perf_event *event)
{
	knc_spflt_control(ops, cpuc, event->hw.idx, true);
}

/*
 * An spflt event stops: its counter leaves SPFLT control, and the event
 * keeps its task's USER_PREF, with the CPU, for knc_spflt_restore().
 */
void knc_spflt_stop(const struct knc_hw_ops *ops, struct knc_cpu_hw *cpuc,
		    struct perf_event *event)
{
	knc_event_set_user_pref(event, knc_spflt_control(ops, cpuc,
							 event->hw.idx, false));
	event->hw.last_cpu = smp_processor_id();
}

/*
 * USER_PREF is a task's while it has per-task spflt events: it is saved
 * when the event stops (with the CPU, in last_cpu) and given back when the
 * event comes to a CPU, unless that CPU's SPFLT_CONTROL still holds it: the
 * event stopped there last and no other task's spflt event came since (an
 * event that leaves and returns while its task runs on, as multiplexing
 * does, keeps what the task did meanwhile). A task starts outside any
 * region.
 */
void knc_spflt_restore(const struct knc_hw_ops *ops,
		       struct knc_cpu_hw *cpuc, struct perf_event *event)
{
	const struct task_struct *task = event->hw.target;

	if (!task || (event->hw.last_cpu == smp_processor_id() &&
		      cpuc->spflt_task == task &&
		      cpuc->spflt_task_start == task->start_time))
		return;
	ops->write_spflt(knc_event_user_pref(event) | cpuc->spflt);
	cpuc->spflt_task = task;
	cpuc->spflt_task_start = task->start_time;
}
