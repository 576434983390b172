// SPDX-License-Identifier: GPL-2.0
/*
 * Knights Corner core PMU simulator: the clock model. cpu_clk_unhalted
 * advances at clock_hz while the CPU is not idle, brought up to date by a
 * per-CPU tick and before each register access.
 */
#include <linux/hrtimer.h>
#include <linux/ktime.h>
#include <linux/math64.h>
#include <linux/sched.h>
#include <linux/sched/task_stack.h>
#include <asm/irq_regs.h>
#include <asm/ptrace.h>

#include "knc_sim.h"

struct knc_sim_knob knc_sim_clock_hz = {
	1100000000, KNC_SIM_MAX_CLOCK_HZ
};

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

enum hrtimer_restart knc_sim_tick(struct hrtimer *t)
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
struct knc_sim_cpu *knc_sim_sync(void)
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
void knc_sim_clock_update(struct knc_sim_cpu *sc)
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
