// SPDX-License-Identifier: GPL-2.0
/*
 * Knights Corner core PMU simulator: the spans it runs with interrupts off,
 * timed (debugfs regs shows them, irqoff_max_ns resets them).
 */
#include <linux/minmax.h>
#include <linux/ktime.h>

#include "knc_sim.h"

const char * const knc_sim_span_names[KNC_SIM_NR_SPAN] = {
	[KNC_SIM_SPAN_NONE]	 = "none",
	[KNC_SIM_SPAN_CLOCK]	 = "clock",
	[KNC_SIM_SPAN_PMI_TIMER] = "pmi_timer",
	[KNC_SIM_SPAN_INJECT]	 = "inject",
};

struct knc_sim_irqoff knc_sim_irqoff_begin(const struct knc_sim_cpu *sc)
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
void knc_sim_irqoff_end(struct knc_sim_cpu *sc,
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
