/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Host shim of <linux/errno.h>. The host's <errno.h> gets its values from
 * the uapi <linux/errno.h>, which this file shadows on the include path:
 * pass on to that header, so the values are the kernel's and <errno.h>
 * still works when included after this.
 */
#ifndef _SHIM_LINUX_ERRNO_H
#define _SHIM_LINUX_ERRNO_H

#include_next <linux/errno.h>

#endif
