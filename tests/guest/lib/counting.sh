# SPDX-License-Identifier: GPL-2.0
# Exact-counting cases that run on both PMUs a guest can have: the
# simulator (simulator.sh, injecting with tools/knc/knc-sim) and the native
# backend on the QEMU model (model.sh, injecting with tools/knc/knc-model).
# Sourced after lib.sh; the suite sets INJ to its injector (both take
# "inject EVENT COUNT [--user|--kernel] [--per-cycle N]"), INJ_FILE to the
# file a program injects through itself (empty on the model, where the
# instructions a program executes count), PMU_KO to the module that
# registers the PMU, and defines
# real_events on|off: whether cycles and instructions also move by
# themselves, evtsels: every CPU's EvtSel0 and EvtSel1 as the PMU holds
# them, one per line, and pmis: the PMIs the PMU has raised on all CPUs;
# and ACC_SOURCE (and ACC_BESIDE_CPU_PMU) for tests/guest/lib/accesses.sh,
# which the suite sources too.
# shellcheck shell=bash

# The cases of this file, in the order they run (case_add_to after each
# function): simulator.sh and model.sh add them to their own list where they run.
# shellcheck disable=SC2034 # the suites that source this file use it
COUNTING_CASES=()

t_exact_l2_read_miss() {
	local out
	out=$(mktemp)
	pstat "$out" -e knc/l2_read_miss/ -- "$INJ" inject l2_read_miss 123456
	expect_eq count 123456 "$(count_of "$out" knc/l2_read_miss/)"
}
case_add_to COUNTING_CASES "perf stat counts injected l2_read_miss exactly" t_exact_l2_read_miss ctx

t_exact_every_event() {
	local out a b i=0 want
	out=$(mktemp)
	# cpu_clk_unhalted and instructions_executed by injection only
	real_events off
	# Two events to a perf stat, one on each counter: perf's start-up is
	# most of the time each takes.
	while read -r a b; do
		i=$((i + 1))
		want=$((1000 + 37 * i))
		if [ -z "$b" ]; then
			pstat "$out" -e "knc/$a/" -- "$INJ" inject "$a" "$want" >/dev/null
		else
			i=$((i + 1))
			pstat "$out" -e "knc/$a/,knc/$b/" -- sh -c \
				"$INJ inject $a $want && $INJ inject $b $((want + 1))" >/dev/null
			expect_eq "$b" $((want + 1)) "$(count_of "$out" "knc/$b/")"
		fi
		expect_eq "$a" "$want" "$(count_of "$out" "knc/$a/")"
	done < <(event_pairs)
	real_events on
	expect_eq events 59 "$i"
}
case_add_to COUNTING_CASES "each of the 59 events counts its own injection exactly" t_exact_every_event user

t_user_vs_kernel() {
	local out
	out=$(mktemp)
	# data_read may use either counter, so both modifiers count at once.
	pstat "$out" -e knc/data_read/u,knc/data_read/k -- sh -c \
		"$INJ inject data_read 100 --user && $INJ inject data_read 7 --kernel"
	expect_eq ":u" 100 "$(count_of "$out" knc/data_read/u)"
	expect_eq ":k" 7 "$(count_of "$out" knc/data_read/k)"
}
case_add_to COUNTING_CASES ":u and :k count user and kernel injections apart" t_user_vs_kernel

t_both_counters_exact() {
	local out
	out=$(mktemp)
	pstat "$out" -e knc/l2_read_miss/,knc/vpu_elements_active/ -- sh -c \
		"$INJ inject l2_read_miss 4242 && $INJ inject vpu_elements_active 999"
	expect_eq l2_read_miss 4242 "$(count_of "$out" knc/l2_read_miss/)"
	expect_eq vpu_elements_active 999 "$(count_of "$out" knc/vpu_elements_active/)"
}
case_add_to COUNTING_CASES "two events on both counters are both exact" t_both_counters_exact

t_beyond_40_bits() {
	local out want=$(( (1 << 40) + 12345 )) pmi0 pmi1
	out=$(mktemp)
	pmi0=$(pmi_irqs)
	pstat "$out" -e knc/l2_read_miss/ -- "$INJ" inject l2_read_miss $want
	expect_eq count "$want" "$(count_of "$out" knc/l2_read_miss/)"
	pmi1=$(pmi_irqs)
	[ "$pmi1" -gt "$pmi0" ] || fail "PMI row in /proc/interrupts did not move ($pmi0 -> $pmi1)"
	"$INJ" regs
	expect_pmis_serviced
}
case_add_to COUNTING_CASES "a count beyond 2^40 is exact (PMI folds the wrap)" t_beyond_40_bits

t_cmask_inv_edge() {
	local out
	out=$(mktemp)
	real_events off
	# 100 instructions at 2 per cycle: 50 cycles.
	pstat "$out" -e knc/event=0x16,cmask=2/,knc/event=0x16,cmask=3/ -- \
		"$INJ" inject instructions_executed 100 --per-cycle 2
	expect_eq "cmask=2" 50 "$(count_of "$out" knc/event=0x16,cmask=2/)"
	expect_eq "cmask=3" 0 "$(count_of "$out" knc/event=0x16,cmask=3/)"
	pstat "$out" -e knc/event=0x16,cmask=3,inv/,knc/event=0x16,cmask=1,edge/ -- \
		"$INJ" inject instructions_executed 100 --per-cycle 2
	real_events on
	expect_eq "cmask=3,inv" 50 "$(count_of "$out" knc/event=0x16,cmask=3,inv/)"
	expect_eq "cmask=1,edge" 1 "$(count_of "$out" knc/event=0x16,cmask=1,edge/)"
}
case_add_to COUNTING_CASES "cmask, inv and edge select cycles" t_cmask_inv_edge

t_cpu_wide_one_cpu() {
	local out
	out=$(mktemp)
	pstat "$out" -a -C 1 -e knc/l2_read_miss/ -- sh -c \
		"taskset -c 1 $INJ inject l2_read_miss 500 && taskset -c 0 $INJ inject l2_read_miss 70"
	expect_eq "CPU 1" 500 "$(count_of "$out" knc/l2_read_miss/)"
}
case_add_to COUNTING_CASES "perf stat -a -C 1 counts CPU 1 only" t_cpu_wide_one_cpu

# Events survive another CPU going offline and online, and that CPU comes
# back with its PMU reset and counting.
t_hotplug_other_cpu() {
	local out loop
	out=$(mktemp)
	loop="for i in 1 2 3; do echo 0 >/sys/devices/system/cpu/cpu1/online;
		taskset -c 0 $INJ inject l2_read_miss 100;
		echo 1 >/sys/devices/system/cpu/cpu1/online; done"
	pstat "$out" -a -C 0 -e knc/l2_read_miss/ -- sh -c "$loop"
	expect_eq "CPU-wide on CPU 0" 300 "$(count_of "$out" knc/l2_read_miss/)"
	pstat "$out" -e knc/l2_read_miss/ -- taskset -c 0 sh -c "$loop"
	expect_eq "per task" 300 "$(count_of "$out" knc/l2_read_miss/)"
	pstat "$out" -a -C 1 -e knc/l2_read_miss/ -- taskset -c 1 "$INJ" inject l2_read_miss 77
	expect_eq "CPU 1, back online" 77 "$(count_of "$out" knc/l2_read_miss/)"
}
case_add_to COUNTING_CASES "events survive CPU 1 going offline and online; it comes back counting" t_hotplug_other_cpu hotplug

# A sampling event that perf throttled on counter 0 (at
# perf_event_max_sample_rate 1 every PMI that samples does) moves to
# counter 1 when a per-task l2_read_miss comes on its CPU: stopped, its
# count must not move, and once unthrottled it must overflow again after
# its period (build/tests/throttlemove; events from its own user mode,
# injected through $INJ_FILE where the backend has one).
t_throttled_event_moves() {
	local out p=100003 c0 c1 c2
	out=$(mktemp)
	perf_throttle_set 1 0
	if ! build/tests/throttlemove ${INJ_FILE:+-i "$INJ_FILE"} 1 $p >"$out"; then
		cat "$out"
		fail "throttlemove failed"
	fi
	cat "$out"
	# throttlemove tries up to 50 times (a tick spoils a try)
	tried "$(awk '$1 == "tries" { print $2 }' "$out")" 50
	c0=$(awk '$1 == "throttled" { print $2 }' "$out")
	c1=$(awk '$1 == "moved" { print $2 }' "$out")
	c2=$(awk '$1 == "next" { print $2 }' "$out")
	expect_eq "count when throttled" $p "$c0"
	expect_eq "count after the move, still throttled" "$c0" "$c1"
	expect_eq "count at the next overflow" $((2 * p)) "$c2"
}
case_add_to COUNTING_CASES "a throttled event moved to counter 1 keeps its count and period" t_throttled_event_moves sample

# A CPU going offline still has its CPU-wide events when the driver's
# hotplug callback clears its counters: perf core removes them later
# (CPUHP_AP_PERF_ONLINE). They keep what they counted.
t_cpu_wide_count_across_offline() {
	local out
	out=$(mktemp)
	pstat "$out" -a -C 1 -e knc/l2_read_miss/,knc/data_read/ -- sh -c \
		"taskset -c 1 $INJ inject l2_read_miss 500 && taskset -c 1 $INJ inject data_read 70 &&
		echo 0 >/sys/devices/system/cpu/cpu1/online && echo 1 >/sys/devices/system/cpu/cpu1/online"
	expect_eq "l2_read_miss (counter 0)" 500 "$(count_of "$out" knc/l2_read_miss/)"
	expect_eq "data_read (counter 1)" 70 "$(count_of "$out" knc/data_read/)"
}
case_add_to COUNTING_CASES "CPU-wide events keep their counts as their CPU goes offline" t_cpu_wide_count_across_offline hotplug

t_bad_attr_table() {
	local out tap=/tmp/badattr.tap
	out=$(mktemp)
	# Every row of the bad-input table (Documentation/knc-pmu.rst), while
	# another event counts this task: each fails as the table says, takes
	# nothing from the running event (which moves to counter 1 when a
	# row's l2_read_miss takes counter 0, but never stops) and leaves no
	# counter enabled.
	pstat "$out" -e knc/data_read/ -- sh -c \
		"build/tests/badattr knc >$tap; echo \$? >$tap.rc; $INJ inject data_read 777"
	cat $tap
	expect_eq "badattr's status" 0 "$(cat $tap.rc)"
	expect_eq "the running event's count" 777 "$(count_of "$out" knc/data_read/)"
	expect_eq "the running event's time on a counter" 100.00 \
		"$(awk -F'\t' '$1 == "knc/data_read/" { print $3 }' "$out")"
	expect_no_evtsel_enabled
}
case_add_to COUNTING_CASES "every bad perf_event_attr gets the documented errno and changes nothing" t_bad_attr_table core

# Linux before 6.2 keeps a task's context pointing at the PMU
# (KNC_PIN_TASK_CONTEXT): the module that registered it ($PMU_KO) stays
# pinned after a per-task event. From 6.2 on, a PMU's part of a context
# goes with its last event and the PMU no longer needs
# PERF_PMU_CAP_HETEROGENEOUS_CPUS to share perf_hw_context, so the module
# unloads and a reload counts per task again.
t_pinned_after_per_task_use() {
	local out
	out=$(mktemp)
	pstat "$out" -e knc/l2_read_miss/ -- "$INJ" inject l2_read_miss 4321
	expect_eq "per-task count" 4321 "$(count_of "$out" knc/l2_read_miss/)"
	pinned_or_reloaded "$PMU_KO"
	kernel_before_6_2 && return
	pstat "$out" -e knc/l2_read_miss/ -- "$INJ" inject l2_read_miss 1234
	expect_eq "per-task count after a reload" 1234 "$(count_of "$out" knc/l2_read_miss/)"
}
case_add_to COUNTING_CASES "after per-task use 6.1 pins the module, 6.2+ unloads and reloads it" t_pinned_after_per_task_use unload

t_two_overflows_one_pmi() {
	local d=/tmp/rec6.data p0 p1
	p0=$(pmis)
	perf record -o $d -e knc/data_read/,knc/data_read/ -c 1000 -- "$INJ" inject data_read 100000
	p1=$(pmis)
	expect_eq "samples" 200 "$(nsamples $d)"
	expect_eq "PMIs (one per pair of overflows)" 100 $((p1 - p0))
	# Back to back: periods 1000 and 1001 overflow one event apart.
	p0=$(pmis)
	perf record -o $d -e knc/data_read,period=1000/,knc/data_read,period=1001/ -- \
		"$INJ" inject data_read 100000
	p1=$(pmis)
	expect_eq "period 1000" 100 "$(nsamples $d 'period=1000')"
	expect_eq "period 1001" 99 "$(nsamples $d 'period=1001')"
	expect_eq "PMIs" 199 $((p1 - p0))
}
case_add_to COUNTING_CASES "two overflows in one PMI and back to back are all delivered" t_two_overflows_one_pmi

# tests/guest/lib/accesses.sh, counted by the backend (ACC_SOURCE)
t_register_accesses() {
	local table
	table=$(ACC_TYPE=$(cat $KNC_SYSFS/type) acc_table_here) || fail "pmuops failed"
	echo "$table"
	acc_expect "$table"
}
case_add_to COUNTING_CASES "register accesses per switch, read, open and PMI are the hardware minimum" t_register_accesses ctx
