// SPDX-License-Identifier: GPL-2.0
/*
 * Knights Corner core PMU: a standalone perf PMU named "knc".
 *
 * Two general counters per hardware thread, 40 bits wide, programmed
 * through P6-style event selects (seed 000, section 1.4). The registers are
 * reached through struct knc_hw_ops: the native MSRs on a KNC coprocessor,
 * or the simulator (module parameter sim=1) anywhere else.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/cpuhotplug.h>
#include <linux/kprobes.h>
#include <linux/module.h>
#include <linux/nospec.h>
#include <linux/perf_event.h>
#include <linux/sched/mm.h>
#include <linux/slab.h>
#include <linux/uaccess.h>
#include <asm/hardirq.h>
#include <asm/nmi.h>
#include <asm/tlbflush.h>

#include "knc_hw.h"
#include "knc_logic.h"

#define CREATE_TRACE_POINTS
#include "knc_trace.h"

static bool sim;
module_param(sim, bool, 0444);
MODULE_PARM_DESC(sim, "Drive the simulated KNC PMU instead of the MSRs, for machines without KNC hardware (see tools/knc/knc-sim)");

static bool sampling = true;
module_param(sampling, bool, 0444);
MODULE_PARM_DESC(sampling, "Offer sampling events (default 1); 0 makes the PMU count only, as when perf_event_overflow() cannot be found");

static const struct knc_hw_ops *knc_hw;

/*
 * With no x86 core PMU (no "cpu" PMU, as under an emulator or a KNC kernel
 * without arch/x86/events/intel/knc.c), perf offers PERF_TYPE_HARDWARE and
 * PERF_TYPE_RAW events to every PMU: then knc takes them, the generic ids
 * by the names of the JSON's generic aliases (and the "branches" event).
 */
static bool knc_generic_types;

/*
 * RDPMC from user space (cap_user_rdpmc in the mmap page), as the x86 core
 * offers it: the backend must read real counters, and the x86 core must
 * know their width, since arch_perf_update_userpage() fills pmc_width from
 * it (true on a KNC kernel with Linux's own driver, false without a core
 * PMU).
 */
static bool knc_user_rdpmc;

static const char * const knc_generic_names[PERF_COUNT_HW_MAX] = {
	[PERF_COUNT_HW_CPU_CYCLES]		= "cycles",
	[PERF_COUNT_HW_INSTRUCTIONS]		= "instructions",
	[PERF_COUNT_HW_CACHE_REFERENCES]	= "cache-references",
	[PERF_COUNT_HW_CACHE_MISSES]		= "cache-misses",
	[PERF_COUNT_HW_BRANCH_INSTRUCTIONS]	= "branches",
	[PERF_COUNT_HW_BRANCH_MISSES]		= "branch-misses",
};

typedef int (*knc_overflow_fn)(struct perf_event *event,
			       struct perf_sample_data *data,
			       struct pt_regs *regs);
/* perf_event_overflow(), or NULL: the PMU then counts only. */
static knc_overflow_fn knc_overflow;

/**
 * struct knc_cpu_hw - per-CPU driver state
 * @events: the event on each counter, or NULL
 * @running: the counters whose events are started
 */
struct knc_cpu_hw {
	struct perf_event *events[KNC_NUM_COUNTERS];
	u8 running;
};

static DEFINE_PER_CPU(struct knc_cpu_hw, knc_cpu_hw);
static enum cpuhp_state knc_hp_state;
static atomic_t knc_task_pinned = ATOMIC_INIT(0);

/*
 * The counters an event may use, resolved once by event_init and kept in
 * config_base, which holds an MSR address on the x86 core and is free
 * here: add() then does no table search.
 */
static u8 knc_event_cntmask(const struct perf_event *event)
{
	return event->hw.config_base;
}

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

/* Fold the counter's progress since the last read into the 64-bit count. */
static void knc_event_update(struct perf_event *event)
{
	struct hw_perf_event *hwc = &event->hw;
	u64 prev, now, delta;

	/* The PMI handler may update the same event between our two reads. */
	do {
		prev = local64_read(&hwc->prev_count);
		now = knc_prev_count(knc_hw->read_counter(hwc->idx));
	} while (local64_cmpxchg(&hwc->prev_count, prev, now) != prev);

	delta = knc_delta(prev, now);
	local64_add(delta, &event->count);
	local64_sub(delta, &hwc->period_left);
}

/* Program the counter to overflow at the end of the period. */
static bool knc_event_set_period(struct perf_event *event)
{
	struct hw_perf_event *hwc = &event->hw;
	s64 left = local64_read(&hwc->period_left);
	bool elapsed = knc_period_adjust(&left, hwc->sample_period);
	u64 start = knc_counter_start(left);

	if (elapsed)
		hwc->last_period = hwc->sample_period;
	local64_set(&hwc->period_left, left);
	local64_set(&hwc->prev_count, knc_prev_count(start));
	knc_hw->write_counter(hwc->idx, start);
	perf_event_update_userpage(event);
	return elapsed;
}

/*
 * A counter counts while its bit is set in both EvtSel.EN and GLOBAL_CTRL.
 * EvtSel.EN starts and stops each event; GLOBAL_CTRL stays set but for the
 * PMI handler. Scheduling a task's event out and in then costs the least
 * the hardware allows: EvtSel, read; counter, EvtSel.
 *
 * There is no pmu_disable/pmu_enable pair to gate the whole PMU: on a KNC
 * kernel Linux 6.1 runs every perf_hw_context under the cpu PMU's
 * disable/enable, and arch/x86/events/intel/knc.c clears and sets
 * GLOBAL_CTRL there itself, so a group starts and stops as one. Without
 * a core PMU a group's events start a few hundred kernel instructions
 * apart (nothing for user-mode events).
 */
static void knc_pmu_start(struct perf_event *event, int flags)
{
	struct knc_cpu_hw *cpuc = this_cpu_ptr(&knc_cpu_hw);
	struct hw_perf_event *hwc = &event->hw;

	if (WARN_ON_ONCE(!(hwc->state & PERF_HES_STOPPED)))
		return;
	if (flags & PERF_EF_RELOAD) {
		WARN_ON_ONCE(!(hwc->state & PERF_HES_UPTODATE));
		knc_event_set_period(event);
	}
	hwc->state = 0;
	cpuc->running |= BIT(hwc->idx);
	knc_hw->write_evtsel(hwc->idx, hwc->config);
	trace_knc_counter_start(hwc->idx, hwc->config,
				local64_read(&hwc->prev_count) & KNC_CNTVAL_MASK);
	perf_event_update_userpage(event);
}

static void knc_pmu_stop(struct perf_event *event, int flags)
{
	struct knc_cpu_hw *cpuc = this_cpu_ptr(&knc_cpu_hw);
	struct hw_perf_event *hwc = &event->hw;
	bool running = !(hwc->state & PERF_HES_STOPPED);

	if (running) {
		knc_hw->write_evtsel(hwc->idx, hwc->config & ~KNC_EVTSEL_EN);
		cpuc->running &= ~BIT(hwc->idx);
		hwc->state |= PERF_HES_STOPPED;
	}
	if ((flags & PERF_EF_UPDATE) && !(hwc->state & PERF_HES_UPTODATE)) {
		knc_event_update(event);
		hwc->state |= PERF_HES_UPTODATE;
	}
	if (running)
		trace_knc_counter_stop(hwc->idx, hwc->config & ~KNC_EVTSEL_EN,
				       local64_read(&hwc->prev_count) &
				       KNC_CNTVAL_MASK);
}

/* Move a scheduled event to another counter, keeping its count. */
static void knc_event_move(struct knc_cpu_hw *cpuc, struct perf_event *event,
			   int to)
{
	struct hw_perf_event *hwc = &event->hw;
	bool running = !(hwc->state & PERF_HES_STOPPED);

	knc_pmu_stop(event, PERF_EF_UPDATE);
	cpuc->events[hwc->idx] = NULL;
	hwc->idx = to;
	cpuc->events[to] = event;
	if (running)
		knc_pmu_start(event, PERF_EF_RELOAD);
}

static int knc_pmu_add(struct perf_event *event, int flags)
{
	struct knc_cpu_hw *cpuc = this_cpu_ptr(&knc_cpu_hw);
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

	event->hw.idx = assign[n - 1];
	cpuc->events[event->hw.idx] = event;
	event->hw.state = PERF_HES_STOPPED | PERF_HES_UPTODATE;
	if (flags & PERF_EF_START)
		knc_pmu_start(event, PERF_EF_RELOAD);
	perf_event_update_userpage(event);
	return 0;
}

static void knc_pmu_del(struct perf_event *event, int flags)
{
	struct knc_cpu_hw *cpuc = this_cpu_ptr(&knc_cpu_hw);

	knc_pmu_stop(event, PERF_EF_UPDATE);
	cpuc->events[event->hw.idx] = NULL;
	event->hw.idx = -1;
	perf_event_update_userpage(event);
}

static void knc_pmu_read(struct perf_event *event)
{
	knc_event_update(event);
}

/* Can the event's group, with the event, be counted at once? */
static int knc_validate_group(struct perf_event *event)
{
	struct perf_event *leader = event->group_leader, *sibling;
	struct perf_event *evs[KNC_NUM_COUNTERS + 1];
	u8 cntmask[KNC_NUM_COUNTERS + 1];
	int assign[KNC_NUM_COUNTERS + 1];
	int i, n = 0;

	if (leader->pmu == event->pmu)
		evs[n++] = leader;
	for_each_sibling_event(sibling, leader) {
		if (sibling->pmu != event->pmu)
			continue;
		if (n == KNC_NUM_COUNTERS)
			return -EINVAL;
		evs[n++] = sibling;
	}
	if (event != leader) {
		if (n == KNC_NUM_COUNTERS)
			return -EINVAL;
		evs[n++] = event;
	}
	for (i = 0; i < n; i++)
		cntmask[i] = knc_event_cntmask(evs[i]);
	return knc_assign(cntmask, NULL, n, assign) ? -EINVAL : 0;
}

/*
 * Linux 6.1 keeps a task's perf context, and its pointer to this PMU, for
 * the task's whole life once a per-task event existed; unloading the module
 * then leaves context switches calling into freed memory. Pin the module
 * from the first per-task event on. 6.2 reworked contexts (each PMU's part
 * is freed with its last event), so Kbuild sets KNC_PIN_TASK_CONTEXT only
 * before it.
 */
#ifdef KNC_PIN_TASK_CONTEXT
static const bool knc_pin_task_context = true;
#else
static const bool knc_pin_task_context;
#endif

static void knc_pin_for_task_context(struct perf_event *event)
{
	if (!knc_pin_task_context)
		return;
	if (!(event->attach_state & PERF_ATTACH_TASK))
		return;
	if (atomic_xchg(&knc_task_pinned, 1))
		return;
	__module_get(THIS_MODULE);
	pr_info("per-task event opened: module pinned until reboot, as Linux 6.1 task contexts keep pointing at the PMU\n");
}

/*
 * The EvtSel config a PERF_TYPE_HARDWARE id selects, or -EINVAL for an id
 * KNC does not have, as the x86 core answers on KNC (its map ends at
 * branch-misses, and ids beyond a map are invalid there).
 */
static s64 knc_generic_config(u64 id)
{
	int idx;

	if (id >= PERF_COUNT_HW_MAX)
		return -EINVAL;
	id = array_index_nospec(id, PERF_COUNT_HW_MAX);
	if (!knc_generic_names[id])
		return -EINVAL;
	idx = knc_event_lookup_name(knc_generic_names[id]);
	if (idx < 0)
		return -EINVAL;
	return knc_events[idx].event | (u64)knc_events[idx].umask << 8;
}

static int knc_pmu_event_init(struct perf_event *event)
{
	struct perf_event_attr *attr = &event->attr;
	struct hw_perf_event *hwc = &event->hw;
	s64 config = attr->config;
	int idx, ret;

	switch (attr->type) {
	case PERF_TYPE_HARDWARE:
		if (!knc_generic_types)
			return -ENOENT;
		config = knc_generic_config(attr->config);
		if (config < 0)
			return config;
		break;
	case PERF_TYPE_HW_CACHE:
		if (!knc_generic_types)
			return -ENOENT;
		ret = knc_hw_cache_lookup(attr->config);
		if (ret < 0)
			return ret;
		config = knc_events[ret].event | (u64)knc_events[ret].umask << 8;
		break;
	case PERF_TYPE_RAW:
		if (!knc_generic_types)
			return -ENOENT;
		break;
	default:
		if (attr->type != event->pmu->type)
			return -ENOENT;
	}
	if (attr->config1 || attr->config2)
		return -EINVAL;
	idx = knc_config_check(config);
	if (idx < 0)
		return idx;
	if (attr->precise_ip || has_branch_stack(event))
		return -EOPNOTSUPP;
	if (is_sampling_event(event) && !knc_overflow)
		return -EOPNOTSUPP;

	hwc->config = knc_evtsel(config, !attr->exclude_user,
				 !attr->exclude_kernel);
	hwc->config_base = knc_events[idx].cntmask;
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
	if (knc_user_rdpmc)
		hwc->flags |= PERF_EVENT_FLAG_USER_READ_CNT;
	knc_pin_for_task_context(event);
	return 0;
}

/* The CR4.PCE a CPU running @mm needs: set while one of its events is mapped. */
static void knc_update_pce(void *mm)
{
	if (current->active_mm != mm)
		return;
	if (atomic_read(&((struct mm_struct *)mm)->context.perf_rdpmc_allowed))
		cr4_set_bits_irqsoff(X86_CR4_PCE);
	else
		cr4_clear_bits_irqsoff(X86_CR4_PCE);
}

/*
 * A task mmaps an event's page to read it with RDPMC: allow RDPMC in its
 * mm, whose context switches then keep CR4.PCE (the count is the x86
 * core's, shared with the cpu PMU's events).
 */
static void knc_pmu_event_mapped(struct perf_event *event, struct mm_struct *mm)
{
	if (!(event->hw.flags & PERF_EVENT_FLAG_USER_READ_CNT))
		return;
	if (atomic_inc_return(&mm->context.perf_rdpmc_allowed) == 1)
		on_each_cpu_mask(mm_cpumask(mm), knc_update_pce, mm, 1);
}

static void knc_pmu_event_unmapped(struct perf_event *event, struct mm_struct *mm)
{
	if (!(event->hw.flags & PERF_EVENT_FLAG_USER_READ_CNT))
		return;
	if (atomic_dec_and_test(&mm->context.perf_rdpmc_allowed))
		on_each_cpu_mask(mm_cpumask(mm), knc_update_pce, mm, 1);
}

/* RDPMC's ECX plus one for the mmap page, 0 when user space may not read. */
static int knc_pmu_event_idx(struct perf_event *event)
{
	if (!(event->hw.flags & PERF_EVENT_FLAG_USER_READ_CNT))
		return 0;
	return event->hw.idx + 1;
}

/*
 * The PMI, delivered as an NMI, in the order seed 000 (1.4.3.9) prescribes:
 * stop the counters, read and clear the overflow status, unmask the LVT
 * entry the APIC masked on delivery, reload the counters, restart. With the
 * counters stopped no overflow can slip in between reading and clearing
 * (its PMI would find the entry masked), so the status needs no second
 * read; one that comes after the restart raises a PMI of its own.
 */
static int knc_pmi_handler(unsigned int cmd, struct pt_regs *regs)
{
	struct knc_cpu_hw *cpuc = this_cpu_ptr(&knc_cpu_hw);
	bool stopped = cpuc->running;
	struct perf_sample_data data;
	struct pt_regs *sregs;
	unsigned long status;
	int idx;

	if (stopped)
		knc_hw->write_global_ctrl(0);
	status = knc_hw->read_global_status() & KNC_COUNTERS_MASK;
	if (!status)
		goto out;
	trace_knc_pmi(status);
	knc_hw->write_ovf_ctrl(status);
	knc_hw->unmask_pmi();

	sregs = knc_hw->sample_regs ? knc_hw->sample_regs(regs) : regs;
	for_each_set_bit(idx, &status, KNC_NUM_COUNTERS) {
		struct perf_event *event = cpuc->events[idx];

		if (!event || (event->hw.state & PERF_HES_STOPPED))
			continue;
		knc_event_update(event);
		/* Counting events, and pieces of long periods, end here. */
		if (!knc_event_set_period(event) || !is_sampling_event(event))
			continue;
		perf_sample_data_init(&data, 0, event->hw.last_period);
		if (knc_overflow(event, &data, sregs))
			knc_pmu_stop(event, 0);	/* throttled */
	}
	inc_irq_stat(apic_perf_irqs);
out:
	if (stopped)
		knc_hw->write_global_ctrl(KNC_COUNTERS_MASK);
	return status ? hweight_long(status) : NMI_DONE;
}

static int knc_cpu_online(unsigned int cpu)
{
	unsigned long flags;

	local_irq_save(flags);
	knc_hw->cpu_online();
	knc_hw->write_global_ctrl(KNC_COUNTERS_MASK);
	local_irq_restore(flags);
	return 0;
}

static int knc_cpu_offline(unsigned int cpu)
{
	unsigned long flags;

	local_irq_save(flags);
	if (knc_hw->cpu_offline)
		knc_hw->cpu_offline();
	local_irq_restore(flags);
	return 0;
}

PMU_FORMAT_ATTR(event, "config:0-7");
PMU_FORMAT_ATTR(umask, "config:8-15");
PMU_FORMAT_ATTR(edge, "config:18");
PMU_FORMAT_ATTR(inv, "config:23");
PMU_FORMAT_ATTR(cmask, "config:24-31");

static struct attribute *knc_format_attrs[] = {
	&format_attr_event.attr,
	&format_attr_umask.attr,
	&format_attr_edge.attr,
	&format_attr_inv.attr,
	&format_attr_cmask.attr,
	NULL,
};

static const struct attribute_group knc_format_group = {
	.name = "format",
	.attrs = knc_format_attrs,
};

/* events/: one alias per table event and generic name, built at load. */
static struct attribute_group knc_events_group = {
	.name = "events",
};

static const struct attribute_group *knc_attr_groups[] = {
	&knc_format_group,
	&knc_events_group,
	NULL,
};

static struct dev_ext_attribute *knc_event_attrs;

static ssize_t knc_event_show(struct device *dev,
			      struct device_attribute *attr, char *page)
{
	struct dev_ext_attribute *ea =
		container_of(attr, struct dev_ext_attribute, attr);
	const struct knc_event_desc *d = ea->var;

	return sysfs_emit(page, "event=0x%02x,umask=0x%02x,period=%u\n",
			  d->event, d->umask, d->period);
}

static int knc_events_attrs_init(void)
{
	unsigned int n = knc_num_events + knc_num_aliases, i;
	struct attribute **attrs;

	knc_event_attrs = kcalloc(n, sizeof(*knc_event_attrs), GFP_KERNEL);
	attrs = kcalloc(n + 1, sizeof(*attrs), GFP_KERNEL);
	if (!knc_event_attrs || !attrs) {
		kfree(knc_event_attrs);
		kfree(attrs);
		return -ENOMEM;
	}
	for (i = 0; i < n; i++) {
		struct dev_ext_attribute *ea = &knc_event_attrs[i];
		const struct knc_event_desc *d = i < knc_num_events ?
			&knc_events[i] : &knc_aliases[i - knc_num_events];

		sysfs_attr_init(&ea->attr.attr);
		ea->attr.attr.name = d->name;
		ea->attr.attr.mode = 0444;
		ea->attr.show = knc_event_show;
		ea->var = (void *)d;
		attrs[i] = &ea->attr.attr;
	}
	knc_events_group.attrs = attrs;
	return 0;
}

static void knc_events_attrs_free(void)
{
	kfree(knc_events_group.attrs);
	kfree(knc_event_attrs);
}

/*
 * No cpumask attribute: perf would take the PMU for an uncore one. The
 * context is perf_hw_context; PERF_PMU_CAP_HETEROGENEOUS_CPUS lets it share
 * that context with the x86 core PMU, and lets a reload take it again (6.1
 * remembers forever that a PMU took it, and would otherwise WARN and
 * demote us to CPU-wide only).
 */
static struct pmu knc_pmu = {
	.module		= THIS_MODULE,
	.task_ctx_nr	= perf_hw_context,
	.capabilities	= PERF_PMU_CAP_HETEROGENEOUS_CPUS,
	.attr_groups	= knc_attr_groups,
	.event_init	= knc_pmu_event_init,
	.add		= knc_pmu_add,
	.del		= knc_pmu_del,
	.start		= knc_pmu_start,
	.stop		= knc_pmu_stop,
	.read		= knc_pmu_read,
	.event_mapped	= knc_pmu_event_mapped,
	.event_unmapped	= knc_pmu_event_unmapped,
	.event_idx	= knc_pmu_event_idx,
};

/*
 * perf_event_overflow() hands a sample to perf core, but Linux 6.1 does not
 * export it (nor perf_event_output()) to modules. kallsyms_lookup_name() is
 * not exported either, but a kprobe on it reveals its address, and it finds
 * perf_event_overflow(). The risk is that of any unexported call: no ABI
 * promise and no modversions check. The static_assert below ties the
 * pointer's type to the prototype in the headers this module is built
 * against, and kernels that seal indirect branch targets (IBT) are refused
 * unless the function starts with ENDBR64. Without it the PMU counts only.
 */
static_assert(__same_type(&perf_event_overflow, knc_overflow_fn));

static knc_overflow_fn knc_find_overflow(void)
{
	static const u8 endbr64[] = { 0xf3, 0x0f, 0x1e, 0xfa };
	struct kprobe kp = { .symbol_name = "kallsyms_lookup_name" };
	unsigned long (*lookup)(const char *name);
	u8 insn[sizeof(endbr64)];
	unsigned long addr;

	if (register_kprobe(&kp))
		return NULL;
	lookup = (void *)kp.addr;
	unregister_kprobe(&kp);
	addr = lookup ? lookup("perf_event_overflow") : 0;
	if (!addr)
		return NULL;
	if (IS_ENABLED(CONFIG_X86_KERNEL_IBT) &&
	    (copy_from_kernel_nofault(insn, (void *)addr, sizeof(insn)) ||
	     memcmp(insn, endbr64, sizeof(insn))))
		return NULL;
	return (knc_overflow_fn)addr;
}

static int __init knc_pmu_init(void)
{
	int ret;

	if (sim) {
		knc_hw = &knc_sim_ops;
	} else if (knc_native_present()) {
		knc_hw = &knc_native_ops;
	} else {
		pr_info("no Knights Corner PMU on this CPU (family %u model %u); load with sim=1 for the simulated PMU\n",
			boot_cpu_data.x86, boot_cpu_data.x86_model);
		return -ENODEV;
	}

	if (!boot_cpu_has(X86_FEATURE_HYBRID_CPU)) {
		struct x86_pmu_capability cap;

		perf_get_x86_pmu_capability(&cap);
		knc_generic_types = !cap.num_counters_gp;
		knc_user_rdpmc = knc_hw->user_rdpmc &&
				 cap.bit_width_gp == KNC_CNTVAL_BITS;
	}
	if (sampling)
		knc_overflow = knc_find_overflow();
	if (!knc_overflow) {
		knc_pmu.capabilities |= PERF_PMU_CAP_NO_INTERRUPT;
		pr_info("sampling unavailable (%s): counting only\n",
			sampling ? "perf_event_overflow() not found" :
			"sampling=0");
	}

	ret = knc_events_attrs_init();
	if (ret)
		return ret;
	ret = knc_hw->probe();
	if (ret) {
		pr_err("%s PMU unavailable (%d)\n", knc_hw->name, ret);
		goto err_attrs;
	}
	ret = register_nmi_handler(NMI_LOCAL, knc_pmi_handler, 0, "knc_pmi");
	if (ret)
		goto err_remove;
	ret = cpuhp_setup_state(CPUHP_AP_ONLINE_DYN, "perf/x86/knc:online",
				knc_cpu_online, knc_cpu_offline);
	if (ret < 0)
		goto err_nmi;
	knc_hp_state = ret;

	ret = perf_pmu_register(&knc_pmu, "knc", -1);
	if (ret)
		goto err_cpuhp;

	pr_info("knc PMU registered: %s backend, %d counters of %d bits, %u events, %s%s%s\n",
		knc_hw->name, KNC_NUM_COUNTERS, KNC_CNTVAL_BITS,
		knc_num_events, knc_overflow ? "sampling" : "counting only",
		knc_generic_types ? ", generic events (no x86 core PMU)" : "",
		knc_user_rdpmc ? ", rdpmc" : "");
	return 0;

err_cpuhp:
	cpuhp_remove_state(knc_hp_state);
err_nmi:
	unregister_nmi_handler(NMI_LOCAL, "knc_pmi");
err_remove:
	knc_hw->remove();
err_attrs:
	knc_events_attrs_free();
	return ret;
}

static void __exit knc_pmu_exit(void)
{
	perf_pmu_unregister(&knc_pmu);
	cpuhp_remove_state(knc_hp_state);
	unregister_nmi_handler(NMI_LOCAL, "knc_pmi");
	knc_hw->remove();
	knc_events_attrs_free();
}

module_init(knc_pmu_init);
module_exit(knc_pmu_exit);

MODULE_DESCRIPTION("Intel Xeon Phi (Knights Corner) core PMU for perf, with a simulated PMU for machines without one");
MODULE_LICENSE("GPL");
