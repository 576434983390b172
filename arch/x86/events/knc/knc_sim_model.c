// SPDX-License-Identifier: GPL-2.0
/*
 * Knights Corner core PMU simulator: register model (see knc_sim_model.h).
 *
 * Counting rules, from Intel document 327357-001, tables 1-5 and 1-6: a
 * counter counts when its EvtSel EN bit and its IA32_PERF_GLOBAL_CTRL bit
 * are both set, the event and unit mask select an event defined for that
 * counter (the L2 events count on counter 0 only), the ring matches USR/OS,
 * and SPFLT (if it controls the counter) has USER_PREF set. The
 * events of the core's other threads count only in thread-count mode (bit
 * 21), by the ring they happen in, under this thread's SPFLT. With CMASK
 * zero the counter adds the occurrences of each cycle; otherwise it adds
 * one per cycle whose occurrences reach CMASK (INV inverts that test); E
 * counts only the cycle where the condition starts (without CMASK: where
 * the event starts to occur). For an injected burst that is its first
 * cycle; the clock's bursts are real execution, one run until the CPU
 * idles, the counter stops counting them, or its EvtSel is written.
 *
 * Overflow past 40 bits sets the counter's sticky GLOBAL_STATUS bit, with or
 * without INT. The 1-bit PMI line goes from 0 to 1 when a counter with INT
 * set overflows and stays 1 until OVF_CONTROL leaves the status 0 (section
 * 1.4.3.9): a second overflow meanwhile, or INT set after an overflow,
 * raises nothing. The rising edge is delivered when the LVT entry is
 * unmasked and masks it, so a driver that does not unmask the entry gets
 * no further PMIs. A write with a reserved bit set is refused, as a KNC
 * refuses it with #GP: the register keeps its value.
 */
#include <linux/string.h>

#include "knc_sim_model.h"

/* A counter with INT set overflowed: the line's rising edge, if it was low. */
static void knc_sim_raise_line(struct knc_sim_regs *r)
{
	if (r->pmi_line)
		return;
	r->pmi_line = true;
	if (!r->lvt_masked) {
		r->lvt_masked = true;
		r->pmi_raise = true;
	}
}

/**
 * knc_sim_reset - every PMU register reads zero
 * @r: one CPU's registers
 *
 * The reset of knc_hw.h's cpu_reset and cpu_quiesce: the driver's, not a
 * model of INIT, which on a KNC keeps the registers (327357-001 1.4.4).
 */
void knc_sim_reset(struct knc_sim_regs *r)
{
	memset(r, 0, sizeof(*r));
}

/*
 * The register writes return false, changing nothing, where a KNC raises
 * #GP: a reserved bit set.
 */
bool knc_sim_write_counter_reg(struct knc_sim_regs *r, unsigned int idx, u64 val)
{
	if (val & KNC_CNTVAL_RESERVED)
		return false;
	r->ctr[idx] = val;
	return true;
}

bool knc_sim_write_evtsel_reg(struct knc_sim_regs *r, unsigned int idx, u64 val)
{
	if (val & KNC_EVTSEL_RESERVED)
		return false;
	r->evtsel[idx] = val;
	/* a new selection starts after a cycle without its event */
	r->edge_prev[idx] = false;
	return true;
}

bool knc_sim_write_global_ctrl_reg(struct knc_sim_regs *r, u64 val)
{
	if (val & KNC_GLOBAL_RESERVED)
		return false;
	r->global_ctrl = val;
	return true;
}

bool knc_sim_write_ovf_ctrl_reg(struct knc_sim_regs *r, u64 val)
{
	if (val & KNC_GLOBAL_RESERVED)
		return false;
	r->global_status &= ~val;
	if (!r->global_status)
		r->pmi_line = false;
	return true;
}

bool knc_sim_write_spflt_reg(struct knc_sim_regs *r, u64 val)
{
	if (val & KNC_SPFLT_RESERVED)
		return false;
	r->spflt = val;
	return true;
}

/** knc_sim_edge_break - real execution stops (the CPU idles) */
void knc_sim_edge_break(struct knc_sim_regs *r)
{
	memset(r->edge_prev, 0, sizeof(r->edge_prev));
}

void knc_sim_unmask_pmi(struct knc_sim_regs *r)
{
	r->lvt_masked = false;
}

static bool knc_sim_counts(const struct knc_sim_regs *r, unsigned int idx,
			   const struct knc_sim_burst *b)
{
	const struct knc_event_desc *desc;
	u64 sel = r->evtsel[idx];

	if (!(sel & KNC_EVTSEL_EN) || !(r->global_ctrl & BIT_ULL(idx)))
		return false;
	if ((sel & KNC_EVTSEL_EVENT) != b->event ||
	    ((sel & KNC_EVTSEL_UMASK) >> 8) != b->umask)
		return false;
	/* tables 1-5, 1-6: undefined, or not on this counter (L2: 0 only) */
	desc = knc_event_by_code(b->event, b->umask);
	if (!desc || !(desc->cntmask & BIT(idx)))
		return false;
	if (!(sel & (b->user ? KNC_EVTSEL_USR : KNC_EVTSEL_OS)))
		return false;
	if (b->sibling && !(sel & KNC_EVTSEL_ANY))
		return false;
	if ((r->spflt & BIT_ULL(idx)) && !(r->spflt & KNC_SPFLT_USER_PREF))
		return false;
	return true;
}

/* What the counter adds per cycle of the burst (edge detection aside). */
static u64 knc_sim_rate(u64 sel, const struct knc_sim_burst *b)
{
	u8 cmask = (sel & KNC_EVTSEL_CMASK) >> 24;
	bool cond;

	if (!cmask)
		return b->per_cycle;
	cond = b->per_cycle >= cmask;
	if (sel & KNC_EVTSEL_INV)
		cond = !cond;
	return cond;
}

/**
 * knc_sim_step - let the PMU see (part of) a burst of events
 * @r: the PMU
 * @b: the burst; b->cycles is reduced by the cycles consumed
 *
 * Consumes cycles up to and including the first one in which a counter
 * with INT set overflows, so that the PMI is taken before later events
 * arrive, as on hardware. While the LVT entry is masked no overflow can
 * raise a PMI, and the step consumes the whole burst. Call again while
 * b->cycles is non-zero.
 *
 * Return: true when this step delivered a PMI (r->pmi_raise is set).
 */
bool knc_sim_step(struct knc_sim_regs *r, struct knc_sim_burst *b)
{
	u64 n = b->cycles, inc[KNC_NUM_COUNTERS] = { 0 };
	bool counts[KNC_NUM_COUNTERS] = { false }, cond[KNC_NUM_COUNTERS];
	bool edge_now = !b->started, raised = r->pmi_raise, line = false;
	unsigned int i;

	if (!n)
		return false;

	/* Find how many cycles run before the first interrupting overflow. */
	for (i = 0; i < KNC_NUM_COUNTERS; i++) {
		u64 sel = r->evtsel[i], rate, room;

		if (!knc_sim_counts(r, i, b)) {
			/* real execution it does not count: its run ends */
			if (b->real)
				r->edge_prev[i] = false;
			continue;
		}
		rate = knc_sim_rate(sel, b);
		counts[i] = true;
		cond[i] = rate;
		if (sel & KNC_EVTSEL_EDGE)
			rate = rate && edge_now && !(b->real && r->edge_prev[i]);
		if (!rate)
			continue;
		inc[i] = rate;
		if (!(sel & KNC_EVTSEL_INT) || r->lvt_masked)
			continue;
		room = KNC_CNTVAL_MASK - r->ctr[i] + 1;
		if (sel & KNC_EVTSEL_EDGE)
			n = room == 1 ? 1 : n;
		else if (n > (room + rate - 1) / rate)
			n = (room + rate - 1) / rate;
	}

	for (i = 0; i < KNC_NUM_COUNTERS; i++) {
		u64 add = r->evtsel[i] & KNC_EVTSEL_EDGE ? inc[i] : inc[i] * n;
		u64 sum = r->ctr[i] + add;

		if (counts[i])
			r->edge_prev[i] = cond[i];
		if (!add)
			continue;
		if (sum > KNC_CNTVAL_MASK) {
			r->global_status |= BIT_ULL(i);
			line |= !!(r->evtsel[i] & KNC_EVTSEL_INT);
		}
		r->ctr[i] = sum & KNC_CNTVAL_MASK;
	}

	b->cycles -= n;
	b->started = true;
	if (line)
		knc_sim_raise_line(r);
	return r->pmi_raise && !raised;
}
