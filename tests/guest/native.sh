#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# The native backend, in a guest whose CPUID says Knights Corner (family 11
# model 1): tools/knc/knc-vm --no-module --cpu max,vendor=GenuineIntel,family=11,model=1
# No KNC PMU is behind it: QEMU's TCG reads the KNC MSRs as 0 and ignores
# writes to them. So knc_pmu.ko must refuse the native PMU by default (its
# counters do not keep their values) and leave the way to knc_sim.ko open;
# with hw_check=0 it must pick the native backend and drive every MSR path
# without a fault (knc-vm fails the run on an unchecked MSR access);
# nothing here can count. Prints TAP.
set -u
cd "$(dirname "$0")/../.." || exit 1
. tests/guest/lib/lib.sh

t_inert_msrs_refused() {
	expect_eq family 11 "$(awk '/^cpu family/ { print $4; exit }' /proc/cpuinfo)"
	expect_eq model 1 "$(awk '/^model\t/ { print $3; exit }' /proc/cpuinfo)"
	log_mark
	insmod "$KNC_KO" || fail "knc_pmu.ko did not load as the core alone"
	[ ! -e $KNC_SYSFS ] || fail "a knc PMU on counters that do not keep their values"
	log_since | grep -q "do not keep their values" ||
		fail "no dmesg line saying why"
	log_since | grep -q "no native PMU on this CPU (family 11 model 1).*modprobe knc_sim" ||
		fail "no dmesg line pointing at knc_sim.ko"
}
case_add "counters that do not keep their values: no native PMU, the core loads" t_inert_msrs_refused

t_native_selected() {
	insmod "$KNC_KO" hw_check=0
	dmesg | grep "knc_pmu" | tail -n 1 | grep -q "native backend" ||
		fail "the module did not pick the native backend"
	[ -d $KNC_SYSFS/events ] || fail "no knc PMU in sysfs"
	[ ! -d /sys/kernel/debug/knc_sim ] || fail "the simulator is active"
}
case_add "with hw_check=0 the module picks the native backend" t_native_selected

t_native_msr_paths() {
	local out
	out=$(mktemp)
	insmod "$KNC_KO" hw_check=0
	# Counting and sampling on both counters: every MSR the driver
	# touches (counters, event selects, global control, status, overflow
	# control) and the LVT entry. CPU-wide only: on 6.1 a per-task event
	# would pin the module, and other cases unload it.
	pstat "$out" -a -e knc/l2_read_miss/,knc/data_read/ -- sleep 0.2
	perf record -a -o /tmp/native.data -e knc/data_read/ -c 1000 -- sleep 0.2
	pstat "$out" -a -e knc/cpu_clk_unhalted/ -- sleep 0.2
}
case_add "the native backend drives the MSRs without a fault" t_native_msr_paths

t_second_backend_busy() {
	insmod "$KNC_KO" hw_check=0
	expect_insmod_busy "$KNC_SIM_KO" "simulated PMU refused: the native PMU is registered"
}
case_add "a second backend (knc_sim) gets EBUSY" t_second_backend_busy

t_native_unload() {
	insmod "$KNC_KO" hw_check=0
	rmmod knc_pmu || fail "rmmod failed"
	# The counters were released: the module loads again.
	insmod "$KNC_KO" hw_check=0 && rmmod knc_pmu
}
case_add "the native backend unloads and reloads cleanly" t_native_unload

t_sim_on_a_knc_cpu() {
	insmod "$KNC_KO"
	insmod "$KNC_SIM_KO"
	dmesg | grep "knc_pmu" | tail -n 1 | grep -q "simulated backend" ||
		fail "knc_sim did not register"
}
case_add "knc_sim registers on a KNC CPU without a working PMU" t_sim_on_a_knc_cpu

# The baseline every case starts from (lib.sh): no knc module loaded.
run_cases "$@"
