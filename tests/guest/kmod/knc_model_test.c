// SPDX-License-Identifier: GPL-2.0
/*
 * knc_model_test: ring-0 checks of QEMU's Knights Corner PMU model
 * (tools/knc/qemu), run at load; the load fails with EIO when one fails,
 * and each says "ok NAME" or "not ok NAME" in the kernel log.
 * tests/guest/model.sh loads it while no PMU driver holds the counters
 * (knc_pmu.ko not loaded, NMI watchdog off). Counter 0 counts ring-0
 * instructions from a value that overflows at a chosen one; the PMI, an
 * NMI, must interrupt right after it (the model has no skid there).
 *
 * pmi_before_irq: an IRQ-work self-IPI is made pending with interrupts
 * off, and the counter overflows at the NOP after STI, the instruction
 * after which the interrupt is taken. The PMI must be taken there first
 * (NMIs have priority over maskable interrupts), before the interrupt's
 * handler runs.
 *
 * pmi_before_fault: the counter overflows at the instruction before a
 * RDMSR that faults (#GP, fixed up). The PMI must come before the fault,
 * with the RDMSR as its IP.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/atomic.h>
#include <linux/irq_work.h>
#include <linux/module.h>
#include <linux/preempt.h>
#include <linux/string.h>
#include <asm/apic.h>
#include <asm/asm.h>
#include <asm/msr.h>
#include <asm/nmi.h>
#include <asm/processor.h>

#include "knc_logic.h"

/* the events, from the table generated from the JSON */
static const struct {
	const char *name;
	u64 evtsel;
} knc_model_test_events[] = {
#define KNC_EVENT(_name, _ev, _um, _cm, _p) \
	{ .name = #_name, .evtsel = (_ev) | (_um) << 8 },
#define KNC_ALIAS(_id, _name, _target, _ev, _um, _cm, _p)
#define KNC_GENERIC(_hw_id, _target)
#define KNC_HW_CACHE(_c, _o, _r, _target)
#define KNC_HW_CACHE_INVALID(_c, _o, _r)
#include "knc_events.tbl"
};

#define ROUNDS	50

static u64 insn_evtsel;
static unsigned long nmi_ip;
static bool nmi_after_irq;
static bool irq_ran;
static atomic_t foreign_nmis = ATOMIC_INIT(0);

static int knc_model_test_nmi(unsigned int cmd, struct pt_regs *regs)
{
	u64 status;

	rdmsrl(KNC_MSR_GLOBAL_STATUS, status);
	if (!(status & BIT_ULL(0))) {
		atomic_inc(&foreign_nmis);
		return NMI_DONE;
	}
	wrmsrl(KNC_MSR_EVNTSEL0, 0);
	wrmsrl(KNC_MSR_GLOBAL_OVF_CTRL, BIT_ULL(0));
	/* delivery masked the LVT entry */
	apic->write(APIC_LVTPC, APIC_DM_NMI);
	WRITE_ONCE(nmi_ip, regs->ip);
	WRITE_ONCE(nmi_after_irq, READ_ONCE(irq_ran));
	return NMI_HANDLED;
}

static void knc_model_test_irq(struct irq_work *work)
{
	WRITE_ONCE(irq_ran, true);
}

static struct irq_work knc_model_test_work =
	IRQ_WORK_INIT_HARD(knc_model_test_irq);

static void knc_model_test_arm(void)
{
	WRITE_ONCE(nmi_ip, 0);
	WRITE_ONCE(nmi_after_irq, false);
	WRITE_ONCE(irq_ran, false);
	wrmsrl(KNC_MSR_EVNTSEL0, insn_evtsel | KNC_EVTSEL_OS | KNC_EVTSEL_INT |
	       KNC_EVTSEL_EN);
}

/*
 * pmi_before_irq's round: interrupts off on entry, on again on return.
 * Returns the address after the NOP: where the PMI must interrupt.
 */
static noinline unsigned long knc_model_test_irq_round(void)
{
	u64 start = KNC_CNTVAL_MASK - 1;	/* -2: overflows at the NOP */
	unsigned long after;

	irq_work_queue(&knc_model_test_work);
	knc_model_test_arm();
	asm volatile("lea 1f(%%rip), %0\n\t"
		     "wrmsr\n\t"
		     "sti\n\t"
		     "nop\n"
		     "1:"
		     : "=&r" (after)
		     : "c" (KNC_MSR_PERFCTR0), "a" (lower_32_bits(start)),
		       "d" (upper_32_bits(start))
		     : "memory");
	return after;
}

/*
 * pmi_before_fault's round, interrupts off: returns the address of the
 * RDMSR, which faults (0x2a, in the PMU's block, is no MSR) and is skipped.
 */
static noinline unsigned long knc_model_test_fault_round(void)
{
	u64 start = KNC_CNTVAL_MASK;		/* -1: overflows at the MOV */
	u32 msr = KNC_MSR_PERFCTR0;
	u32 lo = lower_32_bits(start), hi = upper_32_bits(start);
	unsigned long at;

	knc_model_test_arm();
	asm volatile("lea 1f(%%rip), %0\n\t"
		     "wrmsr\n\t"
		     "mov $0x2a, %%ecx\n"
		     "1: rdmsr\n"
		     "2:\n\t"
		     _ASM_EXTABLE(1b, 2b)
		     : "=&r" (at), "+c" (msr), "+a" (lo), "+d" (hi)
		     :
		     : "memory");
	return at;
}

static int knc_model_test_pmi_before_irq(void)
{
	unsigned long expect = 0, ip = 0;
	int round, bad = 0;
	bool after_irq = false;

	for (round = 0; round < ROUNDS && !bad; round++) {
		/* raw: the STI in the round enables them behind lockdep's back */
		raw_local_irq_disable();
		expect = knc_model_test_irq_round();
		/* (irq_work_sync() may sleep) */
		while (irq_work_is_busy(&knc_model_test_work))
			cpu_relax();
		ip = READ_ONCE(nmi_ip);
		after_irq = READ_ONCE(nmi_after_irq);
		bad = ip != expect || after_irq || !READ_ONCE(irq_ran);
	}
	if (bad) {
		pr_err("not ok pmi_before_irq: in round %d of %d: PMI at %pS%s, want %pS%s\n",
		       round, ROUNDS, (void *)ip,
		       after_irq ? " after the interrupt's handler" : "",
		       (void *)expect, READ_ONCE(irq_ran) ? "" : "; the interrupt never ran");
		return -EIO;
	}
	pr_info("ok pmi_before_irq: %d rounds, each PMI at %pS before the interrupt\n",
		ROUNDS, (void *)expect);
	return 0;
}

static int knc_model_test_pmi_before_fault(void)
{
	unsigned long expect = 0, ip = 0;
	int round, bad = 0;

	for (round = 0; round < ROUNDS && !bad; round++) {
		local_irq_disable();
		expect = knc_model_test_fault_round();
		local_irq_enable();
		ip = READ_ONCE(nmi_ip);
		bad = ip != expect;
	}
	if (bad) {
		pr_err("not ok pmi_before_fault: in round %d of %d: PMI at %pS, want %pS\n",
		       round, ROUNDS, (void *)ip, (void *)expect);
		return -EIO;
	}
	pr_info("ok pmi_before_fault: %d rounds, each PMI at %pS before its fault\n",
		ROUNDS, (void *)expect);
	return 0;
}

/* Both checks on this CPU, its counter 0 saved and put back. */
static int knc_model_test_run(void)
{
	u64 ctr, sel, ctrl;
	int err;

	preempt_disable();
	rdmsrl(KNC_MSR_PERFCTR0, ctr);
	rdmsrl(KNC_MSR_EVNTSEL0, sel);
	rdmsrl(KNC_MSR_GLOBAL_CTRL, ctrl);
	wrmsrl(KNC_MSR_PERFCTR0, 0);
	wrmsrl(KNC_MSR_GLOBAL_CTRL, BIT_ULL(0));
	err = knc_model_test_pmi_before_irq();
	err = knc_model_test_pmi_before_fault() ?: err;
	wrmsrl(KNC_MSR_GLOBAL_CTRL, ctrl);
	wrmsrl(KNC_MSR_EVNTSEL0, sel);
	wrmsrl(KNC_MSR_PERFCTR0, ctr);
	preempt_enable();
	return err;
}

static int __init knc_model_test_init(void)
{
	int err, i;

	for (i = 0; i < ARRAY_SIZE(knc_model_test_events); i++)
		if (!strcmp(knc_model_test_events[i].name, "instructions_executed"))
			insn_evtsel = knc_model_test_events[i].evtsel;
	if (WARN_ON(!insn_evtsel))
		return -EINVAL;
	/* the model's: a card's PMI has skid */
	if (boot_cpu_data.x86_vendor != X86_VENDOR_INTEL ||
	    boot_cpu_data.x86 != 11 || !boot_cpu_has(X86_FEATURE_HYPERVISOR))
		return -ENODEV;
	err = register_nmi_handler(NMI_LOCAL, knc_model_test_nmi, 0,
				   KBUILD_MODNAME);
	if (err)
		return err;
	err = knc_model_test_run();
	unregister_nmi_handler(NMI_LOCAL, KBUILD_MODNAME);
	if (atomic_read(&foreign_nmis))
		pr_info("%d NMIs were not the test's\n", atomic_read(&foreign_nmis));
	return err;
}

static void __exit knc_model_test_exit(void)
{
}

module_init(knc_model_test_init);
module_exit(knc_model_test_exit);
MODULE_DESCRIPTION("Ring-0 checks of QEMU's Knights Corner PMU model");
MODULE_LICENSE("GPL");
