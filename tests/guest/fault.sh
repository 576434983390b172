#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Allocation failures under the driver, on the debug kernel (fault
# injection, kmemleak), on the simulator or on the QEMU model:
#   tools/knc/knc-vm --debug-kernel --no-module --tcg-thread single \
#       -- tests/guest/fault.sh
#   tools/knc/knc-vm --debug-kernel --native --no-module --tcg-thread single \
#       -- tests/guest/fault.sh
# build/tests/failnth (tests/guest/progs/failnth.c) fails the 1st, 2nd, ...
# slab or page allocation of one call through /proc/thread-self/fail-nth
# until the call goes through without a fault: loading each module (the
# allocations of its init function only, see init_points), opening
# a counting, a sampling, a group and an SPFLT event, the mmap of a sampling
# event's buffer, a CPU coming online with events open. Every failed call
# must return ENOMEM; after each sweep counting is exact, and the modules
# unload and load again until per-task events pin them (Linux 6.1);
# knc-vm fails the run on any WARN, BUG, KASAN or lockdep report; kmemleak
# finds nothing new of knc's or perf's. Each sweep's line ("CALL: N
# injection points, ...") is a TAP diagnostic. Prints TAP.
set -u
cd "$(dirname "$0")/../.." || exit 1
. tests/guest/lib/lib.sh

FAILNTH=build/tests/failnth
# the sweeps' lines, shown whether the case passes or fails
exec 3>&1

# knc-vm --native gives the vCPUs a KNC's CPUID: family 11
if [ "$(awk '/^cpu family/ { print $4; exit }' /proc/cpuinfo)" = 11 ]; then
	backend=model
	. tests/guest/lib/qmodel.sh
else
	backend=sim
	. tests/guest/lib/sim.sh
fi

# config_of EVENT: perf_event_attr::config of a knc event, from its sysfs
# alias
config_of() {
	local kv v=0
	for kv in $(tr ',' ' ' <"$KNC_SYSFS/events/$1"); do
		case ${kv%%=*} in
		event) v=$((v | ${kv#*=})) ;;
		umask) v=$((v | ${kv#*=} << 8)) ;;
		esac
	done
	echo "$v"
}

# sweep CALL ARG...: failnth's sweep of CALL, its line shown
sweep() {
	local line
	line=$("$FAILNTH" "$@") || fail "failnth $*"
	echo "# $line" >&3
	echo "$line"
}

# init_points KO NAME: "FIRST-LAST", the injection points of loading KO
# (failnth's numbers) from the first to the last that the module's init
# makes, 16 more on each side: the kernel's stack at every point of one
# load without a fault (a kprobe on should_fail_ex() with the stacktrace
# trigger), the points of finit_module() counted in order, those under
# do_one_initcall() the init's. The trace must see as many points as
# failnth counts.
init_points() {
	local t=/sys/kernel/tracing ev n r
	ev=$t/events/kprobes/knc_fail
	[ -d $t/events ] || mount -t tracefs nodev $t || return 1
	echo 'p:knc_fail should_fail_ex' >>$t/kprobe_events || return 1
	echo 16384 >$t/buffer_size_kb
	echo 'comm == "failnth"' >$ev/filter
	echo stacktrace >$ev/trigger
	: >$t/trace
	echo 1 >$ev/enable
	n=$("$FAILNTH" -c load "$1" "$2")
	echo 0 >$ev/enable
	r=$(awk -v want="${n% injection points}" '
		function point() {
			if (!call) return
			i++
			if (init) { if (!first) first = i; last = i }
		}
		/ knc_fail: / { point(); call = 0; init = 0; next }
		/=> [_a-z0-9]*sys_f?init_module/ { call = 1 }
		/=> do_one_initcall/ { init = 1 }
		END {
			point()
			want = substr(want, index(want, ":") + 2)
			if (i != want + 0 || !first)
				printf "the trace saw %d points, %d in the init; failnth counts %d\n", i, last - first + 1, want
			else
				printf "%d-%d\n", (first > 16 ? first - 16 : 1), last + 16
		}' $t/trace)
	echo '!stacktrace' >$ev/trigger
	echo '-:knc_fail' >>$t/kprobe_events
	: >$t/trace
	echo "$r"
	[[ $r =~ ^[0-9]+-[0-9]+$ ]]
}

# sweep_init KO NAME: the load sweep of the points of KO's init: those
# before it are the loader's (the module's sysfs directory, the notifiers
# of tracing and kprobes, gcov's constructor), which fail the load before
# knc's code runs or are done without; those after it, the loader's again
sweep_init() {
	local r
	r=$(init_points "$1" "$2") || fail "$1's init: $r"
	sweep -r "$r" load "$1" "$2"
}

# expect_counts_exact: the next normal use counts exactly (CPU-wide: on
# Linux 6.1 a per-task event pins the module that owns the PMU)
expect_counts_exact() {
	local out
	out=$(mktemp)
	pstat "$out" -a -e knc/l2_read_miss/ -- "$INJ" inject l2_read_miss 4321 >/dev/null
	expect_eq "l2_read_miss" 4321 "$(count_of "$out" knc/l2_read_miss/)"
	rm -f "$out"
}

# expect_unload_reload: the modules unload, load again and count exactly
expect_unload_reload() {
	knc_modules_unload || fail "the modules do not unload"
	knc_modules_load || fail "the modules do not load again"
	expect_counts_exact
}

t_load() {
	knc_modules_unload
	if [ $backend = sim ]; then
		sweep_init "$KNC_KO" knc_pmu
		[ ! -e $KNC_SYSFS ] || fail "knc_pmu.ko alone registered a PMU on the simulator's CPU"
		sweep_init "$KNC_SIM_KO" knc_sim
	else
		echo 0 >/proc/sys/kernel/nmi_watchdog
		sweep_init "$KNC_KO" knc_pmu
	fi
	[ -e $KNC_SYSFS ] || fail "no knc PMU after the sweep"
	expect_counts_exact
	expect_unload_reload
}
case_add --unloads "each allocation of loading the modules fails cleanly, then they count" t_load

t_online() {
	sweep online 1
	[ "$(cat /sys/devices/system/cpu/cpu1/online)" = 1 ] || fail "CPU 1 stayed offline"
	expect_no_evtsel_enabled
	expect_counts_exact
	expect_unload_reload
}
case_add --unloads "each allocation of a CPU coming online under CPU-wide events fails cleanly" t_online

# Per-task events: Linux 6.1 keeps the owner pinned.
t_open() {
	local l2 dr
	l2=$(config_of l2_read_miss)
	dr=$(config_of data_read)
	sweep open-count "$l2"
	sweep open-sample "$l2"
	sweep open-group "$l2" "$dr"
	sweep open-spflt "$dr"
	expect_no_evtsel_enabled
	expect_counts_exact
}
case_add "each allocation of perf_event_open() of a counting, sampling, group and SPFLT event fails cleanly" t_open

t_mmap() {
	sweep mmap "$(config_of data_read)"
	expect_no_evtsel_enabled
	expect_counts_exact
}
case_add "each allocation of a sampling event's mmap fails cleanly" t_mmap

t_no_leak() {
	expect_no_new_leak
}
case_add --last "kmemleak: nothing new of knc's or perf's after the sweeps" t_no_leak

# Before the cases: only fail-nth injects (probability stays 0), into every
# allocation a call makes, without a stack dump per fault; kmemleak scans
# what the kernel leaked before knc came. Then the baseline every case
# starts from (lib.sh): the modules loaded.
for d in /sys/kernel/debug/failslab /sys/kernel/debug/fail_page_alloc; do
	echo N >$d/ignore-gfp-wait
	echo 0 >$d/verbose
done
echo N >/sys/kernel/debug/fail_page_alloc/ignore-gfp-highmem
echo 0 >/sys/kernel/debug/fail_page_alloc/min-order
kmemleak_baseline || { echo "Bail out! no kmemleak (knc-vm --kmemleak)"; exit 1; }
knc_modules_load || { echo "Bail out! the modules do not load"; exit 1; }
perf_throttle_off
run_cases "$@"
