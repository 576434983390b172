/* SPDX-License-Identifier: GPL-2.0 */
/* Host shim: no speculation barrier is needed in the unit tests. */
#ifndef _SHIM_LINUX_NOSPEC_H
#define _SHIM_LINUX_NOSPEC_H

#define array_index_nospec(index, size) (index)

#endif
