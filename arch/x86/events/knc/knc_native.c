// SPDX-License-Identifier: GPL-2.0
/*
 * Knights Corner core PMU: the native backend, the KNC MSRs themselves.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/moduleparam.h>
#include <linux/printk.h>
#include <linux/types.h>
#include <asm/apic.h>
#include <asm/cpu_device_id.h>
#include <asm/intel-family.h>
#include <asm/msr.h>
#include <asm/nmi.h>

#include "knc_hw.h"
#include "knc_logic.h"

/* Family 11 model 1, which has no architectural perfmon CPUID leaf. */
static const struct x86_cpu_id knc_native_ids[] = {
	X86_MATCH_VENDOR_FAM_MODEL(INTEL, 11, 1, NULL),
	{}
};

static bool hw_check = true;
module_param(hw_check, bool, 0444);
MODULE_PARM_DESC(hw_check, "Refuse a native PMU whose counter MSRs do not keep what is written to them, as under an emulator (default 1; 0 is for testing the MSR paths there)");

bool knc_native_present(void)
{
	return x86_match_cpu(knc_native_ids);
}

/*
 * Like the x86 core's check_hw_exists(): a hypervisor or emulator may
 * present a KNC CPUID without the PMU, its MSRs faulting or reading 0. The
 * driver would then report garbage, so check that a counter keeps a value.
 */
static bool knc_native_counter_works(void)
{
	const u64 pattern = 0x5a5a5a5a5aULL;
	u64 val;

	if (wrmsr_safe(KNC_MSR_PERFCTR0, lower_32_bits(pattern),
		       upper_32_bits(pattern)) ||
	    rdmsrl_safe(KNC_MSR_PERFCTR0, &val))
		return false;
	wrmsrl_safe(KNC_MSR_PERFCTR0, 0);
	return (val & KNC_CNTVAL_MASK) == pattern;
}

static void knc_native_remove(void)
{
	int i;

	for (i = 0; i < KNC_NUM_COUNTERS; i++) {
		release_evntsel_nmi(KNC_MSR_EVNTSEL0 + i);
		release_perfctr_nmi(KNC_MSR_PERFCTR0 + i);
	}
}

/*
 * The x86 core PMU ("cpu", arch/x86/events/intel/knc.c) drives the same
 * MSRs. Both reserve them through the NMI watchdog's allocator, so whoever
 * comes second gets -EBUSY instead of silently sharing the counters.
 */
static int knc_native_probe(void)
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
	if (hw_check && !knc_native_counter_works()) {
		knc_native_remove();
		pr_err("KNC CPU, but the counter MSRs do not keep their values (virtualized?); load with sim=1 for the simulated PMU\n");
		return -ENODEV;
	}
	return 0;
busy:
	while (--i >= 0) {
		release_evntsel_nmi(KNC_MSR_EVNTSEL0 + i);
		release_perfctr_nmi(KNC_MSR_PERFCTR0 + i);
	}
	pr_err("the counters are in use: by the NMI watchdog (free them with 'echo 0 > /proc/sys/kernel/nmi_watchdog' or boot with nmi_watchdog=0) or by events of the cpu PMU\n");
	return -EBUSY;
}

static void knc_native_cpu_online(void)
{
	int i;

	wrmsrl(KNC_MSR_GLOBAL_CTRL, 0);
	for (i = 0; i < KNC_NUM_COUNTERS; i++) {
		wrmsrl(KNC_MSR_EVNTSEL0 + i, 0);
		wrmsrl(KNC_MSR_PERFCTR0 + i, 0);
	}
	wrmsrl(KNC_MSR_SPFLT_CTRL, 0);
	wrmsrl(KNC_MSR_GLOBAL_OVF_CTRL, KNC_COUNTERS_MASK);
	apic_write(APIC_LVTPC, APIC_DM_NMI);
}

/* Leave no EvtSel enabled for the cpu PMU, which gets the counters back. */
static void knc_native_cpu_offline(void)
{
	int i;

	wrmsrl(KNC_MSR_GLOBAL_CTRL, 0);
	for (i = 0; i < KNC_NUM_COUNTERS; i++)
		wrmsrl(KNC_MSR_EVNTSEL0 + i, 0);
}

static u64 knc_native_read_counter(unsigned int idx)
{
	u64 val;

	rdmsrl(KNC_MSR_PERFCTR0 + idx, val);
	return val & KNC_CNTVAL_MASK;
}

static void knc_native_write_counter(unsigned int idx, u64 val)
{
	wrmsrl(KNC_MSR_PERFCTR0 + idx, val & KNC_CNTVAL_MASK);
}

static void knc_native_write_evtsel(unsigned int idx, u64 val)
{
	wrmsrl(KNC_MSR_EVNTSEL0 + idx, val);
}

static void knc_native_write_global_ctrl(u64 val)
{
	wrmsrl(KNC_MSR_GLOBAL_CTRL, val);
}

static u64 knc_native_read_global_status(void)
{
	u64 val;

	rdmsrl(KNC_MSR_GLOBAL_STATUS, val);
	return val;
}

static void knc_native_write_ovf_ctrl(u64 val)
{
	wrmsrl(KNC_MSR_GLOBAL_OVF_CTRL, val);
}

static void knc_native_unmask_pmi(void)
{
	apic_write(APIC_LVTPC, APIC_DM_NMI);
}

const struct knc_hw_ops knc_native_ops = {
	.name			= "native",
	.user_rdpmc		= true,
	.probe			= knc_native_probe,
	.remove			= knc_native_remove,
	.cpu_online		= knc_native_cpu_online,
	.cpu_offline		= knc_native_cpu_offline,
	.read_counter		= knc_native_read_counter,
	.write_counter		= knc_native_write_counter,
	.write_evtsel		= knc_native_write_evtsel,
	.write_global_ctrl	= knc_native_write_global_ctrl,
	.read_global_status	= knc_native_read_global_status,
	.write_ovf_ctrl		= knc_native_write_ovf_ctrl,
	.unmask_pmi		= knc_native_unmask_pmi,
};
