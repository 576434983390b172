#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# The in-tree driver (tools/knc/intree-series.sh) built into Linux 7.3, on
# the QEMU KNC PMU model: tests/host/intree.t boots the kernel it built,
#   tools/knc/knc-vm --native --no-module --kernel DIR -- tests/guest/intree.sh
# The driver is the CPU's core PMU there, "cpu" (PERF_TYPE_RAW), and takes
# the generic events; the NMI watchdog, on at boot, holds one of its two
# counters, and these cases turn it off first. Prints TAP.
set -u
cd "$(dirname "$0")/../.." || exit 1
. tests/guest/lib/lib.sh

PMU=cpu

t_registered() {
	dmesg | grep "knc PMU registered: native backend" ||
		fail "no registration line in the kernel log"
	[ -d /sys/bus/event_source/devices/$PMU/events ] || fail "no $PMU PMU with events in sysfs"
	expect_eq "the $PMU PMU's type (PERF_TYPE_RAW)" 4 "$(cat /sys/bus/event_source/devices/$PMU/type)"
	[ ! -e /sys/bus/event_source/devices/knc ] || fail "a knc PMU beside $PMU"
}

t_exact_user_instructions() {
	local out
	out=$(mktemp)
	pstat "$out" -e $PMU/instructions_executed/u,instructions:u -- $LOOP
	expect_eq "$PMU/instructions_executed/u" $LOOP_INSNS "$(count_of "$out" $PMU/instructions_executed/u)"
	expect_eq "instructions:u (generic)" $LOOP_INSNS "$(count_of "$out" instructions:u)"
}

t_group_counts_as_one() {
	group_counts_as_one $PMU
}

# perf list with the KNC events on the core PMU: the generic aliases
# (branches, cycles, ...) beside the hardware events of the same names, as
# perf of Debian's 6.1 and of the guest (the host's) list them
t_perf_list() {
	local p out
	out=$(mktemp)
	for p in "$(tools/knc/perf-6.1)" perf; do
		"$p" --version
		"$p" list >"$out" 2>&1 || fail "$p list failed: $(tail -n 5 "$out")"
		grep -E '^ +branches OR cpu/branches/ +\[Kernel PMU event\]$' "$out" ||
			fail "$p list: no cpu/branches/"
		grep -E '^ +l2_read_miss OR cpu/l2_read_miss/ +\[Kernel PMU event\]$' "$out" ||
			fail "$p list: no cpu/l2_read_miss/"
	done
}

echo "TAP version 13"
echo 0 >/proc/sys/kernel/nmi_watchdog
run_case "the driver registers as the core PMU, $PMU, with its events" t_registered
run_case "perf stat counts the loop's user instructions exactly, by name and as the generic event" \
	t_exact_user_instructions
run_case "a group of two identical kernel-mode events counts the same, alone and switched out and in" \
	t_group_counts_as_one
run_case "perf list (Debian's 6.1 and the guest's) lists the KNC events on the cpu PMU" t_perf_list
echo "1..$tap_n"
[ "$tap_failed" -eq 0 ]
