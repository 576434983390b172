// SPDX-License-Identifier: GPL-2.0
/*
 * Knights Corner core PMU simulator: the backend's ops, the driver's
 * register accesses, counted by kind (debugfs regs).
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/hrtimer.h>
#include <linux/module.h>
#include <linux/percpu.h>
#include <linux/printk.h>

#include "knc_sim.h"

const char * const knc_sim_access_names[KNC_SIM_NR_ACCESS] = {
	[KNC_SIM_RD_CTR]	= "rd_ctr",
	[KNC_SIM_WR_CTR]	= "wr_ctr",
	[KNC_SIM_WR_EVTSEL]	= "wr_evtsel",
	[KNC_SIM_WR_CTRL]	= "wr_ctrl",
	[KNC_SIM_RD_STATUS]	= "rd_status",
	[KNC_SIM_WR_OVF]	= "wr_ovf",
	[KNC_SIM_WR_LVT]	= "wr_lvt",
	[KNC_SIM_RD_SPFLT]	= "rd_spflt",
	[KNC_SIM_WR_SPFLT]	= "wr_spflt",
};

static void knc_sim_cpu_reset(void)
{
	struct knc_sim_cpu *sc = this_cpu_ptr(&knc_sim_cpu);

	knc_sim_reset(&sc->regs);
}

/* As knc_native.c's: no counter enabled or holding a count, no status. */
static void knc_sim_cpu_quiesce(void)
{
	struct knc_sim_cpu *sc = this_cpu_ptr(&knc_sim_cpu);

	hrtimer_cancel(&sc->tick);
	sc->tick_on = false;
	hrtimer_cancel(&sc->pmi_timer);
	sc->pmi_pending = false;
	knc_sim_reset(&sc->regs);
}

/*
 * A write the register model refused: on a KNC the WRMSR raises #GP, and
 * the kernel's fixup reports it ("unchecked MSR access error"). Say the
 * same, so that the suites catch a driver that sets a reserved bit.
 */
static void knc_sim_check_write(bool ok, u32 msr, u64 val)
{
	if (!ok)
		pr_warn_ratelimited("unchecked MSR access error: WRMSR to %#x (tried to write %#llx): a reserved bit, #GP on a KNC\n",
				    msr, val);
}

static u64 knc_sim_read_counter(unsigned int idx)
{
	struct knc_sim_cpu *sc = knc_sim_sync();

	sc->access[KNC_SIM_RD_CTR]++;
	return sc->regs.ctr[idx];
}

static void knc_sim_write_counter(unsigned int idx, u64 val)
{
	struct knc_sim_cpu *sc = knc_sim_sync();

	sc->access[KNC_SIM_WR_CTR]++;
	knc_sim_check_write(knc_sim_write_counter_reg(&sc->regs, idx, val),
			    KNC_MSR_PERFCTR0 + idx, val);
	knc_sim_clock_update(sc);
}

static void knc_sim_flush_pmi(struct knc_sim_cpu *sc)
{
	if (sc->regs.pmi_raise)
		knc_sim_raise_pmi(sc, NULL, false);
	knc_sim_clock_update(sc);
}

static void knc_sim_write_evtsel(unsigned int idx, u64 val)
{
	struct knc_sim_cpu *sc = knc_sim_sync();

	sc->access[KNC_SIM_WR_EVTSEL]++;
	knc_sim_check_write(knc_sim_write_evtsel_reg(&sc->regs, idx, val),
			    KNC_MSR_EVNTSEL0 + idx, val);
	knc_sim_flush_pmi(sc);
}

static void knc_sim_write_global_ctrl(u64 val)
{
	struct knc_sim_cpu *sc = knc_sim_sync();

	sc->access[KNC_SIM_WR_CTRL]++;
	knc_sim_check_write(knc_sim_write_global_ctrl_reg(&sc->regs, val),
			    KNC_MSR_GLOBAL_CTRL, val);
	if (in_nmi() && val && sc->race)
		knc_sim_race(sc);
	knc_sim_flush_pmi(sc);
}

static u64 knc_sim_read_global_status(void)
{
	struct knc_sim_cpu *sc = this_cpu_ptr(&knc_sim_cpu);

	sc->access[KNC_SIM_RD_STATUS]++;
	return sc->regs.global_status;
}

static void knc_sim_write_ovf_ctrl(u64 val)
{
	struct knc_sim_cpu *sc = this_cpu_ptr(&knc_sim_cpu);

	sc->access[KNC_SIM_WR_OVF]++;
	knc_sim_check_write(knc_sim_write_ovf_ctrl_reg(&sc->regs, val),
			    KNC_MSR_GLOBAL_OVF_CTRL, val);
}

static void knc_sim_unmask(void)
{
	struct knc_sim_cpu *sc = this_cpu_ptr(&knc_sim_cpu);

	sc->access[KNC_SIM_WR_LVT]++;
	knc_sim_unmask_pmi(&sc->regs);
}

static u64 knc_sim_read_spflt(void)
{
	struct knc_sim_cpu *sc = this_cpu_ptr(&knc_sim_cpu);

	sc->access[KNC_SIM_RD_SPFLT]++;
	return sc->regs.spflt;
}

static void knc_sim_write_spflt(u64 val)
{
	struct knc_sim_cpu *sc = knc_sim_sync();

	sc->access[KNC_SIM_WR_SPFLT]++;
	knc_sim_check_write(knc_sim_write_spflt_reg(&sc->regs, val),
			    KNC_MSR_SPFLT_CTRL, val);
}

static struct pt_regs *knc_sim_sample_regs(struct pt_regs *pmi_regs)
{
	struct knc_sim_cpu *sc = this_cpu_ptr(&knc_sim_cpu);

	return sc->pmi_has_regs ? &sc->pmi_regs : pmi_regs;
}

const struct knc_hw_ops knc_sim_ops = {
	.name			= "simulated",
	.owner			= THIS_MODULE,
	.cpu_reset		= knc_sim_cpu_reset,
	.cpu_quiesce		= knc_sim_cpu_quiesce,
	.read_counter		= knc_sim_read_counter,
	.write_counter		= knc_sim_write_counter,
	.write_evtsel		= knc_sim_write_evtsel,
	.write_global_ctrl	= knc_sim_write_global_ctrl,
	.read_global_status	= knc_sim_read_global_status,
	.write_ovf_ctrl		= knc_sim_write_ovf_ctrl,
	.unmask_pmi		= knc_sim_unmask,
	.read_spflt		= knc_sim_read_spflt,
	.write_spflt		= knc_sim_write_spflt,
	.sample_regs		= knc_sim_sample_regs,
};
