// SPDX-License-Identifier: GPL-2.0
/*
 * Knights Corner core PMU: who has the registers. A backend that shares
 * them (the native one, with the NMI watchdog and the x86 core PMU) has
 * them reserved for the driver from the first knc event to the last; a
 * backend without ops->reserve has them from registration on. While they
 * are reserved the driver has every online CPU's PMU, a CPU that comes
 * online included.
 */
#include <linux/atomic.h>
#include <linux/cpu.h>
#include <linux/list.h>
#include <linux/mutex.h>
#include <linux/smp.h>

#include "knc_pmu.h"

/*
 * This CPU's part of reserving the registers, its events keeping their
 * counts. A PMU the driver cannot know gets the full reset
 * (ops->cpu_reset): at the first reservation after the PMU registered
 * (firmware or a kexec'd kernel may have left anything, an enabled EvtSel
 * or an SPFLT gate among it), and on a CPU that comes online (@reset).
 * Between two reservations the registers' other users (the NMI watchdog,
 * and the x86 core PMU where it drives KNC) give them back with their
 * EvtSels disabled (del() clears EN) and SPFLT_CONTROL untouched (they
 * have no SPFLT), but may leave overflow bits set and the LVT entry
 * masked after a PMI: clearing those, as after a reset, is all that
 * reservation needs. The counters' values do not matter: each start
 * writes its counter. GLOBAL_CTRL, which the other users set and clear as
 * they please, is set last, as the driver keeps it.
 */
static void knc_cpu_reserve(struct knc_pmu *kp, bool reset)
{
	const struct knc_hw_ops *ops = kp->ops;
	struct knc_cpu_hw *cpuc = this_cpu_ptr(kp->cpu_hw);
	u8 running = knc_cpu_stop_all(kp, cpuc);

	/* USER_PREF is the program's: another task's may be there now. */
	cpuc->spflt_task = NULL;
	if (reset || !cpuc->pmu_reset) {
		ops->cpu_reset();
		cpuc->pmu_reset = true;
	}
	ops->write_ovf_ctrl(KNC_COUNTERS_MASK);
	ops->unmask_pmi();
	knc_cpu_resume(kp, cpuc, running);
	cpuc->global = KNC_COUNTERS_MASK;
	ops->write_global_ctrl(KNC_COUNTERS_MASK);
}

static void knc_cpu_reserve_one(void *info)
{
	knc_cpu_reserve(info, false);
}

/*
 * This CPU's part of releasing the registers, on every CPU as they are
 * released and on a CPU going down while they are reserved: stop its
 * events, which disables their EvtSels and SPFLT gates, and give the
 * counters back with no count in them (ops->cpu_quiesce). A CPU going
 * down keeps its events stopped: perf core removes them next.
 */
static void knc_cpu_release(void *info)
{
	struct knc_pmu *kp = info;
	struct knc_cpu_hw *cpuc = this_cpu_ptr(kp->cpu_hw);

	knc_cpu_stop_all(kp, cpuc);
	if (kp->ops->cpu_quiesce)
		kp->ops->cpu_quiesce();
	knc_cpu_resume(kp, cpuc, 0);
}

/**
 * knc_reserve - reserve the registers for an event
 * @kp: the PMU, of a backend with ops->reserve
 *
 * The first event reserves them on every CPU and the last releases them
 * (knc_release()), as the x86 core reserves them only while it has events
 * (x86_reserve_hardware(), x86_release_hardware()).
 *
 * Context: process context; sleeps.
 * Return: 0, or ops->reserve()'s error.
 */
int knc_reserve(struct knc_pmu *kp)
{
	int ret = 0;

	if (atomic_inc_not_zero(&kp->active_events))
		return 0;
	mutex_lock(&kp->reserve_lock);
	if (!atomic_read(&kp->active_events)) {
		ret = kp->ops->reserve();
		if (!ret) {
			cpus_read_lock();
			WRITE_ONCE(kp->reserved, true);
			on_each_cpu(knc_cpu_reserve_one, kp, 1);
			cpus_read_unlock();
		}
	}
	if (!ret)
		atomic_inc(&kp->active_events);
	mutex_unlock(&kp->reserve_lock);
	return ret;
}

/**
 * knc_release - release what knc_reserve() reserved for an event
 * @kp: the PMU
 *
 * Context: process context; sleeps.
 */
void knc_release(struct knc_pmu *kp)
{
	if (atomic_add_unless(&kp->active_events, -1, 1))
		return;
	mutex_lock(&kp->reserve_lock);
	if (atomic_dec_and_test(&kp->active_events)) {
		/* An NMI meanwhile is still the driver's: no counter runs. */
		cpus_read_lock();
		on_each_cpu(knc_cpu_release, kp, 1);
		WRITE_ONCE(kp->reserved, false);
		cpus_read_unlock();
		kp->ops->release();
	}
	mutex_unlock(&kp->reserve_lock);
}

/*
 * CPU hotplug: a CPU coming online while the registers are reserved is
 * reset, one going down releases them. With the CPU hotplug lock held,
 * against knc_reserve() and knc_release().
 */
static int knc_cpu_hotplug(struct hlist_node *node, bool online)
{
	struct knc_pmu *kp = hlist_entry_safe(node, struct knc_pmu, node);
	unsigned long flags;

	if (!READ_ONCE(kp->reserved))
		return 0;
	local_irq_save(flags);
	if (online)
		knc_cpu_reserve(kp, true);
	else
		knc_cpu_release(kp);
	local_irq_restore(flags);
	return 0;
}

int knc_cpu_online(unsigned int cpu, struct hlist_node *node)
{
	return knc_cpu_hotplug(node, true);
}

int knc_cpu_offline(unsigned int cpu, struct hlist_node *node)
{
	return knc_cpu_hotplug(node, false);
}
