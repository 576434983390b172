# SPDX-License-Identifier: GPL-2.0
# The debug kernel's KASAN where the knc driver's paths go, and not in the
# rest: tools/knc/debug-kernel.sh copies this file to the tree's
# scripts/Makefile.knc-kasan and includes it in scripts/Makefile.lib just
# before Kbuild picks an object's KASAN flags.
#
# Kept instrumented: out-of-tree modules (M=: the knc modules and the KUnit
# suites), perf core (kernel/events), the top of kernel/ (CPU
# hotplug, cross-CPU calls, irq_work, fork's and exit's perf hooks), module
# loading, tracepoints, lib/ and KUnit, the x86 PMU core, NMI, APIC, MSR and
# CPU code (arch/x86/events, arch/x86/kernel), and the file systems the
# driver's files live in (sysfs, kernfs, debugfs, tracefs, proc). Not
# instrumented: what a guest runs through mostly to start programs and
# switch tasks, where no path of the driver's goes: mm/, the scheduler,
# lockdep and the rest of kernel/locking, RCU, timers, arch/x86/mm, the
# VFS, 9p and overlayfs, net/, drivers/, block/, security/, crypto/, init/
# and ipc/. A directory's own KASAN_SANITIZE, and KASAN_SANITIZE_obj.o,
# still decide.
ifeq ($(KASAN_SANITIZE),)
ifeq ($(KBUILD_EXTMOD),)
ifeq ($(filter kernel kernel/events kernel/module kernel/trace lib lib/kunit \
	arch/x86/events arch/x86/events/% arch/x86/kernel arch/x86/kernel/apic \
	arch/x86/kernel/cpu fs/kernfs fs/sysfs fs/debugfs fs/tracefs fs/proc,$(obj)),)
KASAN_SANITIZE := n
endif
endif
endif
