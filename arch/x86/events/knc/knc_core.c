// SPDX-License-Identifier: GPL-2.0
/*
 * Knights Corner core PMU: the counter core of the "knc" PMU.
 *
 * Two general counters per hardware thread, 40 bits wide, programmed
 * through P6-style event selects (Intel document 327357-001, section 1.4).
 * The core reaches the registers through a backend (struct knc_hw_ops):
 * the native MSRs on a KNC coprocessor (knc_native.c), or a simulation of
 * them anywhere else. The core never asks which one it drives.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/cpu.h>
#include <linux/module.h>
#include <linux/perf_event.h>
#include <linux/sched/clock.h>
#include <linux/static_call.h>
#include <asm/hardirq.h>
#include <asm/nmi.h>
#include <asm/perf_regs.h>

#include "knc_pmu.h"

#define CREATE_TRACE_POINTS
#include "knc_trace.h"

/*
 * A counter value as hw_perf_event::prev_count keeps it: sign-extended from
 * 40 bits, as the x86 core does, because perf_event_update_userpage()
 * publishes count - prev_count as the offset to which a task reading the
 * counter with RDPMC adds the sign-extended value (knc_delta() masks).
 */
static u64 knc_prev_count(u64 counter)
{
	return sign_extend64(counter, KNC_CNTVAL_BITS - 1);
}

/*
 * perf_event_update_userpage(), where there is a user page to update: only
 * an event with a ring buffer has one (perf_mmap() attaches it, then
 * publishes the page itself). Most events have none, and the test here
 * spares the context switch the call, its RCU read side and its own test.
 */
static __always_inline void knc_update_userpage(struct perf_event *event)
{
	if (READ_ONCE(event->rb))
		perf_event_update_userpage(event);
}

/*
 * An event's own registers, which every context switch writes and reads,
 * are static calls to the backend's ops, set as it registers (one backend
 * at a time): the calls go straight to the backend, with no ops to load
 * and no indirect branch.
 */
DEFINE_STATIC_CALL_NULL(knc_read_counter, *((struct knc_hw_ops *)0)->read_counter);
DEFINE_STATIC_CALL_NULL(knc_write_counter, *((struct knc_hw_ops *)0)->write_counter);
DEFINE_STATIC_CALL_NULL(knc_write_evtsel, *((struct knc_hw_ops *)0)->write_evtsel);

/* Fold the counter's progress since the last read into the 64-bit count. */
static void knc_event_update(struct perf_event *event)
{
	struct hw_perf_event *hwc = &event->hw;
	u64 prev, now, delta;

	/* The PMI handler may update the same event between our two reads. */
	do {
		prev = local64_read(&hwc->prev_count);
		now = knc_prev_count(static_call(knc_read_counter)(hwc->idx));
	} while (local64_cmpxchg(&hwc->prev_count, prev, now) != prev);

	delta = knc_delta(prev, now);
	local64_add(delta, &event->count);
	local64_sub(delta, &hwc->period_left);
}

/*
 * Program the event's counter, @idx, to overflow at the end of the period.
 * The caller publishes the new prev_count (perf_event_update_userpage()).
 * Return: true when a sampling period elapsed.
 */
static __always_inline bool knc_event_set_period(struct perf_event *event,
						 int idx)
{
	struct hw_perf_event *hwc = &event->hw;
	s64 left = local64_read(&hwc->period_left);
	bool elapsed = knc_period_adjust(&left, hwc->sample_period);
	u64 start = knc_counter_start(left);

	if (elapsed)
		hwc->last_period = hwc->sample_period;
	local64_set(&hwc->period_left, left);
	local64_set(&hwc->prev_count, knc_prev_count(start));
	static_call(knc_write_counter)(idx, start);
	return elapsed;
}

/* hw_perf_event::interrupts of a throttled event: MAX_INTERRUPTS in core.c */
#define KNC_THROTTLED (~0ULL)

/* More than one counter in @mask (of two): what a group costs. */
static __always_inline bool knc_several(u8 mask)
{
	return mask & (mask - 1);
}

/*
 * GLOBAL_CTRL takes cpuc->global before the register does: the PMI handler
 * sets the register back to cpuc->global as it returns.
 */
static void knc_set_global(struct knc_pmu *kp, struct knc_cpu_hw *cpuc,
			   u8 global)
{
	WRITE_ONCE(cpuc->global, global);
	barrier();
	kp->ops->write_global_ctrl(global);
}

/* Whether the counters of @mask, more than one, hold the events of a group. */
static bool knc_one_group(struct knc_cpu_hw *cpuc, unsigned long mask)
{
	struct perf_event *leader = NULL;
	int idx;

	if (!knc_several(mask))
		return false;
	for_each_set_bit(idx, &mask, KNC_NUM_COUNTERS) {
		if (leader && cpuc->events[idx]->group_leader != leader)
			return false;
		leader = cpuc->events[idx]->group_leader;
	}
	return true;
}

/*
 * A stop in a disabled section while a group counts stops every counter
 * first: the rest of the group, which the section stops too, stops at the
 * same instruction. knc_pmu_enable() sets GLOBAL_CTRL again.
 */
static noinline void knc_freeze_group(struct knc_pmu *kp,
				      struct knc_cpu_hw *cpuc)
{
	if (cpuc->disabled && cpuc->global &&
	    knc_one_group(cpuc, cpuc->running & ~cpuc->pending))
		knc_set_global(kp, cpuc, 0);
}

/*
 * A counter counts while its bit is set in both EvtSel.EN and GLOBAL_CTRL.
 * EvtSel.EN starts and stops each event; GLOBAL_CTRL stays set but for the
 * PMI handler and for a group. Scheduling a task's event out and in then
 * costs the least the hardware allows: EvtSel, read; counter, EvtSel.
 *
 * A group starts and stops as one: its events count the same instructions.
 * Since Linux 6.2 perf core disables each PMU of a context on its own
 * around scheduling it (pmu_disable()/pmu_enable()), and a group's events
 * are added and deleted one by one in between. knc_pmu_disable() touches
 * no register: it marks the section. In it, a start leaves EvtSel.EN to
 * knc_pmu_enable(), which enables a group's counters between clearing and
 * setting GLOBAL_CTRL, and a stop while a group counts first clears
 * GLOBAL_CTRL (cpuc->global), which knc_pmu_enable() sets again. One
 * event's switch stays at four accesses; a group of two costs two more
 * each way. Linux 6.1 disables only the context's first PMU, the cpu PMU,
 * and on a KNC kernel that is arch/x86/events/intel/knc.c, which clears
 * and sets GLOBAL_CTRL around the whole context itself: there knc has no
 * pmu_enable/pmu_disable.
 *
 * Nor does anything gate the PMU during perf core's tick, which
 * unthrottles an event by clearing the mark, then calling start(). A PMI
 * may throttle an event between the tick's unthrottle test and its
 * frequency adjustment's stop() and start(PERF_EF_RELOAD);
 * perf_adjust_period() in the PMI's own perf_event_overflow() restarts a
 * throttled event too. Started there, the event would count on while
 * marked throttled, and the next tick's start() would find it running.
 * So pmu::start gives a throttled event its new period but leaves it
 * stopped until perf core clears the mark. add() needs no test:
 * event_sched_in() clears it.
 *
 * knc_event_run() starts a stopped event whose counter, @idx, holds its
 * start.
 */
static __always_inline void knc_event_run(struct knc_pmu *kp,
					  struct knc_cpu_hw *cpuc,
					  struct perf_event *event, int idx)
{
	struct hw_perf_event *hwc = &event->hw;

	hwc->state = 0;
	cpuc->running |= BIT(idx);
	if (knc_event_spflt(event))
		knc_spflt_start(kp->ops, cpuc, event);
	if (cpuc->disabled)
		cpuc->pending |= BIT(idx);
	else
		static_call(knc_write_evtsel)(idx, hwc->config);
	/* The arguments only when tracing: not at every context switch. */
	if (trace_knc_counter_start_enabled())
		trace_knc_counter_start(idx, hwc->config,
					local64_read(&hwc->prev_count) &
					KNC_CNTVAL_MASK);
	knc_update_userpage(event);
}

static __always_inline void __knc_pmu_start(struct knc_pmu *kp,
					    struct knc_cpu_hw *cpuc,
					    struct perf_event *event, int flags)
{
	struct hw_perf_event *hwc = &event->hw;

	if (WARN_ON_ONCE(!(hwc->state & PERF_HES_STOPPED)))
		return;
	if (flags & PERF_EF_RELOAD) {
		WARN_ON_ONCE(!(hwc->state & PERF_HES_UPTODATE));
		knc_event_set_period(event, hwc->idx);
	}
	if (unlikely(hwc->interrupts == KNC_THROTTLED)) {
		if (flags & PERF_EF_RELOAD)
			knc_update_userpage(event);
		return;
	}
	knc_event_run(kp, cpuc, event, hwc->idx);
}

static void knc_pmu_start(struct perf_event *event, int flags)
{
	struct knc_pmu *kp = to_knc_pmu(event->pmu);

	__knc_pmu_start(kp, this_cpu_ptr(kp->cpu_hw), event, flags);
}

static __always_inline void __knc_pmu_stop(struct knc_pmu *kp,
					   struct knc_cpu_hw *cpuc,
					   struct perf_event *event, int flags)
{
	struct hw_perf_event *hwc = &event->hw;
	bool running = !(hwc->state & PERF_HES_STOPPED);
	int idx = hwc->idx;

	if (running) {
		if (cpuc->pending & BIT(idx)) {
			cpuc->pending &= ~BIT(idx);	/* never enabled */
		} else {
			if (knc_several(cpuc->running))
				knc_freeze_group(kp, cpuc);
			static_call(knc_write_evtsel)(idx, hwc->config & ~KNC_EVTSEL_EN);
		}
		if (knc_event_spflt(event))
			knc_spflt_stop(kp->ops, cpuc, event);
		cpuc->running &= ~BIT(idx);
		hwc->state |= PERF_HES_STOPPED;
	}
	if ((flags & PERF_EF_UPDATE) && !(hwc->state & PERF_HES_UPTODATE)) {
		knc_event_update(event);
		hwc->state |= PERF_HES_UPTODATE;
	}
	if (running && trace_knc_counter_stop_enabled())
		trace_knc_counter_stop(idx, hwc->config & ~KNC_EVTSEL_EN,
				       local64_read(&hwc->prev_count) &
				       KNC_CNTVAL_MASK);
}

static void knc_pmu_stop(struct perf_event *event, int flags)
{
	struct knc_pmu *kp = to_knc_pmu(event->pmu);

	__knc_pmu_stop(kp, this_cpu_ptr(kp->cpu_hw), event, flags);
}

/*
 * Move a scheduled event to another counter, keeping its count. A stopped
 * event (throttled) takes its counter's value along: pmu::read folds the
 * new counter's value against prev_count, and perf core's unthrottle
 * starts it there with start(event, 0), without a reload.
 */
static void knc_event_move(struct knc_cpu_hw *cpuc, struct perf_event *event,
			   int to)
{
	struct hw_perf_event *hwc = &event->hw;
	bool running = !(hwc->state & PERF_HES_STOPPED);
	u64 counter;

	knc_pmu_stop(event, PERF_EF_UPDATE);
	cpuc->events[hwc->idx] = NULL;
	hwc->idx = to;
	cpuc->events[to] = event;
	if (running) {
		knc_pmu_start(event, PERF_EF_RELOAD);
		return;
	}
	counter = local64_read(&hwc->prev_count) & KNC_CNTVAL_MASK;
	to_knc_pmu(event->pmu)->ops->write_counter(to, counter);
	perf_event_update_userpage(event);	/* the new index */
}

/*
 * No counter the event may use is free: find the assignment of the events
 * on the counters and this one that moves the fewest, and move them.
 * Out of line: its arrays would cost add() a stack frame and canary.
 * Return: the event's counter, or -EAGAIN.
 */
static noinline int knc_add_reassign(struct knc_cpu_hw *cpuc,
				     struct perf_event *event)
{
	struct perf_event *evs[KNC_NUM_COUNTERS];
	int hint[KNC_NUM_COUNTERS], assign[KNC_NUM_COUNTERS];
	u8 cntmask[KNC_NUM_COUNTERS];
	int i, n = 0;

	for (i = 0; i < KNC_NUM_COUNTERS; i++) {
		if (!cpuc->events[i])
			continue;
		evs[n] = cpuc->events[i];
		cntmask[n] = knc_event_cntmask(evs[n]);
		hint[n++] = i;
	}
	if (n == KNC_NUM_COUNTERS)
		return -EAGAIN;
	evs[n] = event;
	cntmask[n] = knc_event_cntmask(event);
	hint[n++] = -1;
	/* Both counters busy or a counter-0 event already on counter 0. */
	if (knc_assign(cntmask, hint, n, assign))
		return -EAGAIN;

	for (i = 0; i < n - 1; i++)
		if (assign[i] != hint[i])
			knc_event_move(cpuc, evs[i], assign[i]);
	return assign[n - 1];
}

static int knc_pmu_add(struct perf_event *event, int flags)
{
	struct knc_pmu *kp = to_knc_pmu(event->pmu);
	struct knc_cpu_hw *cpuc = this_cpu_ptr(kp->cpu_hw);
	unsigned long free = knc_event_cntmask(event);
	int i, idx;

	for (i = 0; i < KNC_NUM_COUNTERS; i++)
		if (cpuc->events[i])
			free &= ~BIT(i);
	/*
	 * The lowest free counter the event may use moves nothing, as
	 * knc_assign() would choose; it is the common case of every context
	 * switch, and gathering the events for knc_assign() costs more than
	 * the rest of add().
	 */
	if (free) {
		idx = __ffs(free);
	} else {
		idx = knc_add_reassign(cpuc, event);
		if (idx < 0)
			return idx;
	}

	event->hw.idx = idx;
	cpuc->events[idx] = event;
	event->hw.state = PERF_HES_STOPPED | PERF_HES_UPTODATE;
	if (knc_event_spflt(event))
		knc_spflt_restore(kp->ops, cpuc, event);
	if (!(flags & PERF_EF_START)) {
		knc_update_userpage(event);
		return 0;
	}
	/* start(PERF_EF_RELOAD), less what add() has just made true */
	knc_event_set_period(event, idx);
	knc_event_run(kp, cpuc, event, idx);	/* publishes */
	return 0;
}

static void knc_pmu_del(struct perf_event *event, int flags)
{
	struct knc_pmu *kp = to_knc_pmu(event->pmu);
	struct knc_cpu_hw *cpuc = this_cpu_ptr(kp->cpu_hw);
	int idx = event->hw.idx;

	__knc_pmu_stop(kp, cpuc, event, PERF_EF_UPDATE);
	cpuc->events[idx] = NULL;
	event->hw.idx = -1;
	knc_update_userpage(event);
}

static void knc_pmu_read(struct perf_event *event)
{
	knc_event_update(event);
}

#ifndef PERF_PMU_CAP_HETEROGENEOUS_CPUS
static void knc_pmu_disable(struct pmu *pmu)
{
	struct knc_pmu *kp = to_knc_pmu(pmu);

	this_cpu_ptr(kp->cpu_hw)->disabled = true;
}

/*
 * Enable the counters started in the section; a group's at once, between
 * clearing and setting GLOBAL_CTRL, which the section's stops may have
 * cleared already. The PMI handler does not stop a pending counter.
 */
static noinline void knc_pmu_enable_group(struct knc_pmu *kp,
					  struct knc_cpu_hw *cpuc)
{
	unsigned long pending = cpuc->pending;
	int idx;

	if (cpuc->global && knc_one_group(cpuc, pending))
		knc_set_global(kp, cpuc, 0);
	for_each_set_bit(idx, &pending, KNC_NUM_COUNTERS)
		static_call(knc_write_evtsel)(idx, cpuc->events[idx]->hw.config);
	cpuc->pending = 0;
	if (!cpuc->global)
		knc_set_global(kp, cpuc, KNC_COUNTERS_MASK);
}

static void knc_pmu_enable(struct pmu *pmu)
{
	struct knc_pmu *kp = to_knc_pmu(pmu);
	struct knc_cpu_hw *cpuc = this_cpu_ptr(kp->cpu_hw);
	u8 pending = cpuc->pending;
	int idx;

	if (unlikely(knc_several(pending) || !cpuc->global)) {
		knc_pmu_enable_group(kp, cpuc);
	} else if (pending) {
		idx = __ffs(pending);
		cpuc->pending = 0;
		static_call(knc_write_evtsel)(idx, cpuc->events[idx]->hw.config);
	}
	cpuc->disabled = false;
}

/*
 * Since 6.2 perf core adds a group's events only between pmu_disable() and
 * pmu_enable() of the context (perf_ctx_disable()), and add() refuses an
 * event it has no counter for: a transaction has nothing to add. Without
 * these perf core would give knc its default one, another disable and
 * enable around every group, at every context switch.
 */
static void knc_pmu_start_txn(struct pmu *pmu, unsigned int flags)
{
}

static int knc_pmu_commit_txn(struct pmu *pmu)
{
	return 0;
}

static void knc_pmu_cancel_txn(struct pmu *pmu)
{
}
#endif

/*
 * Can the event's group, with the event, be counted at once?
 * Return: 0, or -EINVAL when it cannot.
 *
 * Only a sibling's group is walked: perf_try_init_event() holds the
 * group's ctx->mutex for a sibling, which for_each_sibling_event() asserts
 * under lockdep, and a new leader has no context yet, nor siblings.
 */
static int knc_validate_group(struct perf_event *event)
{
	struct perf_event *leader = event->group_leader, *sibling;
	struct perf_event *evs[KNC_NUM_COUNTERS + 1];
	u8 cntmask[KNC_NUM_COUNTERS + 1];
	int assign[KNC_NUM_COUNTERS + 1];
	int i, n = 0;

	if (leader->pmu == event->pmu)
		evs[n++] = leader;
	if (event != leader) {
		for_each_sibling_event(sibling, leader) {
			if (sibling->pmu != event->pmu)
				continue;
			if (n == KNC_NUM_COUNTERS)
				return -EINVAL;
			evs[n++] = sibling;
		}
		if (n == KNC_NUM_COUNTERS)
			return -EINVAL;
		evs[n++] = event;
	}
	for (i = 0; i < n; i++)
		cntmask[i] = knc_event_cntmask(evs[i]);
	return knc_assign(cntmask, NULL, n, assign) ? -EINVAL : 0;
}

#ifdef KNC_PIN_TASK_CONTEXT
/*
 * Linux 6.1 keeps a task's perf context, and its pointer to this PMU, for
 * the task's whole life once a per-task event existed; unloading the module
 * that owns the PMU then leaves context switches calling into freed
 * memory. Pin that module from the first per-task event on. 6.2 reworked
 * contexts (each PMU's part is freed with its last event): only before it
 * is the module pinned. One PMU is registered at a time, and once its
 * module is pinned no other can be.
 */
static atomic_t knc_task_pinned;

static void knc_pin_for_task_context(struct knc_pmu *kp,
				     struct perf_event *event)
{
	/* A built-in backend's PMU outlives every context. */
	if (!kp->pmu.module)
		return;
	if (!(event->attach_state & PERF_ATTACH_TASK))
		return;
	if (atomic_xchg(&knc_task_pinned, 1))
		return;
	__module_get(kp->pmu.module);
	pr_info("per-task event opened: %s pinned until reboot, as Linux 6.1 task contexts keep pointing at the PMU\n",
		module_name(kp->pmu.module));
}
#endif

/*
 * The table index of the event a generic type's config selects, or
 * -ENOENT when the PMU does not take that type; an id KNC does not have is
 * -EINVAL (an unknown PERF_TYPE_HARDWARE id, as the x86 core answers on
 * KNC) or, for a cache event it cannot count, -ENOENT.
 */
static_assert(KNC_GENERIC_IDS == PERF_COUNT_HW_MAX);

static int knc_generic_event(struct knc_pmu *kp, struct perf_event_attr *attr,
			     u64 *config)
{
	int idx;

	if (!kp->generic_types)
		return -ENOENT;
	switch (attr->type) {
	case PERF_TYPE_HARDWARE:
		idx = knc_generic_lookup(attr->config);
		break;
	case PERF_TYPE_HW_CACHE:
		idx = knc_hw_cache_lookup(attr->config);
		break;
	default:	/* PERF_TYPE_RAW: EvtSel fields, as knc's own type */
		*config = attr->config;
		return 0;
	}
	if (idx >= 0)
		*config = knc_events[idx].event |
			  (u64)knc_events[idx].umask << 8;
	return idx < 0 ? idx : 0;
}

/*
 * CPU-wide events can be scheduled on a CPU while the driver resets its PMU
 * there: perf core's hotplug state, CPUHP_AP_PERF_ONLINE, lies below the
 * driver's dynamic one, so perf takes events in before knc_cpu_online()
 * and out after knc_cpu_offline(). Around the reset the events keep their
 * counts: knc_cpu_stop_all() folds and stops them (return: those that
 * ran), and knc_cpu_resume() then starts again those of @running, and
 * leaves each other one's prev_count at what its counter holds, as a
 * stopped event's must be: its reads and del() add nothing.
 */
u8 knc_cpu_stop_all(struct knc_pmu *kp, struct knc_cpu_hw *cpuc)
{
	u8 running = cpuc->running;
	int i;

	for (i = 0; i < KNC_NUM_COUNTERS; i++)
		if (cpuc->events[i])
			__knc_pmu_stop(kp, cpuc, cpuc->events[i], PERF_EF_UPDATE);
	return running;
}

void knc_cpu_resume(struct knc_pmu *kp, struct knc_cpu_hw *cpuc, u8 running)
{
	struct perf_event *event;
	int i;

	for (i = 0; i < KNC_NUM_COUNTERS; i++) {
		event = cpuc->events[i];
		if (!event)
			continue;
		if (running & BIT(i)) {
			__knc_pmu_start(kp, cpuc, event, PERF_EF_RELOAD);
			continue;
		}
		local64_set(&event->hw.prev_count,
			    knc_prev_count(kp->ops->read_counter(i)));
		perf_event_update_userpage(event);
	}
}

static void knc_event_destroy(struct perf_event *event)
{
	knc_release(to_knc_pmu(event->pmu));
}

static int knc_pmu_event_init(struct perf_event *event)
{
	struct knc_pmu *kp = to_knc_pmu(event->pmu);
	struct perf_event_attr *attr = &event->attr;
	struct hw_perf_event *hwc = &event->hw;
	u64 config = attr->config;
	int idx, ret;

	switch (attr->type) {
	case PERF_TYPE_HARDWARE:
	case PERF_TYPE_HW_CACHE:
	case PERF_TYPE_RAW:
		ret = knc_generic_event(kp, attr, &config);
		if (ret)
			return ret;
		break;
	default:
		if (attr->type != event->pmu->type)
			return -ENOENT;
	}
	if ((attr->config1 & ~KNC_CONFIG1_SPFLT) || attr->config2)
		return -EINVAL;
	/*
	 * An spflt event keeps its task's USER_PREF; perf core switches
	 * between tasks whose events are inherited copies of each other by
	 * swapping their contexts, without stopping the events.
	 */
	if ((attr->config1 & KNC_CONFIG1_SPFLT) && attr->inherit)
		return -EINVAL;
	idx = knc_config_check(config);
	if (idx < 0)
		return idx;
	if (config & KNC_EVTSEL_ANY) {
#ifdef MODULE
		ret = knc_allow_cpu(event);
#else
		ret = perf_allow_cpu();
#endif
		if (ret)
			return ret;
	}
	if (attr->precise_ip || has_branch_stack(event))
		return -EOPNOTSUPP;
	/* As x86: no XMM registers in samples (the core would say EOPNOTSUPP). */
	if ((attr->sample_regs_user | attr->sample_regs_intr) &
	    PERF_REG_EXTENDED_MASK)
		return -EINVAL;
#ifdef MODULE
	if (is_sampling_event(event) && !knc_can_sample())
		return -EOPNOTSUPP;
#endif

	hwc->config = knc_evtsel(config, !attr->exclude_user,
				 !attr->exclude_kernel);
	knc_event_set_cntmask(event, knc_events[idx].cntmask);
	knc_event_set_user_pref(event, 0);	/* outside any region */
	hwc->last_cpu = -1;
	ret = knc_validate_group(event);
	if (ret)
		return ret;

	hwc->idx = -1;
	if (!is_sampling_event(event)) {
		/* Take a PMI every half range to fold the 40-bit counter. */
		hwc->sample_period = KNC_MAX_PERIOD;
		hwc->last_period = hwc->sample_period;
		local64_set(&hwc->period_left, hwc->sample_period);
	}
	if (kp->user_rdpmc)
		hwc->flags |= PERF_EVENT_FLAG_USER_READ_CNT;
	if (kp->ops->reserve) {
		ret = knc_reserve(kp);
		if (ret)
			return ret;
		event->destroy = knc_event_destroy;
	}
#ifdef KNC_PIN_TASK_CONTEXT
	knc_pin_for_task_context(kp, event);
#endif
	return 0;
}

/*
 * The PMI, delivered as an NMI, in the order Intel document 327357-001
 * prescribes (section 1.4.3.9): stop the counters, read and clear the
 * overflow status, unmask the LVT entry the APIC masked on delivery,
 * reload the counters, restart. With the counters stopped no overflow can
 * slip in between reading and clearing (its PMI would find the entry
 * masked), so the status needs no second read; one that comes after the
 * restart raises a PMI of its own. An NMI that finds no status bit set is
 * not ours: NMI_DONE. As the x86 core does, the handler reports its time
 * to perf, which lowers perf_event_max_sample_rate when PMIs take more
 * than perf_cpu_time_max_percent of the CPU.
 */
int knc_pmi_handler(unsigned int cmd, struct pt_regs *regs)
{
	struct knc_pmu *kp = READ_ONCE(knc_pmu_active);
	const struct knc_hw_ops *ops;
	struct perf_sample_data data;
	struct knc_cpu_hw *cpuc;
	struct pt_regs *sregs;
	unsigned long status;
	bool stopped, elapsed;
	u64 start;
	int idx;

	if (!kp || !READ_ONCE(kp->reserved))
		return NMI_DONE;
	start = sched_clock();
	ops = kp->ops;
	cpuc = this_cpu_ptr(kp->cpu_hw);
	stopped = cpuc->running;
	if (stopped)
		ops->write_global_ctrl(0);
	status = ops->read_global_status() & KNC_COUNTERS_MASK;
	if (!status)
		goto out;
	trace_knc_pmi(status);
	ops->write_ovf_ctrl(status);
	ops->unmask_pmi();

	sregs = ops->sample_regs ? ops->sample_regs(regs) : regs;
	for_each_set_bit(idx, &status, KNC_NUM_COUNTERS) {
		struct perf_event *event = cpuc->events[idx];

		if (!event || (event->hw.state & PERF_HES_STOPPED))
			continue;
		knc_event_update(event);
		elapsed = knc_event_set_period(event, idx);
		knc_update_userpage(event);
		/*
		 * Counting events, and pieces of long periods, end here. An
		 * event knc_pmu_enable() has yet to start, whose counter
		 * overflowed before a stop in the section, is reloaded and
		 * sampled as any.
		 */
		if (!elapsed || !is_sampling_event(event))
			continue;
		perf_sample_data_init(&data, 0, event->hw.last_period);
		if (perf_event_overflow(event, &data, sregs))
			knc_pmu_stop(event, 0);	/* throttled */
	}
	inc_perf_irq_stat();
out:
	if (stopped)
		ops->write_global_ctrl(READ_ONCE(cpuc->global));
	if (!status)
		return NMI_DONE;
	perf_sample_event_took(sched_clock() - start);
	return hweight_long(status);
}

#ifdef KNC_NO_X86_EXPORTS
/*
 * Whether a PMU takes PERF_TYPE_HARDWARE events before knc does: the x86
 * core's, when it found counters. Asked of perf where the x86 core does not
 * export its capabilities to modules (KNC_NO_X86_EXPORTS); there knc offers
 * no RDPMC.
 */
static bool knc_cpu_pmu_counts(void)
{
	struct perf_event_attr attr = {
		.type		= PERF_TYPE_HARDWARE,
		.size		= sizeof(attr),
		.config		= PERF_COUNT_HW_CPU_CYCLES,
		.disabled	= 1,
	};
	struct perf_event *event;

	event = perf_event_create_kernel_counter(&attr, -1, current, NULL, NULL);
	if (IS_ERR(event))
		return false;
	perf_event_release_kernel(event);
	return true;
}

static void knc_pmu_x86_caps(struct knc_pmu *kp)
{
	kp->generic_types = !knc_cpu_pmu_counts();
}
#else
/*
 * What the x86 core PMU counts: knc takes the generic types where it found
 * no counters, and offers RDPMC where it knows KNC's counter width, which
 * it writes on the mmap page.
 */
static void knc_pmu_x86_caps(struct knc_pmu *kp)
{
	struct x86_pmu_capability cap;

	perf_get_x86_pmu_capability(&cap);
	kp->generic_types = !cap.num_counters_gp;
	kp->user_rdpmc = kp->ops->user_rdpmc &&
			 cap.bit_width_gp == KNC_CNTVAL_BITS;
}
#endif

/**
 * knc_pmu_setup - fill in what perf core knows of a backend's PMU
 * @kp: the PMU, its ops set
 *
 * The context is perf_hw_context, shared with the x86 core PMU. No cpumask
 * attribute: perf would take the PMU for an uncore one.
 */
void knc_pmu_setup(struct knc_pmu *kp)
{
	const struct knc_hw_ops *ops = kp->ops;

	static_call_update(knc_read_counter, ops->read_counter);
	static_call_update(knc_write_counter, ops->write_counter);
	static_call_update(knc_write_evtsel, ops->write_evtsel);
	mutex_init(&kp->reserve_lock);
	kp->reserved = !ops->reserve;
	kp->pmu = (struct pmu) {
		.module		= ops->owner,
		.task_ctx_nr	= perf_hw_context,
		.attr_groups	= knc_attr_groups,
		.event_init	= knc_pmu_event_init,
		.add		= knc_pmu_add,
		.del		= knc_pmu_del,
		.start		= knc_pmu_start,
		.stop		= knc_pmu_stop,
		.read		= knc_pmu_read,
#ifndef PERF_PMU_CAP_HETEROGENEOUS_CPUS
		.pmu_enable	= knc_pmu_enable,
		.pmu_disable	= knc_pmu_disable,
		.start_txn	= knc_pmu_start_txn,
		.commit_txn	= knc_pmu_commit_txn,
		.cancel_txn	= knc_pmu_cancel_txn,
#endif
#ifndef KNC_NO_X86_EXPORTS
		.event_mapped	= knc_pmu_event_mapped,
		.event_unmapped	= knc_pmu_event_unmapped,
#endif
		.event_idx	= knc_pmu_event_idx,
	};
#ifdef PERF_PMU_CAP_HETEROGENEOUS_CPUS
	/*
	 * Before 6.2 one PMU per context type, unless PMUs say they are of
	 * heterogeneous CPUs: that lets knc share perf_hw_context with the
	 * x86 core PMU, and lets a reload take it again (6.1 remembers
	 * forever that a PMU took it, and would otherwise WARN and demote
	 * knc to CPU-wide events only). 6.2 gave each PMU its own part of a
	 * context, and dropped the cap.
	 */
	kp->pmu.capabilities |= PERF_PMU_CAP_HETEROGENEOUS_CPUS;
#endif
#ifdef MODULE
	if (!knc_can_sample())
		kp->pmu.capabilities |= PERF_PMU_CAP_NO_INTERRUPT;
#endif
	if (boot_cpu_has(X86_FEATURE_HYBRID_CPU))
		return;
	knc_pmu_x86_caps(kp);
}
