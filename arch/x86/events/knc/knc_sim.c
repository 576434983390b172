// SPDX-License-Identifier: GPL-2.0
/*
 * Knights Corner core PMU simulator: the knc_hw_ops backend for machines
 * without KNC hardware (module parameter sim=1).
 *
 * Each CPU has its own simulated PMU (knc_sim_model.c) whose registers live
 * in memory. A PMI is a real NMI sent to the CPU itself through the local
 * APIC, so the driver's NMI handler runs exactly as on hardware.
 *
 * Events come from two sources:
 *  - injection: a write to <debugfs>/knc_sim/inject (tools/knc/knc-sim)
 *    makes the calling CPU's PMU see COUNT occurrences of an event, in user
 *    or kernel mode, in the caller's context. Any table event moves this way.
 *  - a clock model: cpu_clk_unhalted advances at clock_hz (1.1 GHz) while
 *    the CPU is not idle, in the mode seen by a per-CPU tick. The tick
 *    comes every millisecond, or sooner when a counter of cycles with INT
 *    set is due to overflow, so that overflows (and samples) come when
 *    their cycle does. It is the only event that moves by itself.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/cpumask.h>
#include <linux/debugfs.h>
#include <linux/delay.h>
#include <linux/hrtimer.h>
#include <linux/kernel.h>
#include <linux/math64.h>
#include <linux/percpu.h>
#include <linux/perf_event.h>
#include <linux/sched.h>
#include <linux/sched/signal.h>
#include <linux/seq_file.h>
#include <linux/slab.h>
#include <linux/uaccess.h>
#include <asm/apic.h>
#include <asm/irq_regs.h>
#include <asm/irq_vectors.h>
#include <asm/ptrace.h>

#include "knc_hw.h"
#include "knc_sim_model.h"

#define KNC_SIM_CLOCK_EVENT	0x2a	/* CPU_CLK_UNHALTED, umask 0 */
#define KNC_SIM_TICK_NS		NSEC_PER_MSEC
#define KNC_SIM_MIN_TICK_NS	(10 * NSEC_PER_USEC)
#define KNC_SIM_PMI_WAIT_US	100000
#define KNC_SIM_MAX_COUNT	BIT_ULL(56)
#define KNC_SIM_MAX_PMI_GAP_NS	(10 * NSEC_PER_MSEC)

enum knc_sim_access {
	KNC_SIM_RD_CTR,
	KNC_SIM_WR_CTR,
	KNC_SIM_WR_EVTSEL,
	KNC_SIM_WR_CTRL,
	KNC_SIM_RD_STATUS,
	KNC_SIM_WR_OVF,
	KNC_SIM_WR_LVT,
	KNC_SIM_NR_ACCESS
};

static const char * const knc_sim_access_names[KNC_SIM_NR_ACCESS] = {
	[KNC_SIM_RD_CTR]	= "rd_ctr",
	[KNC_SIM_WR_CTR]	= "wr_ctr",
	[KNC_SIM_WR_EVTSEL]	= "wr_evtsel",
	[KNC_SIM_WR_CTRL]	= "wr_ctrl",
	[KNC_SIM_RD_STATUS]	= "rd_status",
	[KNC_SIM_WR_OVF]	= "wr_ovf",
	[KNC_SIM_WR_LVT]	= "wr_lvt",
};

/**
 * struct knc_sim_cpu - one CPU's simulated PMU
 * @regs: the registers
 * @tick: the clock model's tick, running while the clock event counts
 * @tick_on: @tick is queued
 * @clock_ns: when the clock model last caught up
 * @clock_user: the mode the last tick interrupted
 * @ctx_regs: while a burst runs, the registers of the context its events
 *	happen in (what samples are attributed to), else NULL
 * @race: while a PMI of a burst is being serviced, that burst:
 *	race_events of it arrive when the handler restarts the counters
 * @last_pmi_ns: when the last PMI was sent
 * @pmis: PMIs delivered
 * @pmi_timeouts: PMIs the driver did not service within the wait
 * @access: the driver's register accesses, by kind (enum knc_sim_access),
 *	as the QEMU model counts MSR accesses: what the benchmark counts
 */
struct knc_sim_cpu {
	struct knc_sim_regs regs;
	struct hrtimer tick;
	bool tick_on;
	u64 clock_ns;
	bool clock_user;
	struct pt_regs *ctx_regs;
	struct knc_sim_burst *race;
	u64 last_pmi_ns;
	unsigned long pmis;
	unsigned long pmi_timeouts;
	unsigned long access[KNC_SIM_NR_ACCESS];
};

static DEFINE_PER_CPU(struct knc_sim_cpu, knc_sim_cpu);
static u64 knc_sim_clock_hz = 1100000000;
static u64 knc_sim_pmi_gap_ns = 20 * NSEC_PER_USEC;
static u64 knc_sim_race_events;
static struct dentry *knc_sim_dir;

static void knc_sim_send_pmi(struct knc_sim_cpu *sc)
{
	sc->regs.pmi_raise = false;
	sc->pmis++;
	apic->send_IPI_mask(cpumask_of(smp_processor_id()), NMI_VECTOR);
}

/*
 * Deliver a PMI: an NMI to this CPU. Then wait, as hardware would run the
 * ISR before later events, until the handler unmasks the LVT entry. A
 * driver that never unmasks it gets no more PMIs, as the spec warns.
 *
 * Injected events arrive all at once, real ones over time: PMIs are paced
 * at least pmi_min_gap_ns apart (20 us, 50000 per second), so that perf's
 * throttling sees the rates a real workload would produce. A gap of 0
 * makes a storm.
 */
static void knc_sim_deliver_pmi(struct knc_sim_cpu *sc)
{
	u64 due = sc->last_pmi_ns + min_t(u64, READ_ONCE(knc_sim_pmi_gap_ns),
					  KNC_SIM_MAX_PMI_GAP_NS);
	unsigned int us;

	/* From the PMI handler itself: the NMI is latched until it returns. */
	if (in_nmi()) {
		knc_sim_send_pmi(sc);
		return;
	}
	while (ktime_get_ns() < due)
		cpu_relax();
	knc_sim_send_pmi(sc);
	for (us = 0; READ_ONCE(sc->regs.lvt_masked); us++) {
		if (us == KNC_SIM_PMI_WAIT_US) {
			sc->pmi_timeouts++;
			pr_err_once("PMI not serviced in %u us: LVT entry left masked\n",
				    KNC_SIM_PMI_WAIT_US);
			break;
		}
		udelay(1);
	}
	sc->last_pmi_ns = ktime_get_ns();
}

/* One step of a burst, up to the next PMI; call with interrupts disabled. */
static void knc_sim_run_step(struct knc_sim_cpu *sc, struct knc_sim_burst *b)
{
	knc_sim_step(&sc->regs, b);
	if (sc->regs.pmi_raise) {
		sc->race = b;
		knc_sim_deliver_pmi(sc);
		sc->race = NULL;
	}
}

/*
 * Events that arrive while the PMI handler runs (debugfs race_events):
 * counted from the moment the handler restarts the counters, in NMI
 * context. An overflow among them raises a PMI that waits for the running
 * handler to return; a driver that loses it loses samples.
 */
static void knc_sim_race(struct knc_sim_cpu *sc)
{
	struct knc_sim_burst *b = sc->race, part = *b;

	sc->race = NULL;
	part.cycles = min(READ_ONCE(knc_sim_race_events), b->cycles);
	b->cycles -= part.cycles;
	while (part.cycles)
		knc_sim_step(&sc->regs, &part);
	b->started = part.started;
}

static void knc_sim_run(struct knc_sim_cpu *sc, struct knc_sim_burst *b)
{
	while (b->cycles)
		knc_sim_run_step(sc, b);
}

static bool knc_sim_counts_clock(const struct knc_sim_regs *r, unsigned int i)
{
	return (r->evtsel[i] & KNC_EVTSEL_EN) && (r->global_ctrl & BIT_ULL(i)) &&
	       (r->evtsel[i] & (KNC_EVTSEL_EVENT | KNC_EVTSEL_UMASK)) ==
	       KNC_SIM_CLOCK_EVENT;
}

static bool knc_sim_clock_counting(const struct knc_sim_regs *r)
{
	unsigned int i;

	for (i = 0; i < KNC_NUM_COUNTERS; i++)
		if (knc_sim_counts_clock(r, i))
			return true;
	return false;
}

/* ns until the clock model's next tick: 1 ms, or the next overflow due. */
static u64 knc_sim_clock_next_ns(const struct knc_sim_regs *r)
{
	u64 mhz = READ_ONCE(knc_sim_clock_hz) / 1000000, next = KNC_SIM_TICK_NS;
	unsigned int i;

	for (i = 0; mhz && i < KNC_NUM_COUNTERS; i++) {
		u64 room = KNC_CNTVAL_MASK - r->ctr[i] + 1;

		if (knc_sim_counts_clock(r, i) && (r->evtsel[i] & KNC_EVTSEL_INT))
			next = min(next, div64_u64(room * 1000 + mhz - 1, mhz));
	}
	return max_t(u64, next, KNC_SIM_MIN_TICK_NS);
}

/* Count the cycles since the clock model last ran, in mode @user. */
static void knc_sim_clock_catch_up(struct knc_sim_cpu *sc, bool user)
{
	u64 now = ktime_get_ns();
	struct knc_sim_burst b = {
		.event = KNC_SIM_CLOCK_EVENT,
		.user = user,
		.per_cycle = 1,
	};

	if (!is_idle_task(current))
		b.cycles = mul_u64_u32_div(now - sc->clock_ns,
					   knc_sim_clock_hz / 1000, USEC_PER_SEC);
	sc->clock_ns = now;
	knc_sim_run(sc, &b);
}

static enum hrtimer_restart knc_sim_tick(struct hrtimer *t)
{
	struct knc_sim_cpu *sc = container_of(t, struct knc_sim_cpu, tick);
	struct pt_regs *regs = get_irq_regs();

	if (!knc_sim_clock_counting(&sc->regs)) {
		sc->tick_on = false;
		return HRTIMER_NORESTART;
	}
	sc->clock_user = regs && user_mode(regs);
	sc->ctx_regs = regs;
	knc_sim_clock_catch_up(sc, sc->clock_user);
	sc->ctx_regs = NULL;
	hrtimer_forward_now(t, ns_to_ktime(knc_sim_clock_next_ns(&sc->regs)));
	return HRTIMER_RESTART;
}

/*
 * Before a register access, bring the clock up to date, so that reads see
 * the cycles so far and a new EvtSel applies from now on. Not from NMI
 * context: the PMI handler must not re-enter the model, and it only needs
 * the counter values the overflow left.
 */
static struct knc_sim_cpu *knc_sim_sync(void)
{
	struct knc_sim_cpu *sc = this_cpu_ptr(&knc_sim_cpu);

	if (in_nmi() || !sc->tick_on)
		return sc;
	if (knc_sim_clock_counting(&sc->regs)) {
		/* The cycles are current's: in user mode, at its kernel entry. */
		if (sc->clock_user && current->mm)
			sc->ctx_regs = task_pt_regs(current);
		knc_sim_clock_catch_up(sc, sc->clock_user);
		sc->ctx_regs = NULL;
	} else
		sc->clock_ns = ktime_get_ns();	/* time passes uncounted */
	return sc;
}

/*
 * After a register write: start the tick if the clock event now counts, or
 * bring it forward if a counter of cycles now overflows sooner. The PMI
 * handler's writes need neither: it runs within the tick, which re-arms
 * itself from the registers the handler leaves.
 */
static void knc_sim_clock_update(struct knc_sim_cpu *sc)
{
	ktime_t due;

	if (in_nmi() || !knc_sim_clock_counting(&sc->regs))
		return;
	due = ktime_add_ns(ktime_get(), knc_sim_clock_next_ns(&sc->regs));
	if (sc->tick_on && ktime_before(hrtimer_get_expires(&sc->tick), due))
		return;
	if (!sc->tick_on) {
		sc->tick_on = true;
		sc->clock_ns = ktime_get_ns();
		sc->clock_user = current->mm && !(current->flags & PF_KTHREAD);
	}
	hrtimer_start(&sc->tick, due, HRTIMER_MODE_ABS_PINNED_HARD);
}

static void knc_sim_cpu_online(void)
{
	struct knc_sim_cpu *sc = this_cpu_ptr(&knc_sim_cpu);

	knc_sim_reset(&sc->regs);
}

static void knc_sim_cpu_offline(void)
{
	struct knc_sim_cpu *sc = this_cpu_ptr(&knc_sim_cpu);

	hrtimer_cancel(&sc->tick);
	sc->tick_on = false;
}

static u64 knc_sim_read_counter(unsigned int idx)
{
	struct knc_sim_cpu *sc = knc_sim_sync();

	sc->access[KNC_SIM_RD_CTR]++;
	return sc->regs.ctr[idx];
}

static void knc_sim_write_counter(unsigned int idx, u64 val)
{
	struct knc_sim_cpu *sc = knc_sim_sync();

	sc->access[KNC_SIM_WR_CTR]++;
	knc_sim_write_counter_reg(&sc->regs, idx, val);
	knc_sim_clock_update(sc);
}

static void knc_sim_flush_pmi(struct knc_sim_cpu *sc)
{
	if (sc->regs.pmi_raise)
		knc_sim_deliver_pmi(sc);
	knc_sim_clock_update(sc);
}

static void knc_sim_write_evtsel(unsigned int idx, u64 val)
{
	struct knc_sim_cpu *sc = knc_sim_sync();

	sc->access[KNC_SIM_WR_EVTSEL]++;
	knc_sim_write_evtsel_reg(&sc->regs, idx, val);
	knc_sim_flush_pmi(sc);
}

static void knc_sim_write_global_ctrl(u64 val)
{
	struct knc_sim_cpu *sc = knc_sim_sync();

	sc->access[KNC_SIM_WR_CTRL]++;
	knc_sim_write_global_ctrl_reg(&sc->regs, val);
	if (in_nmi() && val && sc->race)
		knc_sim_race(sc);
	knc_sim_flush_pmi(sc);
}

static u64 knc_sim_read_global_status(void)
{
	struct knc_sim_cpu *sc = this_cpu_ptr(&knc_sim_cpu);

	sc->access[KNC_SIM_RD_STATUS]++;
	return sc->regs.global_status;
}

static void knc_sim_write_ovf_ctrl(u64 val)
{
	struct knc_sim_cpu *sc = this_cpu_ptr(&knc_sim_cpu);

	sc->access[KNC_SIM_WR_OVF]++;
	knc_sim_write_ovf_ctrl_reg(&sc->regs, val);
}

static void knc_sim_unmask(void)
{
	struct knc_sim_cpu *sc = this_cpu_ptr(&knc_sim_cpu);

	sc->access[KNC_SIM_WR_LVT]++;
	knc_sim_unmask_pmi(&sc->regs);
}

static struct pt_regs *knc_sim_sample_regs(struct pt_regs *pmi_regs)
{
	struct pt_regs *ctx = this_cpu_ptr(&knc_sim_cpu)->ctx_regs;

	return ctx ? ctx : pmi_regs;
}

/*
 * inject: "EVENT COUNT [user|kernel] [per_cycle=N]". EVENT is a table name
 * or alias, or "event=0xNN,umask=0xNN" (any pair: undefined ones simply
 * never count). COUNT occurrences arrive per_cycle at a time (default 1).
 */
static int knc_sim_parse_event(char *tok, struct knc_sim_burst *b)
{
	unsigned int ev, um;
	int idx;

	if (sscanf(tok, "event=%i,umask=%i", &ev, &um) == 2) {
		if (ev > 0xff || um > 0xff)
			return -EINVAL;
		b->event = ev;
		b->umask = um;
		return 0;
	}
	idx = knc_event_lookup_name(tok);
	if (idx < 0)
		return -EINVAL;
	b->event = knc_events[idx].event;
	b->umask = knc_events[idx].umask;
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

static ssize_t knc_sim_inject_write(struct file *file, const char __user *ubuf,
				    size_t len, loff_t *ppos)
{
	struct knc_sim_burst b = { };
	struct pt_regs kregs, *ctx;
	unsigned long flags;
	char *buf;
	int ret;

	buf = memdup_user_nul(ubuf, min_t(size_t, len, 128));
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
	while (b.cycles) {
		struct knc_sim_cpu *sc;

		local_irq_save(flags);
		sc = knc_sim_sync();
		sc->ctx_regs = ctx;
		knc_sim_run_step(sc, &b);
		sc->ctx_regs = NULL;
		local_irq_restore(flags);
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

static const struct file_operations knc_sim_inject_fops = {
	.owner = THIS_MODULE,
	.open = simple_open,
	.write = knc_sim_inject_write,
	.llseek = noop_llseek,
};

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
		seq_putc(m, '\n');
	}
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(knc_sim_regs);

static int knc_sim_probe(void)
{
	unsigned int cpu;

	for_each_possible_cpu(cpu) {
		struct knc_sim_cpu *sc = per_cpu_ptr(&knc_sim_cpu, cpu);

		hrtimer_init(&sc->tick, CLOCK_MONOTONIC, HRTIMER_MODE_REL_PINNED_HARD);
		sc->tick.function = knc_sim_tick;
	}
	knc_sim_dir = debugfs_create_dir("knc_sim", NULL);
	debugfs_create_file("inject", 0200, knc_sim_dir, NULL,
			    &knc_sim_inject_fops);
	debugfs_create_file("regs", 0444, knc_sim_dir, NULL,
			    &knc_sim_regs_fops);
	debugfs_create_u64("clock_hz", 0644, knc_sim_dir, &knc_sim_clock_hz);
	debugfs_create_u64("pmi_min_gap_ns", 0644, knc_sim_dir,
			   &knc_sim_pmi_gap_ns);
	debugfs_create_u64("race_events", 0644, knc_sim_dir,
			   &knc_sim_race_events);
	return 0;
}

static void knc_sim_remove(void)
{
	unsigned int cpu;

	debugfs_remove_recursive(knc_sim_dir);
	for_each_possible_cpu(cpu)
		hrtimer_cancel(&per_cpu_ptr(&knc_sim_cpu, cpu)->tick);
}

const struct knc_hw_ops knc_sim_ops = {
	.name			= "simulated",
	.probe			= knc_sim_probe,
	.remove			= knc_sim_remove,
	.cpu_online		= knc_sim_cpu_online,
	.cpu_offline		= knc_sim_cpu_offline,
	.read_counter		= knc_sim_read_counter,
	.write_counter		= knc_sim_write_counter,
	.write_evtsel		= knc_sim_write_evtsel,
	.write_global_ctrl	= knc_sim_write_global_ctrl,
	.read_global_status	= knc_sim_read_global_status,
	.write_ovf_ctrl		= knc_sim_write_ovf_ctrl,
	.unmask_pmi		= knc_sim_unmask,
	.sample_regs		= knc_sim_sample_regs,
};
