/* SPDX-License-Identifier: GPL-2.0 */
/* Host shim of <linux/export.h>: no module symbol table on the host. */
#ifndef _SHIM_LINUX_EXPORT_H
#define _SHIM_LINUX_EXPORT_H

#define EXPORT_SYMBOL_NS_GPL(sym, ns)

#endif
