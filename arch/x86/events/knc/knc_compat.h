/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Knights Corner core PMU: one source for Linux 6.1 up to 7.3, for the
 * module (knc_pmu.h includes this header only where MODULE is defined).
 * The sources are written against the newest kernel's interfaces; what an
 * older kernel names otherwise is mapped here: by feature where a header
 * defines a macro, else by what the module's Makefile finds in the
 * kernel's headers or version (KNC_*), which some sources test in place
 * (KNC_PIN_TASK_CONTEXT, KNC_MMAP_COUNT_ATOMIC, KNC_NO_X86_EXPORTS). The
 * symbol namespace, KNC_NS, is in knc_logic.h, which the host's unit tests
 * build too. The in-tree series leaves this header out.
 */
#ifndef _KNC_COMPAT_H
#define _KNC_COMPAT_H

#include <linux/hrtimer.h>
#include <linux/kvm_types.h>
#include <linux/perf_event.h>
#include <linux/slab.h>
#include <asm/hardirq.h>
#include <asm/msr.h>

/* rdmsrq() and friends: rdmsrl() and friends in 6.12 and before. */
#ifndef rdmsrq
#define rdmsrq(msr, val)	rdmsrl(msr, val)
#define wrmsrq(msr, val)	wrmsrl(msr, val)
#define rdmsrq_safe(msr, p)	rdmsrl_safe(msr, p)
#define wrmsrq_safe(msr, val)	wrmsrl_safe(msr, val)
#endif

/* kzalloc_obj(), which 7.2 and 7.3 have: kzalloc() of the object's size. */
#ifndef kzalloc_obj
#define kzalloc_obj(obj)	kzalloc(sizeof(obj), GFP_KERNEL)
#endif

/* The PMI count of /proc/interrupts: inc_irq_stat(apic_perf_irqs) in 6.12. */
#ifndef inc_perf_irq_stat
#define inc_perf_irq_stat()	inc_irq_stat(apic_perf_irqs)
#endif

/* hrtimer_setup() (6.13) sets the callback with the clock and the mode. */
#ifdef KNC_HRTIMER_INIT
static inline void hrtimer_setup(struct hrtimer *timer,
				 enum hrtimer_restart (*function)(struct hrtimer *),
				 clockid_t clock_id, enum hrtimer_mode mode)
{
	hrtimer_init(timer, clock_id, mode);
	timer->function = function;
}
#endif

/*
 * Where linux/kvm_types.h defines EXPORT_SYMBOL_FOR_KVM (7.2 and 7.3 here),
 * the x86 core exports perf_get_x86_pmu_capability() and CR4's helpers to
 * KVM alone, or not at all: a module has neither, so knc asks perf itself
 * whether the cpu PMU counts and offers no RDPMC (knc_pmu_setup()).
 */
#ifdef EXPORT_SYMBOL_FOR_KVM
#define KNC_NO_X86_EXPORTS	1
#endif

#endif /* _KNC_COMPAT_H */
