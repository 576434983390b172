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
 *
 * pmi_after_read: a RDMSR of each readable register of the PMU's block
 * comes among the instructions before the overflow. Reading changes no
 * register, and must not move the PMI off its instruction.
 *
 * Then the conformance rules (knc_model_test_rules[]): one check per rule
 * of section 1.4 of Intel document 327357-001 (seed 000), or per choice
 * where it is silent, each saying "ok RULE" or "not ok RULE: what it saw".
 * tools/knc/conformance-table makes Documentation's table from that list;
 * a rule with no check yet shows as such there and here ("# no case"),
 * and so does a rule the model does not follow ("# not modelled").
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/atomic.h>
#include <linux/delay.h>
#include <linux/irq_work.h>
#include <linux/module.h>
#include <linux/objtool.h>
#include <linux/preempt.h>
#include <linux/smp.h>
#include <linux/string.h>
#include <linux/topology.h>
#include <asm/apic.h>
#include <asm/asm.h>
#include <asm/desc.h>
#include <asm/msr.h>
#include <asm/nmi.h>
#include <asm/processor.h>
#include <asm/trapnr.h>

#include "knc_compat.h"
#include "knc_logic.h"
#include "knc_model_test.h"

/* the events, from the table generated from the JSON */
#include "knc_events.tbl"

#define ROUNDS	50

static u64 insn_evtsel, cycles_evtsel;
static unsigned long nmi_ip;
static bool nmi_after_irq;
static bool irq_ran;
static atomic_t foreign_nmis = ATOMIC_INIT(0);

/*
 * Set by the conformance checks: the handler only counts the PMIs and
 * unmasks the LVT entry, leaving the PMU's registers alone.
 */
static bool nmi_count_only;
static atomic_t pmis = ATOMIC_INIT(0);

static int knc_model_test_nmi(unsigned int cmd, struct pt_regs *regs)
{
	u64 status;

	rdmsrq(KNC_MSR_GLOBAL_STATUS, status);
	if (READ_ONCE(nmi_count_only) && status) {
		atomic_inc(&pmis);
		apic->write(APIC_LVTPC, APIC_DM_NMI);
		return NMI_HANDLED;
	}
	if (!(status & BIT_ULL(0))) {
		atomic_inc(&foreign_nmis);
		return NMI_DONE;
	}
	wrmsrq(KNC_MSR_EVNTSEL0, 0);
	wrmsrq(KNC_MSR_GLOBAL_OVF_CTRL, BIT_ULL(0));
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

/* counter @idx counts ring-0 instructions, with @more (INT) */
static void count_insns(int idx, u64 more)
{
	wrmsrq(KNC_MSR_EVNTSEL0 + idx, insn_evtsel | KNC_EVTSEL_OS | KNC_EVTSEL_EN | more);
}

static void knc_model_test_arm(void)
{
	WRITE_ONCE(nmi_ip, 0);
	WRITE_ONCE(nmi_after_irq, false);
	WRITE_ONCE(irq_ran, false);
	count_insns(0, KNC_EVTSEL_INT);
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

/*
 * pmi_after_read's round, interrupts off: counter 0 overflows at the last
 * of ten NOPs after a RDMSR of @msr, itself after a hundred; returns the
 * address after the NOPs, where the PMI must interrupt.
 */
static noinline unsigned long knc_model_test_read_round(u32 msr)
{
	u64 start = KNC_CNTVAL_MASK - 111;	/* -112: 100 NOPs, MOV, RDMSR, 10 NOPs */
	u32 ecx = KNC_MSR_PERFCTR0;
	u32 lo = lower_32_bits(start), hi = upper_32_bits(start);
	unsigned long after;

	knc_model_test_arm();
	asm volatile("lea 1f(%%rip), %0\n\t"
		     "wrmsr\n\t"
		     ".rept 100\n\tnop\n\t.endr\n\t"
		     "mov %4, %%ecx\n\t"
		     "rdmsr\n\t"
		     ".rept 10\n\tnop\n\t.endr\n"
		     "1:"
		     : "=&r" (after), "+c" (ecx), "+a" (lo), "+d" (hi)
		     : "r" (msr)
		     : "memory");
	return after;
}

static int knc_model_test_pmi_after_read(void)
{
	static const u32 msrs[] = {
		KNC_MSR_PERFCTR0, KNC_MSR_PERFCTR0 + 1, KNC_MSR_EVNTSEL0,
		KNC_MSR_EVNTSEL0 + 1, KNC_MSR_SPFLT_CTRL, KNC_MSR_GLOBAL_STATUS,
		KNC_MSR_GLOBAL_CTRL,
	};
	unsigned long expect = 0, ip = 0;
	int i, round, bad = 0;

	for (i = 0; i < ARRAY_SIZE(msrs) && !bad; i++) {
		for (round = 0; round < ROUNDS && !bad; round++) {
			local_irq_disable();
			expect = knc_model_test_read_round(msrs[i]);
			local_irq_enable();
			ip = READ_ONCE(nmi_ip);
			bad = ip != expect;
		}
	}
	if (bad) {
		pr_err("not ok pmi_after_read: a RDMSR of %#x, round %d of %d: PMI at %pS, want %pS\n",
		       msrs[i - 1], round, ROUNDS, (void *)ip, (void *)expect);
		return -EIO;
	}
	pr_info("ok pmi_after_read: %d rounds for each of %zu registers, each PMI at %pS\n",
		ROUNDS, ARRAY_SIZE(msrs), (void *)expect);
	return 0;
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

/* ------------------------------------------------------------ conformance */

#define RULE_FAIL(fmt, ...) \
	({ pr_err("not ok %s: " fmt "\n", rule_name, ##__VA_ARGS__); -EIO; })

static const char *rule_name;

static bool rd_faults(u32 msr)
{
	u64 val;

	return rdmsrq_safe(msr, &val) != 0;
}

static bool wr_faults(u32 msr, u64 val)
{
	return wrmsrq_safe(msr, val) != 0;
}

/* RDPMC of @ecx, fixed up: false when it faulted */
static bool rdpmc_ok(u32 ecx, u64 *val)
{
	u32 lo = 0, hi = 0;
	bool ok = false;

	asm volatile("1: rdpmc\n\t"
		     "movb $1, %2\n"
		     "2:\n\t"
		     _ASM_EXTABLE(1b, 2b)
		     : "=a" (lo), "=d" (hi), "+r" (ok)
		     : "c" (ecx));
	*val = (u64)hi << 32 | lo;
	return ok;
}

/* RDMSR and WRMSR of each MSR in [@lo, @hi] must fault */
static int absent(u32 lo, u32 hi)
{
	u32 msr;

	for (msr = lo; msr <= hi; msr++) {
		if (!rd_faults(msr))
			return RULE_FAIL("RDMSR %#x did not fault", msr);
		if (!wr_faults(msr, 0))
			return RULE_FAIL("WRMSR %#x did not fault", msr);
	}
	return 0;
}

/* WRMSR @msr with each bit of @bits set, alone, must fault */
static int faults_with_each(u32 msr, u64 bits)
{
	int b;

	for_each_set_bit(b, (unsigned long *)&bits, 64)
		if (!wr_faults(msr, BIT_ULL(b)))
			return RULE_FAIL("WRMSR %#x with bit %d set did not fault", msr, b);
	return 0;
}

/* ... and change nothing, for a register that can be read back */
static int reserved(u32 msr, u64 bits)
{
	u64 before, after;
	int err;

	rdmsrq(msr, before);
	err = faults_with_each(msr, bits);
	if (err)
		return err;
	rdmsrq(msr, after);
	if (after != before)
		return RULE_FAIL("MSR %#x changed from %#llx to %#llx", msr, before, after);
	return 0;
}

/* write @val to @msr: it must read back as written */
static int reads_back(u32 msr, u64 val)
{
	u64 got;

	if (wr_faults(msr, val))
		return RULE_FAIL("WRMSR %#x of %#llx faulted", msr, val);
	rdmsrq(msr, got);
	if (got != val)
		return RULE_FAIL("MSR %#x read %#llx after a write of %#llx", msr, got, val);
	return 0;
}

/* ring-0 instructions, enough to move a counter past a few events */
static noinline void spin(void)
{
	int i;

	for (i = 0; i < 1000; i++)
		barrier();
}

/* a clean PMU: nothing counts, no status, both counters at @start */
static void pmu_clear(u64 start)
{
	wrmsrq(KNC_MSR_GLOBAL_CTRL, 0);
	wrmsrq(KNC_MSR_EVNTSEL0, 0);
	wrmsrq(KNC_MSR_EVNTSEL0 + 1, 0);
	wrmsrq(KNC_MSR_SPFLT_CTRL, 0);
	wrmsrq(KNC_MSR_GLOBAL_OVF_CTRL, KNC_COUNTERS_MASK);
	wrmsrq(KNC_MSR_PERFCTR0, start);
	wrmsrq(KNC_MSR_PERFCTR0 + 1, start);
}

/* counter 0 counts ring-0 instructions with @more, the PMU otherwise clear */
static void counter0_counts(u64 more)
{
	pmu_clear(0);
	count_insns(0, more);
	wrmsrq(KNC_MSR_GLOBAL_CTRL, BIT_ULL(0));
}

static u64 status(void)
{
	u64 val;

	rdmsrq(KNC_MSR_GLOBAL_STATUS, val);
	return val;
}

static int r_absent_pmc(void)		{ return absent(0xc1, 0xc8); }
static int r_absent_evtsel(void)	{ return absent(0x186, 0x18f); }
static int r_absent_fixed(void)		{ return absent(0x309, 0x30b) ?: absent(0x38d, 0x38d); }
static int r_absent_caps(void)		{ return absent(0x345, 0x345); }
static int r_absent_global(void)	{ return absent(0x38e, 0x391); }
static int r_absent_fw(void)		{ return absent(0x4c1, 0x4c8); }
static int r_absent_ds(void)		{ return absent(0x3f1, 0x3f1) ?: absent(0x600, 0x600); }
static int r_holes(void)		{ return absent(0x22, 0x27) ?: absent(0x2a, 0x2b); }

static int r_status_ro(void)
{
	return wr_faults(KNC_MSR_GLOBAL_STATUS, 0) ? 0 : RULE_FAIL("WRMSR 0x2d did not fault");
}

static int r_ovf_ctrl_wo(void)
{
	return rd_faults(KNC_MSR_GLOBAL_OVF_CTRL) ? 0 : RULE_FAIL("RDMSR 0x2e did not fault");
}

static int r_ctr_reserved(void)
{
	return reserved(KNC_MSR_PERFCTR0, KNC_CNTVAL_RESERVED) ?:
	       reserved(KNC_MSR_PERFCTR0 + 1, KNC_CNTVAL_RESERVED);
}

/* all 40 bits are written; nothing is sign-extended from bit 31 or 39 */
static int r_ctr_40_bits(void)
{
	static const u64 vals[] = { 0x7fffffffULL, 0x80000000ULL, 0x8000000000ULL,
				    0xff00000001ULL, KNC_CNTVAL_MASK };
	int i, idx, err = 0;

	for (idx = 0; idx < KNC_NUM_COUNTERS && !err; idx++)
		for (i = 0; i < ARRAY_SIZE(vals) && !err; i++)
			err = reads_back(KNC_MSR_PERFCTR0 + idx, vals[i]);
	return err;
}

static int r_evtsel_reserved(void)
{
	/* every defined bit but EN reads back */
	u64 defined = ~KNC_EVTSEL_RESERVED & ~KNC_EVTSEL_EN;

	return reads_back(KNC_MSR_EVNTSEL0, defined) ?:
	       reads_back(KNC_MSR_EVNTSEL0, 0) ?:
	       reserved(KNC_MSR_EVNTSEL0, KNC_EVTSEL_RESERVED) ?:
	       reserved(KNC_MSR_EVNTSEL0 + 1, KNC_EVTSEL_RESERVED);
}

static int r_spflt_reserved(void)
{
	return reads_back(KNC_MSR_SPFLT_CTRL, KNC_SPFLT_USER_PREF | KNC_COUNTERS_MASK) ?:
	       reads_back(KNC_MSR_SPFLT_CTRL, 0) ?:
	       reserved(KNC_MSR_SPFLT_CTRL, KNC_SPFLT_RESERVED);
}

static int r_global_ctrl_reserved(void)
{
	return reads_back(KNC_MSR_GLOBAL_CTRL, KNC_COUNTERS_MASK) ?:
	       reads_back(KNC_MSR_GLOBAL_CTRL, 0) ?:
	       reserved(KNC_MSR_GLOBAL_CTRL, KNC_GLOBAL_RESERVED);
}

static int r_ovf_ctrl_reserved(void)
{
	/* write-only: reserved() cannot read it back */
	return faults_with_each(KNC_MSR_GLOBAL_OVF_CTRL, KNC_GLOBAL_RESERVED);
}

/* a counter counts only while its EN and its GLOBAL_CTRL bit are both set */
static int r_en_and_global(void)
{
	static const struct { u64 more, global; bool counts; } cases[] = {
		{ 0, 0, false }, { 0, 1, false },
		{ KNC_EVTSEL_EN, 0, false }, { KNC_EVTSEL_EN, 1, true },
	};
	u64 before, after;
	bool counted;
	int i;

	for (i = 0; i < ARRAY_SIZE(cases); i++) {
		pmu_clear(0);
		wrmsrq(KNC_MSR_EVNTSEL0, insn_evtsel | KNC_EVTSEL_OS | cases[i].more);
		wrmsrq(KNC_MSR_GLOBAL_CTRL, cases[i].global);
		rdmsrq(KNC_MSR_PERFCTR0, before);
		spin();
		rdmsrq(KNC_MSR_PERFCTR0, after);
		wrmsrq(KNC_MSR_GLOBAL_CTRL, 0);
		counted = after > before;
		if (counted != cases[i].counts)
			return RULE_FAIL("EN %d, GLOBAL_CTRL %llu: %llu instructions counted",
					 !!cases[i].more, cases[i].global, after - before);
	}
	return 0;
}

/* both counters overflow without INT: sticky bits, cleared only as written */
static int r_status_sticky(void)
{
	u64 st, a, b;

	pmu_clear(KNC_CNTVAL_MASK - 10);
	count_insns(0, 0);
	count_insns(1, 0);
	wrmsrq(KNC_MSR_GLOBAL_CTRL, KNC_COUNTERS_MASK);
	spin();
	wrmsrq(KNC_MSR_GLOBAL_CTRL, 0);
	rdmsrq(KNC_MSR_PERFCTR0, a);
	rdmsrq(KNC_MSR_PERFCTR0 + 1, b);
	st = status();
	/* wrapped: small, whatever interrupts ran meanwhile */
	if (st != KNC_COUNTERS_MASK || a > BIT_ULL(32) || b > BIT_ULL(32))
		return RULE_FAIL("after both wrapped: status %#llx, counters %#llx %#llx", st, a, b);
	if (atomic_read(&pmis))
		return RULE_FAIL("%d PMIs without INT", atomic_read(&pmis));
	wrmsrq(KNC_MSR_GLOBAL_OVF_CTRL, BIT_ULL(0));
	if (status() != BIT_ULL(1))
		return RULE_FAIL("OVF_CONTROL 1 left status %#llx", status());
	wrmsrq(KNC_MSR_GLOBAL_OVF_CTRL, 0);
	if (status() != BIT_ULL(1))
		return RULE_FAIL("OVF_CONTROL 0 left status %#llx", status());
	wrmsrq(KNC_MSR_GLOBAL_OVF_CTRL, BIT_ULL(1));
	if (status())
		return RULE_FAIL("OVF_CONTROL 2 left status %#llx", status());
	return 0;
}

/* overflow counter @idx (INT per @more) and give a PMI time to arrive */
static void overflow(int idx, u64 more)
{
	u64 start = KNC_CNTVAL_MASK - 10;

	wrmsr(KNC_MSR_PERFCTR0 + idx, lower_32_bits(start), upper_32_bits(start));
	count_insns(idx, more);
	wrmsrq(KNC_MSR_GLOBAL_CTRL, BIT_ULL(idx));
	spin();
	wrmsrq(KNC_MSR_GLOBAL_CTRL, 0);
	wrmsrq(KNC_MSR_EVNTSEL0 + idx, 0);
	udelay(10);
}

static int expect_pmis(int want, const char *when)
{
	int got = atomic_read(&pmis);

	return got == want ? 0 : RULE_FAIL("%s: %d PMIs, want %d", when, got, want);
}

/*
 * Instructions executed by the P54C's rules for its event 0x16: a REP
 * string instruction counts once, however often it repeats. Counted with
 * interrupts off, between two reads of the counter.
 */
static u8 rep_buf[4096];

static noinline u64 rep_round(unsigned long n)
{
	void *dst = rep_buf;
	unsigned long flags;
	u64 a, b;

	local_irq_save(flags);
	rdmsrq(KNC_MSR_PERFCTR0, a);
	asm volatile("rep stosb" : "+D" (dst), "+c" (n) : "a" (0) : "memory");
	rdmsrq(KNC_MSR_PERFCTR0, b);
	local_irq_restore(flags);
	return b - a;
}

static int r_rep_string(void)
{
	u64 none, one, all;

	counter0_counts(0);
	none = rep_round(0);
	one = rep_round(1);
	all = rep_round(sizeof(rep_buf));
	if (none != one || one != all)
		return RULE_FAIL("REP STOSB of 0, 1 and %zu bytes: %llu, %llu and %llu instructions",
				 sizeof(rep_buf), none, one, all);
	return 0;
}

/*
 * ... and the delivery of an interrupt or exception counts one, in its
 * handler's ring. The handler is this one, two instructions, behind a
 * vector of a private copy of the IDT loaded while interrupts are off:
 * eight INTs to it must count 3 more each than eight NOPs (the INT's
 * delivery, ENDBR and IRET), between two RDPMCs.
 */
#define KNC_TEST_VECTOR	0x30

asm(".pushsection .text, \"ax\"\n"
	".type knc_model_test_iret, @function\n"
	"knc_model_test_iret:\n\t"
	"endbr64\n\t"
	"iretq\n"
	".size knc_model_test_iret, . - knc_model_test_iret\n"
	".popsection");
STACK_FRAME_NON_STANDARD(knc_model_test_iret);

static gate_desc knc_idt[IDT_ENTRIES] __aligned(PAGE_SIZE);

#define EIGHT_TIMES(insn) ".rept 8\n\t" insn "\n\t.endr\n\t"

/* counter 0's count between two RDPMCs around @insn eight times */
#define RDPMC_AROUND(insn)						\
({									\
	u32 _d;								\
	asm volatile("rdpmc\n\t"						\
		     "mov %%eax, %%esi\n\t"				\
		     EIGHT_TIMES(insn)					\
		     "rdpmc\n\t"						\
		     "sub %%esi, %%eax"					\
		     : "=a" (_d)						\
		     : "c" (0), "i" (KNC_TEST_VECTOR)			\
		     : "rdx", "rsi", "memory");				\
	_d;								\
})

/*
 * With interrupts off: save the IDT in @saved and make knc_idt a copy of
 * it, whose vectors knc_idt_gate() may point elsewhere before
 * knc_idt_load() loads it; native_load_idt(@saved) puts it back.
 */
static void knc_idt_copy(struct desc_ptr *saved)
{
	store_idt(saved);
	memcpy(knc_idt, (void *)saved->address, sizeof(knc_idt));
}

static void knc_idt_gate(unsigned int vector, void (*handler)(void))
{
	pack_gate(&knc_idt[vector], GATE_INTERRUPT, (unsigned long)handler,
		  0, 0, __KERNEL_CS);
}

static void knc_idt_load(void)
{
	struct desc_ptr priv = {
		.size = sizeof(knc_idt) - 1,
		.address = (unsigned long)knc_idt,
	};

	native_load_idt(&priv);
}

static int r_handler_invocation(void)
{
	struct desc_ptr idt;
	unsigned long flags;
	u32 nops, ints;

	counter0_counts(0);
	local_irq_save(flags);
	knc_idt_copy(&idt);
	knc_idt_gate(KNC_TEST_VECTOR, knc_model_test_iret);
	knc_idt_load();
	nops = RDPMC_AROUND("nop");
	ints = RDPMC_AROUND("int %2");
	native_load_idt(&idt);
	local_irq_restore(flags);
	if (ints - nops != 8 * 3)
		return RULE_FAIL("8 INTs to a 2-instruction handler counted %d more than 8 NOPs, want 24",
				 (int)(ints - nops));
	return 0;
}

/*
 * ... and an instruction that faults does not count, only its handler's
 * invocation, whatever raised the fault: here UD2, whose fault the
 * translator raises, and a load from a non-canonical address, whose #GP
 * comes from the memory access. Each round sets %r11 past the instruction
 * (through a branch never taken, so that objtool sees the code after UD2
 * reached) and the handler, behind a vector of the private IDT, returns
 * there: 3 instructions for #UD (ENDBR, MOV, IRET), 4 for #GP, which pops
 * its error code. A round that faults must count the delivery and the
 * handler more than a round of a NOP, and the NOP less.
 */
asm(".pushsection .text, \"ax\"\n"
	".type knc_model_test_ud, @function\n"
	"knc_model_test_ud:\n\t"
	"endbr64\n\t"
	"mov %r11, (%rsp)\n\t"
	"iretq\n"
	".size knc_model_test_ud, . - knc_model_test_ud\n"
	".type knc_model_test_gp, @function\n"
	"knc_model_test_gp:\n\t"
	"endbr64\n\t"
	"add $8, %rsp\n\t"
	"mov %r11, (%rsp)\n\t"
	"iretq\n"
	".size knc_model_test_gp, . - knc_model_test_gp\n"
	".popsection");
STACK_FRAME_NON_STANDARD(knc_model_test_ud);
STACK_FRAME_NON_STANDARD(knc_model_test_gp);

#define KNC_NON_CANONICAL	0x8000000000000000UL

/* counter 0's count between two RDPMCs around eight rounds of @insn */
#define RDPMC_AROUND_FAULTS(insn)					\
({									\
	u32 _d;								\
	asm volatile("rdpmc\n\t"						\
		     "mov %%eax, %%esi\n\t"				\
		     ".rept 8\n\t"					\
		     "lea 1f(%%rip), %%r11\n\t"				\
		     "test %%r11, %%r11\n\t"				\
		     "jz 1f\n\t"						\
		     insn "\n"						\
		     "1:\n\t"						\
		     ".endr\n\t"					\
		     "rdpmc\n\t"						\
		     "sub %%esi, %%eax"					\
		     : "=a" (_d)						\
		     : "c" (0), "D" (KNC_NON_CANONICAL)			\
		     : "rdx", "rsi", "r11", "memory");			\
	_d;								\
})

static int r_faulting_insns(void)
{
	struct desc_ptr idt;
	unsigned long flags;
	u32 nops, uds, gps;

	counter0_counts(0);
	local_irq_save(flags);
	knc_idt_copy(&idt);
	knc_idt_gate(X86_TRAP_UD, knc_model_test_ud);
	knc_idt_gate(X86_TRAP_GP, knc_model_test_gp);
	knc_idt_load();
	nops = RDPMC_AROUND_FAULTS("nop");
	uds = RDPMC_AROUND_FAULTS("ud2");
	gps = RDPMC_AROUND_FAULTS("mov (%%rdi), %%rdx");
	native_load_idt(&idt);
	local_irq_restore(flags);
	/* per round: the NOP out, the delivery and the handler in */
	if (uds - nops != 8 * 3)
		return RULE_FAIL("8 UD2s to a 3-instruction handler counted %d more than 8 NOPs, want 24",
				 (int)(uds - nops));
	if (gps - nops != 8 * 4)
		return RULE_FAIL("8 non-canonical loads to a 4-instruction handler counted %d more than 8 NOPs, want 32",
				 (int)(gps - nops));
	return 0;
}

/*
 * EDGE, INV and CMASK on real execution, defined by the execution alone:
 * one instruction a cycle, so CMASK 1 counts each, CMASK 2 none, INV
 * turns those round, and EDGE (with CMASK 1, or none: the event occurs)
 * counts the runs of ring-0 execution: one however often the model is
 * looked at meanwhile, one more after a HLT.
 */
#define SPIN_WINDOW	2004	/* count_spin()'s instructions after its first RDMSR */

static u64 count_spin(u64 more)
{
	u32 alo, ahi, blo, bhi, n;

	counter0_counts(more);
	/*
	 * One asm statement, so that each call counts the same instructions:
	 * a window of C, such as RDMSRs around spin(), is the compiler's to
	 * lay out at each call site (an inlined copy may hoist a KASAN check's
	 * address out of it).
	 */
	asm volatile("rdmsr\n\t"
		     "mov %%eax, %[alo]\n\t"
		     "mov %%edx, %[ahi]\n\t"
		     "mov $1000, %[n]\n"
		     "1:\tdec %[n]\n\t"
		     "jnz 1b\n\t"
		     "rdmsr"
		     : "=a" (blo), "=d" (bhi), [alo] "=&r" (alo), [ahi] "=&r" (ahi),
		       [n] "=&r" (n)
		     : "c" (KNC_MSR_PERFCTR0));
	return ((u64)bhi << 32 | blo) - ((u64)ahi << 32 | alo);
}

#define CMASK(n)	((u64)(n) << 24)

/* EDGE (@more): a run goes on through the model's looks, a HLT ends it */
static int edge_runs(u64 more)
{
	unsigned long flags;
	u64 a, b = 0;
	int i;

	local_irq_save(flags);
	count_spin(more);
	rdmsrq(KNC_MSR_PERFCTR0, a);
	for (i = 0; i < 20; i++) {
		spin();
		rdmsrq(KNC_MSR_PERFCTR0, b);
	}
	local_irq_restore(flags);
	if (b != a)
		return RULE_FAIL("EvtSel %#llx: %llu runs counted in one run of 20 reads", more, b - a);

	/* the IPI of an IRQ work ends the HLT */
	raw_local_irq_disable();
	WRITE_ONCE(irq_ran, false);
	irq_work_queue(&knc_model_test_work);
	rdmsrq(KNC_MSR_PERFCTR0, a);
	asm volatile("sti; hlt; cli" ::: "memory");
	rdmsrq(KNC_MSR_PERFCTR0, b);
	raw_local_irq_enable();
	if (!READ_ONCE(irq_ran))
		return RULE_FAIL("the interrupt that ends the HLT did not run");
	if (b - a != 1)
		return RULE_FAIL("EvtSel %#llx: %llu runs counted across a HLT, want 1", more, b - a);
	return 0;
}

static int r_edge_inv_cmask(void)
{
	static const struct { u64 more; bool all; } cases[] = {
		{ CMASK(1), true }, { CMASK(2), false },
		{ CMASK(1) | KNC_EVTSEL_INV, false }, { CMASK(2) | KNC_EVTSEL_INV, true },
	};
	unsigned long flags;
	u64 plain, got = 0, want = 0;
	int i;

	local_irq_save(flags);
	plain = count_spin(0);
	for (i = 0; i < ARRAY_SIZE(cases) && plain; i++) {
		got = count_spin(cases[i].more);
		want = cases[i].all * plain;
		if (got != want)
			break;
	}
	local_irq_restore(flags);
	if (plain != SPIN_WINDOW)
		return RULE_FAIL("%llu instructions counted in a window of %d", plain, SPIN_WINDOW);
	if (i < ARRAY_SIZE(cases))
		return RULE_FAIL("EvtSel %#llx counted %llu, want %llu", cases[i].more, got, want);
	return edge_runs(CMASK(1) | KNC_EVTSEL_EDGE) ?: edge_runs(KNC_EVTSEL_EDGE);
}

/* setting INT after an overflow raises no PMI: the line rises at overflow */
static int r_pmi_int_after(void)
{
	pmu_clear(0);
	overflow(0, 0);
	if (status() != BIT_ULL(0))
		return RULE_FAIL("status %#llx after the overflow", status());
	wrmsrq(KNC_MSR_EVNTSEL0, insn_evtsel | KNC_EVTSEL_OS | KNC_EVTSEL_INT);
	udelay(10);
	wrmsrq(KNC_MSR_EVNTSEL0, 0);
	return expect_pmis(0, "INT set after an overflow without it");
}

/*
 * The line stays high until the status is 0: a second overflow, and
 * clearing one of two bits, raise nothing; after the status is cleared the
 * next overflow raises a PMI.
 */
static int r_pmi_latch(void)
{
	int err;

	pmu_clear(0);
	overflow(0, KNC_EVTSEL_INT);
	err = expect_pmis(1, "the first overflow");
	if (err)
		return err;
	overflow(1, KNC_EVTSEL_INT);
	err = expect_pmis(1, "a second overflow with the status not cleared");
	if (err)
		return err;
	wrmsrq(KNC_MSR_GLOBAL_OVF_CTRL, BIT_ULL(0));
	overflow(0, KNC_EVTSEL_INT);
	err = expect_pmis(1, "an overflow after one of two status bits was cleared");
	if (err)
		return err;
	wrmsrq(KNC_MSR_GLOBAL_OVF_CTRL, KNC_COUNTERS_MASK);
	overflow(1, KNC_EVTSEL_INT);
	return expect_pmis(2, "an overflow after the status was cleared");
}

/*
 * Counter 0 counts ring-0 @evtsel with INT from @start, and OVF_CONTROL is
 * written with @clear two instructions after GLOBAL_CTRL starts it: the
 * model first sees the overflow inside that write. Executed instructions
 * from -3 overflow at the write itself, which counts by the time it
 * completes; cycles from -1 overflow before it, unless the timer the model
 * set at the overflow looks first (a race: hence the rounds). Then a PMI
 * has time to arrive.
 */
static void overflow_in_clear(u64 evtsel, u64 start, u64 clear)
{
	u32 msr = KNC_MSR_GLOBAL_CTRL, lo = BIT(0);

	wrmsrq(KNC_MSR_PERFCTR0, start);
	wrmsrq(KNC_MSR_EVNTSEL0, evtsel | KNC_EVTSEL_OS | KNC_EVTSEL_EN | KNC_EVTSEL_INT);
	asm volatile("wrmsr\n\t"
		     "mov %[ovf], %%ecx\n\t"
		     "mov %[clear], %%eax\n\t"
		     "wrmsr"
		     : "+c" (msr), "+a" (lo)
		     : "d" (0), [ovf] "i" (KNC_MSR_GLOBAL_OVF_CTRL), [clear] "S" ((u32)clear)
		     : "memory");
	wrmsrq(KNC_MSR_GLOBAL_CTRL, 0);
	wrmsrq(KNC_MSR_EVNTSEL0, 0);
	udelay(10);
}

/* the NMIs that found the status 0 since @before (handler: foreign) */
static int status0_nmis(int before, const char *when)
{
	int got = atomic_read(&foreign_nmis) - before;

	/* such an NMI left the LVT entry masked */
	apic->write(APIC_LVTPC, APIC_DM_NMI);
	return got ? RULE_FAIL("%s: %d PMIs found the status 0", when, got) : 0;
}

/*
 * The line rises at the overflow itself: an overflow with the line low
 * raises a PMI that finds its status bit, even when the model first sees
 * it inside a write to OVF_CONTROL that clears that bit; one with the line
 * high raises nothing, and a write that leaves the status 0 drops the line
 * without a PMI. No PMI finds the status 0. Each round overflows executed
 * instructions, then cycles.
 */
static int r_pmi_not_after_clear(void)
{
	const struct {
		u64 evtsel, start;
		const char *low, *high;
	} ev[] = {
		{ insn_evtsel, KNC_CNTVAL_MASK - 2,
		  "instructions overflow at a clear, the line low",
		  "instructions overflow at a clear, the line high" },
		{ cycles_evtsel, KNC_CNTVAL_MASK,
		  "cycles overflow before a clear, the line low",
		  "cycles overflow before a clear, the line high" },
	};
	int i, err, before, n = 0;

	pmu_clear(0);
	for (i = 0; i < 2 * ROUNDS; i++) {
		before = atomic_read(&foreign_nmis);
		overflow_in_clear(ev[i % 2].evtsel, ev[i % 2].start, BIT_ULL(0));
		err = status0_nmis(before, ev[i % 2].low) ?:
		      expect_pmis(++n, ev[i % 2].low);
		if (err)
			return err;
		wrmsrq(KNC_MSR_GLOBAL_OVF_CTRL, BIT_ULL(0));
	}
	for (i = 0; i < 2 * ROUNDS; i++) {
		overflow(1, KNC_EVTSEL_INT);
		before = atomic_read(&foreign_nmis);
		overflow_in_clear(ev[i % 2].evtsel, ev[i % 2].start, KNC_COUNTERS_MASK);
		err = status0_nmis(before, ev[i % 2].high) ?:
		      expect_pmis(++n, ev[i % 2].high);
		if (err)
			return err;
		if (status())
			return RULE_FAIL("%s: status %#llx after the clear", ev[i % 2].high, status());
	}
	return 0;
}

/* an overflow while the LVT entry is masked is lost; the status keeps it */
static int r_pmi_masked(void)
{
	int err;

	pmu_clear(0);
	apic->write(APIC_LVTPC, APIC_DM_NMI | APIC_LVT_MASKED);
	overflow(0, KNC_EVTSEL_INT);
	apic->write(APIC_LVTPC, APIC_DM_NMI);
	udelay(10);
	err = expect_pmis(0, "an overflow under a masked LVT entry, then unmasked");
	if (err)
		return err;
	if (status() != BIT_ULL(0))
		return RULE_FAIL("status %#llx after the masked overflow", status());
	wrmsrq(KNC_MSR_GLOBAL_OVF_CTRL, BIT_ULL(0));
	overflow(0, KNC_EVTSEL_INT);
	return expect_pmis(1, "the next overflow, the status cleared");
}

/* RDPMC: ECX 0 and 1, zero-extended 40 bits; any other ECX faults */
static int r_rdpmc(void)
{
	static const u32 bad[] = { 2, 3, 0x20, 0x40000000, 0x40000001, 0x80000000 };
	u64 val;
	int i, idx;

	pmu_clear(0);
	for (idx = 0; idx < KNC_NUM_COUNTERS; idx++) {
		wrmsrq(KNC_MSR_PERFCTR0 + idx, 0xff00000001ULL + idx);
		if (!rdpmc_ok(idx, &val))
			return RULE_FAIL("RDPMC %d faulted", idx);
		if (val != 0xff00000001ULL + idx)
			return RULE_FAIL("RDPMC %d read %#llx (EDX %#llx)", idx, val, val >> 32);
	}
	for (i = 0; i < ARRAY_SIZE(bad); i++)
		if (rdpmc_ok(bad[i], &val))
			return RULE_FAIL("RDPMC %#x did not fault", bad[i]);
	return 0;
}

/*
 * The TSC, one per core: this thread writes MSR 0x10, its sibling's RDTSC
 * and RDMSR 0x10 must read the value written. The sibling waits in an IPI
 * with interrupts off, this thread writes with them off, and the TSC is
 * put back before either takes an interrupt: no timekeeping sees the jump
 * (a TSC deadline armed meanwhile would lie hours ahead once the TSC is
 * back, and that CPU's timer would stop).
 */
#define TSC_JUMP	BIT_ULL(44)	/* hours of a KNC's clock */
#define TSC_NEAR	BIT_ULL(36)	/* a minute or so of it */
#define TSC_SPINS	(1 << 28)

static struct {
	/*
	 * 1: the sibling waits, 2: this thread has it (or 0: it gave up),
	 * 3: written, 4: read, 5: put back
	 */
	int state;
	u64 tsc, msr;
	bool msr_faulted;
} tsc_sib;

static bool tsc_wait(int state)
{
	long n;

	for (n = 0; n < TSC_SPINS; n++) {
		/* pairs with the other thread's release: its reads are seen */
		if (smp_load_acquire(&tsc_sib.state) >= state)
			return true;
		cpu_relax();
	}
	return false;
}

static void tsc_sibling(void *unused)
{
	/* the state orders the TSC reads and writes of the two threads */
	smp_store_release(&tsc_sib.state, 1);
	if (!tsc_wait(2) && cmpxchg(&tsc_sib.state, 1, 0) == 1)
		return;		/* given up before the TSC moved */
	/* had: the other thread sets 3 and 5 whatever happens */
	tsc_wait(3);
	tsc_sib.tsc = rdtsc_ordered();
	tsc_sib.msr_faulted = rdmsrq_safe(MSR_IA32_TSC, &tsc_sib.msr) != 0;
	/* the reads above, before the state says they are done */
	smp_store_release(&tsc_sib.state, 4);
	/* interrupts stay off until the TSC is back */
	tsc_wait(5);
}

static int r_tsc_per_core(void)
{
	unsigned int cpu = smp_processor_id(), sib;
	unsigned long flags;
	u64 val, own, own_msr = 0;
	bool faulted, answered;

	sib = cpumask_any_but(topology_sibling_cpumask(cpu), cpu);
	if (sib >= nr_cpu_ids)
		return RULE_FAIL("CPU %u has no sibling thread (the suite boots --threads 2)", cpu);
	WRITE_ONCE(tsc_sib.state, 0);
	if (smp_call_function_single(sib, tsc_sibling, NULL, 0))
		return RULE_FAIL("CPU %u, the sibling, took no IPI", sib);
	if (!tsc_wait(1))
		return RULE_FAIL("CPU %u, the sibling, did not run the IPI", sib);
	local_irq_save(flags);
	if (cmpxchg(&tsc_sib.state, 1, 2) != 1) {
		local_irq_restore(flags);
		return RULE_FAIL("CPU %u, the sibling, gave up waiting", sib);
	}
	val = rdtsc_ordered() + TSC_JUMP;
	faulted = wrmsrq_safe(MSR_IA32_TSC, val) != 0;
	own = rdtsc_ordered();
	rdmsrq_safe(MSR_IA32_TSC, &own_msr);
	/* the write above, before the state lets the sibling read */
	smp_store_release(&tsc_sib.state, 3);
	answered = tsc_wait(4);
	/* back, on both threads; the time the jump lasted is kept */
	if (!faulted && rdtsc_ordered() >= val)
		wrmsrq_safe(MSR_IA32_TSC, rdtsc_ordered() - TSC_JUMP);
	/* the TSC back, before the sibling takes interrupts again */
	smp_store_release(&tsc_sib.state, 5);
	local_irq_restore(flags);
	if (faulted)
		return RULE_FAIL("WRMSR 0x10 faulted");
	if (own - val >= TSC_NEAR || own_msr - val >= TSC_NEAR)
		return RULE_FAIL("CPU %u wrote TSC %#llx, then read %#llx (RDTSC), %#llx (RDMSR)",
				 cpu, val, own, own_msr);
	if (!answered)
		return RULE_FAIL("CPU %u, the sibling, did not read its TSC", sib);
	if (tsc_sib.msr_faulted || tsc_sib.tsc - val >= TSC_NEAR ||
	    tsc_sib.msr - val >= TSC_NEAR)
		return RULE_FAIL("CPU %u wrote TSC %#llx; its sibling, CPU %u, read %#llx (RDTSC), %#llx (RDMSR%s)",
				 cpu, val, sib, tsc_sib.tsc, tsc_sib.msr,
				 tsc_sib.msr_faulted ? " faulted" : "");
	return 0;
}

/*
 * The rules, in the order of section 1.4. KNC_RULE(name, register, bits,
 * rule, provenance, check); check NULL: no case yet. A rule that needs what
 * ring 0 cannot do alone (events injected from QEMU's monitor, a reset of
 * the machine, a task in ring 3) is KNC_SUITE_RULE(..., "CASE"), checked by
 * that case: "SUITE.sh FUNCTION" (a suite of tests/guest) or a host test
 * "tests/host/NAME.t". A rule of the silicon that the model does not follow
 * is KNC_NOT_MODELLED(..., "what the model does instead").
 * The provenance is one or more clauses, "; " between them: "327357-001
 * SECTION[, table 1-N]: what it says", "inferred: why" where the document
 * is silent, or "other: DOCUMENT: what it says".
 * tools/knc/conformance-table reads them all and checks the provenances.
 */
struct knc_rule {
	const char *name;
	int (*check)(void);
	const char *suite_case;
	const char *not_modelled;
};

#define KNC_RULE(_name, _reg, _bits, _rule, _src, _check) { _name, _check },
#define KNC_SUITE_RULE(_name, _reg, _bits, _rule, _src, _case) { _name, NULL, _case },
#define KNC_NOT_MODELLED(_name, _reg, _bits, _rule, _src, _instead) \
	{ _name, NULL, NULL, _instead },

static const struct knc_rule knc_model_test_rules[] = {
	KNC_RULE("absent_pmc", "IA32_PMC0-7 (0xc1-0xc8)", "all",
		 "RDMSR and WRMSR #GP: no architectural performance monitoring",
		 "327357-001 1.4.3, table 1-2: the core PMU's MSRs are 0x10, 0x20, 0x21, 0x28, 0x29 and 0x2c-0x2f; other: Linux arch/x86/events/intel/core.c: intel_pmu_init() takes knc_pmu_init() for family 11 only without X86_FEATURE_ARCH_PERFMON (CPUID leaf 0xa); inferred: so a KNC implements none of that interface's MSRs, and RDMSR or WRMSR of an MSR not implemented raises #GP (the SDM's RDMSR, WRMSR)",
		 r_absent_pmc)
	KNC_RULE("absent_evtsel", "IA32_PERFEVTSEL0-9 (0x186-0x18f)", "all",
		 "RDMSR and WRMSR #GP",
		 "327357-001 1.4.3, table 1-2: a KNC's event selects are at 0x28 and 0x29; inferred: as absent_pmc, for the event selects of that interface",
		 r_absent_evtsel)
	KNC_RULE("absent_fixed", "IA32_FIXED_CTR0-2, FIXED_CTR_CTRL (0x309-0x30b, 0x38d)", "all",
		 "RDMSR and WRMSR #GP",
		 "inferred: as absent_pmc, for the fixed counters of that interface",
		 r_absent_fixed)
	KNC_RULE("absent_perf_capabilities", "IA32_PERF_CAPABILITIES (0x345)", "all",
		 "RDMSR and WRMSR #GP",
		 "inferred: as absent_pmc, for the capabilities of later PMUs",
		 r_absent_caps)
	KNC_RULE("absent_global", "IA32_PERF_GLOBAL_STATUS, CTRL, OVF_CTRL (0x38e-0x391)", "all",
		 "RDMSR and WRMSR #GP: a KNC's global registers are at 0x2d-0x2f",
		 "327357-001 1.4.3, table 1-2: the global status, overflow control and global control are at 0x2d, 0x2e and 0x2f; inferred: as absent_pmc, at the architectural addresses",
		 r_absent_global)
	KNC_RULE("absent_full_width", "IA32_A_PMC0-7 (0x4c1-0x4c8)", "all",
		 "RDMSR and WRMSR #GP",
		 "inferred: as absent_pmc, for the full-width aliases of that interface's counters",
		 r_absent_fw)
	KNC_RULE("absent_pebs_ds", "IA32_PEBS_ENABLE, IA32_DS_AREA (0x3f1, 0x600)", "all",
		 "RDMSR and WRMSR #GP",
		 "inferred: section 1.4 describes no PEBS and no debug store, so a KNC implements neither MSR, and an MSR not implemented raises #GP",
		 r_absent_ds)
	KNC_RULE("block_holes", "0x22-0x27, 0x2a, 0x2b", "all",
		 "RDMSR and WRMSR #GP: not in the PMU's register list",
		 "327357-001 1.4.3, table 1-2: the registers of the PMU's block are 0x20, 0x21, 0x28, 0x29 and 0x2c-0x2f; inferred: an address between them that the table does not list is not implemented, and so raises #GP (the SDM's RDMSR, WRMSR); the document does not say",
		 r_holes)
	KNC_RULE("counter_40_bits", "IA32_PerfCntr0/1 (0x20, 0x21)", "39:0",
		 "a write sets all 40 bits; reads back zero-extended, bit 31 not extended",
		 "327357-001 1.4.3.2, table 1-4: a read or write of the register sets all 40 bits, unlike IA-32 processors that write the low 32 bits and sign-extend the upper 8; bits 39:0 are the count",
		 r_ctr_40_bits)
	KNC_RULE("counter_reserved", "IA32_PerfCntr0/1 (0x20, 0x21)", "63:40",
		 "reserved: a write with one set #GPs and changes nothing",
		 "327357-001 1.4.3.2, table 1-4: bits 63:40 are reserved; inferred: a write with a reserved bit set raises #GP and changes nothing, as WRMSR does for the reserved bits of the SDM's MSRs; the document does not say",
		 r_ctr_reserved)
	KNC_RULE("evtsel_reserved", "IA32_PerfEvtSel0/1 (0x28, 0x29)", "63:32, 19",
		 "31:0 but 19 read back; a write with a reserved bit #GPs",
		 "327357-001 1.4.3.3, table 1-5: a 32-bit register, bit 19 reserved; inferred: #GP, as for counter_reserved",
		 r_evtsel_reserved)
	KNC_RULE("spflt_reserved", "PERF_SPFLT_CONTROL (0x2c)", "62:2",
		 "63, 1 and 0 read back; a write with a reserved bit #GPs",
		 "327357-001 1.4.3.4, table 1-7: bit 63 USER_PREF, bits 1 and 0 the counters under SPFLT control, bits 62:2 reserved; inferred: #GP, as for counter_reserved",
		 r_spflt_reserved)
	KNC_SUITE_RULE("spflt_user_pref", "PERF_SPFLT_CONTROL (0x2c)", "63, 1:0",
		       "a counter whose bit (1:0) is set counts only while USER_PREF (63) is 1; a counter whose bit is clear counts whatever USER_PREF is",
		       "327357-001 1.4.3.4, table 1-7: USER_PREF is software's preference to enable (1) or disable (0) the counters; it affects only the counters whose SPFLT control bit N is set (USER_PREF AND bit N), bits the operating system sets",
		       "model.sh t_spflt_region")
	KNC_SUITE_RULE("spflt_instruction", "SPFLT (its stand-in: CPUID leaf 0x4b4e4353)", "ECX bit 0",
		       "sets USER_PREF to ECX bit 0 in any ring and returns EAX = 1; the instructions up to and including it count under the old USER_PREF, the ones after it under the new",
		       "327357-001 1.4.2, table 1-1: SPFLT, at CPL 0 to 3 and per thread, sets or clears PERF_SPFLT_CONTROL's USER_PREF as bit 0 of a GPR says; inferred: TCG does not decode SPFLT, so a CPUID leaf stands in for it; the document does not say from which instruction the new USER_PREF applies, and the model takes the next",
		       "model.sh t_spflt_region")
	KNC_RULE("status_read_only", "IA32_PERF_GLOBAL_STATUS (0x2d)", "all",
		 "read-only: WRMSR #GPs",
		 "327357-001 1.4.3.5: normal access RO; inferred: a write raises #GP (the document says read-only, not what a write does)",
		 r_status_ro)
	KNC_RULE("status_sticky", "IA32_PERF_GLOBAL_STATUS, OVF_CONTROL (0x2d, 0x2e)", "1:0",
		 "an overflow sets its bit, INT clear too; OVF_CONTROL clears the bits written",
		 "327357-001 1.4.3.5, table 1-8: each bit is sticky, set by its counter's overflow, and the register is updated even when the APIC interrupt is not enabled; 327357-001 1.4.3.6, table 1-9: a bit written 1 clears its counter's overflow status",
		 r_status_sticky)
	KNC_RULE("ovf_control_write_only", "IA32_PERF_GLOBAL_OVF_CONTROL (0x2e)", "all",
		 "write-only: RDMSR #GPs",
		 "327357-001 1.4.3.6: normal access WO; inferred: a read raises #GP (the document says write-only, not what a read does)",
		 r_ovf_ctrl_wo)
	KNC_RULE("ovf_control_reserved", "IA32_PERF_GLOBAL_OVF_CONTROL (0x2e)", "63:2",
		 "a write with a reserved bit #GPs",
		 "327357-001 1.4.3.6, table 1-9: bits 63:2 are reserved; inferred: #GP, as for counter_reserved",
		 r_ovf_ctrl_reserved)
	KNC_RULE("global_ctrl_reserved", "IA32_PERF_GLOBAL_CTRL (0x2f)", "63:2",
		 "1:0 read back; a write with a reserved bit #GPs",
		 "327357-001 1.4.3.7, table 1-10: a 32-bit register, bits 31:2 reserved; inferred: #GP for a write with any of bits 63:2 set, as for counter_reserved",
		 r_global_ctrl_reserved)
	KNC_SUITE_RULE("usr_os_rings", "IA32_PerfEvtSel USR, OS", "16, 17",
		       "OS counts ring 0, USR rings 1, 2 and 3",
		       "327357-001 1.4.3.3, table 1-5: OS (bit 17) counts while the processor runs in ring 0, USR (bit 16) while it runs in ring 1, 2 or 3",
		       "tests/host/rings.t")
	KNC_RULE("en_and_global_ctrl", "IA32_PerfEvtSel EN, IA32_PERF_GLOBAL_CTRL", "22; 1:0",
		 "a counter counts only while both its EN and its GLOBAL_CTRL bit are set",
		 "327357-001 1.4.1: event monitoring starts when the AND of the event's select bit and the master PMU register is 1; 327357-001 1.4.3.3, table 1-5: EN (bit 22) enables counting only while the matching IA32_PERF_GLOBAL_CTRL bit is set; 327357-001 1.4.3.7, table 1-10: bit N 0 disables counter N, 1 enables it",
		 r_en_and_global)
	KNC_SUITE_RULE("thread_count_mode", "IA32_PerfEvtSel thread count mode", "21",
		       "set: the counter counts the other threads' events too (their executed instructions and injected events), in the rings its USR and OS select, under its own EN, GLOBAL_CTRL and SPFLT_CONTROL",
		       "327357-001 1.4.3.3, table 1-5: bit 21 clear counts the events that match this thread's context, set the events that match any thread's context; inferred: the counter's own enables and ring bits decide, as for its own thread's events",
		       "model.sh t_any_thread_mode")
	KNC_SUITE_RULE("thread_count_cycles", "CPU_CLK_UNHALTED (0x2a), thread count mode", "21",
		       "each thread's own unhalted cycles, bit 21 set or not",
		       "inferred: the document does not say how the unhalted cycles of a core's threads combine",
		       "model.sh t_any_thread_mode")
	KNC_NOT_MODELLED("no_thread_context", "IA32_PerfEvtSel thread count mode", "21",
			 "an event with no thread-specific context counts whatever bit 21 says",
			 "327357-001 1.4.3.3, table 1-5: events that have no thread-specific context are always counted, whatever the thread count mode",
			 "no event is without thread context: an injected event counts on the vCPU it is injected into, and on its siblings only in thread count mode")
	KNC_RULE("pmi_int_after_overflow", "IA32_PerfEvtSel INT (bit 20)", "20",
		 "setting INT after an overflow without it raises no PMI",
		 "327357-001 1.4.3.9: the 1-bit PMI line to the APIC goes from 0 to 1 when a counter needs service; inferred: a counter that overflowed without INT needed none, and setting INT later is no such change",
		 r_pmi_int_after)
	KNC_RULE("pmi_line_latched", "PMI line, IA32_PERF_GLOBAL_STATUS", "1:0",
		 "the line stays 1 until the status is 0: no PMI for a second overflow",
		 "327357-001 1.4.3.9: the ISR must clear the overflow status to 0 before it unmasks; an overflow after the status was read and not cleared leaves the line to the APIC at 1, and the line must go from 0 to 1 again for another request",
		 r_pmi_latch)
	KNC_RULE("pmi_not_after_clear", "PMI line, IA32_PERF_GLOBAL_OVF_CONTROL (0x2e)", "1:0",
		 "the line rises at the overflow itself: no PMI finds the status 0; an overflow with the line high raises none, and a write that leaves the status 0 drops the line",
		 "327357-001 1.4.3.9: the line goes from 0 to 1 when a counter needs service, it stays 1 until the ISR clears the status to 0, and it must go from 0 to 1 again for another request; inferred: an overflow the model first sees inside a write to OVF_CONTROL (a cycle counter between timer looks, a thread-count-mode counter between its 1 ms looks) raised the line before the write if it was low, and the silicon's PMI, taken before the WRMSR, would find its status bit: the model delivers it right after the write, which keeps that bit",
		 r_pmi_not_after_clear)
	KNC_RULE("pmi_lvt_masked", "PMI line, LVT performance entry (APIC 0x340)", "",
		 "an overflow under a masked entry is lost, its status kept; unmasking raises nothing",
		 "327357-001 1.4.3.8: the local APIC looks up the LVT entry at 0x340 when the core PMU signals it; 327357-001 1.4.3.9: the line must go from 0 to 1 when the mask is cleared for another request; inferred: an edge under a masked entry is lost, and unmasking with the line high is no edge",
		 r_pmi_masked)
	KNC_RULE("pmi_masks_lvt", "LVT performance entry (APIC 0x340)", "16",
		 "delivering a PMI sets the entry's mask bit, which stays set until software clears it",
		 "327357-001 1.4.3.9: quoting the SDM, the local APIC handles the performance-monitoring counter interrupt and sets the mask flag of its LVT entry automatically, and the flag stays set until software clears it",
		 NULL)
	KNC_SUITE_RULE("pmi_own_thread", "PMI, IA32_PerfEvtSel thread count mode", "20, 21",
		       "a counter's overflow interrupts its own thread's APIC, when its siblings' events overflow it too",
		       "327357-001 1.4.3.8: each thread has its own local APIC, and the core PMU interrupts the APIC of the thread that caused the overflow; inferred: for a counter in thread count mode, the thread of the counter, whose status bit is set",
		       "model.sh t_any_overflow_pmi")
	KNC_NOT_MODELLED("pmi_estage_thread", "PMI, events with no thread context", "",
			 "such an event goes to the thread in the execution stage at that moment, and its overflow interrupts that thread",
			 "327357-001 1.4.3.8: for an event with no thread-specific context, the core PMU sends the event to the thread that is in the execution stage at that moment",
			 "the model does not know which thread of a core is in the E-stage: an injected event goes to the vCPU named")
	KNC_SUITE_RULE("pmi_next_instruction", "PMI, INSTRUCTIONS_EXECUTED (0x16)", "",
		       "the PMI of an overflowing instruction is taken right after it, before a maskable interrupt due there and before the next instruction's fault, whatever register of the PMU was read before it",
		       "other: SDM vol. 3A, priority among simultaneous exceptions and interrupts: an NMI is taken before a maskable interrupt and before a fault of the next instruction; inferred: the PMI, an NMI here, is pending at the boundary after the overflowing instruction; the document says nothing of skid",
		       "model.sh t_pmi_before_interrupt_or_fault")
	KNC_RULE("rdpmc", "RDPMC", "ECX",
		 "ECX 0 and 1 read the 40-bit counter zero-extended; any other ECX #GPs",
		 "327357-001 1.4.2, table 1-1: RDPMC with ECX 0x0 reads IA32_PerfCntr0, 0x1 IA32_PerfCntr1, into EDX:EAX the 40-bit count zero-extended; other: SDM vol. 2, the P6 family's RDPMC (seed 002, 6.3.1): an ECX that names neither counter raises #GP(0); inferred: a KNC keeps the P6's rule (section 1.4: a PMU like the P6's)",
		 r_rdpmc)
	KNC_SUITE_RULE("rdpmc_cr4_pce", "RDPMC", "CPL, CR4.PCE",
		       "in rings 1 to 3 RDPMC #GPs while CR4.PCE is clear",
		       "327357-001 1.4.2, table 1-1: RDPMC may run at CPL 0 to 3; other: SDM vol. 2, the P6 family's RDPMC (seed 002, 6.3.1): #GP(0) when CR4.PCE is 0 and CPL is not 0; inferred: a KNC keeps that rule of the P6 too",
		       "model.sh t_rdpmc_self_monitoring")
	KNC_RULE("tsc_per_core", "IA32_TIME_STAMP_COUNTER (0x10)", "63:0",
		 "one per core, shared by its threads: a write to 0x10 on one thread is what its siblings' RDTSC and RDMSR 0x10 read",
		 "327357-001 1.4.3.1, table 1-3: there is one TSC per core, shared by all its threads; inferred: so a write to it on one thread is the value all the core's threads read",
		 r_tsc_per_core)
	KNC_NOT_MODELLED("tsc_core_clock", "IA32_TIME_STAMP_COUNTER (0x10)", "63:0",
			 "counts core clock cycles since reset: on a busy core, one for each of CPU_CLK_UNHALTED's cycles",
			 "327357-001 1.4.3.1, table 1-3: the TSC increments at the core clock rate and holds the core clock cycles since reset",
			 "QEMU's TSC rate, not knc-pmu-mhz of the virtual clock that CPU_CLK_UNHALTED counts: the guest's kernel calibrates the TSC against its timers, and another rate changes them")
	KNC_SUITE_RULE("undefined_encodings", "IA32_PerfEvtSel0/1 (0x28, 0x29)", "15:0",
		       "an encoding that table 1-6 does not define raises nothing and counts nothing",
		       "327357-001 1.4.3.3, table 1-5: an invalid event encoding causes no hardware exception or error, and the counter does not increment; 327357-001 1.4.3.3, table 1-6: the 59 events, each with its event code and umask",
		       "model.sh t_undefined_encodings_count_nothing")
	KNC_SUITE_RULE("l2_events_counter0", "IA32_PerfEvtSel1 (0x29)", "15:0",
		       "an L2 event that Linux restricts to counter 0 counts nothing on counter 1",
		       "other: Linux arch/x86/events/intel/knc.c: knc_event_constraints puts event codes 0xc3, 0xc4, 0xc8-0xcc, 0xce, 0xcf, 0xd7, 0xe3, 0xe6, 0xe7, 0xf1, 0xf2, 0xf6, 0xf7 and 0xfc-0xff on counter 0 only (INTEL_EVENT_CONSTRAINT(0xc3, 0x1) and on); inferred: on counter 1 such an event counts nothing, as an undefined encoding; tables 1-5 and 1-6 have no counter column",
		       "model.sh t_undefined_encodings_count_nothing")
	KNC_SUITE_RULE("instructions_exact", "INSTRUCTIONS_EXECUTED (0x16)", "",
		       "each instruction executed counts one, in the ring it runs in",
		       "327357-001 1.4.3.3, table 1-6: INSTRUCTIONS_EXECUTED, the number of instructions executed",
		       "model.sh t_exact_user_instructions")
	KNC_RULE("rep_string_insns", "INSTRUCTIONS_EXECUTED (0x16)", "",
		 "a REP string instruction counts once, however often it repeats",
		 "327357-001 1.4.3.3, table 1-6: INSTRUCTIONS_EXECUTED is an event of the P54C (its FUB column); other: SDM vol. 3B, the Pentium processor's events, 16H: a REP-prefixed string instruction increments the count once, however often its loop runs",
		 r_rep_string)
	KNC_RULE("handler_invocations", "INSTRUCTIONS_EXECUTED (0x16)", "",
		 "each interrupt or exception delivered counts one, in its handler's ring",
		 "other: SDM vol. 3B, the Pentium processor's events, 16H: the invocation of a fault handler counts as an instruction, and so do hardware and software interrupts and exceptions; inferred: in the handler's ring (the SDM does not say which; the handler's keeps ring-3 counts exact whatever interrupts arrive)",
		 r_handler_invocation)
	KNC_RULE("faulting_instructions", "INSTRUCTIONS_EXECUTED (0x16)", "",
		 "a faulting instruction counts by one rule, whatever the fault: its handler's invocation counts, the instruction itself, which does not complete, not",
		 "other: SDM vol. 3B, the Pentium processor's events, 16H: the invocation of a fault handler counts as an instruction; inferred: the faulting instruction itself is not executed, so it does not count",
		 r_faulting_insns)
	KNC_NOT_MODELLED("pairing", "INSTRUCTIONS_EXECUTED (0x16), the V-pipe events", "",
			 "up to two instructions a clock, one in the U pipe and one in the V pipe; the V-pipe events count the paired ones",
			 "327357-001 1.4.3.3, table 1-6: INSTRUCTIONS_EXECUTED counts up to 2 instructions a clock, INSTRUCTIONS_EXECUTED_V_PIPE the instructions executed in the V pipe, the number of paired instructions",
			 "one instruction a clock: CMASK 2 counts nothing on real execution, and no event sees the V pipe (instructions_executed_v_pipe, memory_accesses_in_both_pipes and vpu_instructions_executed_v_pipe move only by injection)")
	KNC_SUITE_RULE("cycles_unhalted", "CPU_CLK_UNHALTED (0x2a)", "",
		       "the cycles the vCPU is not halted, at knc-pmu-mhz (1100) of QEMU's virtual clock, in the ring that runs",
		       "327357-001 1.4.3.3, table 1-6: CPU_CLK_UNHALTED, the number of cycles the processor was not halted; inferred: QEMU's virtual clock stands in for the core clock, at a KNC's 1.1 GHz (TCG has no cycle costs)",
		       "model.sh t_cycles_follow_the_clock")
	KNC_RULE("edge_inv_cmask_real", "IA32_PerfEvtSel E, INV, CMASK", "18, 23, 31:24",
		 "real execution is one event a cycle; EDGE counts each run in the rings selected",
		 "327357-001 1.4.3.3, table 1-5: CMASK counts 1 in a cycle with at least CMASK events, INV inverts that comparison, E counts the changes of the condition from deasserted to asserted; inferred: one instruction a cycle (the model pairs none), so a run of execution in the rings selected is one assertion",
		 r_edge_inv_cmask)
	KNC_SUITE_RULE("edge_inv_cmask_injected", "IA32_PerfEvtSel E, INV, CMASK", "18, 23, 31:24",
		       "injected events come PER-CYCLE to a cycle: CMASK, INV and E apply to each cycle, and a batch starts after a cycle without the event",
		       "327357-001 1.4.3.3, table 1-5: CMASK counts 1 in a cycle with at least CMASK events, INV inverts that comparison, E counts the changes of the condition from deasserted to asserted; inferred: the cycle before an injected batch had none of its events",
		       "model.sh t_cmask_inv_edge")
	KNC_SUITE_RULE("injected_until_pmi", "events injected from QEMU's monitor", "",
		       "a batch counts up to the overflow that raises a PMI; the rest arrives after the handler has serviced it",
		       "inferred: a KNC takes the PMI before the events that follow its overflow count much further (the document says nothing of skid), so sampling every Nth event samples each Nth",
		       "model.sh t_record_injected_exact")
	KNC_NOT_MODELLED("injected_only_p54c", "the P54C events (umask 0x00)", "15:0",
			 "moves only by injection: data_read, data_write, data_page_walk, data_read_miss, data_write_miss, data_cache_lines_written_back, memory_accesses_in_both_pipes, bank_conflicts, code_read, code_page_walk, code_cache_miss, l1_data_pf1, branches, pipeline_flushes, instructions_executed_v_pipe, l1_data_pf1_miss, l1_data_pf1_drop, pipeline_agi_stalls, l1_data_hit_inflight_pf1, pipeline_sg_agi_stalls, data_read_or_write, data_read_miss_or_write_miss, branches_mispredicted, microcode_cycles, fe_stalled, exec_stage_cycles, l1_data_pf2, l2_data_pf1_miss, long_data_page_walk, long_code_page_walk",
			 "327357-001 1.4.3.3, table 1-6: the P54C events count what the core's caches, TLBs, pipes, branch unit and prefetcher do",
			 "TCG models no caches, TLBs, pipes, branch prediction or prefetches: these count knc-pmu-inject's events only (model.sh t_exact_every_event: each counts its injection exactly)")
	KNC_NOT_MODELLED("injected_only_l2", "the CRI (L2) events (umask 0x10)", "15:0",
			 "moves only by injection: l2_read_hit_e, l2_read_hit_m, l2_read_hit_s, l2_read_miss, l2_write_hit, l2_victim_req_with_data, snp_hitm_bunit, snp_hit_l2, snp_hitm_l2, l2_code_read_miss_cache_fill, l2_data_read_miss_cache_fill, l2_data_write_miss_cache_fill, l2_code_read_miss_mem_fill, l2_data_read_miss_mem_fill, l2_data_write_miss_mem_fill, l2_data_pf2, l2_data_pf2_drop, l2_data_pf2_miss, l2_data_hit_inflight_pf2",
			 "327357-001 1.4.3.3, table 1-6: the CRI events count the L2's hits and misses by line state, its victims, snoops, fills and prefetches",
			 "TCG models no L2, snoops or fills: these count knc-pmu-inject's events only (model.sh t_exact_every_event)")
	KNC_NOT_MODELLED("injected_only_vpu", "the VPU events (umask 0x20)", "15:0",
			 "moves only by injection: vpu_data_read, vpu_data_write, vpu_data_read_miss, vpu_data_write_miss, vpu_stall_reg, vpu_instructions_executed, vpu_instructions_executed_v_pipe, vpu_elements_active",
			 "327357-001 1.4.3.3, table 1-6: the VPU events count the vector unit's reads, writes, misses, stalls, instructions and active elements",
			 "a KNC's vector instructions do not run under TCG: these count knc-pmu-inject's events only (model.sh t_exact_every_event)")
	KNC_SUITE_RULE("init_keeps", "every PMU register", "",
		       "INIT (a CPU offlined and onlined) keeps them",
		       "327357-001 1.4.4: INIT does not affect the core PMU's control registers or counters",
		       "model.sh t_online_resets_the_pmu")
	KNC_SUITE_RULE("warm_reset", "every PMU register", "",
		       "a warm reset (RESET#, the keyboard controller's) zeroes them",
		       "327357-001 1.4.4: to the core PMU a warm reset is a cold reset: every control register and counter is reset to zero",
		       "tests/host/reset.t")
};

/* Each rule on this CPU, with the PMI handler counting only. */
static int knc_model_test_conformance(void)
{
	int i, err, bad = 0, none = 0, absent = 0;

	WRITE_ONCE(nmi_count_only, true);
	for (i = 0; i < ARRAY_SIZE(knc_model_test_rules); i++) {
		const struct knc_rule *r = &knc_model_test_rules[i];

		rule_name = r->name;
		if (r->not_modelled) {
			pr_info("# not modelled %s\n", r->name);
			absent++;
			continue;
		}
		if (r->suite_case) {
			pr_info("# %s: %s\n", r->name, r->suite_case);
			continue;
		}
		if (!r->check) {
			pr_info("# no case %s\n", r->name);
			none++;
			continue;
		}
		atomic_set(&pmis, 0);
		err = r->check();
		pmu_clear(0);
		if (err)
			bad++;
		else
			pr_info("ok %s\n", r->name);
	}
	WRITE_ONCE(nmi_count_only, false);
	pr_info("conformance: %d rules, %d failed, %d without a case, %d not modelled\n",
		(int)ARRAY_SIZE(knc_model_test_rules), bad, none, absent);
	return bad ? -EIO : 0;
}

/* Every check on this CPU, its PMU's registers saved and put back. */
static int knc_model_test_run(void)
{
	static const u32 regs[] = {
		KNC_MSR_PERFCTR0, KNC_MSR_PERFCTR0 + 1, KNC_MSR_SPFLT_CTRL,
		KNC_MSR_EVNTSEL0, KNC_MSR_EVNTSEL0 + 1, KNC_MSR_GLOBAL_CTRL,
	};
	u64 saved[ARRAY_SIZE(regs)];
	int err, i;

	preempt_disable();
	for (i = 0; i < ARRAY_SIZE(regs); i++)
		rdmsrq(regs[i], saved[i]);
	wrmsrq(KNC_MSR_PERFCTR0, 0);
	wrmsrq(KNC_MSR_GLOBAL_CTRL, BIT_ULL(0));
	err = knc_model_test_pmi_before_irq();
	err = knc_model_test_pmi_before_fault() ?: err;
	err = knc_model_test_pmi_after_read() ?: err;
	err = knc_model_test_conformance() ?: err;
	wrmsrq(KNC_MSR_GLOBAL_CTRL, 0);
	for (i = 0; i < ARRAY_SIZE(regs); i++)
		wrmsrq(regs[i], saved[i]);
	preempt_enable();
	return err;
}

static int __init knc_model_test_init(void)
{
	int err, i;

	for (i = 0; i < knc_num_events; i++)
		if (!strcmp(knc_events[i].name, "instructions_executed"))
			insn_evtsel = knc_events[i].event |
				      knc_events[i].umask << 8;
		else if (!strcmp(knc_events[i].name, "cpu_clk_unhalted"))
			cycles_evtsel = knc_events[i].event |
					knc_events[i].umask << 8;
	if (WARN_ON(!insn_evtsel || !cycles_evtsel))
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
