/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Knights Corner core PMU: what perf core and the x86 core give the driver.
 * Built in, sampling is always offered, there is no knc PMU but the native
 * one, and knc replaces the x86 core PMU's support of KNC: no other PMU
 * leaves a dirty counter for it to clear.
 */
#ifndef _KNC_PERF_H
#define _KNC_PERF_H

#include <linux/errno.h>
#include <linux/types.h>

static inline bool knc_can_sample(void)
{
	return true;
}

static inline void knc_perf_init(void)
{
}

static inline int knc_without_native_pmu(void)
{
	return -ENODEV;
}

static inline void knc_clear_x86_dirty(void)
{
}

#endif /* _KNC_PERF_H */
