// SPDX-License-Identifier: GPL-2.0
/*
 * Knights Corner core PMU: registration, CPU hotplug, and the entry point
 * of knc_pmu, the counter core with the native backend.
 *
 * On a KNC whose PMU works, knc_pmu registers the knc PMU on the MSRs. On
 * any other CPU, or where the counters do not keep their values (an
 * emulator showing a KNC CPUID), there is no native PMU.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/cpuhotplug.h>
#include <linux/module.h>
#include <linux/mutex.h>
#include <linux/perf_event.h>
#include <linux/slab.h>
#include <asm/nmi.h>

#include "knc_pmu.h"

/*
 * The registered PMU. There is one PMI per CPU and one knc PMU, so one
 * backend at a time; the NMI handler, which gets no argument, finds the
 * PMU here.
 */
struct knc_pmu *knc_pmu_active;
static enum cpuhp_state knc_hp_state;

/**
 * knc_pmu_create - register the knc PMU of a backend
 * @ops: the backend's register accesses
 *
 * Hooks the PMI, adds the PMU to CPU hotplug, which resets every online
 * CPU's PMU (ops->cpu_reset) where the registers are reserved from now on
 * (a backend without ops->reserve), and registers the PMU with perf: as
 * "knc" in the module, as the core PMU, "cpu", built in. No other
 * backend's PMU may be registered.
 *
 * Context: process context; sleeps.
 * Return: the PMU, or an ERR_PTR().
 */
struct knc_pmu *knc_pmu_create(const struct knc_hw_ops *ops)
{
	struct knc_pmu *kp;
	int ret;

	kp = kzalloc_obj(*kp);
	if (!kp)
		return ERR_PTR(-ENOMEM);
	ret = -ENOMEM;
	kp->cpu_hw = alloc_percpu(struct knc_cpu_hw);
	if (!kp->cpu_hw)
		goto err_free;
	kp->ops = ops;
	knc_pmu_setup(kp);
	WRITE_ONCE(knc_pmu_active, kp);
	ret = register_nmi_handler(NMI_LOCAL, knc_pmi_handler, 0, "knc_pmi");
	if (ret)
		goto err_active;
	ret = cpuhp_state_add_instance(knc_hp_state, &kp->node);
	if (ret)
		goto err_nmi;
#ifdef MODULE
	/* Beside the x86 core's PMU, "cpu", which may be there. */
	ret = perf_pmu_register(&kp->pmu, "knc", -1);
#else
	/*
	 * Built in, it is the core PMU, as the x86 core's was on KNC: "cpu",
	 * of the type perf core gives the generic events.
	 */
	ret = perf_pmu_register(&kp->pmu, "cpu", PERF_TYPE_RAW);
#endif
	if (ret)
		goto err_cpuhp;

#ifdef MODULE
	pr_info("knc PMU registered: %s backend, %d counters of %d bits, %u events, %s%s%s\n",
		ops->name, KNC_NUM_COUNTERS, KNC_CNTVAL_BITS, knc_num_events,
		knc_can_sample() ? "sampling" : "counting only",
		kp->generic_types ? ", generic events (no x86 core PMU)" : "",
		kp->user_rdpmc ? ", rdpmc" : "");
#else
	pr_info("knc PMU registered: %s backend, %d counters of %d bits, %u events%s%s\n",
		ops->name, KNC_NUM_COUNTERS, KNC_CNTVAL_BITS, knc_num_events,
		kp->generic_types ? ", generic events (no x86 core PMU)" : "",
		kp->user_rdpmc ? ", rdpmc" : "");
#endif
	return kp;

err_cpuhp:
	cpuhp_state_remove_instance(knc_hp_state, &kp->node);
err_nmi:
	unregister_nmi_handler(NMI_LOCAL, "knc_pmi");
err_active:
	WRITE_ONCE(knc_pmu_active, NULL);
	free_percpu(kp->cpu_hw);
err_free:
	kfree(kp);
	return ERR_PTR(ret);
}

#ifdef MODULE
/*
 * Out of the tree other modules register backends too (the simulator,
 * knc_sim.ko), one at a time: the lock serializes their registrations, and
 * each module's with its unregistration. knc_pmu's own native backend
 * registers as knc_pmu loads, before another module can call in, and
 * unregisters as it unloads, when none that could is loaded.
 */
static DEFINE_MUTEX(knc_pmu_lock);

/**
 * knc_pmu_register - register the knc PMU of another module's backend
 * @ops: the backend's register accesses; its owner owns the PMU
 *
 * Context: process context; sleeps.
 * Return: the PMU (knc_pmu_create()), or an ERR_PTR(): -EBUSY while
 * another backend's PMU is registered.
 */
struct knc_pmu *knc_pmu_register(const struct knc_hw_ops *ops)
{
	struct knc_pmu *kp;

	mutex_lock(&knc_pmu_lock);
	if (knc_pmu_active) {
		pr_err("%s PMU refused: the %s PMU is registered\n", ops->name,
		       knc_pmu_active->ops->name);
		kp = ERR_PTR(-EBUSY);
	} else {
		kp = knc_pmu_create(ops);
	}
	mutex_unlock(&knc_pmu_lock);
	return kp;
}
EXPORT_SYMBOL_NS_GPL(knc_pmu_register, KNC_NS);

/**
 * knc_pmu_unregister - unregister the PMU of a backend
 * @kp: the PMU
 *
 * Called by the owner of the backend as it unloads; perf holds a
 * reference on the owner while events exist, so none is left. Quiesces
 * every CPU's PMU (ops->cpu_quiesce) where the registers are still
 * reserved (a backend without ops->reserve), and unhooks the PMI.
 *
 * Context: process context; sleeps.
 */
void knc_pmu_unregister(struct knc_pmu *kp)
{
	mutex_lock(&knc_pmu_lock);
	perf_pmu_unregister(&kp->pmu);
	cpuhp_state_remove_instance(knc_hp_state, &kp->node);
	unregister_nmi_handler(NMI_LOCAL, "knc_pmi");
	WRITE_ONCE(knc_pmu_active, NULL);
	mutex_unlock(&knc_pmu_lock);
	free_percpu(kp->cpu_hw);
	kfree(kp);
}
EXPORT_SYMBOL_NS_GPL(knc_pmu_unregister, KNC_NS);
#endif

/**
 * knc_core_init - set up what every backend's PMU shares
 *
 * Builds the sysfs event aliases and sets up the CPU hotplug state.
 *
 * Return: 0 or a negative errno.
 */
static int __init knc_core_init(void)
{
	int ret;

	ret = knc_sysfs_init();
	if (ret)
		return ret;
	ret = cpuhp_setup_state_multi(CPUHP_AP_ONLINE_DYN, "perf/x86/knc:online",
				      knc_cpu_online, knc_cpu_offline);
	if (ret < 0) {
		knc_sysfs_exit();
		return ret;
	}
	knc_hp_state = ret;
	return 0;
}

/**
 * knc_core_exit - undo knc_core_init(), with no PMU registered
 */
static void knc_core_exit(void)
{
	cpuhp_remove_multi_state(knc_hp_state);
	knc_sysfs_exit();
}

static int __init knc_pmu_init(void)
{
	int ret;

#ifdef MODULE
	/* perf's overflow path and throttle, for sampling */
	knc_perf_init();
#endif
	ret = knc_core_init();
	if (ret)
		return ret;
	ret = knc_native_init();
#ifdef MODULE
	/* The module stays, for another backend to register with. */
	if (ret == -ENODEV)
		ret = knc_without_native_pmu();
#endif
	if (ret)
		knc_core_exit();
	return ret;
}
module_init(knc_pmu_init);

#ifdef MODULE
static void __exit knc_pmu_exit(void)
{
	knc_native_exit();
	knc_core_exit();
}
module_exit(knc_pmu_exit);
#endif
