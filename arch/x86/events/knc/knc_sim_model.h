/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Knights Corner core PMU simulator: the register model of one hardware
 * thread's PMU, following Intel document 327357-001 (Intel Xeon Phi
 * Coprocessor Performance Monitoring Units), section 1.4. Pure logic,
 * shared with the host unit tests; the other knc_sim_*.c files add the
 * per-CPU instances, PMI delivery and the event sources (knc_sim.h).
 */
#ifndef _KNC_SIM_MODEL_H
#define _KNC_SIM_MODEL_H

#include <linux/types.h>

#include "knc_logic.h"

/**
 * struct knc_sim_regs - the architectural state of one thread's PMU
 * @ctr: IA32_PerfCntr0/1, 40 bits
 * @evtsel: IA32_PerfEvtSel0/1
 * @global_ctrl: IA32_PERF_GLOBAL_CTRL
 * @global_status: IA32_PERF_GLOBAL_STATUS
 * @spflt: PERF_SPFLT_CONTROL
 * @lvt_masked: the local APIC LVT performance entry's mask bit
 * @pmi_line: the 1-bit PMI signal towards the APIC, latched from an INT
 *	counter's overflow until the status is cleared
 * @pmi_raise: a PMI was delivered; the owner sends the NMI and clears it
 * @edge_prev: the counter's CMASK/INV condition held in the last cycle of
 *	real execution it counted (EDGE: the next cycle is no new edge)
 */
struct knc_sim_regs {
	u64 ctr[KNC_NUM_COUNTERS];
	u64 evtsel[KNC_NUM_COUNTERS];
	u64 global_ctrl;
	u64 global_status;
	u64 spflt;
	bool lvt_masked;
	bool pmi_line;
	bool pmi_raise;
	bool edge_prev[KNC_NUM_COUNTERS];
};

/**
 * struct knc_sim_burst - events the PMU is about to see
 * @event: event select code
 * @umask: unit mask
 * @user: seen in rings 1-3 (else ring 0)
 * @sibling: the events happen on another thread of the core: only counters
 *	in thread-count mode (EvtSel bit 21) see them
 * @per_cycle: occurrences per cycle, 1-255
 * @cycles: cycles in which the event occurs, consumed by knc_sim_step()
 * @started: the burst has begun (edge detection counts its first cycle)
 * @real: real execution (the clock model): its first cycle follows the
 *	last real cycle a counter counted, so EDGE counts a run of them once,
 *	until knc_sim_edge_break() or a real burst the counter does not count
 */
struct knc_sim_burst {
	u8 event;
	u8 umask;
	bool user;
	bool sibling;
	u8 per_cycle;
	u64 cycles;
	bool started;
	bool real;
};

void knc_sim_reset(struct knc_sim_regs *r);
bool knc_sim_write_counter_reg(struct knc_sim_regs *r, unsigned int idx, u64 val);
bool knc_sim_write_ovf_ctrl_reg(struct knc_sim_regs *r, u64 val);
bool knc_sim_write_evtsel_reg(struct knc_sim_regs *r, unsigned int idx, u64 val);
bool knc_sim_write_global_ctrl_reg(struct knc_sim_regs *r, u64 val);
void knc_sim_unmask_pmi(struct knc_sim_regs *r);
bool knc_sim_write_spflt_reg(struct knc_sim_regs *r, u64 val);
bool knc_sim_step(struct knc_sim_regs *r, struct knc_sim_burst *b);
void knc_sim_edge_break(struct knc_sim_regs *r);

#endif /* _KNC_SIM_MODEL_H */
