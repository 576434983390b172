// SPDX-License-Identifier: GPL-2.0
/*
 * Knights Corner core PMU simulator (knc_sim.ko): a knc_hw_ops backend for
 * machines without KNC hardware, a developer's tool in the manner of
 * netdevsim. Loading it registers the knc PMU on the simulated registers
 * (knc_pmu.ko provides the core); unloading it takes the PMU away.
 *
 * Each CPU has its own simulated PMU (knc_sim_model.c) whose registers live
 * in memory. A PMI is a real NMI sent to the CPU itself through the local
 * APIC, so the driver's NMI handler runs exactly as on hardware.
 *
 * Events come from two sources:
 *  - injection: a write to <debugfs>/knc_sim/inject (tools/knc/knc-sim)
 *    makes the calling CPU's PMU see COUNT occurrences of an event, in user
 *    or kernel mode, in the caller's context. Any table event moves this way.
 *    The CPU's thread siblings (topology_sibling_cpumask) see them too, as
 *    another thread's events: they count only in thread-count mode.
 *  - a clock model: cpu_clk_unhalted advances at clock_hz (1.1 GHz) while
 *    the CPU is not idle, in the mode seen by a per-CPU tick. The tick
 *    comes every millisecond, or sooner when a counter of cycles with INT
 *    set is due to overflow, so that overflows (and samples) come when
 *    their cycle does. It is the only event that moves by itself; its
 *    cycles are each CPU's own, in thread-count mode too.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/cpumask.h>
#include <linux/debugfs.h>
#include <linux/delay.h>
#include <linux/hrtimer.h>
#include <linux/kernel.h>
#include <linux/math64.h>
#include <linux/module.h>
#include <linux/percpu.h>
#include <linux/perf_event.h>
#include <linux/sched.h>
#include <linux/sched/signal.h>
#include <linux/seq_file.h>
#include <linux/slab.h>
#include <linux/smp.h>
#include <linux/topology.h>
#include <linux/uaccess.h>
#include <asm/apic.h>
#include <asm/irq_regs.h>
#include <asm/irq_vectors.h>
#include <asm/ptrace.h>

#include "knc_compat.h"
#include "knc_hw.h"
#include "knc_sim_model.h"

#define KNC_SIM_CLOCK_EVENT	0x2a	/* CPU_CLK_UNHALTED, umask 0 */
#define KNC_SIM_TICK_NS		NSEC_PER_MSEC
#define KNC_SIM_MIN_TICK_NS	(10 * NSEC_PER_USEC)
#define KNC_SIM_PMI_WAIT_MS	100
#define KNC_SIM_PACE_SPIN_NS	(100 * NSEC_PER_USEC)
#define KNC_SIM_IRQOFF_GOAL_NS	(100 * NSEC_PER_USEC)

/* The simulator's spans with interrupts off, as debugfs regs names them. */
enum knc_sim_span {
	KNC_SIM_SPAN_NONE,
	KNC_SIM_SPAN_CLOCK,	/* the clock catching up: tick, register access */
	KNC_SIM_SPAN_PMI_TIMER,	/* a PMI held back by the gap */
	KNC_SIM_SPAN_INJECT,	/* one step of an injection */
	KNC_SIM_NR_SPAN
};

static const char * const knc_sim_span_names[KNC_SIM_NR_SPAN] = {
	[KNC_SIM_SPAN_NONE]	 = "none",
	[KNC_SIM_SPAN_CLOCK]	 = "clock",
	[KNC_SIM_SPAN_PMI_TIMER] = "pmi_timer",
	[KNC_SIM_SPAN_INJECT]	 = "inject",
};
#define KNC_SIM_MAX_COUNT	BIT_ULL(56)
#define KNC_SIM_MAX_PMI_GAP_NS	(10 * NSEC_PER_MSEC)
#define KNC_SIM_MAX_INJECT_LEN	128
#define KNC_SIM_MAX_CLOCK_HZ	(10ULL * 1000 * 1000 * 1000)

enum knc_sim_access {
	KNC_SIM_RD_CTR,
	KNC_SIM_WR_CTR,
	KNC_SIM_WR_EVTSEL,
	KNC_SIM_WR_CTRL,
	KNC_SIM_RD_STATUS,
	KNC_SIM_WR_OVF,
	KNC_SIM_WR_LVT,
	KNC_SIM_RD_SPFLT,
	KNC_SIM_WR_SPFLT,
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
	[KNC_SIM_RD_SPFLT]	= "rd_spflt",
	[KNC_SIM_WR_SPFLT]	= "wr_spflt",
};

/**
 * struct knc_sim_cpu - one CPU's simulated PMU
 * @regs: the registers
 * @tick: the clock model's tick, running while the clock event counts
 * @tick_on: @tick is queued
 * @clock_ns: when the clock model last caught up
 * @clock_user: the mode the last tick interrupted
 * @pmi_timer: sends a PMI that pacing deferred
 * @pmi_pending: a PMI waits for @pmi_timer
 * @pmi_has_regs: @pmi_regs holds the context of the last PMI's events
 * @pmi_regs: the registers of the context the last PMI's events happened
 *	in (what its samples are attributed to)
 * @race: while a PMI of an injected burst waits to be serviced, that
 *	burst: race_events of it arrive when the handler restarts the counters
 * @last_pmi_ns: when the last PMI was sent
 * @pmis: PMIs delivered
 * @pmi_timeouts: PMIs an injection waited for in vain
 * @irqoff_max_ns: the longest the simulator ran with interrupts off
 * @irqoff_max_where: where (enum knc_sim_span)
 * @irqoff_spans: spans with interrupts off, timed
 * @irqoff_long: spans longer than KNC_SIM_IRQOFF_GOAL_NS
 * @irqoff_max_steps: the most model steps the clock took in one span
 * @irqoff_max_pmis: the most PMIs sent in one span
 * @access: the driver's register accesses, by kind (enum knc_sim_access),
 *	as the QEMU model counts MSR accesses: what the benchmark counts
 */
struct knc_sim_cpu {
	struct knc_sim_regs regs;
	struct hrtimer tick;
	bool tick_on;
	u64 clock_ns;
	bool clock_user;
	struct hrtimer pmi_timer;
	bool pmi_pending;
	bool pmi_has_regs;
	struct pt_regs pmi_regs;
	struct knc_sim_burst *race;
	u64 last_pmi_ns;
	unsigned long pmis;
	unsigned long pmi_timeouts;
	u64 irqoff_max_ns;
	unsigned int irqoff_max_where;
	unsigned long irqoff_spans;
	unsigned long irqoff_long;
	unsigned int irqoff_max_steps;
	unsigned int irqoff_max_pmis;
	unsigned long access[KNC_SIM_NR_ACCESS];
};

static DEFINE_PER_CPU(struct knc_sim_cpu, knc_sim_cpu);

/* A debugfs setting with an upper bound: writing more gives EINVAL. */
struct knc_sim_knob {
	u64 val;
	u64 max;
};

static struct knc_sim_knob knc_sim_clock_hz = {
	1100000000, KNC_SIM_MAX_CLOCK_HZ
};
static struct knc_sim_knob knc_sim_pmi_gap_ns = {
	20 * NSEC_PER_USEC, KNC_SIM_MAX_PMI_GAP_NS
};
static struct knc_sim_knob knc_sim_race_events = { 0, KNC_SIM_MAX_COUNT };
static struct dentry *knc_sim_dir;

/* Where a span with interrupts off began: its time and PMIs sent so far. */
struct knc_sim_irqoff {
	u64 start;
	unsigned long pmis;
};

static struct knc_sim_irqoff knc_sim_irqoff_begin(const struct knc_sim_cpu *sc)
{
	return (struct knc_sim_irqoff){ ktime_get_ns(), sc->pmis };
}

/*
 * The simulator never waits with interrupts off: a PMI that pacing holds
 * back is sent by a timer, and an injection waits for its PMIs with
 * interrupts on. Each span with interrupts off (the clock tick, the PMI
 * timer, an injection step, the clock's catch-up before a register access)
 * is timed here, and the PMIs sent in it (each runs the driver's handler
 * within the span) counted; debugfs regs shows the longest and the most.
 */
static void knc_sim_irqoff_end(struct knc_sim_cpu *sc,
			       const struct knc_sim_irqoff *s,
			       enum knc_sim_span where)
{
	u64 span = ktime_get_ns() - s->start;

	sc->irqoff_spans++;
	sc->irqoff_max_pmis = max_t(unsigned int, sc->irqoff_max_pmis,
				    sc->pmis - s->pmis);
	if (span > KNC_SIM_IRQOFF_GOAL_NS)
		sc->irqoff_long++;
	if (span > sc->irqoff_max_ns) {
		sc->irqoff_max_ns = span;
		sc->irqoff_max_where = where;
	}
}

static void knc_sim_send_pmi(struct knc_sim_cpu *sc)
{
	sc->pmi_pending = false;
	sc->pmis++;
	/* Also from the PMI handler, where ktime_get_ns() may deadlock. */
	sc->last_pmi_ns = ktime_get_mono_fast_ns();
	apic->send_IPI_mask(cpumask_of(smp_processor_id()), NMI_VECTOR);
}

/* When this CPU's next PMI may go out: pmi_min_gap_ns after the last. */
static u64 knc_sim_pmi_due(const struct knc_sim_cpu *sc)
{
	return READ_ONCE(sc->last_pmi_ns) + READ_ONCE(knc_sim_pmi_gap_ns.val);
}

/*
 * Deliver the PMI the model raised as an NMI to this CPU.
 *
 * Injected events arrive all at once, real ones over time: PMIs are sent
 * at least pmi_min_gap_ns apart (20 us, 50000 per second), so that perf's
 * throttling sees the rates a real workload would produce. One due sooner
 * waits for the PMI timer, as does one that @defer holds back; meanwhile
 * the LVT entry is masked, so further overflows raise no PMI, as on
 * hardware. A gap of 0 makes a storm.
 */
static void knc_sim_deliver_pmi(struct knc_sim_cpu *sc, bool defer)
{
	u64 due;

	sc->regs.pmi_raise = false;
	/* From the PMI handler itself: the NMI is latched until it returns. */
	if (in_nmi()) {
		knc_sim_send_pmi(sc);
		return;
	}
	due = knc_sim_pmi_due(sc);
	if (!defer && ktime_get_ns() >= due) {
		knc_sim_send_pmi(sc);
		return;
	}
	sc->pmi_pending = true;
	hrtimer_start(&sc->pmi_timer, ns_to_ktime(due),
		      HRTIMER_MODE_ABS_PINNED_HARD);
}

/*
 * The model raised its PMI line for events that happened in @ctx (NULL:
 * wherever the NMI lands): record the context for the handler's samples
 * and deliver the PMI.
 */
static void knc_sim_raise_pmi(struct knc_sim_cpu *sc, struct pt_regs *ctx,
			      bool defer)
{
	sc->pmi_has_regs = ctx;
	if (ctx)
		sc->pmi_regs = *ctx;
	knc_sim_deliver_pmi(sc, defer);
}

static enum hrtimer_restart knc_sim_pmi_timer_fn(struct hrtimer *t)
{
	struct knc_sim_cpu *sc = container_of(t, struct knc_sim_cpu, pmi_timer);
	struct knc_sim_irqoff s = knc_sim_irqoff_begin(sc);

	if (sc->pmi_pending)
		knc_sim_send_pmi(sc);
	knc_sim_irqoff_end(sc, &s, KNC_SIM_SPAN_PMI_TIMER);
	return HRTIMER_NORESTART;
}

/*
 * An injection's next step may overflow at once: let pmi_min_gap_ns pass
 * first, with interrupts on (spinning while it is short, else sleeping),
 * so that its PMI goes out at once rather than from the PMI timer.
 */
static void knc_sim_pace(struct knc_sim_cpu *sc)
{
	u64 now = ktime_get_ns(), due = knc_sim_pmi_due(sc);

	if (due <= now)
		return;
	if (due - now > KNC_SIM_PACE_SPIN_NS) {
		u64 us = div_u64(due - now, NSEC_PER_USEC);

		usleep_range(us, us + 10);
		return;
	}
	while (ktime_get_ns() < due)
		cpu_relax();
}

/*
 * As hardware runs the handler before later events, an injection waits
 * until its PMI is sent and the driver has unmasked the LVT entry: with
 * interrupts on (the PMI timer may have to send it), but not preemptible,
 * so that its task stays on the CPU with its events running. A driver that
 * never unmasks the entry gets no more PMIs, as the spec warns; the wait
 * then ends after KNC_SIM_PMI_WAIT_MS.
 */
static void knc_sim_wait_pmi(struct knc_sim_cpu *sc)
{
	unsigned int us;

	for (us = 0; READ_ONCE(sc->pmi_pending) || READ_ONCE(sc->regs.lvt_masked);
	     us++) {
		if (us == KNC_SIM_PMI_WAIT_MS * USEC_PER_MSEC) {
			sc->pmi_timeouts++;
			pr_err_once("PMI not serviced in %u ms: LVT entry left masked\n",
				    KNC_SIM_PMI_WAIT_MS);
			return;
		}
		udelay(1);
	}
}

/*
 * One step of a burst, up to the next PMI; call with interrupts disabled.
 * Return: a PMI was raised.
 */
static bool knc_sim_run_step(struct knc_sim_cpu *sc, struct knc_sim_burst *b,
			     struct pt_regs *ctx, bool defer)
{
	knc_sim_step(&sc->regs, b);
	if (!sc->regs.pmi_raise)
		return false;
	knc_sim_raise_pmi(sc, ctx, defer);
	return true;
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
	part.cycles = min(READ_ONCE(knc_sim_race_events.val), b->cycles);
	b->cycles -= part.cycles;
	while (part.cycles)
		knc_sim_step(&sc->regs, &part);
	b->started = part.started;
	/* Its PMI's events are the burst's: the context stays recorded. */
	if (sc->regs.pmi_raise)
		knc_sim_deliver_pmi(sc, false);
}

/*
 * A whole burst at once, in at most three steps: the model stops at an
 * overflow only while the LVT entry is unmasked, and a PMI masks it. The
 * first PMI goes out at once and its handler may unmask the entry within
 * the burst; the second waits for the PMI timer, the entry masked, and the
 * third step takes the rest.
 */
static void knc_sim_run(struct knc_sim_cpu *sc, struct knc_sim_burst *b,
			struct pt_regs *ctx)
{
	unsigned int steps = 0;

	for (; b->cycles; steps++)
		knc_sim_run_step(sc, b, ctx, steps > 0);
	sc->irqoff_max_steps = max(sc->irqoff_max_steps, steps);
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
	u64 mhz = READ_ONCE(knc_sim_clock_hz.val) / 1000000, next = KNC_SIM_TICK_NS;
	unsigned int i;

	for (i = 0; mhz && i < KNC_NUM_COUNTERS; i++) {
		u64 room = KNC_CNTVAL_MASK - r->ctr[i] + 1;

		if (knc_sim_counts_clock(r, i) && (r->evtsel[i] & KNC_EVTSEL_INT))
			next = min(next, div64_u64(room * 1000 + mhz - 1, mhz));
	}
	return max_t(u64, next, KNC_SIM_MIN_TICK_NS);
}

/* Count the cycles since the clock model last ran, in mode @user. */
static void knc_sim_clock_catch_up(struct knc_sim_cpu *sc, bool user,
				   struct pt_regs *ctx)
{
	struct knc_sim_irqoff s = knc_sim_irqoff_begin(sc);
	u64 now = s.start;
	struct knc_sim_burst b = {
		.event = KNC_SIM_CLOCK_EVENT,
		.user = user,
		.per_cycle = 1,
		.real = true,
	};

	if (!is_idle_task(current))
		b.cycles = mul_u64_u32_div(now - sc->clock_ns,
					   READ_ONCE(knc_sim_clock_hz.val) / 1000,
					   USEC_PER_SEC);
	else
		knc_sim_edge_break(&sc->regs);
	sc->clock_ns = now;
	knc_sim_run(sc, &b, ctx);
	knc_sim_irqoff_end(sc, &s, KNC_SIM_SPAN_CLOCK);
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
	knc_sim_clock_catch_up(sc, sc->clock_user, regs);
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
		bool user_ctx = sc->clock_user && current->mm;

		knc_sim_clock_catch_up(sc, sc->clock_user,
				       user_ctx ? task_pt_regs(current) : NULL);
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
		/* the clock's cycles start a new run */
		knc_sim_edge_break(&sc->regs);
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

/* As knc_native.c's: no counter enabled or holding a count, no status. */
static void knc_sim_cpu_offline(void)
{
	struct knc_sim_cpu *sc = this_cpu_ptr(&knc_sim_cpu);

	hrtimer_cancel(&sc->tick);
	sc->tick_on = false;
	hrtimer_cancel(&sc->pmi_timer);
	sc->pmi_pending = false;
	knc_sim_reset(&sc->regs);
}

/*
 * A write the register model refused: on a KNC the WRMSR raises #GP, and
 * the kernel's fixup reports it ("unchecked MSR access error"). Say the
 * same, so that the suites catch a driver that sets a reserved bit.
 */
static void knc_sim_check_write(bool ok, u32 msr, u64 val)
{
	if (!ok)
		pr_warn_ratelimited("unchecked MSR access error: WRMSR to %#x (tried to write %#llx): a reserved bit, #GP on a KNC\n",
				    msr, val);
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
	knc_sim_check_write(knc_sim_write_counter_reg(&sc->regs, idx, val),
			    KNC_MSR_PERFCTR0 + idx, val);
	knc_sim_clock_update(sc);
}

static void knc_sim_flush_pmi(struct knc_sim_cpu *sc)
{
	if (sc->regs.pmi_raise)
		knc_sim_raise_pmi(sc, NULL, false);
	knc_sim_clock_update(sc);
}

static void knc_sim_write_evtsel(unsigned int idx, u64 val)
{
	struct knc_sim_cpu *sc = knc_sim_sync();

	sc->access[KNC_SIM_WR_EVTSEL]++;
	knc_sim_check_write(knc_sim_write_evtsel_reg(&sc->regs, idx, val),
			    KNC_MSR_EVNTSEL0 + idx, val);
	knc_sim_flush_pmi(sc);
}

static void knc_sim_write_global_ctrl(u64 val)
{
	struct knc_sim_cpu *sc = knc_sim_sync();

	sc->access[KNC_SIM_WR_CTRL]++;
	knc_sim_check_write(knc_sim_write_global_ctrl_reg(&sc->regs, val),
			    KNC_MSR_GLOBAL_CTRL, val);
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
	knc_sim_check_write(knc_sim_write_ovf_ctrl_reg(&sc->regs, val),
			    KNC_MSR_GLOBAL_OVF_CTRL, val);
}

static void knc_sim_unmask(void)
{
	struct knc_sim_cpu *sc = this_cpu_ptr(&knc_sim_cpu);

	sc->access[KNC_SIM_WR_LVT]++;
	knc_sim_unmask_pmi(&sc->regs);
}

static u64 knc_sim_read_spflt(void)
{
	struct knc_sim_cpu *sc = this_cpu_ptr(&knc_sim_cpu);

	sc->access[KNC_SIM_RD_SPFLT]++;
	return sc->regs.spflt;
}

static void knc_sim_write_spflt(u64 val)
{
	struct knc_sim_cpu *sc = knc_sim_sync();

	sc->access[KNC_SIM_WR_SPFLT]++;
	knc_sim_check_write(knc_sim_write_spflt_reg(&sc->regs, val),
			    KNC_MSR_SPFLT_CTRL, val);
}

static struct pt_regs *knc_sim_sample_regs(struct pt_regs *pmi_regs)
{
	struct knc_sim_cpu *sc = this_cpu_ptr(&knc_sim_cpu);

	return sc->pmi_has_regs ? &sc->pmi_regs : pmi_regs;
}

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

static const struct file_operations knc_sim_spflt_fops = {
	.owner = THIS_MODULE,
	.open = simple_open,
	.write = knc_sim_spflt_write,
	.llseek = noop_llseek,
};

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

static const struct knc_hw_ops knc_sim_ops = {
	.name			= "simulated",
	.owner			= THIS_MODULE,
	.cpu_online		= knc_sim_cpu_online,
	.cpu_offline		= knc_sim_cpu_offline,
	.read_counter		= knc_sim_read_counter,
	.write_counter		= knc_sim_write_counter,
	.write_evtsel		= knc_sim_write_evtsel,
	.write_global_ctrl	= knc_sim_write_global_ctrl,
	.read_global_status	= knc_sim_read_global_status,
	.write_ovf_ctrl		= knc_sim_write_ovf_ctrl,
	.unmask_pmi		= knc_sim_unmask,
	.read_spflt		= knc_sim_read_spflt,
	.write_spflt		= knc_sim_write_spflt,
	.sample_regs		= knc_sim_sample_regs,
};

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

#define KNC_SIM_DESCRIPTION "Simulated Intel Xeon Phi (Knights Corner) core PMU: the knc PMU on any x86 machine, driven through debugfs (knc_sim/)"
MODULE_DESCRIPTION(KNC_SIM_DESCRIPTION " (" KNC_KERNELS ")");
MODULE_LICENSE("GPL");
MODULE_IMPORT_NS(KNC_NS);
