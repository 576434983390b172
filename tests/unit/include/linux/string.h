/* SPDX-License-Identifier: GPL-2.0 */
/* Host shim of <linux/string.h>: memcpy, memset, strcmp from libc. */
#ifndef _SHIM_LINUX_STRING_H
#define _SHIM_LINUX_STRING_H

#include <string.h>

#endif
