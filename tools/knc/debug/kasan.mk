# SPDX-License-Identifier: GPL-2.0
# The debug kernel's KASAN where the knc driver's paths go, and not in the
# rest: tools/knc/debug-kernel.sh copies this file to the tree's
# scripts/Makefile.knc-kasan and includes it in scripts/Makefile.lib just
# before Kbuild picks an object's KASAN flags.
#
# Kept instrumented: out-of-tree modules (an absolute $(obj): the knc modules
# and the KUnit suites), perf core and the rest of kernel/, mm/, lib/,
# arch/x86/ (the x86 PMU core, NMI, APIC, MSR and mm code), and the file
# systems the driver's files live in (sysfs, kernfs, debugfs, tracefs,
# proc). Not instrumented: fs/ otherwise (the VFS, 9p and overlayfs that
# load the guest's programs), net/, drivers/, block/, security/, crypto/,
# init/ and ipc/, which a guest runs through mostly to start programs. A
# directory's own KASAN_SANITIZE, and KASAN_SANITIZE_obj.o, still decide.
ifeq ($(KASAN_SANITIZE),)
ifeq ($(filter /% kernel kernel/% mm mm/% lib lib/% arch/x86 arch/x86/% \
	fs/kernfs fs/sysfs fs/debugfs fs/tracefs fs/proc,$(obj)),)
KASAN_SANITIZE := n
endif
endif
