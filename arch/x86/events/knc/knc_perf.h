/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Knights Corner core PMU: the calls into perf core and the x86 core that
 * Linux does not export to modules, as the out-of-tree module makes them
 * (knc_module.c), and what only the module does (the sources call these
 * where MODULE is defined). The in-tree series leaves this header out:
 * built in, the driver calls perf core directly.
 */
#ifndef _KNC_PERF_H
#define _KNC_PERF_H

#include <linux/perf_event.h>
#include <asm/apic.h>

typedef int (*knc_overflow_fn)(struct perf_event *event,
			       struct perf_sample_data *data,
			       struct pt_regs *regs);
typedef void (*knc_took_fn)(u64 sample_len_ns);

/* perf_event_overflow(), or NULL: the PMU then counts only. */
extern knc_overflow_fn knc_overflow;
/* perf_sample_event_took(), or NULL: perf's throttle sees no PMI's time. */
extern knc_took_fn knc_took;

#define perf_event_overflow(event, data, regs)	knc_overflow(event, data, regs)
#define perf_sample_event_took(sample_len_ns)			\
	do {							\
		if (knc_took)					\
			knc_took(sample_len_ns);		\
	} while (0)

/*
 * From 6.6 on apic_read() and apic_write() are static calls that modules
 * cannot link against; the apic driver struct they call through is
 * exported on every kernel.
 */
#define apic_read(reg)		apic->read(reg)
#define apic_write(reg, val)	apic->write(reg, val)

/**
 * knc_can_sample - whether the PMU offers sampling events
 *
 * Return: true when perf_event_overflow() was found.
 */
static inline bool knc_can_sample(void)
{
	return knc_overflow;
}

void knc_perf_init(void);
int knc_without_native_pmu(void);
/* perf_allow_cpu(), as far as a module can check it */
int knc_allow_cpu(struct perf_event *event);
void knc_clear_x86_dirty(void);

#endif /* _KNC_PERF_H */
