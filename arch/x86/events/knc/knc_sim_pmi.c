// SPDX-License-Identifier: GPL-2.0
/*
 * Knights Corner core PMU simulator: PMI delivery and pacing, and a burst
 * of events run through the register model up to its PMIs.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/cpumask.h>
#include <linux/delay.h>
#include <linux/hardirq.h>
#include <linux/hrtimer.h>
#include <linux/kernel.h>
#include <linux/ktime.h>
#include <linux/math64.h>
#include <linux/printk.h>
#include <linux/smp.h>
#include <asm/apic.h>
#include <asm/irq_vectors.h>

#include "knc_sim.h"

struct knc_sim_knob knc_sim_pmi_gap_ns = {
	20 * NSEC_PER_USEC, KNC_SIM_MAX_PMI_GAP_NS
};
struct knc_sim_knob knc_sim_race_events = { 0, KNC_SIM_MAX_COUNT };

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
void knc_sim_raise_pmi(struct knc_sim_cpu *sc, struct pt_regs *ctx,
		       bool defer)
{
	sc->pmi_has_regs = ctx;
	if (ctx)
		sc->pmi_regs = *ctx;
	knc_sim_deliver_pmi(sc, defer);
}

enum hrtimer_restart knc_sim_pmi_timer_fn(struct hrtimer *t)
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
void knc_sim_pace(struct knc_sim_cpu *sc)
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
void knc_sim_wait_pmi(struct knc_sim_cpu *sc)
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
bool knc_sim_run_step(struct knc_sim_cpu *sc, struct knc_sim_burst *b,
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
void knc_sim_race(struct knc_sim_cpu *sc)
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
void knc_sim_run(struct knc_sim_cpu *sc, struct knc_sim_burst *b,
		 struct pt_regs *ctx)
{
	unsigned int steps = 0;

	for (; b->cycles; steps++)
		knc_sim_run_step(sc, b, ctx, steps > 0);
	sc->irqoff_max_steps = max(sc->irqoff_max_steps, steps);
}
