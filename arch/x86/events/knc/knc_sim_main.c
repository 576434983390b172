// SPDX-License-Identifier: GPL-2.0
/*
 * Knights Corner core PMU simulator (knc_sim.ko): a knc_hw_ops backend for
 * machines without KNC hardware, a developer's tool in the manner of
 * netdevsim. Loading it registers the knc PMU on the simulated registers
 * (knc_pmu provides the core); unloading it takes the PMU away.
 *
 * Each CPU has its own simulated PMU (knc_sim_model.c) whose registers live
 * in memory. A PMI is a real NMI sent to the CPU itself through the local
 * APIC, so the driver's NMI handler runs exactly as on hardware.
 *
 * Events come from two sources:
 *  - injection: a write to <debugfs>/knc_sim/inject makes the calling
 *    CPU's PMU see COUNT occurrences of an event, in user or kernel mode, in
 *    the caller's context. Any table event moves this way.
 *    The CPU's thread siblings (topology_sibling_cpumask) see them too, as
 *    another thread's events: they count only in thread-count mode.
 *  - a clock model: cpu_clk_unhalted advances at clock_hz (1.1 GHz) while
 *    the CPU is not idle, in the mode seen by a per-CPU tick. The tick
 *    comes every millisecond, or sooner when a counter of cycles with INT
 *    set is due to overflow, so that overflows (and samples) come when
 *    their cycle does. It is the only event that moves by itself; its
 *    cycles are each CPU's own, in thread-count mode too.
 *
 * This file: the module's entry and its debugfs interface; knc_sim.h lists
 * the others and holds what they share.
 */
#include <linux/debugfs.h>
#include <linux/hrtimer.h>
#include <linux/module.h>
#include <linux/percpu.h>
#include <linux/seq_file.h>

#include "knc_compat.h"
#include "knc_sim.h"

DEFINE_PER_CPU(struct knc_sim_cpu, knc_sim_cpu);

static struct dentry *knc_sim_dir;

static int knc_sim_regs_show(struct seq_file *m, void *v)
{
	unsigned int cpu, i;

	for_each_online_cpu(cpu) {
		const struct knc_sim_cpu *sc = per_cpu_ptr(&knc_sim_cpu, cpu);
		const struct knc_sim_regs *r = &sc->regs;

		seq_printf(m, "cpu%u ctr0=%#llx ctr1=%#llx evtsel0=%#llx evtsel1=%#llx global_ctrl=%#llx global_status=%#llx spflt=%#llx lvt=%s pmis=%lu pmi_timeouts=%lu",
			   cpu, r->ctr[0], r->ctr[1], r->evtsel[0], r->evtsel[1],
			   r->global_ctrl, r->global_status, r->spflt,
			   r->lvt_masked ? "masked" : "unmasked", sc->pmis,
			   sc->pmi_timeouts);
		for (i = 0; i < KNC_SIM_NR_ACCESS; i++)
			seq_printf(m, " %s=%lu", knc_sim_access_names[i],
				   sc->access[i]);
		seq_printf(m, " irqoff_max_ns=%llu irqoff_max_at=%s irqoff_spans=%lu irqoff_long=%lu irqoff_max_steps=%u irqoff_max_pmis=%u",
			   sc->irqoff_max_ns,
			   knc_sim_span_names[sc->irqoff_max_where],
			   sc->irqoff_spans, sc->irqoff_long,
			   sc->irqoff_max_steps, sc->irqoff_max_pmis);
		seq_putc(m, '\n');
	}
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(knc_sim_regs);

static void knc_sim_timers_cancel(void)
{
	unsigned int cpu;

	for_each_possible_cpu(cpu) {
		hrtimer_cancel(&per_cpu_ptr(&knc_sim_cpu, cpu)->tick);
		hrtimer_cancel(&per_cpu_ptr(&knc_sim_cpu, cpu)->pmi_timer);
	}
}

/* irqoff_max_ns: the longest span over all CPUs; writing 0 resets it. */
static int knc_sim_irqoff_get(void *data, u64 *val)
{
	unsigned int cpu;

	*val = 0;
	for_each_possible_cpu(cpu)
		*val = max(*val, READ_ONCE(per_cpu(knc_sim_cpu, cpu).irqoff_max_ns));
	return 0;
}

static int knc_sim_irqoff_set(void *data, u64 val)
{
	unsigned int cpu;

	if (val)
		return -EINVAL;
	for_each_possible_cpu(cpu) {
		struct knc_sim_cpu *sc = per_cpu_ptr(&knc_sim_cpu, cpu);

		WRITE_ONCE(sc->irqoff_max_ns, 0);
		WRITE_ONCE(sc->irqoff_max_where, KNC_SIM_SPAN_NONE);
		WRITE_ONCE(sc->irqoff_spans, 0);
		WRITE_ONCE(sc->irqoff_long, 0);
		WRITE_ONCE(sc->irqoff_max_steps, 0);
		WRITE_ONCE(sc->irqoff_max_pmis, 0);
	}
	return 0;
}
DEFINE_DEBUGFS_ATTRIBUTE(knc_sim_irqoff_fops, knc_sim_irqoff_get,
			 knc_sim_irqoff_set, "%llu\n");

static int knc_sim_knob_get(void *data, u64 *val)
{
	*val = READ_ONCE(((struct knc_sim_knob *)data)->val);
	return 0;
}

static int knc_sim_knob_set(void *data, u64 val)
{
	struct knc_sim_knob *knob = data;

	if (val > knob->max)
		return -EINVAL;
	WRITE_ONCE(knob->val, val);
	return 0;
}
DEFINE_DEBUGFS_ATTRIBUTE(knc_sim_knob_fops, knc_sim_knob_get,
			 knc_sim_knob_set, "%llu\n");

static struct knc_pmu *knc_sim_pmu;

static int __init knc_sim_init(void)
{
	unsigned int cpu;

	for_each_possible_cpu(cpu) {
		struct knc_sim_cpu *sc = per_cpu_ptr(&knc_sim_cpu, cpu);

		hrtimer_setup(&sc->tick, knc_sim_tick, CLOCK_MONOTONIC,
			      HRTIMER_MODE_REL_PINNED_HARD);
		hrtimer_setup(&sc->pmi_timer, knc_sim_pmi_timer_fn,
			      CLOCK_MONOTONIC, HRTIMER_MODE_ABS_PINNED_HARD);
	}
	knc_sim_pmu = knc_pmu_register(&knc_sim_ops);
	if (IS_ERR(knc_sim_pmu)) {
		knc_sim_timers_cancel();
		return PTR_ERR(knc_sim_pmu);
	}
	knc_sim_dir = debugfs_create_dir("knc_sim", NULL);
	debugfs_create_file("inject", 0200, knc_sim_dir, NULL,
			    &knc_sim_inject_fops);
	debugfs_create_file("regs", 0444, knc_sim_dir, NULL,
			    &knc_sim_regs_fops);
	debugfs_create_file("spflt", 0200, knc_sim_dir, NULL,
			    &knc_sim_spflt_fops);
	debugfs_create_file_unsafe("clock_hz", 0644, knc_sim_dir,
				   &knc_sim_clock_hz, &knc_sim_knob_fops);
	debugfs_create_file_unsafe("pmi_min_gap_ns", 0644, knc_sim_dir,
				   &knc_sim_pmi_gap_ns, &knc_sim_knob_fops);
	debugfs_create_file_unsafe("race_events", 0644, knc_sim_dir,
				   &knc_sim_race_events, &knc_sim_knob_fops);
	debugfs_create_file_unsafe("irqoff_max_ns", 0644, knc_sim_dir, NULL,
				   &knc_sim_irqoff_fops);
	return 0;
}

static void __exit knc_sim_exit(void)
{
	debugfs_remove_recursive(knc_sim_dir);
	knc_pmu_unregister(knc_sim_pmu);
	knc_sim_timers_cancel();
}

module_init(knc_sim_init);
module_exit(knc_sim_exit);

MODULE_DESCRIPTION("Simulated Intel Xeon Phi (Knights Corner) core PMU: the knc PMU on any x86 machine, driven through debugfs (knc_sim/)");
MODULE_LICENSE("GPL");
MODULE_IMPORT_NS(KNC_NS);
