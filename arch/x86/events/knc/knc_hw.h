/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Knights Corner core PMU: the hardware interface.
 *
 * The driver (knc_pmu) programs the PMU only through these ops. A
 * backend fills them in: the native backend (knc_native.c, also in
 * knc_pmu) with the KNC MSRs, or a simulator with per-CPU registers in
 * memory. One backend at a time: the PMI is one per CPU, and perf knows
 * one PMU named "knc".
 */
#ifndef _KNC_HW_H
#define _KNC_HW_H

#include <linux/types.h>

struct module;
struct pt_regs;

/**
 * struct knc_hw_ops - one implementation of the KNC core PMU registers
 * @name: backend name, reported in dmesg
 * @owner: the module that implements the ops; it owns the registered PMU
 *	(perf holds a reference on it while events exist)
 * @user_rdpmc: user space can read the counters with RDPMC (the hardware's
 *	own counters; not the simulator's, which live in memory)
 * @reserve: optional; reserve the registers against their other users (the
 *	x86 core PMU and the NMI watchdog) for the first event: 0, or -EBUSY
 *	while one of them has them reserved. Without it the registers are
 *	reserved for the driver from registration on (the simulator's are
 *	its own).
 * @release: with @reserve; release them after the last event
 * @cpu_reset: reset this CPU's PMU, whatever is in it: every EvtSel,
 *	counter and PERF_SPFLT_CONTROL zero: the first time the driver takes
 *	the CPU's registers, and on a CPU that comes online while it has
 *	them. Then, as at every take, the driver clears the status, sets the
 *	LVT entry and GLOBAL_CTRL through the ops below.
 * @cpu_quiesce: optional; give this CPU's PMU up, its events stopped (no
 *	EvtSel enabled, no counter under SPFLT control): leave no count in a
 *	counter. On every CPU as the driver releases the registers, and on a
 *	CPU that goes down while they are reserved
 * @read_counter: IA32_PerfCntrX, 40 bits, zero extended
 * @write_counter: IA32_PerfCntrX; all 40 bits are written
 * @write_evtsel: IA32_PerfEvtSelX
 * @write_global_ctrl: IA32_PERF_GLOBAL_CTRL
 * @read_global_status: IA32_PERF_GLOBAL_STATUS, sticky overflow bits
 * @write_ovf_ctrl: IA32_PERF_GLOBAL_OVF_CONTROL, write 1 to clear status
 * @unmask_pmi: the local APIC LVT performance entry an unmasked NMI (the
 *	APIC masks it when it delivers a PMI; another user may have left it
 *	anything)
 * @read_spflt: PERF_SPFLT_CONTROL
 * @write_spflt: PERF_SPFLT_CONTROL: USER_PREF (bit 63) and the counters
 *	it gates (bits 0 and 1)
 * @sample_regs: optional; the registers of the context in which the
 *	overflowing events happened, given the PMI's. Hardware interrupts the
 *	very context (NULL op); the simulator's events happen in a context it
 *	recorded, not in its own code that the NMI interrupts.
 *
 * Every op but @reserve, @release, @cpu_reset and @cpu_quiesce acts on
 * the calling CPU's PMU and is called with interrupts disabled or from the
 * PMI (NMI) handler; @cpu_reset and @cpu_quiesce run on the CPU concerned
 * with interrupts disabled; @reserve and @release in process context,
 * where they may sleep.
 */
struct knc_hw_ops {
	const char *name;
	struct module *owner;
	bool user_rdpmc;
	int (*reserve)(void);
	void (*release)(void);
	void (*cpu_reset)(void);
	void (*cpu_quiesce)(void);
	u64 (*read_counter)(unsigned int idx);
	void (*write_counter)(unsigned int idx, u64 val);
	void (*write_evtsel)(unsigned int idx, u64 val);
	void (*write_global_ctrl)(u64 val);
	u64 (*read_global_status)(void);
	void (*write_ovf_ctrl)(u64 val);
	void (*unmask_pmi)(void);
	u64 (*read_spflt)(void);
	void (*write_spflt)(u64 val);
	struct pt_regs *(*sample_regs)(struct pt_regs *pmi_regs);
};

#ifdef MODULE
/* Out of the tree, a backend in another module registers with these. */
struct knc_pmu;

struct knc_pmu *knc_pmu_register(const struct knc_hw_ops *ops);
void knc_pmu_unregister(struct knc_pmu *kp);
#endif

#endif /* _KNC_HW_H */
