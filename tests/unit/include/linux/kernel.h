/* SPDX-License-Identifier: GPL-2.0 */
/* Host shim of <linux/kernel.h>: what the knc logic and its tests use. */
#ifndef _SHIM_LINUX_KERNEL_H
#define _SHIM_LINUX_KERNEL_H

#include <stdio.h>	/* snprintf() */

#include <linux/types.h>

#define ARRAY_SIZE(arr)	(sizeof(arr) / sizeof((arr)[0]))

/* <linux/build_bug.h>'s, whose message is optional. */
#define static_assert(expr, ...)	_Static_assert(expr, #expr)

/* From <linux/compiler_attributes.h>, which the kernel always includes. */
#ifndef __printf
#define __printf(a, b)	__attribute__((__format__(printf, a, b)))
#endif

#endif
