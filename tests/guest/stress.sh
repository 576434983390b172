#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Stress on the simulator, in one boot: module load/unload cycles, CPU
# hotplug loops under CPU-wide and per-task events, perf bench sched pipe
# with knc events, and PMI storms on both counters of every CPU at once.
# Counts are exact after each. Run inside tools/knc/knc-vm:
#   tools/knc/knc-vm -- tests/guest/stress.sh [CASE-PATTERN]
# KNC_STRESS_PIPE_S sets sched pipe's duration (default 60 s). Prints TAP.
set -u
cd "$(dirname "$0")/../.." || exit 1
. tests/guest/lib/lib.sh
. tests/guest/lib/sim.sh

CPU1=/sys/devices/system/cpu/cpu1/online

# expect_exact_after WHAT: CPU-wide, injections on every CPU count exactly
expect_exact_after() {
	local out cpu want=0 cmd=""
	out=$(mktemp)
	for cpu in $(seq 0 $(($(nproc) - 1))); do
		cmd="$cmd taskset -c $cpu $KNC_SIM inject data_read $((1000 + cpu)) &&"
		want=$((want + 1000 + cpu))
	done
	pstat "$out" -a -e knc/data_read/ -- sh -c "$cmd true" >/dev/null
	expect_eq "count after $1" $want "$(count_of "$out" knc/data_read/)"
	expect_pmis_serviced
}

t_load_unload_100() {
	local i
	knc_unload
	for i in $(seq 100); do
		insmod "$KNC_KO" || fail "load $i of knc_pmu.ko failed"
		rmmod knc_pmu || fail "unload $i of knc_pmu.ko failed"
	done
	insmod "$KNC_KO"
	for i in $(seq 100); do
		insmod "$KNC_SIM_KO" || fail "load $i of knc_sim.ko failed"
		[ -e $KNC_SYSFS ] || fail "load $i: no knc PMU"
		if [ $((i % 25)) -eq 0 ]; then
			expect_exact_after "load $i"
		fi
		rmmod knc_sim || fail "unload $i of knc_sim.ko failed"
		[ ! -e $KNC_SYSFS ] || fail "unload $i: the knc PMU stayed"
	done
	insmod "$KNC_SIM_KO"
	expect_exact_after "200 loads"
}
case_add --unloads "100 load/unload cycles of each module, counts exact between" t_load_unload_100

t_hotplug_loops_under_events() {
	local out loop
	out=$(mktemp)
	# CPU 1 goes offline and online 20 times while events count: CPU-wide
	# on every CPU, then per task. Events come on CPU 0 in between and on
	# CPU 1 at the end, once it is back.
	loop="for i in \$(seq 20); do echo 0 >$CPU1; taskset -c 0 $KNC_SIM inject l2_read_miss 10;
		echo 1 >$CPU1; done; taskset -c 1 $KNC_SIM inject l2_read_miss 55"
	pstat "$out" -a -e knc/l2_read_miss/,knc/data_read/ -- sh -c "$loop"
	# perf's core detaches a CPU's CPU-wide events when it goes offline
	# (for every PMU): CPU 1's 55 are not seen, CPU 0's 200 are.
	expect_eq "CPU-wide" 200 "$(count_of "$out" knc/l2_read_miss/)"
	expect_eq "CPU-wide, the other counter" 0 "$(count_of "$out" knc/data_read/)"
	pstat "$out" -e knc/l2_read_miss/ -- sh -c "$loop"
	expect_eq "per task" 255 "$(count_of "$out" knc/l2_read_miss/)"
	expect_exact_after "hotplug"
}
case_add "CPU 1 offline/online 20 times under CPU-wide and per-task events" t_hotplug_loops_under_events

t_sched_pipe_with_knc_events() {
	local out secs=${KNC_STRESS_PIPE_S:-60} loops start ns
	out=$(mktemp)
	# Calibrate: how many sched pipe round trips take $secs here.
	start=$(date +%s%N)
	perf bench sched pipe -l 2000 >/dev/null
	ns=$(($(date +%s%N) - start))
	loops=$((2000 * secs * 1000000000 / ns))
	echo "sched pipe: $loops round trips for about $secs s"
	pstat "$out" -e knc/l2_read_miss/,knc/cpu_clk_unhalted/ -- \
		sh -c "perf bench sched pipe -l $loops >/dev/null && $KNC_SIM inject l2_read_miss 4321"
	expect_eq "l2_read_miss across the context switches" 4321 \
		"$(count_of "$out" knc/l2_read_miss/)"
	[ "$(count_of "$out" knc/cpu_clk_unhalted/)" -gt 0 ] || fail "no cycles"
	expect_exact_after "sched pipe"
}
case_add "perf bench sched pipe with two knc events; counts exact after" t_sched_pipe_with_knc_events

t_pmi_storm_every_cpu() {
	local d=/tmp/stress-storm.data cmd="" cpu
	# Both counters of every CPU overflow every 100 events, all CPUs at
	# once, with no gap between PMIs.
	"$KNC_SIM" pmi-gap 0
	for cpu in $(seq 0 $(($(nproc) - 1))); do
		cmd="$cmd taskset -c $cpu $KNC_SIM inject l2_read_miss 100000 &
			taskset -c $cpu $KNC_SIM inject data_read 100000 &"
	done
	timeout 600 perf record -a -o $d -e knc/l2_read_miss/,knc/data_read/ -c 100 -- \
		sh -c "$cmd wait" || fail "the storm did not finish"
	"$KNC_SIM" pmi-gap 20000
	perf report -i $d --stats | grep -E "LOST|THROTTLE" || true
	expect_eq "l2_read_miss samples" $((1000 * $(nproc))) "$(nsamples $d knc/l2_read_miss/)"
	expect_eq "data_read samples" $((1000 * $(nproc))) "$(nsamples $d knc/data_read/)"
	expect_exact_after "the storm"
}
case_add "PMI storm on both counters of every CPU at once: every sample arrives" t_pmi_storm_every_cpu

t_no_leak_after_stress() {
	expect_no_new_leak
}
[ ! -e $KMEMLEAK ] || case_add --last "kmemleak: nothing new of knc's or perf's after the stress" t_no_leak_after_stress

# On the debug kernel, a kmemleak scan before the cases, knc unloaded: what
# leaked before is not knc's.
if [ -e $KMEMLEAK ]; then
	knc_unload
	kmemleak_baseline
	knc_load
fi
perf_throttle_off
run_cases "$@"
