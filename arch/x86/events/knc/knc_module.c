// SPDX-License-Identifier: GPL-2.0
/*
 * Knights Corner core PMU: what only the out-of-tree module needs, for
 * knc_perf.h. The in-tree driver is built in (it replaces
 * arch/x86/events/intel/knc.c) and leaves both out: the sources call these
 * only where MODULE is defined.
 *
 *  - knc_perf_init(): perf_event_overflow() and perf_sample_event_took()
 *    are not exported to modules; found through kallsyms_lookup_name(),
 *    itself found through a kprobe (the parameter "sampling").
 *  - knc_allow_cpu(): perf_event_paranoid, which decides who may count
 *    the other threads of a core, is not exported either.
 *  - knc_without_native_pmu(): the module stays loaded as the core alone,
 *    for the simulator (knc_sim.ko) to register with.
 *  - knc_clear_x86_dirty(): with Linux's own driver, the x86 core PMU
 *    ("cpu") uses the same counters before knc reserves them, and zeroes them
 *    later behind knc's back unless made to do it first.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/capability.h>
#include <linux/cpu.h>
#include <linux/kprobes.h>
#include <linux/kthread.h>
#include <linux/mmap_lock.h>
#include <linux/perf_event.h>
#include <linux/sched/mm.h>
#include <linux/smp.h>
#include <linux/uaccess.h>
#include <asm/ibt.h>
#include <asm/mmu.h>

#include "knc_pmu.h"

/*
 * The kernels the modules build for and are tested on (knc_pmu's modinfo
 * description; dkms.conf, the Makefile and the docs say the same:
 * tests/host/kver.t).
 */
#define KNC_KERNELS	"Linux 6.1 up to 7.3, x86_64"

#define KNC_PMU_DESCRIPTION "Intel Xeon Phi (Knights Corner) core PMU for perf: the knc PMU on the KNC MSRs, and the core other backends (knc_sim) register with"
MODULE_DESCRIPTION(KNC_PMU_DESCRIPTION " (" KNC_KERNELS ")");
MODULE_LICENSE("GPL");

static bool sampling = true;
module_param(sampling, bool, 0444);
MODULE_PARM_DESC(sampling, "Offer sampling events (default 1); 0 makes the PMU count only, as when perf_event_overflow() cannot be found");

knc_overflow_fn knc_overflow;
knc_took_fn knc_took;

/*
 * perf_event_overflow() hands a sample to perf core, but Linux 6.1 does not
 * export it (nor perf_event_output()) to modules, nor
 * perf_sample_event_took(), which feeds perf's throttle the PMI's time.
 * kallsyms_lookup_name() is not exported either, but a kprobe on it
 * reveals its address, and it finds both. The risk is that of any
 * unexported call: no ABI promise and no modversions check. The
 * static_asserts below tie the pointers' types to the prototypes in the
 * headers this module is built against. Kernels built for indirect branch
 * tracking (IBT), such as Debian's 6.12, seal the entry of functions
 * nothing calls indirectly; on a CPU that enforces IBT each function must
 * then start with ENDBR64, else it is not called (without
 * perf_event_overflow() the PMU counts only). (A kprobe's address is past
 * the ENDBR64, where one is.) Linux 6.12 exports neither.
 */
static_assert(__same_type(&perf_event_overflow, knc_overflow_fn));
static_assert(__same_type(&perf_sample_event_took, knc_took_fn));

static bool knc_endbr64_at(unsigned long addr)
{
	static const u8 endbr64[] = { 0xf3, 0x0f, 0x1e, 0xfa };
	u8 insn[sizeof(endbr64)];

	return !copy_from_kernel_nofault(insn, (void *)addr, sizeof(insn)) &&
	       !memcmp(insn, endbr64, sizeof(insn));
}

/* The function @name, if it may be called: 0 if not found or unsealed. */
static unsigned long knc_find_call(unsigned long (*lookup)(const char *name),
				   const char *name)
{
	unsigned long addr = lookup(name);

	if (addr && cpu_feature_enabled(X86_FEATURE_IBT) &&
	    !knc_endbr64_at(addr))
		return 0;
	return addr;
}

static void __init knc_find_perf_calls(void)
{
	struct kprobe kp = { .symbol_name = "kallsyms_lookup_name" };
	unsigned long (*lookup)(const char *name);
	unsigned long addr;

	if (register_kprobe(&kp))
		return;
	addr = (unsigned long)kp.addr;
	unregister_kprobe(&kp);
	if (cpu_feature_enabled(X86_FEATURE_IBT)) {
		if (knc_endbr64_at(addr - ENDBR_INSN_SIZE))
			addr -= ENDBR_INSN_SIZE;
		else if (!knc_endbr64_at(addr))
			return;
	}
	lookup = (void *)addr;
	if (!lookup)
		return;
	knc_overflow = (knc_overflow_fn)knc_find_call(lookup,
						      "perf_event_overflow");
	knc_took = (knc_took_fn)knc_find_call(lookup, "perf_sample_event_took");
}

void __init knc_perf_init(void)
{
	if (sampling)
		knc_find_perf_calls();
	if (!knc_overflow)
		pr_info("sampling unavailable (%s): counting only\n",
			sampling ? "perf_event_overflow() not found" :
			"sampling=0");
}

int __init knc_without_native_pmu(void)
{
	pr_info("no native PMU on this CPU (family %u model %u): no knc PMU until a backend registers; modprobe knc_sim for the simulated PMU\n",
		boot_cpu_data.x86, boot_cpu_data.x86_model);
	return 0;
}

/*
 * Thread-count mode counts the other threads of the core: what x86 allows
 * for AnyThread, perf_allow_cpu(). A module cannot read
 * perf_event_paranoid (not exported), so there a per-task event needs
 * CAP_PERFMON or CAP_SYS_ADMIN; a CPU-wide one passes perf_allow_cpu() in
 * the core when its context is found, after event_init.
 */
int knc_allow_cpu(struct perf_event *event)
{
	if (!(event->attach_state & PERF_ATTACH_TASK) || perfmon_capable())
		return 0;
	return -EACCES;
}

static int knc_clear_dirty_fn(void *mm)
{
#ifdef KNC_LEAVE_MM_NO_CPU
	leave_mm();
#else
	leave_mm(smp_processor_id());
#endif
	/* switch_mm_irqs_off() -> cr4_update_pce_mm() -> perf_clear_dirty_counters() */
	kthread_use_mm(mm);
	kthread_unuse_mm(mm);
	return 0;
}

/*
 * Before a task that may use RDPMC runs, the x86 core zeroes each counter its
 * cpu PMU used since it last did so (perf_clear_dirty_counters(): a leak
 * through RDPMC), once per CPU. It does not know knc has reserved the
 * counters now: it would zero a live knc counter the first time a task mapping
 * a knc event (perf record) is switched to. The NMI watchdog, stopped so that
 * knc could reserve the counters, leaves such a counter on every CPU. Have the
 * core do it as knc reserves them, before its first event counts: on each
 * online CPU switch a kernel thread from init_mm into the opening task's mm
 * with RDPMC allowed for a moment. The cpu PMU makes no new dirty counter
 * while knc has them reserved; a CPU that is offline now keeps what it had,
 * and is reset when it comes online.
 */
void knc_clear_x86_dirty(void)
{
	struct mm_struct *mm = current->mm;
	unsigned int cpu;

	if (!mm)
		return;
	mmap_write_lock(mm);
	atomic_inc(&mm->context.perf_rdpmc_allowed);
	mmap_write_unlock(mm);
	cpus_read_lock();
	for_each_online_cpu(cpu)
		smp_call_on_cpu(cpu, knc_clear_dirty_fn, mm, false);
	cpus_read_unlock();
	mmap_write_lock(mm);
	atomic_dec(&mm->context.perf_rdpmc_allowed);
	mmap_write_unlock(mm);
}
