/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Knights Corner core PMU: what the files of knc_pmu share.
 *
 *   knc_core.c    the counter core: event_init, add/del/start/stop/read,
 *                 the PMI
 *   knc_reserve.c who has the registers: reserving and releasing them,
 *                 each CPU's part, CPU hotplug
 *   knc_spflt.c   SPFLT regions (config1:0, "spflt")
 *   knc_rdpmc.c   the user page and RDPMC
 *   knc_sysfs.c   format/ and events/
 *   knc_main.c    registration, the entry point
 *   knc_native.c  the native backend, the KNC MSRs
 *
 * Backends see only knc_hw.h.
 */
#ifndef _KNC_PMU_H
#define _KNC_PMU_H

#include <linux/atomic.h>
#include <linux/bits.h>
#include <linux/mutex.h>
#include <linux/perf_event.h>

#include "knc_hw.h"
#include "knc_logic.h"

#ifdef MODULE
/*
 * The module builds for Linux 6.1 up to 7.3 (knc_compat.h), and makes the
 * calls into perf core that Linux does not export to modules through
 * knc_module.c (knc_perf.h).
 */
#include "knc_compat.h"
#include "knc_perf.h"
#endif

/**
 * struct knc_cpu_hw - per-CPU driver state
 * @events: the event on each counter, or NULL
 * @running: the counters whose events are started
 * @spflt: the counters under PERF_SPFLT_CONTROL (started spflt events)
 * @spflt_task: the task whose USER_PREF this CPU's SPFLT_CONTROL holds,
 *	compared, never followed (with @spflt_task_start against reuse)
 * @spflt_task_start: @spflt_task's start_time
 * @pending: the started counters whose EvtSel.EN knc_pmu_enable() is to
 *	write: those started while perf core holds the PMU disabled
 * @global: what GLOBAL_CTRL is to hold: KNC_COUNTERS_MASK, or 0 while the
 *	counters are frozen for the rest of a disabled section
 * @disabled: perf core holds the PMU disabled (knc_pmu_disable())
 * @pmu_reset: the driver has reset this CPU's PMU (ops->cpu_reset) since
 *	it registered: a reservation needs only undo what the registers'
 *	other users leave
 */
struct knc_cpu_hw {
	struct perf_event *events[KNC_NUM_COUNTERS];
	u8 running;
	u8 spflt;
	u8 pending;
	u8 global;
	bool disabled;
	bool pmu_reset;
	const struct task_struct *spflt_task;
	u64 spflt_task_start;
};

/**
 * struct knc_pmu - the knc PMU of one backend
 * @pmu: what perf core knows
 * @ops: the backend
 * @cpu_hw: per-CPU state
 * @node: CPU hotplug instance
 * @generic_types: take PERF_TYPE_HARDWARE, _HW_CACHE and _RAW events: with
 *	no x86 core PMU (no "cpu" PMU, as under an emulator or a KNC kernel
 *	without arch/x86/events/intel/knc.c) perf offers them to every PMU
 * @user_rdpmc: offer RDPMC from user space (cap_user_rdpmc in the mmap
 *	page), as the x86 core does: the backend reads real counters, and
 *	the x86 core knows their width, since arch_perf_update_userpage()
 *	fills pmc_width from it (true on a KNC kernel with Linux's own driver,
 *	false without a core PMU)
 * @active_events: the events for which the registers are reserved (with
 *	ops->reserve)
 * @reserve_lock: serializes reserving and releasing the registers
 * @reserved: the registers are reserved for the driver (always, without
 *	ops->reserve): its PMI handler and CPU hotplug callbacks touch them
 *	only then
 */
struct knc_pmu {
	struct pmu pmu;
	const struct knc_hw_ops *ops;
	struct knc_cpu_hw __percpu *cpu_hw;
	struct hlist_node node;
	bool generic_types;
	bool user_rdpmc;
	atomic_t active_events;
	struct mutex reserve_lock;
	bool reserved;
};

static inline struct knc_pmu *to_knc_pmu(struct pmu *pmu)
{
	return container_of(pmu, struct knc_pmu, pmu);
}

/*
 * What a knc event keeps in the hw_perf_event fields that hold MSR
 * addresses on the x86 core and are free here:
 *  - config_base: the counters the event may use, resolved once by
 *    event_init, so that add() does no table search;
 *  - event_base: an spflt event's task's USER_PREF, while the event is
 *    stopped (knc_spflt.c).
 */
static inline u8 knc_event_cntmask(const struct perf_event *event)
{
	return event->hw.config_base;
}

static inline void knc_event_set_cntmask(struct perf_event *event, u8 mask)
{
	event->hw.config_base = mask;
}

static inline u64 knc_event_user_pref(const struct perf_event *event)
{
	return event->hw.event_base;
}

static inline void knc_event_set_user_pref(struct perf_event *event, u64 pref)
{
	event->hw.event_base = pref;
}

/* config1:0, "spflt": the counter counts only while USER_PREF is set. */
#define KNC_CONFIG1_SPFLT	BIT_ULL(0)

static inline bool knc_event_spflt(const struct perf_event *event)
{
	return event->attr.config1 & KNC_CONFIG1_SPFLT;
}

/* knc_core.c */
void knc_pmu_setup(struct knc_pmu *kp);
int knc_pmi_handler(unsigned int cmd, struct pt_regs *regs);
u8 knc_cpu_stop_all(struct knc_pmu *kp, struct knc_cpu_hw *cpuc);
void knc_cpu_resume(struct knc_pmu *kp, struct knc_cpu_hw *cpuc, u8 running);

/* knc_reserve.c */
int knc_reserve(struct knc_pmu *kp);
void knc_release(struct knc_pmu *kp);
int knc_cpu_online(unsigned int cpu, struct hlist_node *node);
int knc_cpu_offline(unsigned int cpu, struct hlist_node *node);

/* knc_main.c */
extern struct knc_pmu *knc_pmu_active;
struct knc_pmu *knc_pmu_create(const struct knc_hw_ops *ops);

/* knc_spflt.c */
void knc_spflt_start(const struct knc_hw_ops *ops, struct knc_cpu_hw *cpuc,
		     struct perf_event *event);
void knc_spflt_stop(const struct knc_hw_ops *ops, struct knc_cpu_hw *cpuc,
		    struct perf_event *event);
void knc_spflt_restore(const struct knc_hw_ops *ops, struct knc_cpu_hw *cpuc,
		       struct perf_event *event);

/* knc_rdpmc.c */
void knc_pmu_event_mapped(struct perf_event *event, struct mm_struct *mm);
void knc_pmu_event_unmapped(struct perf_event *event, struct mm_struct *mm);
int knc_pmu_event_idx(struct perf_event *event);

/* knc_sysfs.c */
extern const struct attribute_group *knc_attr_groups[];
int knc_sysfs_init(void);
void knc_sysfs_exit(void);

/* knc_native.c */
int knc_native_init(void);
#ifdef MODULE
void knc_native_exit(void);
#endif

#endif /* _KNC_PMU_H */
