// SPDX-License-Identifier: GPL-2.0
/*
 * Knights Corner core PMU simulator: injection. A write to debugfs inject
 * makes the calling CPU's PMU (and its thread siblings') see events; one
 * to debugfs spflt stands in for the SPFLT instruction.
 */
#include <linux/cpumask.h>
#include <linux/fs.h>
#include <linux/module.h>
#include <linux/perf_event.h>
#include <linux/sched.h>
#include <linux/sched/signal.h>
#include <linux/sched/task_stack.h>
#include <linux/slab.h>
#include <linux/smp.h>
#include <linux/string.h>
#include <linux/topology.h>
#include <linux/uaccess.h>

#include "knc_sim.h"

/*
 * inject: "EVENT COUNT [user|kernel] [per_cycle=N]". EVENT is a table name
 * or alias, or "event=0xNN,umask=0xNN" (any pair: undefined ones simply
 * never count). COUNT occurrences arrive per_cycle at a time (default 1).
 */
static int knc_sim_parse_event(char *tok, struct knc_sim_burst *b)
{
	const struct knc_event_desc *desc;
	unsigned int ev, um;

	if (sscanf(tok, "event=%i,umask=%i", &ev, &um) == 2) {
		if (ev > 0xff || um > 0xff)
			return -EINVAL;
		b->event = ev;
		b->umask = um;
		return 0;
	}
	desc = knc_event_by_name(tok);
	if (!desc)
		return -EINVAL;
	b->event = desc->event;
	b->umask = desc->umask;
	return 0;
}

static int knc_sim_parse_inject(char *buf, struct knc_sim_burst *b)
{
	char *tok, *ev_tok = NULL, *count_tok = NULL;
	unsigned int per_cycle;
	u64 count;
	int ret;

	b->user = true;
	b->per_cycle = 1;
	while ((tok = strsep(&buf, " \t\n"))) {
		if (!*tok)
			continue;
		if (!ev_tok)
			ev_tok = tok;
		else if (!count_tok)
			count_tok = tok;
		else if (!strcmp(tok, "user"))
			b->user = true;
		else if (!strcmp(tok, "kernel"))
			b->user = false;
		else if (sscanf(tok, "per_cycle=%u", &per_cycle) == 1 &&
			 per_cycle >= 1 && per_cycle <= 255)
			b->per_cycle = per_cycle;
		else
			return -EINVAL;
	}
	if (!count_tok)
		return -EINVAL;
	ret = knc_sim_parse_event(ev_tok, b);
	if (ret)
		return ret;
	ret = kstrtou64(count_tok, 0, &count);
	if (ret)
		return ret;
	if (count > KNC_SIM_MAX_COUNT || count % b->per_cycle)
		return -EINVAL;
	b->cycles = count / b->per_cycle;
	return 0;
}

static bool knc_sim_thread_count_mode(int cpu)
{
	const struct knc_sim_regs *r = &per_cpu(knc_sim_cpu, cpu).regs;
	unsigned int i;

	for (i = 0; i < KNC_NUM_COUNTERS; i++)
		if ((READ_ONCE(r->evtsel[i]) & (KNC_EVTSEL_EN | KNC_EVTSEL_ANY)) ==
		    (KNC_EVTSEL_EN | KNC_EVTSEL_ANY))
			return true;
	return false;
}

/* On a sibling: the burst happened on another thread of the core. */
static void knc_sim_sibling_burst(void *info)
{
	struct knc_sim_burst b = *(struct knc_sim_burst *)info;
	struct knc_sim_irqoff s = knc_sim_irqoff_begin(this_cpu_ptr(&knc_sim_cpu));
	struct knc_sim_cpu *sc = knc_sim_sync();

	/* A sample goes to the task this CPU runs, as the clock's does. */
	b.sibling = true;
	knc_sim_run(sc, &b, current->mm ? task_pt_regs(current) : NULL);
	knc_sim_irqoff_end(sc, &s, KNC_SIM_SPAN_INJECT);
}

/*
 * A counter in thread-count mode (EvtSel bit 21) sees the events of the
 * other threads of its core, the CPUs of topology_sibling_cpumask(): each
 * sibling with such a counter sees the whole burst, at once.
 */
static void knc_sim_inject_siblings(const struct knc_sim_burst *b)
{
	int cpu, self = get_cpu();

	for_each_cpu(cpu, topology_sibling_cpumask(self))
		if (cpu != self && knc_sim_thread_count_mode(cpu))
			smp_call_function_single(cpu, knc_sim_sibling_burst,
						 (void *)b, 1);
	put_cpu();
}

static ssize_t knc_sim_inject_write(struct file *file, const char __user *ubuf,
				    size_t len, loff_t *ppos)
{
	struct knc_sim_burst b = { };
	struct pt_regs kregs, *ctx;
	unsigned long flags;
	char *buf;
	int ret;

	if (len > KNC_SIM_MAX_INJECT_LEN)
		return -EINVAL;
	buf = memdup_user_nul(ubuf, len);
	if (IS_ERR(buf))
		return PTR_ERR(buf);
	ret = knc_sim_parse_inject(buf, &b);
	kfree(buf);
	if (ret)
		return ret;

	/*
	 * The events happen in the caller's context: in user mode at its
	 * system call, in kernel mode here in the write path it called.
	 */
	if (b.user) {
		ctx = task_pt_regs(current);
	} else {
		perf_fetch_caller_regs(&kregs);
		ctx = &kregs;
	}

	/*
	 * Stay on this CPU, but let the scheduler in between steps: a burst
	 * that overflows a short period often takes many PMIs.
	 */
	migrate_disable();
	knc_sim_inject_siblings(&b);
	while (b.cycles) {
		struct knc_sim_cpu *sc = this_cpu_ptr(&knc_sim_cpu);
		bool raised;
		struct knc_sim_irqoff s;

		knc_sim_pace(sc);
		preempt_disable();
		local_irq_save(flags);
		s = knc_sim_irqoff_begin(sc);
		sc = knc_sim_sync();
		sc->race = &b;
		raised = knc_sim_run_step(sc, &b, ctx, false);
		if (!raised)
			sc->race = NULL;
		knc_sim_irqoff_end(sc, &s, KNC_SIM_SPAN_INJECT);
		local_irq_restore(flags);
		if (raised) {
			knc_sim_wait_pmi(sc);
			WRITE_ONCE(sc->race, NULL);
		}
		preempt_enable();
		if (!b.cycles)
			break;
		if (fatal_signal_pending(current)) {
			ret = -EINTR;
			break;
		}
		cond_resched();
	}
	migrate_enable();
	return ret ? ret : len;
}

/*
 * The SPFLT instruction's stand-in: "1" or "0" sets or clears USER_PREF on
 * the writer's CPU, as the ring-3 instruction does on a KNC (without the
 * system call). Not a driver access: the program's.
 */
static ssize_t knc_sim_spflt_write(struct file *file, const char __user *ubuf,
				   size_t len, loff_t *ppos)
{
	struct knc_sim_cpu *sc;
	unsigned long flags;
	u64 spflt;
	bool on;
	int ret;

	ret = kstrtobool_from_user(ubuf, len, &on);
	if (ret)
		return ret;
	local_irq_save(flags);
	sc = knc_sim_sync();
	spflt = sc->regs.spflt & ~KNC_SPFLT_USER_PREF;
	knc_sim_write_spflt_reg(&sc->regs, on ? spflt | KNC_SPFLT_USER_PREF : spflt);
	local_irq_restore(flags);
	return len;
}

const struct file_operations knc_sim_spflt_fops = {
	.owner = THIS_MODULE,
	.open = simple_open,
	.write = knc_sim_spflt_write,
	.llseek = noop_llseek,
};

const struct file_operations knc_sim_inject_fops = {
	.owner = THIS_MODULE,
	.open = simple_open,
	.write = knc_sim_inject_write,
	.llseek = noop_llseek,
};
