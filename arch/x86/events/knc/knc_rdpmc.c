// SPDX-License-Identifier: GPL-2.0
/*
 * Knights Corner core PMU: the user page and RDPMC. Where the backend's
 * counters are the hardware's (knc_hw_ops::user_rdpmc) and the x86 core
 * knows their width, a task that mmaps a knc event's page reads the count
 * with RDPMC, as it does the cpu PMU's (perf_event_mmap_page).
 */
#include <linux/mm_types.h>
#include <linux/perf_event.h>
#include <linux/smp.h>
#include <asm/tlbflush.h>

#include "knc_pmu.h"

#ifdef KNC_NO_X86_EXPORTS
/* CR4's helpers are KVM's alone: knc offers no RDPMC, maps no page itself. */
#else
/* The CR4.PCE a CPU running @mm needs: set while one of its events is mapped. */
static void knc_update_pce(void *mm)
{
	if (current->active_mm != mm)
		return;
	if (atomic_read(&((struct mm_struct *)mm)->context.perf_rdpmc_allowed))
		cr4_set_bits_irqsoff(X86_CR4_PCE);
	else
		cr4_clear_bits_irqsoff(X86_CR4_PCE);
}

/*
 * A task mmaps an event's page to read it with RDPMC: allow RDPMC in its
 * mm, whose context switches then keep CR4.PCE (the count is the x86
 * core's, shared with the cpu PMU's events). perf_mmap() wrote the page
 * before the event counted as mapped, with index 0: write it again.
 */
void knc_pmu_event_mapped(struct perf_event *event, struct mm_struct *mm)
{
	if (!(event->hw.flags & PERF_EVENT_FLAG_USER_READ_CNT))
		return;
	if (atomic_inc_return(&mm->context.perf_rdpmc_allowed) == 1)
		on_each_cpu_mask(mm_cpumask(mm), knc_update_pce, mm, 1);
	perf_event_update_userpage(event);
}

void knc_pmu_event_unmapped(struct perf_event *event, struct mm_struct *mm)
{
	if (!(event->hw.flags & PERF_EVENT_FLAG_USER_READ_CNT))
		return;
	if (atomic_dec_and_test(&mm->context.perf_rdpmc_allowed))
		on_each_cpu_mask(mm_cpumask(mm), knc_update_pce, mm, 1);
}
#endif

/*
 * Return: RDPMC's ECX plus one for the mmap page, 0 when user space may not
 * read. Only an event mapped itself has RDPMC allowed in the mm that reads
 * its page: one whose output goes to another event's buffer
 * (PERF_EVENT_IOC_SET_OUTPUT) writes on that event's page, which a task may
 * have mapped with RDPMC still faulting.
 */
int knc_pmu_event_idx(struct perf_event *event)
{
	if (!(event->hw.flags & PERF_EVENT_FLAG_USER_READ_CNT))
		return 0;
#ifdef KNC_MMAP_COUNT_ATOMIC
	/* an atomic_t in 6.12 and before */
	if (!atomic_read(&event->mmap_count))
		return 0;
#else
	if (!refcount_read(&event->mmap_count))
		return 0;
#endif
	return event->hw.idx + 1;
}
