/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What the knc KUnit tests expect, written out from Intel document
 * 327357-001 (the KNC PMU chapter) and never taken from the code under
 * test: EvtSel bits (table 1-5) and counter widths (section 1.4).
 */
#ifndef _KNC_TEST_H
#define _KNC_TEST_H

#include <linux/bits.h>
#include <linux/types.h>

/* IA32_PerfEvtSelX bits (seed 000, table 1-5). */
#define T_USR		BIT_ULL(16)
#define T_OS		BIT_ULL(17)
#define T_EDGE		BIT_ULL(18)
#define T_INT		BIT_ULL(20)
#define T_ANY		BIT_ULL(21)
#define T_EN		BIT_ULL(22)
#define T_INV		BIT_ULL(23)
#define T_CMASK(c)	((unsigned long long)(c) << 24)
#define T_SPFLT_USER_PREF BIT_ULL(63)

#define T_CTR_MASK	0xffffffffffULL		/* 40 bits */
#define T_CTR_TOP	0x10000000000ULL	/* 2^40 */
#define T_MAX_PERIOD	0x7fffffffffULL		/* 2^39 - 1 */

/* A config or EvtSel's event select and unit mask fields. */
static inline u64 cfg(unsigned int event, unsigned int umask)
{
	return (u64)event | (u64)umask << 8;
}

#endif
