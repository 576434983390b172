#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Linux's own KNC driver (arch/x86/events/intel/knc.c, the `cpu` PMU) on the
# QEMU model, side by side with knc_pmu.ko's suite (model.sh):
#   tools/knc/knc-vm --native --no-module -- tests/guest/linux-knc.sh [CASE]
# The same checks; where the upstream driver is wrong, a case shows the
# defect (KNC-FACTS section 3) and says what knc_pmu.ko does instead
# (model.sh checks that). With KNC_LINUX_FIXED=1, on a kernel that carries
# the fixes of make linux-fixes (the debug kernel: tests/run's suite
# debug-linux-knc), each defect case is turned around: the fixed driver
# must do what the hardware wants. perf 7.3 built from the vendor events
# series lists and counts the JSON's events through Linux's driver (cases
# of user space's side: not on the debug kernel). Prints TAP.
set -u
cd "$(dirname "$0")/../.." || exit 1
. tests/guest/lib/lib.sh
. tests/guest/lib/qmodel.sh
. tests/guest/lib/card.sh

RDPMC=build/tests/rdpmc
CPU_SYSFS=/sys/bus/event_source/devices/cpu

# counts OUT EVENT: every value perf reported for EVENT, space-separated
counts() {
	awk -v e="$2" '$1 == e { printf "%s%s", sep, $2; sep = " " }' "$1"
}

# linux_fixed: the kernel carries make linux-fixes (KNC_LINUX_FIXED=1)
linux_fixed() {
	[ "${KNC_LINUX_FIXED:-0}" = 1 ]
}

# defect_or_fixed DEFECT FIXED: the case's name on the kernel under test
defect_or_fixed() {
	if linux_fixed; then echo "$2"; else echo "$1"; fi
}

t_cpu_pmu_is_knc() {
	dmesg | grep -q "Performance Events: knc PMU driver" ||
		fail "Linux's KNC driver did not take the PMU"
	expect_eq "format files" "cmask edge event inv umask" "$(cd $CPU_SYSFS/format && echo *)"
	expect_eq "rdpmc offered" 1 "$(cat $CPU_SYSFS/rdpmc)"
}
case_add "the cpu PMU is Linux's KNC driver, on the model" t_cpu_pmu_is_knc

t_counter0_exact() {
	local out i
	out=$(mktemp)
	for i in 1 2 3; do
		pstat "$out" -e instructions:u -- $LOOP
		expect_eq "run $i" $LOOP_INSNS "$(count_of "$out" instructions:u)"
	done
}
case_add "counter 0 counts the loop's user instructions exactly" t_counter0_exact

# Two events: the second gets counter 1. Unpatched,
# knc_pmu_enable_event() writes config_base + idx, and config_base already
# is EvtSel1 (0x29): its select goes to MSR 0x2a, which faults
# (wrmsrl_safe hides it), so counter 1 never starts. Patch 1 writes EvtSel1.
t_counter1() {
	local out wr0 wr1
	out=$(mktemp)
	wr0=$(model_sum wr0x2a)
	pstat "$out" -e instructions:u,instructions:u -- $LOOP
	wr1=$(model_sum wr0x2a)
	echo "writes to MSR 0x2a: $wr0 -> $wr1"
	if linux_fixed; then
		expect_eq "counter 0, counter 1" "$LOOP_INSNS $LOOP_INSNS" "$(counts "$out" instructions:u)"
		expect_eq "writes to MSR 0x2a" "$wr0" "$wr1"
	else
		expect_eq "counter 0, counter 1" "$LOOP_INSNS 0" "$(counts "$out" instructions:u)"
		[ "$wr1" -gt "$wr0" ] || fail "no write to MSR 0x2a seen"
	fi
}
case_add "$(defect_or_fixed \
	"defect: counter 1 never counts (its EvtSel write goes to MSR 0x2a)" \
	"fixed: counter 1 counts the loop exactly, through its own EvtSel")" t_counter1

# The public report's six generic events, multiplexed onto the two
# counters, on a loop of known count. perf rotates them two at a time;
# x86_schedule_events() keeps an event on the counter it had last time
# (its fast path) and otherwise gives the first of the two counter 0, so
# after a few rotations every other event of the six sits on counter 0
# and the rest on counter 1, for the whole run. Which half is set by the
# order the rotation starts from: listed second, instructions falls on
# counter 1 and, unpatched, counts one slice of the loop at most. A
# child starts from its parent's order when it forked, so the same work
# counts either way from run to run. Patch 1: both orders estimate it.
# perf stat scales that slice by enabled/running, 3 for six events on two
# counters: a loop of S slices (4 ms each at HZ=250) is estimated at 3/S
# of its count. The loop spans about 30 slices on the fastest machine
# seen, hundreds under a slow TCG: a quarter of the count holds for any
# S of 12 or more and stays well below a fixed driver's estimate, which
# is within half of the count.
LONGLOOP=build/tests/longloop
LONGLOOP_INSNS=100000004
t_six_multiplexed() {
	local out order n lo=$((LONGLOOP_INSNS / 2)) hi=$((LONGLOOP_INSNS * 3 / 2))
	local rest=cache-references:u,cache-misses:u,branches:u,branch-misses:u
	out=$(mktemp)
	for order in "cycles:u,instructions:u,$rest" "instructions:u,$rest,cycles:u"; do
		pstat "$out" -e "$order" -- $LONGLOOP
		n=$(count_of "$out" instructions:u)
		echo "${order%%,*} first: instructions:u $n of $LONGLOOP_INSNS"
		if ! linux_fixed && [ "${order%%,*}" = cycles:u ]; then
			[ "$n" -lt $((LONGLOOP_INSNS / 4)) ] ||
				fail "instructions listed second counted: $n"
		else
			[ "$n" -gt $lo ] && [ "$n" -lt $hi ] ||
				fail "instructions:u not within half of $LONGLOOP_INSNS: $n"
		fi
	done
}
case_add "$(defect_or_fixed \
	"defect: six events multiplexed: instructions estimated or ~0 by the rotation's starting order" \
	"fixed: six events multiplexed estimate the loop's instructions in either order")" t_six_multiplexed

t_rdpmc_from_user_space() {
	local out
	# The x86 core sets CR4.PCE for a task that mmaps an rdpmc-able
	# event: the model's RDPMC then returns counter 0 (index 1).
	out=$($RDPMC self 4 0x16)
	echo "$out"
	echo "$out" | grep -q "cap_user_rdpmc=1 index=1 " || fail "no rdpmc through the page"
	echo "$out" | awk '{ split($3, r, "="); split($4, d, "="); exit !(r[2] > 0 && r[2] <= d[2]) }' ||
		fail "rdpmc's count is not between 0 and read()'s"
	expect_eq "rdpmc without the event" fault "$($RDPMC raw 0 || true)"
}
case_add "rdpmc from user space reads the model's counter" t_rdpmc_from_user_space

# An event whose output goes to a cpu-clock event's buffer writes its
# counter on that page, whose mm has no RDPMC allowed: unpatched, RDPMC
# faults there. Patch 4 offers a counter only on a mapped event's page.
t_rdpmc_on_a_redirected_page() {
	local out
	if linux_fixed; then
		out=$($RDPMC redirect 4 0x16) || fail "RDPMC through the page faulted: $out"
		expect_eq "the redirected event's page" "cap_user_rdpmc=1 index=0 rdpmc=none" "$out"
	else
		out=$($RDPMC redirect 4 0x16 || true)
		echo "$out"
		echo "$out" | grep -qx "cap_user_rdpmc=1 index=[12] rdpmc=fault" ||
			fail "expected a counter offered on the page and RDPMC faulting"
	fi
}
case_add "$(defect_or_fixed \
	"defect: a redirected event offers rdpmc on a page where it faults" \
	"fixed: no rdpmc offered on a redirected event's page")" t_rdpmc_on_a_redirected_page

t_injected_cache_event() {
	local out
	out=$(mktemp)
	# Its hardware cache map: L1-dcache-load-misses is event 0x03.
	pstat "$out" -e L1-dcache-load-misses -- "$MODEL" inject 0x0003 4321
	expect_eq "L1-dcache-load-misses" 4321 "$(count_of "$out" L1-dcache-load-misses)"
	pstat "$out" -e r10cb -- "$MODEL" inject 0x10cb 777
	expect_eq "raw r10cb" 777 "$(count_of "$out" r10cb)"
}
case_add "the cache map and raw events count injected events exactly" t_injected_cache_event

t_generic_perf_stat() {
	local out
	out=$(mktemp)
	pstat "$out" -- build/tests/busy 0.2
	[ "$(count_of "$out" instructions)" -gt 0 ] 2>/dev/null ||
		fail "no instructions in perf stat's default events"
}
case_add "perf stat with the default events counts" t_generic_perf_stat

t_init_keeps_registers() {
	msr_driver
	# No event uses CPU 1's counters now (the watchdog is off).
	msr_rw 1 0x20 0x123456789a
	msr_rw 1 0x29 0x16
	expect_eq "counter 0 written" 0x123456789a "$(msr_rw 1 0x20)"
	# Offline and online: the CPU goes through INIT and SIPI, which
	# leave the PMU's registers as they were (a warm reset would not).
	echo 0 >/sys/devices/system/cpu/cpu1/online
	echo 1 >/sys/devices/system/cpu/cpu1/online
	expect_eq "counter 0 after INIT" 0x123456789a "$(msr_rw 1 0x20)"
	expect_eq "EvtSel1 after INIT" 0x16 "$(msr_rw 1 0x29)"
	msr_rw 1 0x20 0
	msr_rw 1 0x29 0
}
case_add "INIT (CPU offline and online) keeps the PMU registers" t_init_keeps_registers

# The PMI masks the LVT performance entry (the APIC does so on delivery);
# unpatched, knc_pmu_handle_irq() never unmasks it. Only x86_pmu_enable()
# does, when it next programs an event (at a context switch), so the
# overflows of a CPU-bound task between two switches are lost: far fewer
# samples than the 20 due. Patch 3 unmasks it in the handler.
# --per-thread: one event follows the task, its period across a migration;
# perf record's default is one event per CPU, each with its own period, so
# a task that moves loses the partial period it left behind: one sample
# fewer than due, by perf's design, not the driver's.
t_pmis_of_a_sampled_loop() {
	local d=/tmp/linux-rec.data n lost0 lost1 due=$((LOOP_INSNS / 100000)) cpu
	lost0=$(model_sum pmi_lost)
	perf record --per-thread -o $d -e instructions:u -c 100000 -- $LOOP
	lost1=$(model_sum pmi_lost)
	n=$(perf script -i $d -F ip | wc -l)
	echo "samples: $n of $due; PMIs lost to the masked entry: $((lost1 - lost0))"
	# Unpatched, the handler never sees the lost PMIs: their overflow bits
	# stay in GLOBAL_STATUS and hold the PMI line, and an event that later
	# counts on that CPU starts from them (an injected l2_read_miss then
	# read 0). Clear them through OVF_CONTROL, as the handler would have.
	if ! linux_fixed; then
		msr_driver
		for cpu in /dev/cpu/[0-9]*; do
			msr_rw "${cpu##*/}" 0x2e 0x3
		done
	fi
	if linux_fixed; then
		expect_eq "samples" $due "$n"
		expect_eq "PMIs lost to a masked LVT entry" 0 $((lost1 - lost0))
	else
		[ "$n" -lt $due ] || fail "no sample lost"
		[ $((lost1 - lost0)) -gt 0 ] || fail "the model saw no PMI lost to a masked LVT entry"
	fi
}
case_add "$(defect_or_fixed \
	"defect: PMIs lost, the handler leaves the LVT entry masked" \
	"fixed: perf record -c 100000 gets all 20 PMIs of the loop, none lost")" t_pmis_of_a_sampled_loop

# An NMI that finds GLOBAL_STATUS 0 is not the PMU's: the x86 core's
# perf_event_nmi_handler() returns what knc_pmu_handle_irq() handled, 0,
# and leaves it to the next handler while an event counts.
t_status0_nmi_left() {
	expect_status0_nmis_left instructions perf_event_nmi_handler
}
case_add "an NMI that finds the status 0 is left to the next handler" t_status0_nmi_left

# An overflow while the PMI line is up raises no PMI of its own (section
# 1.4.3.9): knc_pmu_handle_irq() must find it in GLOBAL_STATUS beside the
# overflow that raised the line. Kernel instructions (period 30000)
# overflow during the entry of some of the PMIs of the loop's user
# instructions (period 10000), as model.sh's t_overflow_while_line_high
# shows for knc_pmu.ko (why instructions, not cycles: there). Unpatched,
# the kernel instructions, on counter 1, never count (its EvtSel goes to
# MSR 0x2a) and the masked LVT entry loses instruction PMIs: no overflow
# is serviced beside another, and samples are lost. --per-thread: as in
# t_pmis_of_a_sampled_loop.
t_overflow_while_line_high() {
	local d=/tmp/linux-high.data pmi0 pmi1 ni nk try cpu
	for try in 1 2 3 4 5; do
		pmi0=$(pmis)
		perf record --per-thread -o $d -e cpu/instructions,period=10000/u \
			-e cpu/instructions,period=30000/k -- $LOOP
		pmi1=$(pmis)
		ni=$(nsamples $d 'period=10000/u:')
		nk=$(nsamples $d 'period=30000/k:')
		echo "try $try: $ni + $nk samples, $((pmi1 - pmi0)) PMIs"
		linux_fixed || break
		expect_eq "samples of the loop's instructions" $((LOOP_INSNS / 10000)) "$ni"
		[ $((ni + nk)) -le $((pmi1 - pmi0)) ] || break
	done
	if linux_fixed; then
		[ $((ni + nk)) -gt $((pmi1 - pmi0)) ] || fail "no overflow came while the line was up in $try runs"
		tried "$try" 5
		expect_pmis_serviced
	else
		expect_eq "kernel instruction samples (counter 1)" 0 "$nk"
		[ "$ni" -lt $((LOOP_INSNS / 10000)) ] || fail "no instruction sample lost"
		# as t_pmis_of_a_sampled_loop: clear what the handler left
		msr_driver
		for cpu in /dev/cpu/[0-9]*; do
			msr_rw "${cpu##*/}" 0x2e 0x3
		done
	fi
}
case_add "$(defect_or_fixed \
	"defect: no overflow is serviced beside another: counter 1 never counts, PMIs are lost" \
	"fixed: an overflow while the PMI line is up is serviced by the PMI already raised")" t_overflow_while_line_high

t_bad_attr_table() {
	# The x86 column of the bad-input table (Documentation/knc-pmu.rst):
	# what the core PMU answers for the same attrs, as PERF_TYPE_RAW.
	build/tests/badattr cpu
}
case_add "bad perf_event_attrs get the errnos of the table's x86 column" t_bad_attr_table

# papi_tot OUT EVENT: the count papi_command_line printed for EVENT
papi_tot() {
	awk -v e="$2" '$1 == e && $2 == ":" { print $3 }' "$1"
}

# papi_pair [ENV...]: PAPI's first preset pair, which papi_command_line
# opens as one group (with the watchdog off, both counters are free), with
# the environment ENV; REPLY: "INS CYC"
papi_pair() {
	local out
	out=$(mktemp)
	env "$@" papi_command_line PAPI_TOT_INS PAPI_TOT_CYC >"$out" 2>&1 ||
		fail "papi_command_line failed: $(cat "$out")"
	cat "$out"
	! grep -q "Failed adding" "$out" || fail "PAPI could not add both"
	REPLY="$(papi_tot "$out" PAPI_TOT_INS) $(papi_tot "$out" PAPI_TOT_CYC)"
}

# expect_pair_on_cpu_pmu: papi_pair's REPLY is what Linux's driver counts:
# the second event gets counter 1, which counts only with patch 1.
expect_pair_on_cpu_pmu() {
	local ins cyc
	read -r ins cyc <<<"$REPLY"
	[ "${ins:-0}" -gt 0 ] || fail "PAPI_TOT_INS (counter 0) did not count"
	if linux_fixed; then
		[ "${cyc:-0}" -gt 0 ] || fail "PAPI_TOT_CYC (counter 1) did not count"
	else
		expect_eq "PAPI_TOT_CYC (counter 1)" 0 "$cyc"
	fi
}

t_papi_tot_ins_tot_cyc() {
	paranoid 2
	papi_pair
	expect_pair_on_cpu_pmu
}
case_add "$(defect_or_fixed \
	"defect: PAPI_TOT_INS and PAPI_TOT_CYC together: the second, on counter 1, reads 0" \
	"fixed: PAPI counts PAPI_TOT_INS and PAPI_TOT_CYC together")" t_papi_tot_ins_tot_cyc

# libpfm4 with tools/knc/libpfm4's patch (make libpfm4), used through
# LD_LIBRARY_PATH: PAPI's events go to the knc PMU when knc_pmu.ko
# registered it, and to PERF_TYPE_RAW (Linux's driver) otherwise.
PFM=build/libpfm4
PFM_ENV=("LD_LIBRARY_PATH=$PFM")

# pfm_patched: PAPI's programs load make libpfm4's library
pfm_patched() {
	[ -f $PFM/libpfm.so.4 ] || fail "$PFM/libpfm.so.4 is missing (make libpfm4)"
	env "${PFM_ENV[@]}" ldd "$(command -v papi_command_line)" | grep -q " $PFM/libpfm.so.4 " ||
		fail "papi_command_line does not load $PFM/libpfm.so.4"
}

t_papi_patched_libpfm4_without_knc() {
	pfm_patched
	[ ! -e /sys/bus/event_source/devices/knc ] || fail "the knc PMU is registered"
	paranoid 2
	papi_pair "${PFM_ENV[@]}"
	expect_pair_on_cpu_pmu
}
case_add "PAPI with make libpfm4's library and no knc_pmu.ko counts through Linux's driver, as Debian's" \
	t_papi_patched_libpfm4_without_knc

# papicount_loop [ENV...]: a million loop iterations counted by PAPI's
# INSTRUCTIONS_EXECUTED, three times, each the same and the loop's 2 million
# plus PAPI's own code
papicount_loop() {
	local out c i prev=
	for i in 1 2 3; do
		out=$(env "$@" build/tests/papicount INSTRUCTIONS_EXECUTED loop 1000000)
		echo "$out"
		c=${out##* }
		[ "$c" -ge 2000000 ] && [ "$c" -lt 2010000 ] || fail "run $i: $out"
		[ -z "$prev" ] || expect_eq "run $i, as run 1" "$prev" "$c"
		prev=$c
	done
}

t_papi_instructions() {
	paranoid 2
	# libpfm4 takes the model for a KNC: PAPI counts through this driver
	# (PERF_TYPE_RAW).
	papicount_loop
}
case_add "Debian's PAPI counts a loop's instructions on the model, the same each run" t_papi_instructions

# With knc_pmu.ko loaded, the patched library opens PAPI's events on knc:
# knc_pmu.ko reserves the counters Linux's driver had (its log line), both
# count (counter 1 too, unpatched), and PAPI counts while perf has knc
# events open, where Debian's library gets EBUSY from the cpu PMU. PAPI's
# 14 KNC presets open; on the model only the instructions and cycles move
# by themselves. Last: on 6.1 knc_pmu.ko stays pinned once a task used it.
t_papi_patched_libpfm4_through_knc() {
	local out p n=0 reserver ins cyc
	out=$(mktemp)
	pfm_patched
	paranoid 2
	insmod "$KNC_KO"
	log_mark
	papi_pair "${PFM_ENV[@]}"
	read -r ins cyc <<<"$REPLY"
	[ "${ins:-0}" -gt 0 ] && [ "${cyc:-0}" -gt 0 ] || fail "PAPI_TOT_INS, PAPI_TOT_CYC: $REPLY"
	log_since | grep -q "knc_pmu: knc events hold the counters" ||
		fail "knc_pmu.ko did not reserve the counters: $(log_since)"
	papicount_loop "${PFM_ENV[@]}"

	perf stat -o /dev/null -a -e knc/cpu_clk_unhalted/ -- sleep infinity &
	reserver=$!
	wait_pid_comm $reserver sleep
	papicount_loop "${PFM_ENV[@]}"
	if build/tests/papicount INSTRUCTIONS_EXECUTED loop 1000 >"$out" 2>&1; then
		fail "Debian's libpfm4 counted beside a knc event: $(cat "$out")"
	fi
	cat "$out"
	grep -q "A System/C library call failed" "$out" || fail "not EBUSY"
	pkill -P $reserver -x sleep
	wait $reserver

	env "${PFM_ENV[@]}" papi_avail -a >"$out" 2>&1
	grep -q "Of 14 available events" "$out" || fail "not PAPI's 14 KNC presets: $(cat "$out")"
	for p in $(awk '/^PAPI_/ { print $1 }' "$out"); do
		env "${PFM_ENV[@]}" papi_command_line "$p" >"$out.p" 2>&1 || fail "$p: $(cat "$out.p")"
		! grep -q "Failed adding" "$out.p" || fail "$p: $(cat "$out.p")"
		grep -E "^$p : " "$out.p"
		case $p in
		PAPI_TOT_INS | PAPI_TOT_CYC)
			[ "$(papi_tot "$out.p" "$p")" -gt 0 ] || fail "$p did not count" ;;
		esac
		n=$((n + 1))
	done
	expect_eq "presets counted" 14 $n
}
case_add --last "PAPI with make libpfm4's library counts through knc_pmu.ko: both counters, beside perf's knc events (Debian's library: EBUSY), the 14 presets" \
	t_papi_patched_libpfm4_through_knc

# knc-check, the card's self-check (tools/knc/card/), on Linux's driver:
# unpatched, it finds the defects and names their patches (three
# multiplexed counts add up to half the loop's twice: counter 1's turns
# count nothing); patched, every check passes.
# Unpatched, the PMIs lost to the masked LVT entry leave their overflow
# bits in GLOBAL_STATUS (see t_pmis_of_a_sampled_loop): knc-check clears
# them itself, and has the kernel unmask the entry.
t_knc_check() {
	card_check
	card_left_as_found
	grep -E -q "^kernel: $(uname -r)$" "$card_out" || fail "knc-check did not print the kernel release"
	grep -q "^driver: Linux's cpu PMU (type 4, .*), arch/x86/events/intel/knc.c" "$card_out" ||
		fail "knc-check did not find Linux's driver"
	if linux_fixed; then
		card_all_pass
		return
	fi
	expect_eq "knc-check's exit status" 1 "$REPLY"
	card_verdict PASS "counter 0 counts"
	card_verdict FAIL "counter 1 counts" 1
	card_verdict FAIL "two events together" 1
	card_verdict FAIL "sampling:" 3
	card_verdict FAIL "multiplexing:" 1
	card_verdict PASS "RDPMC: offered"
	card_verdict FAIL "RDPMC: not offered" x86
	card_verdict PASS "an inherited count"
}
case_add "$(defect_or_fixed \
	"defect: knc-check finds counter 1, multiplexing, the PMIs and the redirected RDPMC, names patches 1, 3 and the x86 core's" \
	"fixed: knc-check passes every check")" t_knc_check

# knc-stat on the driver as it is: unpatched, counter 1 never counts, and
# an event put there reads 0 as if counted. knc-stat finds that out and
# counts only on counter 0: with the NMI watchdog on (it holds counter 0)
# it counts nothing and says why; with it off several events take turns on
# counter 0 (estimates, none 0). Patched, both counters count: the loop's
# instructions exactly beside the watchdog, and two events together.
# The NMI watchdog holds counter 0 where the kernel has one (Debian's, the
# debug kernel); where it has none, a pinned cycles event on every CPU
# holds it, as the watchdog's does.
t_card_stat_watchdog() {
	local out status=0 holder=
	out=$(mktemp)
	if [ -e /proc/sys/kernel/nmi_watchdog ]; then
		echo 1 >/proc/sys/kernel/nmi_watchdog
	else
		perf stat -a -e cycles:D -o /dev/null -- sleep 600 &
		holder=$!
		sleep 1
	fi
	"$KNC_STAT" -e instructions:u -- "$LOOP" >"$out" 2>&1 || status=$?
	if [ -n "$holder" ]; then
		kill -INT $holder
		wait $holder
	else
		echo 0 >/proc/sys/kernel/nmi_watchdog
	fi
	cat "$out"
	if linux_fixed; then
		expect_eq "knc-stat's exit status" 0 $status
		grep -E -q '^ +2,000,004 +instructions:u$' "$out" || fail "not the loop's 2,000,004 on counter 1"
		return
	fi
	expect_eq "knc-stat's exit status" 255 $status
	grep -q "^knc-stat: no count would be right here: counter 1 does not count on this kernel" "$out" &&
		grep -q "and counter 0 is held by the NMI watchdog" "$out" || fail "not said why"
	! grep -E -q 'instructions:u$|Exact' "$out" || fail "a count printed"
}
case_add "$(defect_or_fixed 	"defect: knc-stat counts nothing beside the NMI watchdog (counter 1 only: it never counts), and says why" 	"fixed: knc-stat counts the loop exactly on counter 1, beside the NMI watchdog")" t_card_stat_watchdog user

t_card_stat_counter1() {
	local out busy=(build/tests/busy 0.05)
	out=$(mktemp)
	# the two events the model counts for real
	if linux_fixed; then
		card_stat "$out" -e instructions:u,cycles:u -- "$LOOP"
		expect_eq "instructions:u beside cycles:u" "$LOOP_INSNS exact" "$(card_value "$out" instructions:u)"
		[ "$(card_value "$out" cycles:u | awk '$1 > 0 && $2 == "exact"')" ] || fail "cycles:u not counted exactly"
		return
	fi
	"$KNC_STAT" -e instructions:u,cycles:u -- "${busy[@]}" >"$out" 2>&1 || fail "knc-stat failed: $(cat "$out")"
	cat "$out"
	grep -q "^ Counter 1 does not count on this kernel" "$out" || fail "not said that counter 1 does not count"
	grep -q "^ Estimates: 2 PMU events take turns on counter 0;" "$out" || fail "not said to take turns"
	[ "$(grep -E -c '^ +[1-9][0-9,]* +(instructions|cycles):u +\(estimate: counted' "$out")" -eq 2 ] ||
		fail "not two estimates, neither 0"
	card_stat "$out" -e instructions:u,cycles:u,instructions:k -- "${busy[@]}"
	[ "$(awk -F';' '$6 == "estimate" && $1 > 0 { n++ } END { print n + 0 }' "$out")" -eq 3 ] ||
		fail "not three estimates, none 0"
}
case_add "$(defect_or_fixed 	"defect: knc-stat keeps events off counter 1: two and three events take turns on counter 0, estimates, none 0" 	"fixed: knc-stat counts two events together on both counters, exactly")" t_card_stat_counter1

# knc-stat's cases (lib/card.sh) on the cpu PMU, and knc-record's where it
# samples
cases+=("${CARD_CASES[@]}")
! linux_fixed || cases+=("${CARD_RECORD_CASES[@]}")

# make perf's perf 7.3, built with the vendor events series, finds the
# knightscorner tables by the CPUID alone: no PERF_CPUID, no knc module.
PERF73=build/perf/perf

# Every event and metric of the series, with its descriptions, in perf
# list -j, perf list and perf list metric; every metric parses.
t_perf73_lists_the_series() {
	env -u PERF_CPUID -u SYSFS_PATH tests/host/perf-events-list.py "$PERF73"
}
case_add "perf 7.3 with the vendor events series lists every knc event and metric" t_perf73_lists_the_series user

# A few by hand, as a user reads them.
t_perf73_list_by_hand() {
	local out
	out=$(mktemp)
	export PAGER=cat
	"$PERF73" list >"$out"
	grep -A1 -x '  l2_read_miss' "$out" | grep -q 'L2 read misses' ||
		fail "l2_read_miss not listed with its description"
	grep -x 'vpu:' "$out" >/dev/null || fail "no vpu topic"
	"$PERF73" list metric >"$out"
	grep -A1 -x '  knc_ipc' "$out" | grep -q 'Instructions executed per unhalted cycle' ||
		fail "knc_ipc not listed with its description"
	rm -f "$out"
}
case_add "perf 7.3 list: l2_read_miss, the vpu topic, knc_ipc, with descriptions" t_perf73_list_by_hand user

# A JSON event counts through Linux's driver: instructions_executed:u of
# the loop is exact (on counter 0: the watchdog's counter freed).
t_perf73_json_event_counts() {
	local out
	echo 0 >/proc/sys/kernel/nmi_watchdog
	out=$(mktemp)
	"$PERF73" stat -x, -e instructions_executed:u -- "$LOOP" 2>"$out" >/dev/null ||
		fail "perf stat fails: $(cat "$out")"
	expect_eq "instructions_executed:u of the loop" "$LOOP_INSNS" \
		"$(awk -F, '$3 ~ /instructions_executed/ { print $1 }' "$out")"
	rm -f "$out"
}
case_add "perf 7.3 stat -e instructions_executed:u counts the loop exactly" t_perf73_json_event_counts user

# perf stat -M beside the NMI watchdog, which holds a counter: the
# metrics' MetricConstraint (NO_GROUP_EVENTS_NMI, NO_GROUP_EVENTS) has
# perf open their events without a group, so that they take turns on the
# other counter; a group of two would never be scheduled. Every metric but
# the L2 read hit ratio needs counter 1 then. Fixed, every metric gets a
# value (tests/guest/progs/watchdog-metrics.py); unpatched, the watchdog's
# event takes counter 0 and knc_ipc's two events, taking turns on counter
# 1, read 0: no value.
t_perf73_metrics_beside_the_watchdog() {
	local out
	out=$(mktemp)
	echo 1 >/proc/sys/kernel/nmi_watchdog
	"$PERF73" stat -x';' -e '{instructions_executed,cpu_clk_unhalted}' -- "$LOOP" 2>"$out" >/dev/null
	cat "$out"
	[ "$(grep -c '^<not counted>;' "$out")" -eq 2 ] ||
		fail "a group of two counted beside the watchdog"
	if linux_fixed; then
		tests/guest/progs/watchdog-metrics.py "$PERF73"
		return
	fi
	"$PERF73" stat -x';' -M knc_ipc -- "$LOOP" 2>"$out" >/dev/null
	cat "$out"
	grep -q "Not grouping metric knc_ipc's events" "$out" || fail "the events grouped"
	[ "$(grep -c '^0;' "$out")" -eq 2 ] || fail "not both events 0"
	[ -z "$(awk -F';' '$7 ~ /knc_ipc/ && $6 != ""' "$out")" ] || fail "knc_ipc has a value"
}
case_add "$(defect_or_fixed \
	"defect: perf 7.3 stat -M beside the NMI watchdog: knc_ipc's events take turns on counter 1, read 0, no value" \
	"fixed: perf 7.3 stat -M gives every metric a value beside the NMI watchdog")" t_perf73_metrics_beside_the_watchdog user

# The baseline every case starts from (lib.sh): the NMI watchdog off, so
# that the cases have both counters.
[ ! -e /proc/sys/kernel/nmi_watchdog ] || echo 0 >/proc/sys/kernel/nmi_watchdog
perf_throttle_off
run_cases "$@"
