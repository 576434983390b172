// SPDX-License-Identifier: GPL-2.0
/*
 * Knights Corner core PMU: the native backend, the KNC MSRs themselves
 * (Intel document 327357-001, section 1.4), in knc_pmu with the core.
 * knc_native_init() registers the knc PMU on them where they work.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/cpu.h>
#include <linux/debugfs.h>
#include <linux/err.h>
#include <linux/module.h>
#include <linux/printk.h>
#include <linux/seq_file.h>
#include <linux/smp.h>
#include <linux/types.h>
#include <asm/apic.h>
#include <asm/cpu_device_id.h>
#include <asm/intel-family.h>
#include <asm/msr.h>
#include <asm/nmi.h>

#include "knc_pmu.h"

/* Family 11 model 1, which has no architectural perfmon CPUID leaf. */
static const struct x86_cpu_id knc_native_ids[] = {
	X86_MATCH_VENDOR_FAM_MODEL(INTEL, 11, 1, NULL),
	{}
};
MODULE_DEVICE_TABLE(x86cpu, knc_native_ids);

#ifdef MODULE
static bool hw_check = true;
module_param(hw_check, bool, 0444);
MODULE_PARM_DESC(hw_check, "Refuse a native PMU whose counter MSRs do not keep what is written to them, as under an emulator; checked at load where no other driver holds them (default 1; 0 is for testing the MSR paths there)");
#endif

/*
 * Like the x86 core's check_hw_exists(): a hypervisor or emulator may
 * present a KNC CPUID without the PMU, its MSRs faulting or reading 0. The
 * driver would then report garbage, so check that a counter keeps a value.
 * Return: true when it does.
 */
static bool knc_native_counter_works(void)
{
	const u64 pattern = 0x5a5a5a5a5aULL;
	u64 val;

	if (wrmsr_safe(KNC_MSR_PERFCTR0, lower_32_bits(pattern),
		       upper_32_bits(pattern)) ||
	    rdmsrq_safe(KNC_MSR_PERFCTR0, &val))
		return false;
	wrmsrq_safe(KNC_MSR_PERFCTR0, 0);
	return (val & KNC_CNTVAL_MASK) == pattern;
}

/* The registers a CPU's PMU can be read back from, and its LVT entry. */
struct knc_native_regs {
	u64 ctr[KNC_NUM_COUNTERS];
	u64 evtsel[KNC_NUM_COUNTERS];
	u64 spflt, status, ctrl;
	u32 lvtpc;
};

static struct dentry *knc_native_dir;

static void knc_native_read_regs(void *data)
{
	struct knc_native_regs *r = data;
	int i;

	/* _safe: a debugging aid must not fault where the MSRs are missing */
	memset(r, 0, sizeof(*r));
	for (i = 0; i < KNC_NUM_COUNTERS; i++) {
		rdmsrq_safe(KNC_MSR_PERFCTR0 + i, &r->ctr[i]);
		rdmsrq_safe(KNC_MSR_EVNTSEL0 + i, &r->evtsel[i]);
	}
	rdmsrq_safe(KNC_MSR_SPFLT_CTRL, &r->spflt);
	rdmsrq_safe(KNC_MSR_GLOBAL_STATUS, &r->status);
	rdmsrq_safe(KNC_MSR_GLOBAL_CTRL, &r->ctrl);
	r->lvtpc = apic_read(APIC_LVTPC);
}

static void knc_native_show_evtsel(struct seq_file *m, unsigned int cpu,
				   int idx, u64 v)
{
	seq_printf(m, "cpu%u evtsel%d=%#llx event=%#llx umask=%#llx cmask=%llu%s%s%s%s%s%s%s\n",
		   cpu, idx, v, v & KNC_EVTSEL_EVENT,
		   (v & KNC_EVTSEL_UMASK) >> 8, (v & KNC_EVTSEL_CMASK) >> 24,
		   v & KNC_EVTSEL_USR ? " usr" : "",
		   v & KNC_EVTSEL_OS ? " os" : "",
		   v & KNC_EVTSEL_EDGE ? " edge" : "",
		   v & KNC_EVTSEL_INT ? " int" : "",
		   v & KNC_EVTSEL_ANY ? " any" : "",
		   v & KNC_EVTSEL_EN ? " en" : "",
		   v & KNC_EVTSEL_INV ? " inv" : "");
}

/* debugfs knc_pmu/regs: every online CPU's PMU registers, decoded. */
static int knc_native_regs_show(struct seq_file *m, void *v)
{
	struct knc_native_regs r;
	unsigned int cpu;
	int i;

	cpus_read_lock();
	for_each_online_cpu(cpu) {
		if (smp_call_function_single(cpu, knc_native_read_regs, &r, 1))
			continue;
		seq_printf(m, "cpu%u ctr0=%#llx ctr1=%#llx global_ctrl=%#llx global_status=%#llx spflt=%#llx lvt=%s%s\n",
			   cpu, r.ctr[0], r.ctr[1], r.ctrl, r.status, r.spflt,
			   (r.lvtpc & APIC_MODE_MASK) == APIC_DM_NMI ? "nmi" :
			   "not-nmi",
			   r.lvtpc & APIC_LVT_MASKED ? ",masked" : "");
		for (i = 0; i < KNC_NUM_COUNTERS; i++)
			knc_native_show_evtsel(m, cpu, i, r.evtsel[i]);
	}
	cpus_read_unlock();
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(knc_native_regs);

static void knc_native_remove(void)
{
	debugfs_remove_recursive(knc_native_dir);
	knc_native_dir = NULL;
}

/*
 * The x86 core PMU ("cpu", arch/x86/events/intel/knc.c) drives the same
 * MSRs. Both reserve them through the NMI watchdog's allocator while they
 * have events (the x86 core in reserve_pmc_hardware()), so whoever comes
 * second gets -EBUSY instead of silently sharing the counters.
 */
static bool knc_native_reserve_pmc_hardware(void)
{
	int i;

	for (i = 0; i < KNC_NUM_COUNTERS; i++) {
		if (!reserve_perfctr_nmi(KNC_MSR_PERFCTR0 + i))
			goto busy;
		if (!reserve_evntsel_nmi(KNC_MSR_EVNTSEL0 + i)) {
			release_perfctr_nmi(KNC_MSR_PERFCTR0 + i);
			goto busy;
		}
	}
	return true;
busy:
	while (--i >= 0) {
		release_evntsel_nmi(KNC_MSR_EVNTSEL0 + i);
		release_perfctr_nmi(KNC_MSR_PERFCTR0 + i);
	}
	return false;
}

static void knc_native_release_pmc_hardware(void)
{
	int i;

	for (i = 0; i < KNC_NUM_COUNTERS; i++) {
		release_evntsel_nmi(KNC_MSR_EVNTSEL0 + i);
		release_perfctr_nmi(KNC_MSR_PERFCTR0 + i);
	}
}

/* The first knc event reserves the counters, where nothing else has them. */
static int knc_native_reserve(void)
{
	if (!knc_native_reserve_pmc_hardware()) {
		pr_warn_ratelimited("knc events get EBUSY: the cpu PMU's events or the NMI watchdog hold the counters (close them; 'echo 0 > /proc/sys/kernel/nmi_watchdog' or boot with nmi_watchdog=0)\n");
		return -EBUSY;
	}
#ifdef MODULE
	knc_clear_x86_dirty();
#endif
	pr_info_ratelimited("knc events hold the counters: the cpu PMU's events and the NMI watchdog get EBUSY until the last knc event is closed\n");
	return 0;
}

static void knc_native_release(void)
{
	knc_native_release_pmc_hardware();
	pr_info_ratelimited("the last knc event closed: the counters are free for the cpu PMU and the NMI watchdog\n");
}

/*
 * Return: false when the counters do not keep their values. Where the cpu
 * PMU or the NMI watchdog has them reserved, Linux's own check that they
 * work (check_hw_exists()) passed, and this one is not needed.
 */
static bool knc_native_works(void)
{
	bool works;

#ifdef MODULE
	if (!hw_check)
		return true;
#endif
	if (!knc_native_reserve_pmc_hardware())
		return true;
	works = knc_native_counter_works();
	knc_native_release_pmc_hardware();
	return works;
}

/* Return: 0, or -ENODEV when the counters do not keep their values. */
static int knc_native_probe(void)
{
	if (!knc_native_works()) {
		pr_info("KNC CPU, but the counter MSRs do not keep their values (virtualized?): no native PMU\n");
		return -ENODEV;
	}
	knc_native_dir = debugfs_create_dir("knc_pmu", NULL);
	debugfs_create_file("regs", 0400, knc_native_dir, NULL,
			    &knc_native_regs_fops);
	return 0;
}

/*
 * Every knc event on this CPU is stopped: no EvtSel enabled, no counter
 * under SPFLT control, and the PMI handler left no overflow status. Give
 * the counters back with no count in them: a task the cpu PMU lets use
 * RDPMC could read one, and the x86 core zeroes only those its own PMU
 * used (perf_clear_dirty_counters()). GLOBAL_CTRL and the LVT entry are
 * left as the cpu PMU wants them (set, and routed as an unmasked NMI).
 */
static void knc_native_cpu_quiesce(void)
{
	int i;

	for (i = 0; i < KNC_NUM_COUNTERS; i++)
		wrmsrq(KNC_MSR_PERFCTR0 + i, 0);
}

/*
 * An event's own registers, which every context switch reads and writes
 * (the core's static calls): notrace, as native_read_msr() and
 * native_write_msr() under them are; the knc tracepoints record the
 * accesses instead.
 */
static notrace u64 knc_native_read_counter(unsigned int idx)
{
	u64 val;

	rdmsrq(KNC_MSR_PERFCTR0 + idx, val);
	return val & KNC_CNTVAL_MASK;
}

static notrace void knc_native_write_counter(unsigned int idx, u64 val)
{
	wrmsrq(KNC_MSR_PERFCTR0 + idx, val & KNC_CNTVAL_MASK);
}

static notrace void knc_native_write_evtsel(unsigned int idx, u64 val)
{
	wrmsrq(KNC_MSR_EVNTSEL0 + idx, val);
}

static void knc_native_write_global_ctrl(u64 val)
{
	wrmsrq(KNC_MSR_GLOBAL_CTRL, val);
}

static u64 knc_native_read_global_status(void)
{
	u64 val;

	rdmsrq(KNC_MSR_GLOBAL_STATUS, val);
	return val;
}

static void knc_native_write_ovf_ctrl(u64 val)
{
	wrmsrq(KNC_MSR_GLOBAL_OVF_CTRL, val);
}

static void knc_native_unmask_pmi(void)
{
	apic_write(APIC_LVTPC, APIC_DM_NMI);
}

/*
 * Whatever is in this CPU's PMU: every EvtSel disabled (before its counter
 * is zeroed), no SPFLT gate. The status, the LVT entry and GLOBAL_CTRL the
 * core sets next.
 */
static void knc_native_cpu_reset(void)
{
	int i;

	for (i = 0; i < KNC_NUM_COUNTERS; i++)
		wrmsrq(KNC_MSR_EVNTSEL0 + i, 0);
	knc_native_cpu_quiesce();
	wrmsrq(KNC_MSR_SPFLT_CTRL, 0);
}

static u64 knc_native_read_spflt(void)
{
	u64 val;

	rdmsrq(KNC_MSR_SPFLT_CTRL, val);
	return val;
}

static void knc_native_write_spflt(u64 val)
{
	wrmsrq(KNC_MSR_SPFLT_CTRL, val);
}

static const struct knc_hw_ops knc_native_ops = {
	.name			= "native",
	.owner			= THIS_MODULE,
	.user_rdpmc		= true,
	.reserve		= knc_native_reserve,
	.release		= knc_native_release,
	.cpu_reset		= knc_native_cpu_reset,
	.cpu_quiesce		= knc_native_cpu_quiesce,
	.read_counter		= knc_native_read_counter,
	.write_counter		= knc_native_write_counter,
	.write_evtsel		= knc_native_write_evtsel,
	.write_global_ctrl	= knc_native_write_global_ctrl,
	.read_global_status	= knc_native_read_global_status,
	.write_ovf_ctrl		= knc_native_write_ovf_ctrl,
	.unmask_pmi		= knc_native_unmask_pmi,
	.read_spflt		= knc_native_read_spflt,
	.write_spflt		= knc_native_write_spflt,
};

/**
 * knc_native_init - register the knc PMU on the KNC MSRs, if they work
 *
 * Return: 0, -ENODEV where there is no native PMU, or another negative
 * errno.
 */
int __init knc_native_init(void)
{
	struct knc_pmu *kp;

	if (!x86_match_cpu(knc_native_ids) || knc_native_probe())
		return -ENODEV;
	kp = knc_pmu_create(&knc_native_ops);
	if (IS_ERR(kp)) {
		knc_native_remove();
		return PTR_ERR(kp);
	}
	return 0;
}

#ifdef MODULE
/*
 * As knc_pmu unloads, no other backend's module is loaded (each holds
 * knc_pmu): the registered PMU, if any, is the native one.
 */
void knc_native_exit(void)
{
	struct knc_pmu *kp = knc_pmu_active;

	if (kp) {
		knc_pmu_unregister(kp);
		knc_native_remove();
	}
}
#endif
