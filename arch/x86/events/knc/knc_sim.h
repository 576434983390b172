/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Knights Corner core PMU simulator (knc_sim.ko): what its files share.
 *
 *   knc_sim_main.c    the module, its debugfs interface
 *   knc_sim_access.c  the backend's ops: the driver's register accesses
 *   knc_sim_clock.c   the clock model
 *   knc_sim_pmi.c     PMI delivery and pacing, a burst run through the model
 *   knc_sim_inject.c  injection (debugfs inject and spflt)
 *   knc_sim_irqoff.c  the statistics of the spans with interrupts off
 *   knc_sim_model.c   the register model of one hardware thread's PMU
 */
#ifndef _KNC_SIM_H
#define _KNC_SIM_H

#include <linux/fs.h>
#include <linux/hrtimer.h>
#include <linux/percpu.h>
#include <linux/ptrace.h>
#include <linux/time64.h>
#include <linux/types.h>

#include "knc_hw.h"
#include "knc_sim_model.h"

#define KNC_SIM_CLOCK_EVENT	0x2a	/* CPU_CLK_UNHALTED, umask 0 */
#define KNC_SIM_TICK_NS		NSEC_PER_MSEC
#define KNC_SIM_MIN_TICK_NS	(10 * NSEC_PER_USEC)
#define KNC_SIM_PMI_WAIT_MS	100
#define KNC_SIM_PACE_SPIN_NS	(100 * NSEC_PER_USEC)
#define KNC_SIM_IRQOFF_GOAL_NS	(100 * NSEC_PER_USEC)

/* The simulator's spans with interrupts off, as debugfs regs names them. */
enum knc_sim_span {
	KNC_SIM_SPAN_NONE,
	KNC_SIM_SPAN_CLOCK,	/* the clock catching up: tick, register access */
	KNC_SIM_SPAN_PMI_TIMER,	/* a PMI held back by the gap */
	KNC_SIM_SPAN_INJECT,	/* one step of an injection */
	KNC_SIM_NR_SPAN
};

#define KNC_SIM_MAX_COUNT	BIT_ULL(56)
#define KNC_SIM_MAX_PMI_GAP_NS	(10 * NSEC_PER_MSEC)
#define KNC_SIM_MAX_INJECT_LEN	128
#define KNC_SIM_MAX_CLOCK_HZ	(10ULL * 1000 * 1000 * 1000)

enum knc_sim_access {
	KNC_SIM_RD_CTR,
	KNC_SIM_WR_CTR,
	KNC_SIM_WR_EVTSEL,
	KNC_SIM_WR_CTRL,
	KNC_SIM_RD_STATUS,
	KNC_SIM_WR_OVF,
	KNC_SIM_WR_LVT,
	KNC_SIM_RD_SPFLT,
	KNC_SIM_WR_SPFLT,
	KNC_SIM_NR_ACCESS
};

/**
 * struct knc_sim_cpu - one CPU's simulated PMU
 * @regs: the registers
 * @tick: the clock model's tick, running while the clock event counts
 * @tick_on: @tick is queued
 * @clock_ns: when the clock model last caught up
 * @clock_user: the mode the last tick interrupted
 * @pmi_timer: sends a PMI that pacing deferred
 * @pmi_pending: a PMI waits for @pmi_timer
 * @pmi_has_regs: @pmi_regs holds the context of the last PMI's events
 * @pmi_regs: the registers of the context the last PMI's events happened
 *	in (what its samples are attributed to)
 * @race: while a PMI of an injected burst waits to be serviced, that
 *	burst: race_events of it arrive when the handler restarts the counters
 * @last_pmi_ns: when the last PMI was sent
 * @pmis: PMIs delivered
 * @pmi_timeouts: PMIs an injection waited for in vain
 * @irqoff_max_ns: the longest the simulator ran with interrupts off
 * @irqoff_max_where: where (enum knc_sim_span)
 * @irqoff_spans: spans with interrupts off, timed
 * @irqoff_long: spans longer than KNC_SIM_IRQOFF_GOAL_NS
 * @irqoff_max_steps: the most model steps the clock took in one span
 * @irqoff_max_pmis: the most PMIs sent in one span
 * @access: the driver's register accesses, by kind (enum knc_sim_access),
 *	as the QEMU model counts MSR accesses: what the benchmark counts
 */
struct knc_sim_cpu {
	struct knc_sim_regs regs;
	struct hrtimer tick;
	bool tick_on;
	u64 clock_ns;
	bool clock_user;
	struct hrtimer pmi_timer;
	bool pmi_pending;
	bool pmi_has_regs;
	struct pt_regs pmi_regs;
	struct knc_sim_burst *race;
	u64 last_pmi_ns;
	unsigned long pmis;
	unsigned long pmi_timeouts;
	u64 irqoff_max_ns;
	unsigned int irqoff_max_where;
	unsigned long irqoff_spans;
	unsigned long irqoff_long;
	unsigned int irqoff_max_steps;
	unsigned int irqoff_max_pmis;
	unsigned long access[KNC_SIM_NR_ACCESS];
};

DECLARE_PER_CPU(struct knc_sim_cpu, knc_sim_cpu);

/* A debugfs setting with an upper bound: writing more gives EINVAL. */
struct knc_sim_knob {
	u64 val;
	u64 max;
};

extern struct knc_sim_knob knc_sim_clock_hz;
extern struct knc_sim_knob knc_sim_pmi_gap_ns;
extern struct knc_sim_knob knc_sim_race_events;

/* Where a span with interrupts off began: its time and PMIs sent so far. */
struct knc_sim_irqoff {
	u64 start;
	unsigned long pmis;
};

/* knc_sim_irqoff.c */
extern const char * const knc_sim_span_names[KNC_SIM_NR_SPAN];
struct knc_sim_irqoff knc_sim_irqoff_begin(const struct knc_sim_cpu *sc);
void knc_sim_irqoff_end(struct knc_sim_cpu *sc, const struct knc_sim_irqoff *s,
			enum knc_sim_span where);

/* knc_sim_pmi.c */
void knc_sim_raise_pmi(struct knc_sim_cpu *sc, struct pt_regs *ctx, bool defer);
enum hrtimer_restart knc_sim_pmi_timer_fn(struct hrtimer *t);
void knc_sim_pace(struct knc_sim_cpu *sc);
void knc_sim_wait_pmi(struct knc_sim_cpu *sc);
bool knc_sim_run_step(struct knc_sim_cpu *sc, struct knc_sim_burst *b,
		      struct pt_regs *ctx, bool defer);
void knc_sim_race(struct knc_sim_cpu *sc);
void knc_sim_run(struct knc_sim_cpu *sc, struct knc_sim_burst *b,
		 struct pt_regs *ctx);

/* knc_sim_clock.c */
enum hrtimer_restart knc_sim_tick(struct hrtimer *t);
struct knc_sim_cpu *knc_sim_sync(void);
void knc_sim_clock_update(struct knc_sim_cpu *sc);

/* knc_sim_access.c */
extern const char * const knc_sim_access_names[KNC_SIM_NR_ACCESS];
extern const struct knc_hw_ops knc_sim_ops;

/* knc_sim_inject.c */
extern const struct file_operations knc_sim_inject_fops;
extern const struct file_operations knc_sim_spflt_fops;

#endif /* _KNC_SIM_H */
