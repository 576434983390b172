#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# The native backend on emulated KNC hardware: QEMU with the Knights Corner
# PMU model (tools/knc/qemu), booted by
#   tools/knc/knc-vm --native --no-module -- tests/guest/model.sh [CASE]
# As on a KNC owner's machine, Debian's kernel drives the PMU at boot
# (arch/x86/events/intel/knc.c, the `cpu` PMU) and the NMI watchdog holds
# a counter; this suite loads knc_pmu.ko itself. Real execution counts
# (executed instructions exactly, unhalted cycles from the virtual clock);
# every other event is injected through QEMU's monitor (tools/knc/knc-model).
# Prints TAP. Each case starts with knc_pmu.ko loaded and the watchdog off
# (lib.sh's baseline); those that unload the module run first on Linux
# 6.1, where the first per-task event pins it.
set -u
cd "$(dirname "$0")/../.." || exit 1
. tests/guest/lib/lib.sh
. tests/guest/lib/qmodel.sh
. tests/guest/lib/counting.sh
. tests/guest/lib/accesses.sh
. tests/guest/lib/card.sh

# What a case needs of the boot, before this suite changed anything.
read -r BOOT_NMI_WATCHDOG </proc/sys/kernel/nmi_watchdog

RDPMC=build/tests/rdpmc
WAITLOOP=build/tests/waitloop	# LOOP_INSNS once its read returns
SPFLT=build/tests/spflt

# pstat_cpus OUT PERF-STAT-ARGS...: perf stat -A (per CPU); OUT gets
# "CPUn<TAB>event<TAB>value" lines
pstat_cpus() {
	local out=$1 raw
	shift
	raw=$(mktemp)
	perf stat -A -x';' -o "$raw" "$@" || { cat "$raw"; rm -f "$raw"; return 1; }
	awk -F';' '$1 ~ /^CPU[0-9]+$/ { print $1 "\t" $4 "\t" $2 }' "$raw" >"$out"
	cat "$raw"
	rm -f "$raw"
}

# cpu_count_of OUT CPU EVENT: the value perf reported for EVENT on CPU
cpu_count_of() {
	awk -F'\t' -v c="CPU$2" -v e="$3" '$1 == c && $2 == e { print $3 }' "$1"
}

# in_cpu_list CPU LIST: CPU is in LIST ("0-1", "0,2-3")
in_cpu_list() {
	local r
	for r in ${2//,/ }; do
		[ "$1" -ge "${r%-*}" ] && [ "$1" -le "${r#*-}" ] && return 0
	done
	return 1
}

# wait_in_read PID: PID has exec'd and sleeps in read(2)
wait_in_read() {
	local i
	for i in $(seq 300); do
		[ "$(cut -d' ' -f1 "/proc/$1/syscall" 2>/dev/null)" = 0 ] &&
			[ "$(cat "/proc/$1/comm")" = "$(basename "$WAITLOOP")" ] && return 0
		sleep 0.1
	done
	fail "$WAITLOOP (pid $1) never waited in read"
}

t_linux_driver_owns_the_pmu() {
	dmesg | grep -q "Performance Events: knc PMU driver" ||
		fail "Linux's KNC driver did not find the PMU"
	[ -d /sys/bus/event_source/devices/cpu ] || fail "no cpu PMU"
	expect_eq "nmi_watchdog at boot" 1 "$BOOT_NMI_WATCHDOG"
}
case_add "Linux's KNC driver drives the model at boot; the NMI watchdog runs" t_linux_driver_owns_the_pmu x86

# knc_pmu.ko reserves the counters at its first event and releases them
# after its last, as the x86 core does: loaded, it reserves nothing.
t_busy_with_watchdog() {
	local out
	rmmod knc_pmu
	echo 1 >/proc/sys/kernel/nmi_watchdog
	insmod "$KNC_KO" || fail "insmod failed beside the NMI watchdog"
	[ -d $KNC_SYSFS/events ] || fail "no knc PMU in sysfs"
	out=$(mktemp)
	log_mark
	if perf stat -o "$out" -e knc/instructions_executed/u -- true 2>"$out.err"; then
		rmmod knc_pmu
		fail "a knc event opened while the watchdog holds a counter"
	fi
	cat "$out.err"
	grep -q "Device or resource busy" "$out.err" || fail "not EBUSY"
	log_since | grep -q "knc_pmu: knc events get EBUSY.*nmi_watchdog" ||
		fail "no kernel log line saying who has the counters and what to do"
	expect_eq nmi_watchdog 1 "$(cat /proc/sys/kernel/nmi_watchdog)"
	rmmod knc_pmu
}
case_add --unloads "knc_pmu.ko loads beside the NMI watchdog; its events get EBUSY, and a log line says how to free the counters" t_busy_with_watchdog x86

t_probe_passes() {
	rmmod knc_pmu
	insmod "$KNC_KO" || fail "insmod failed with the counters free"
	dmesg | grep "knc_pmu" | tail -n 1 | grep -q "native backend" ||
		fail "the module did not pick the native backend"
	[ -d $KNC_SYSFS/events ] || fail "no knc PMU in sysfs"
}
case_add --unloads "with the watchdog off the probe passes: the counters keep their values" t_probe_passes x86

# knc_pmu's handover lines are rate-limited (pr_info_ratelimited: 10 a
# line in 5 s from the first), so after a case that opened and closed many
# knc events the next line can be suppressed. log_ratelimit_wait waits until
# 5 s after knc_pmu's last line, on the kernel log's clock (a line written
# to /dev/kmsg tells the time), after which the next line is printed.
log_ratelimit_wait() {
	local w
	echo "knc-test: ratelimit check" >/dev/kmsg
	w=$(dmesg | awk -F'[][]' '/\] knc_pmu: / { last = $2 }
		/\] knc-test: ratelimit check/ { now = $2 }
		END { if (last != "" && last + 5.5 > now) printf "%.2f", last + 5.5 - now }')
	[ -z "$w" ] || sleep "$w"
}

# expect_busy_beside HOLDER EVENT ERE: while a perf stat -a counts HOLDER,
# EVENT gets EBUSY, and knc_pmu's last kernel log line matches ERE
expect_busy_beside() {
	local bg err why=''
	err=$(mktemp)
	log_ratelimit_wait
	# until killed: a loaded TCG host can stretch the checks past 30 s
	perf stat -o /dev/null -a -e "$1" -- build/tests/busy 600 &
	bg=$!
	wait_pid_comm $bg busy
	if perf stat -o /dev/null -e "$2" -- true 2>"$err"; then
		why="$2 opened while $1 has the counters reserved"
	elif ! grep -q "Device or resource busy" "$err"; then
		why="$2: not EBUSY"
	elif ! dmesg | grep "knc_pmu: " | tail -n 1 | grep -q -E "$3"; then
		why="no kernel log line saying: $3"
	fi
	cat "$err"
	pkill -P $bg -x busy
	wait $bg
	[ -z "$why" ] || fail "$why"
}

# The generic events belong to the cpu PMU. With knc_pmu.ko loaded and no
# knc event open it counts as without the module (plain perf stat works);
# while a knc event is open its driver cannot reserve the counters, and
# while a cpu event is open knc cannot: EBUSY each way, with a kernel log
# line from knc_pmu.
t_cpu_pmu_busy_while_loaded() {
	local out
	out=$(mktemp)
	pstat "$out" -e instructions:u -- $LOOP
	expect_eq "cpu's instructions:u, knc loaded and idle" $LOOP_INSNS "$(count_of "$out" instructions:u)"
	perf stat -o /dev/null -- build/tests/busy 0.1 || fail "plain perf stat failed beside knc_pmu.ko"
	expect_busy_beside knc/instructions_executed/ instructions:u \
		"knc events hold the counters: the cpu PMU's events and the NMI watchdog get EBUSY"
	expect_busy_beside instructions knc/instructions_executed/u \
		"knc events get EBUSY: the cpu PMU's events or the NMI watchdog hold the counters"
	# CPU-wide: a per-task event would pin the module on 6.1.
	pstat "$out" -a -e knc/l2_read_miss/ -- "$MODEL" inject l2_read_miss 1234 --any
	expect_eq "knc's, after" 1234 "$(count_of "$out" knc/l2_read_miss/)"
}
case_add "loaded and idle, knc_pmu.ko leaves the counters to the cpu PMU; while one PMU has events the other gets EBUSY" t_cpu_pmu_busy_while_loaded x86

t_reload_count_exact() {
	local i out
	out=$(mktemp)
	for i in 1 2 3; do
		rmmod knc_pmu
		insmod "$KNC_KO"
		pstat "$out" -a -e knc/l2_read_miss/ -- "$MODEL" inject l2_read_miss $((1000 + i)) --any
		expect_eq "cycle $i" $((1000 + i)) "$(count_of "$out" knc/l2_read_miss/)"
	done
}
case_add --unloads "unload, load and count injected events exactly, 3 times" t_reload_count_exact register

t_watchdog_back_after_unload() {
	local out
	rmmod knc_pmu
	echo 1 >/proc/sys/kernel/nmi_watchdog
	expect_eq nmi_watchdog 1 "$(cat /proc/sys/kernel/nmi_watchdog)"
	out=$(mktemp)
	echo 0 >/proc/sys/kernel/nmi_watchdog
	pstat "$out" -e instructions:u -- $LOOP
	expect_eq "cpu's instructions:u" $LOOP_INSNS "$(count_of "$out" instructions:u)"
}
case_add --unloads "after unload the cpu PMU and the watchdog have the counters back" t_watchdog_back_after_unload x86

# knc_model_test.ko checks the model in ring 0 at load (insmod fails with
# EIO when a check fails) and says what it saw in the kernel log, which
# model_test_log prints. It writes the counters itself, with knc_pmu.ko
# unloaded: the watchdog gives them up for the while. The PMIs it loses on
# purpose are counted in $PMI_LOST_ON_PURPOSE, for expect_pmis_serviced.
model_test_log() {
	local wd lost0
	rmmod knc_pmu
	wd=$(cat /proc/sys/kernel/nmi_watchdog)
	echo 0 >/proc/sys/kernel/nmi_watchdog
	log_mark
	lost0=$(model_sum pmi_lost)
	insmod "$KNC_MODEL_TEST_KO" || true
	echo $(($(cat $PMI_LOST_ON_PURPOSE 2>/dev/null || echo 0) + $(model_sum pmi_lost) - lost0)) \
		>$PMI_LOST_ON_PURPOSE
	echo "$wd" >/proc/sys/kernel/nmi_watchdog
	log_since | grep "knc_model_test: "
	lsmod | grep -q "^knc_model_test " || return 1
	rmmod knc_model_test
}

t_pmi_before_interrupt_or_fault() {
	local log c
	log=$(model_test_log) || { echo "$log"; fail "knc_model_test.ko failed its checks"; }
	for c in pmi_before_irq pmi_before_fault pmi_after_read; do
		echo "$log" | grep "knc_model_test: ok $c:" || fail "no result of $c"
	done
}
case_add --unloads "a PMI comes right after its instruction, before a due interrupt or the next one's fault, a read of the PMU's registers before it or not" t_pmi_before_interrupt_or_fault

# The conformance rules of knc_model_test.c (Documentation's table): each
# one with a ring-0 check passes; the ones without say so, or name the
# case that checks them: one in this suite's list, or a host test.
t_conformance_rules() {
	local log fn
	log=$(model_test_log) || true
	echo "$log" | grep -E "knc_model_test: (ok|not ok|# )|conformance:" |
		sed 's/^.*knc_model_test: //'
	echo "$log" | grep -q "knc_model_test: conformance: [0-9]* rules, 0 failed" ||
		fail "a conformance rule failed on the model"
	for fn in $(echo "$log" | sed -n 's/^.*knc_model_test: # [a-z_0-9]*: model.sh \(t_[a-z_0-9]*\)$/\1/p'); do
		printf '%s\n' "${cases[@]}" | grep -q "|$fn\(|\|$\)" || fail "no case $fn in model.sh"
	done
	for fn in $(echo "$log" | sed -n 's/^.*knc_model_test: # [a-z_0-9]*: \(tests\/host\/[a-z_0-9-]*\.t\)$/\1/p'); do
		[ -x "$fn" ] || fail "no host test $fn"
	done
}
case_add --unloads "in ring 0 the model follows every rule of the conformance table (reserved bits, absent MSRs, the PMI latch, RDPMC)" t_conformance_rules

# Tables 1-5 and 1-6: an encoding they do not define, or an L2 event
# (counter 0 only) on counter 1, counts nothing; l2_read_miss on counter
# 0 counts every injected event. CPU 1's registers, written through the
# msr driver with the watchdog off and no knc event open, are put back.
t_undefined_encodings_count_nothing() {
	local wd en=$((0x430000)) c0 c1 l2	# EN, OS, USR
	msr_driver
	wd=$(cat /proc/sys/kernel/nmi_watchdog)
	echo 0 >/proc/sys/kernel/nmi_watchdog
	msr_rw 1 0x2f 0
	msr_rw 1 0x20 0
	msr_rw 1 0x21 0
	msr_rw 1 0x28 $((en | 0x05))	# event 0x05: not in table 1-5
	msr_rw 1 0x29 $((en | 0x10cb))	# l2_read_miss on counter 1
	msr_rw 1 0x2f 3
	taskset -c 1 "$MODEL" inject 0x05 1000 --any
	taskset -c 1 "$MODEL" inject 0x10cb 1000 --any
	msr_rw 1 0x2f 0
	c0=$(($(msr_rw 1 0x20)))
	c1=$(($(msr_rw 1 0x21)))
	msr_rw 1 0x28 $((en | 0x10cb))
	msr_rw 1 0x2f 1
	taskset -c 1 "$MODEL" inject 0x10cb 1000 --any
	msr_rw 1 0x2f 0
	l2=$(($(msr_rw 1 0x20)))
	msr_rw 1 0x28 0
	msr_rw 1 0x29 0
	msr_rw 1 0x20 0
	echo "$wd" >/proc/sys/kernel/nmi_watchdog
	expect_eq "undefined event 0x05 on counter 0" 0 "$c0"
	expect_eq "l2_read_miss on counter 1" 0 "$c1"
	expect_eq "l2_read_miss on counter 0" 1000 "$l2"
}
case_add "an undefined encoding, or an L2 event on counter 1, counts nothing" t_undefined_encodings_count_nothing

# The x86 core zeroes, once per CPU, each counter its cpu PMU has used
# when it first switches to a task that may use RDPMC (perf record maps
# its events: knc allows RDPMC). knc_pmu.ko has it do that as its first
# event reserves the counters, so it does not hit a live knc counter later: a
# CPU-wide count then jumps by 2^39, its period's start.
t_dirty_counters_cleared_at_load() {
	local out n
	rmmod knc_pmu
	perf stat -a -e instructions,cycles -- sleep 0.1 >/dev/null 2>&1 ||
		fail "the cpu PMU did not count on both counters"
	insmod "$KNC_KO"
	out=$(mktemp)
	pstat "$out" -C 1 -e knc/instructions_executed/u -- sh -c "taskset -c 1 $LOOP
		taskset -c 1 perf record -q -a -o /tmp/dirty.data -e knc/data_read/ -- sleep 0.2"
	n=$(count_of "$out" knc/instructions_executed/u)
	[ "$n" -ge $LOOP_INSNS ] && [ "$n" -lt 10000000000 ] ||
		fail "CPU 1's user instructions: $n (the loop alone: $LOOP_INSNS)"
	rmmod knc_pmu
}
case_add --unloads "the cpu PMU's used counters are cleared as knc reserves them, not under a live knc event" t_dirty_counters_cleared_at_load x86

# One task, one perf_hw_context (6.1): made by the cpu PMU, then used by knc.
t_shared_hw_context() {
	local fifo=/tmp/ctxmix.fifo out=/tmp/ctxmix.out pid n lo=2000001 hi=2000100
	rm -f $fifo
	mkfifo $fifo
	build/tests/ctxmix $fifo >$out &
	pid=$!
	for n in $(seq 100); do grep -q "^cpu " $out && break; sleep 0.1; done
	cat /sys/bus/event_source/devices/knc/type >$fifo
	wait $pid || { cat $out; fail "ctxmix failed"; }
	cat $out
	n=$(awk '$1 == "cpu" { print $2 }' $out)
	[ "$n" -ge $lo ] && [ "$n" -le $hi ] || fail "cpu PMU count $n"
	n=$(awk '$1 == "cpu-idle" { print $2 }' $out)
	[ "$n" -ge $lo ] && [ "$n" -le $hi ] || fail "cpu PMU count $n with knc loaded and idle"
	expect_eq "a cpu event while a knc event is open" EBUSY "$(awk '$1 == "cpu-open" { print $2 }' $out)"
	n=$(awk '$1 == "knc" { print $2 }' $out)
	[ "$n" -ge $lo ] && [ "$n" -le $hi ] || fail "knc count $n in the cpu PMU's context"
	n=$(awk '$1 == "group" { print $2 }' $out)
	[ "$n" -ge $lo ] && [ "$n" -le $hi ] || fail "knc count $n in a group with task-clock"
	[ "$(awk '$1 == "group" { print $3 }' $out)" -gt 0 ] || fail "task-clock did not count"
}
case_add "in a task's hw context made by cpu, knc counts alone and beside task-clock" t_shared_hw_context ctx

# Back and forth: each PMU counts exactly right after the other let go.
t_handover_back_and_forth() {
	local out i
	out=$(mktemp)
	for i in 1 2 3 4 5; do
		pstat "$out" -e knc/instructions_executed/u -- $LOOP
		expect_eq "knc, round $i" $LOOP_INSNS "$(count_of "$out" knc/instructions_executed/u)"
		# One event: unpatched, Linux's driver never counts on counter 1.
		pstat "$out" -e instructions:u -- $LOOP
		expect_eq "cpu, round $i" $LOOP_INSNS "$(count_of "$out" instructions:u)"
	done
}
case_add "the counters go back and forth between knc and the cpu PMU, each counting exactly" t_handover_back_and_forth x86

# Many tasks open events on both PMUs at once: every open succeeds or
# gets EBUSY, never anything else, each PMU gets its turns, and both count
# exactly afterwards (knc-vm fails the run on a kernel warning).
t_many_openers_on_both_pmus() {
	local d i pids=() knc out
	knc=$(cat $KNC_SYSFS/type)
	d=$(mktemp -d)
	for i in 1 2 3 4; do
		(
			for _ in $(seq 15); do
				echo "cpu $($EVOPEN -t 4 0x16)"
				echo "knc $($EVOPEN -t "$knc" 0x16)"
			done >"$d/$i"
		) &
		pids+=($!)
	done
	wait "${pids[@]}"
	cat "$d"/* | sort | uniq -c
	! cat "$d"/* | grep -v -x -E '(cpu|knc) (ok|EBUSY)' || fail "an open failed otherwise"
	grep -q -x "cpu ok" "$d"/* || fail "no cpu open succeeded"
	grep -q -x "knc ok" "$d"/* || fail "no knc open succeeded"
	rm -rf "$d"
	out=$(mktemp)
	pstat "$out" -e instructions:u -- $LOOP
	expect_eq "cpu's, after" $LOOP_INSNS "$(count_of "$out" instructions:u)"
	pstat "$out" -e knc/instructions_executed/u -- $LOOP
	expect_eq "knc's, after" $LOOP_INSNS "$(count_of "$out" knc/instructions_executed/u)"
}
case_add "many tasks opening events on both PMUs at once get each an event or EBUSY" t_many_openers_on_both_pmus x86

# --- real execution --------------------------------------------------------

t_exact_user_instructions() {
	local out i c tc
	out=$(mktemp)
	for i in 1 2 3; do
		pstat "$out" -e knc/instructions_executed/u -- $LOOP
		expect_eq "run $i" $LOOP_INSNS "$(count_of "$out" knc/instructions_executed/u)"
	done
	# Both counters at once: the second one counts too. Cycles follow
	# the host's clock (t_cycles_follow_the_clock), not the instructions:
	# a fast host runs the loop in fewer cycles than instructions (KNC
	# issues two a cycle too), so they are bounded by the task's time.
	pstat "$out" -e task-clock,knc/cpu_clk_unhalted/u,knc/instructions_executed/u -- $LOOP
	expect_eq "beside cycles" $LOOP_INSNS "$(count_of "$out" knc/instructions_executed/u)"
	c=$(count_of "$out" knc/cpu_clk_unhalted/u)
	tc=$(awk '$1 == "task-clock" { printf "%d", $2 * 1000000 }' "$out")
	echo "user cycles $c, task-clock ${tc}ns"
	[ "${c:-0}" -gt 0 ] || fail "no user cycles beside instructions"
	[ $((c * 100)) -lt $((tc * 115)) ] || fail "more user cycles than 1.1 GHz of task-clock"
	# The same event on counters 0 and 1 (Linux's driver: linux-knc.sh).
	pstat "$out" -e knc/instructions_executed/u,knc/instructions_executed/u -- $LOOP
	expect_eq "counters 0 and 1" "$LOOP_INSNS $LOOP_INSNS" \
		"$(awk '$1 == "knc/instructions_executed/u" { printf "%s%s", s, $2; s = " " }' "$out")"
	pstat "$out" -e knc/instructions_executed/k -- $LOOP
	[ "$(count_of "$out" knc/instructions_executed/k)" -gt 0 ] ||
		fail "exec and exit ran no kernel instructions?"
}
case_add "perf stat counts the loop's user instructions exactly" t_exact_user_instructions

# --per-thread: one event that follows the task, its period across a
# migration (stop, start on the other CPU with the period left). perf
# record's default is an event per CPU, each with its own period: a task
# that moves leaves a partial period behind and gets a sample fewer.
t_record_user_instructions() {
	local d=/tmp/model-rec1.data pmi0 pmi1 lost0 lost1
	pmi0=$(pmi_irqs)
	lost0=$(model_sum pmi_lost)
	perf record --per-thread -o $d -e knc/instructions_executed/u -c 100000 -- $LOOP
	pmi1=$(pmi_irqs)
	lost1=$(model_sum pmi_lost)
	expect_eq "PMIs lost to a masked LVT entry" 0 $((lost1 - lost0))
	expect_eq samples $((LOOP_INSNS / 100000)) "$(perf script -i $d -F ip | wc -l)"
	# No skid: each overflow is a dec (an even instruction count), so
	# the PMI interrupts at the jnz after it, _start+7.
	expect_eq "sample addresses" 401007 "$(perf script -i $d -F ip | sort -u | tr -d ' ')"
	! perf report -i $d --stats | grep -E "LOST|THROTTLE" || fail "lost or throttled samples"
	[ $((pmi1 - pmi0)) -ge 20 ] || fail "PMI row moved by $((pmi1 - pmi0)), want 20"
	"$MODEL" regs
	# NMI delivery (0x400), not masked (bit 16)
	expect_eq "LVT performance entry, CPU 0" 0x400 "$(model_field 0 lvtpc)"
	expect_eq "LVT performance entry, CPU 1" 0x400 "$(model_field 1 lvtpc)"
}
case_add "perf record -c 100000 samples the loop 20 times at the next instruction" t_record_user_instructions sample

t_per_task_own_instructions() {
	local out bg
	out=$(mktemp)
	taskset -c 0 sh -c "while :; do $LOOP; done" &
	bg=$!
	pstat "$out" -e knc/instructions_executed/u -- taskset -c 0 $LOOP
	kill "$bg"
	wait "$bg" 2>/dev/null || true
	# taskset itself runs user code before it execs the loop
	[ "$(count_of "$out" knc/instructions_executed/u)" -ge $LOOP_INSNS ] ||
		fail "fewer than the loop's instructions"
	pstat "$out" -e knc/instructions_executed/u -- $LOOP
	expect_eq "own instructions only" $LOOP_INSNS "$(count_of "$out" knc/instructions_executed/u)"
}
case_add "a per-task event counts its own executed instructions only" t_per_task_own_instructions ctx

t_group_counts_as_one() {
	group_counts_as_one knc
}
case_add "a group of two identical kernel-mode events counts the same, alone and switched out and in" t_group_counts_as_one ctx

# spflt=1: the counter counts while USER_PREF is set, which the program
# sets and clears with SPFLT (on the model, its CPUID stand-in).
t_spflt_region() {
	local out a apid p fifo w before after
	out=$(mktemp)
	expect_eq "the SPFLT stand-in answers" 1 "$($SPFLT probe)"
	pstat "$out" -i -e knc/instructions_executed,spflt=1/u,knc/instructions_executed/u -- \
		$SPFLT region 1000000
	expect_eq "inside the region" 2000003 "$(count_of "$out" knc/instructions_executed,spflt=1/u)"
	[ "$(count_of "$out" knc/instructions_executed/u)" -gt 2002000 ] ||
		fail "the plain event should count the whole program"
	# A task asleep inside its region (in read() on a FIFO) leaves
	# USER_PREF set on CPU 0; another task's spflt event there counts
	# nothing, and the sleeper's region goes on when a byte wakes it:
	# 2N + 6 exactly. The case holds the FIFO's only writer: should it
	# end early, the read returns at the end of the file.
	a=$(mktemp)
	fifo=$(mktemp -u)
	mkfifo "$fifo"
	exec {w}<>"$fifo"
	pstat "$a" -i -e knc/instructions_executed,spflt=1/u -- \
		taskset -c 0 $SPFLT sleep 1000000 "$fifo" >/dev/null {w}>&- &
	apid=$!
	for _ in $(seq 300); do
		p=$(pgrep -f "^$SPFLT sleep" | head -n 1)
		before=$(cut -d' ' -f1,4 "/proc/$p/syscall" 2>/dev/null || true)
		[ "$before" = "0 0x1" ] && break
		sleep 0.1
	done
	pstat "$out" -i -e knc/instructions_executed,spflt=1/u,knc/instructions_executed/u -- \
		taskset -c 0 $SPFLT spin 1000000
	after=$(cut -d' ' -f1,4 "/proc/$p/syscall" 2>/dev/null || true)
	# wake it before any check can end the case
	echo >&"$w"
	wait "$apid"
	exec {w}>&-
	rm -f "$fifo"
	expect_eq "the sleeper in read() in its region" "0 0x1" "$before"
	expect_eq "the sleeper still there after" "0 0x1" "$after"
	expect_eq "another task, no region of its own" 0 \
		"$(count_of "$out" knc/instructions_executed,spflt=1/u)"
	[ "$(count_of "$out" knc/instructions_executed/u)" -gt 2000000 ] ||
		fail "the other task's plain event should count its loop"
	expect_eq "the sleeper's region" 2000006 "$(count_of "$a" knc/instructions_executed,spflt=1/u)"
}
case_add "spflt=1 counts exactly the instructions of the task's marked region" t_spflt_region ctx

t_cycles_follow_the_clock() {
	local out c tc
	out=$(mktemp)
	# Both modes: task-clock counts the task's kernel time too, and how
	# much of a run is kernel time varies with the host's load.
	pstat "$out" -e task-clock,knc/cpu_clk_unhalted/ -- build/tests/busy 0.3
	c=$(count_of "$out" knc/cpu_clk_unhalted/)
	tc=$(awk '$1 == "task-clock" { printf "%d", $2 * 1000000 }' "$out")
	echo "cycles $c, task-clock ${tc}ns"
	# 1.1 cycles per ns of the virtual clock (knc-pmu-mhz=1100)
	[ $((c * 100)) -gt $((tc * 105)) ] || fail "too few cycles for 1.1 GHz"
	[ $((c * 100)) -lt $((tc * 115)) ] || fail "too many cycles for 1.1 GHz"
}
case_add "cycles follow the virtual clock at 1.1 GHz" t_cycles_follow_the_clock

t_sleep_counts_no_cycles() {
	local out u
	out=$(mktemp)
	pstat "$out" -e knc/cpu_clk_unhalted/u -- sleep 1
	u=$(count_of "$out" knc/cpu_clk_unhalted/u)
	# What counts is sleep's start-up in user mode, which TCG slows
	# down (it translates the code first): tens of ms here, far from
	# the half second a slow machine would still pass with.
	echo "user cycles of sleep 1: $u (1 s would be 1100000000)"
	[ "$u" -lt 550000000 ] || fail "a sleeping task counted $u user cycles"
}
case_add "a sleeping task counts almost no user cycles" t_sleep_counts_no_cycles ctx

# The exact-counting cases both PMUs share (lib/counting.sh) run here.
cases+=("${COUNTING_CASES[@]}")

# The card's programs (tools/knc/card/) on knc_pmu.ko's knc PMU.
cases+=("${CARD_CASES[@]}" "${CARD_RECORD_CASES[@]}")

t_knc_check_passes() {
	card_check
	grep -q "^driver: knc_pmu.ko, the knc PMU" "$card_out" || fail "knc-check did not find knc_pmu.ko"
	card_all_pass
	card_left_as_found
}
case_add "knc-check on knc_pmu.ko: every check passes" t_knc_check_passes user

# --- injected events, as in the simulator's suite ---------------------------

t_record_injected_exact() {
	local d=/tmp/model-rec2.data
	perf record -o $d -e knc/l2_read_miss/ -c 1000 -- "$MODEL" inject l2_read_miss 1000000
	expect_eq samples 1000 "$(nsamples $d)"
	! perf report -i $d --stats | grep -E "LOST|THROTTLE" || fail "lost or throttled samples"
	expect_eq "distinct pid/tid" 1 "$(perf script -i $d -F pid,tid | sort -u | wc -l)"
}
case_add "perf record -c 1000 records exactly 1000 samples of injected events" t_record_injected_exact

# An overflow while the PMI line is high raises no PMI of its own (the
# latch, section 1.4.3.9): the handler must find it in GLOBAL_STATUS beside
# the overflow that raised the line, or it is lost. The task's kernel
# instructions (period 30000) overflow during the entry of some of the
# PMIs of the loop's user instructions (period 10000): more samples than
# the model delivered PMIs shows it happened (a run without is tried
# again), and every overflow of instructions still has its sample
# (--per-thread: as in t_record_user_instructions). Kernel instructions,
# not cycles: a period below a PMI's own count of the kernel event (from
# the NMI's entry to the counters' stop, and from their start to its
# return) makes each PMI raise the next, a storm that ends in perf's
# throttle. That count is 700 to 1000 instructions on 6.12, 2000 to 5000
# on the debug kernel (the periods where the storm starts), whatever the
# host's load; kernel cycles, the virtual clock's, grow with it: a period
# of 20000 cycles stormed on a loaded host.
t_overflow_while_line_high() {
	local d=/tmp/model-high.data pmi0 pmi1 lost0 lost1 ni nk try
	for try in 1 2 3 4 5; do
		pmi0=$(pmis)
		lost0=$(model_sum pmi_lost)
		perf record --per-thread -o $d -e knc/instructions_executed,period=10000/u \
			-e knc/instructions_executed,period=30000/k -- $LOOP
		pmi1=$(pmis)
		lost1=$(model_sum pmi_lost)
		ni=$(nsamples $d 'period=10000/u:')
		nk=$(nsamples $d 'period=30000/k:')
		echo "try $try: $ni + $nk samples, $((pmi1 - pmi0)) PMIs"
		expect_eq "PMIs lost to a masked LVT entry" 0 $((lost1 - lost0))
		! perf report -i $d --stats | grep -E "LOST|THROTTLE" || fail "lost or throttled samples"
		if [ "$ni" -ne $((LOOP_INSNS / 10000)) ]; then
			# for a sample missing below perf: the samples around the
			# last ones, and the model's state after the run
			perf script -i $d -F event,time,ip,sym,period | tail -n 12
			"$MODEL" regs
		fi
		expect_eq "samples of the loop's instructions" $((LOOP_INSNS / 10000)) "$ni"
		[ $((ni + nk)) -le $((pmi1 - pmi0)) ] || break
	done
	[ $((ni + nk)) -gt $((pmi1 - pmi0)) ] || fail "no overflow came while the line was up in $try runs"
	tried "$try" 5
	expect_pmis_serviced
}
case_add "an overflow while the PMI line is up is serviced by the PMI already raised" t_overflow_while_line_high sample

# An NMI that finds GLOBAL_STATUS 0 is not knc's: knc_pmi_handler() leaves
# it to the next handler (NMI_DONE) while knc has the counters reserved,
# and, without reading the status, while knc has no event (the watchdog or
# the cpu PMU may have the counters then).
t_status0_nmi_left() {
	expect_status0_nmis_left knc/cpu_clk_unhalted/ knc_pmi_handler
	echo "knc loaded, no knc event:"
	expect_status0_nmis_left '' knc_pmi_handler
}
case_add --last "an NMI that finds the status 0, or knc without events, is left to the next handler" t_status0_nmi_left x86

t_generic_aliases_record() {
	local d=/tmp/model-rec4.data out top
	# perf's generic events belong to the cpu PMU here; knc has them as
	# aliases: cycles from the virtual clock, sampled through its timer.
	out=$(mktemp)
	pstat "$out" -e knc/cycles/u,knc/instructions/u -- $LOOP
	expect_eq "knc/instructions/u" $LOOP_INSNS "$(count_of "$out" knc/instructions/u)"
	# The loop's cycles are its time on the virtual clock, which depends on
	# how fast the host runs it (t_cycles_follow_the_clock checks the rate).
	[ "$(count_of "$out" knc/cycles/u)" -gt 0 ] || fail "knc/cycles/u did not count"
	perf record -o $d -e knc/cycles/ -c 1000000 -- build/tests/busy 0.5
	top=$(perf report -i $d --stdio --sort sym 2>/dev/null | awk '/%/ && !/^#/ { print $NF; exit }')
	expect_eq "hottest function" knc_hot "$top"
	expect_pmis_serviced
}
case_add "knc/cycles/ and knc/instructions/ count and sample the hot function" t_generic_aliases_record

t_bad_input_rejected() {
	local msr out
	msr_driver
	# Undefined MSRs of the PMU block, the read-only status and reserved
	# bits fault (#GP, EIO from the msr driver); QEMU carries on.
	for msr in 0x22 0x27 0x2a 0x2b 0x2d; do
		! msr_rw 1 $msr 1 2>/dev/null || fail "wrmsr $msr succeeded"
	done
	! msr_rw 1 0x28 0x100000000 2>/dev/null || fail "EvtSel bit 32 accepted"
	! msr_rw 1 0x2c 0x4 2>/dev/null || fail "SPFLT_CONTROL bit 2 accepted"
	! dd if=/dev/cpu/1/msr bs=8 count=1 skip=$((0x2e)) iflag=skip_bytes status=none >/dev/null 2>&1 ||
		fail "OVF_CONTROL (write-only) could be read"
	# Bad monitor input: an error line and status 1, nothing else.
	for cmd in "knc-pmu-inject 0 0x10000 5" "knc-pmu-inject 9 0x10cb 5" \
		   "knc-pmu-inject 0 0x10cb 0" "knc-pmu-inject 0 0x10cb 5 sideways" \
		   "knc-pmu-inject 0 0x10cb 5 user 0" "knc-pmu-inject" "knc-pmu-real maybe" \
		   "no-such-command"; do
		if out=$("$MODEL" hmp "$cmd" 2>&1); then
			fail "'$cmd' was accepted: $out"
		fi
		echo "$cmd: $out"
	done
	# Still counting exactly.
	out=$(mktemp)
	pstat "$out" -e knc/instructions_executed/u -- $LOOP
	expect_eq "after bad input" $LOOP_INSNS "$(count_of "$out" knc/instructions_executed/u)"
}
case_add "bad MSR writes fault and bad monitor input is refused; counting goes on" t_bad_input_rejected

# leave_values CPU: values in CPU's PMU, as firmware, a kexec'd kernel or
# another driver might leave them
leave_values() {
	msr_rw "$1" 0x20 0x123456789a
	msr_rw "$1" 0x21 0x42
	msr_rw "$1" 0x29 0x16
	msr_rw "$1" 0x2c 1
}

# expect_reset CPU: CPU's PMU as the driver's reset leaves it
expect_reset() {
	expect_eq "CPU $1's counter 0" 0 "$(msr_rw "$1" 0x20)"
	expect_eq "CPU $1's counter 1" 0 "$(msr_rw "$1" 0x21)"
	expect_eq "CPU $1's EvtSel1" 0 "$(msr_rw "$1" 0x29)"
	expect_eq "CPU $1's SPFLT_CONTROL" 0 "$(msr_rw "$1" 0x2c)"
	expect_eq "CPU $1's LVT performance entry" 0x400 "$(model_field "$1" lvtpc)"
}

t_online_resets_the_pmu() {
	local out reserver
	msr_driver
	# No event is open: knc has not reserved the registers, and leaves what
	# CPU 1 holds through offline and online (INIT keeps it: linux-knc.sh).
	# The first event after loading resets every online CPU's PMU.
	rmmod knc_pmu
	insmod "$KNC_KO"
	leave_values 1
	echo 0 >/sys/devices/system/cpu/cpu1/online
	echo 1 >/sys/devices/system/cpu/cpu1/online
	expect_eq "CPU 1's counter 0, knc idle" 0x123456789a "$(msr_rw 1 0x20)"
	expect_eq "CPU 1's counter 1, knc idle" 0x42 "$(msr_rw 1 0x21)"
	expect_eq "CPU 1's EvtSel1, knc idle" 0x16 "$(msr_rw 1 0x29)"
	expect_eq "CPU 1's SPFLT_CONTROL, knc idle" 0x1 "$(msr_rw 1 0x2c)"
	perf stat -o /dev/null -C 0 -e knc/cpu_clk_unhalted/ -- sleep infinity &
	reserver=$!
	wait_pid_comm $reserver sleep
	expect_reset 1
	# While knc has the counters reserved, a CPU comes online with its PMU
	# reset.
	leave_values 1
	echo 0 >/sys/devices/system/cpu/cpu1/online
	echo 1 >/sys/devices/system/cpu/cpu1/online
	expect_reset 1
	out=$(mktemp)
	pstat "$out" -a -C 1 -e knc/l2_read_miss/ -- taskset -c 1 "$MODEL" inject l2_read_miss 321
	expect_eq "CPU 1 counts" 321 "$(count_of "$out" knc/l2_read_miss/)"
	pkill -P $reserver -x sleep
	wait $reserver
}
case_add --unloads "knc resets every CPU's PMU as it first reserves the counters, and a CPU that comes online while they are reserved" t_online_resets_the_pmu hotplug

# Later, knc reserves the counters after the cpu PMU, which releases them
# with its EvtSels disabled, counts in its counters, GLOBAL_CTRL as it
# was, and an overflow bit (its handler never unmasks the LVT entry, so
# overflows after its first PMI stay pending): the reservation clears the status
# and sets GLOBAL_CTRL and the LVT entry, and leaves the rest; knc counts
# exactly. Released, the counters hold no knc count.
t_reserve_after_the_cpu_pmu() {
	local out reserver
	msr_driver
	# the first reservation after loading is a full reset
	perf stat -o /dev/null -a -e knc/cpu_clk_unhalted/ -- true
	msr_rw 1 0x2f 0
	msr_rw 1 0x20 0xfffffffff0
	msr_rw 1 0x28 0x410016	# EN, USR, instructions_executed
	msr_rw 1 0x2f 1
	taskset -c 1 "$LOOP"
	msr_rw 1 0x28 0x10016
	msr_rw 1 0x2f 0
	msr_rw 1 0x21 0x42
	msr_rw 1 0x29 0x10016
	expect_eq "CPU 1's overflow status, knc idle" 0x1 "$(msr_rw 1 0x2d)"
	perf stat -o /dev/null -C 0 -e knc/cpu_clk_unhalted/ -- sleep infinity &
	reserver=$!
	wait_pid_comm $reserver sleep
	expect_eq "CPU 1's overflow status" 0 "$(msr_rw 1 0x2d)"
	expect_eq "CPU 1's GLOBAL_CTRL" 0x3 "$(msr_rw 1 0x2f)"
	expect_eq "CPU 1's LVT performance entry" 0x400 "$(model_field 1 lvtpc)"
	expect_eq "CPU 1's counter 1 and EvtSel1, as left" "0x42 0x10016" \
		"$(msr_rw 1 0x21) $(msr_rw 1 0x29)"
	out=$(mktemp)
	pstat "$out" -a -C 1 -e knc/l2_read_miss/ -- taskset -c 1 "$MODEL" inject l2_read_miss 321
	expect_eq "CPU 1 counts" 321 "$(count_of "$out" knc/l2_read_miss/)"
	pkill -P $reserver -x sleep
	wait $reserver
	expect_eq "CPU 1's counters, released" "0 0" "$(msr_rw 1 0x20) $(msr_rw 1 0x21)"
}
case_add "knc reserves the counters after the cpu PMU with 3 writes, counts exactly, and releases them zeroed" t_reserve_after_the_cpu_pmu x86

# One CPU-wide event opened and closed on every CPU (pmuops -a, as perf
# stat -a opens it), the only knc event: each CPU's share is the event's
# own 4 accesses, the reservation (clear the overflow status, unmask the
# LVT entry, set GLOBAL_CTRL: 3) and the release (zero both counters: 2).
# The first reservation after loading resets each PMU in full; a full
# reset at every reservation and release made it 20.
ACC_RESERVE_RELEASE=9
t_reserve_release_accesses() {
	local ev per
	ev="-e$(cat $KNC_SYSFS/type):0x10cb"
	local ACC_SWITCH=0 ACC_SWITCH_CPU=0
	$PMUOPS -a "$ev" open 1 >/dev/null || fail "pmuops -a failed"
	acc_regs_per_op 10 20 -a "$ev" open | sed "s/^/per CPU: /"
	read -r per _ <<<"$(ACC_ALL_CPUS=1 acc_per op 10 20 -a "$ev" open)"
	per=$(awk -v a="$per" -v n="$(nproc)" 'BEGIN { printf "%.2f", a / n }')
	echo "accesses per CPU per open and close: $per"
	awk -v p="$per" -v w=$ACC_RESERVE_RELEASE 'BEGIN { exit !(p >= w - 0.1 && p <= w + 0.1) }' ||
		fail "$per accesses per CPU to open and close a CPU-wide event, expected $ACC_RESERVE_RELEASE"
}
case_add "opening and closing the only knc event, CPU-wide, costs each CPU 9 register accesses with the reservation and release" t_reserve_release_accesses

# knc_offers_rdpmc: the module said so at load ("..., rdpmc"). It cannot on
# Linux 7.2 and 7.3, whose x86 core exports CR4's helpers to KVM alone
# (knc_compat.h: KNC_X86_EXPORTS).
knc_offers_rdpmc() {
	dmesg | grep "knc PMU registered" | tail -n 1 | grep -q ", rdpmc"
}

t_rdpmc_self_monitoring() {
	local out type
	type=$(cat $KNC_SYSFS/type)
	if ! knc_offers_rdpmc; then
		[ "$(uname -r | cut -d. -f1)" -ge 7 ] || fail "the module does not offer rdpmc"
		# The page offers no counter, RDPMC stays off, read() counts.
		out=$($RDPMC self "$type" 0x16) || fail "rdpmc self failed: $out"
		echo "$out"
		echo "$out" | grep -q "^cap_user_rdpmc=0 index=0 .* read=[1-9]" ||
			fail "the page offers a counter the module cannot allow"
		expect_eq "rdpmc 0" fault "$($RDPMC raw 0 || true)"
		return 0
	fi
	# Without a mapped event, CR4.PCE is clear and RDPMC faults.
	expect_eq "rdpmc 0 without an event" fault "$($RDPMC raw 0 || true)"
	# With one, the mmap page says which counter to read, and RDPMC
	# there gives what read() gives, up to the instructions in between.
	out=$($RDPMC self "$type" 0x16)
	echo "$out"
	echo "$out" | grep -q "cap_user_rdpmc=1 index=[12] " || fail "no rdpmc through the page"
	echo "$out" | awk '{ split($3, r, "="); split($4, d, "="); exit !(r[2] > 0 && r[2] <= d[2] && d[2] - r[2] < 10000) }' ||
		fail "rdpmc's count is not read()'s"
	expect_eq "rdpmc 0 after" fault "$($RDPMC raw 0 || true)"
}
case_add "rdpmc from user space through the mmap page, CR4.PCE only while mapped (none where the kernel keeps CR4)" t_rdpmc_self_monitoring x86

t_rdpmc_not_on_a_redirected_page() {
	local out cap
	# A knc event whose output goes to a cpu-clock event's buffer writes
	# on that page, mapped without RDPMC allowed: it must not offer its
	# counter there (Linux's driver does; linux-knc.sh shows the fault).
	out=$($RDPMC redirect "$(cat $KNC_SYSFS/type)" 0x16) ||
		fail "RDPMC through the page faulted: $out"
	cap=1
	knc_offers_rdpmc || cap=0
	expect_eq "the redirected event's page" "cap_user_rdpmc=$cap index=0 rdpmc=none" "$out"
}
case_add "no rdpmc offered on another event's page (PERF_EVENT_IOC_SET_OUTPUT)" t_rdpmc_not_on_a_redirected_page core

t_debugfs_regs() {
	local regs=/tmp/knc-regs cpu reserver f v
	# A knc event on CPU 0 keeps the counters reserved throughout.
	perf stat -o /dev/null -C 0 -e knc/cpu_clk_unhalted/ -- sleep infinity &
	reserver=$!
	wait_pid_comm $reserver sleep
	# While a CPU-wide event counts on every CPU, the dump shows it decoded,
	# as the model holds it.
	perf stat -a -e knc/l2_read_miss/ -- cat /sys/kernel/debug/knc_pmu/regs >$regs
	cat $regs
	for cpu in $(seq 0 $(($(nproc) - 1))); do
		grep -q -E "^cpu$cpu ctr0=.* global_ctrl=0x3 .* lvt=nmi$" $regs ||
			fail "cpu$cpu: no register line, GLOBAL_CTRL not 3 or the LVT entry masked"
		grep -q -E "^cpu$cpu evtsel[01]=0x5310cb event=0xcb umask=0x10 cmask=0 usr os int en$" $regs ||
			fail "cpu$cpu: l2_read_miss's EvtSel not shown"
	done
	# Stopped since: the dump and the model agree, EN cleared.
	cat /sys/kernel/debug/knc_pmu/regs >$regs
	expect_eq "CPU 1's EvtSel0, dump against the model" "$(model_field 1 evtsel0)" \
		"$(awk '$1 == "cpu1" && $2 ~ /^evtsel0=/ { split($2, v, "="); print v[2] }' $regs)"
	expect_eq "CPU 1's EvtSel0 after the run" 0x1310cb "$(model_field 1 evtsel0)"
	# The last knc event releases the counters: every EvtSel disabled (the
	# events stopped), both counters zeroed.
	pkill -P $reserver -x sleep
	wait $reserver
	for cpu in 0 1; do
		for f in evtsel0 evtsel1; do
			v=$(model_field $cpu $f)
			[ $((v & 0x400000)) = 0 ] || fail "CPU $cpu's $f after the last event: $v, EN set"
		done
		expect_eq "CPU $cpu's counters after the last event" "0x0 0x0" \
			"$(model_field $cpu ctr0) $(model_field $cpu ctr1)"
	done
}
case_add "debugfs knc_pmu/regs shows each CPU's registers, decoded" t_debugfs_regs

# --- thread count mode -------------------------------------------------------
# EvtSel bit 21, the format term any: a counter also counts the events of
# the other threads of its core. CPU 1 is a thread of CPU 0's core
# (knc-vm --threads 2); perf and all the rest run on CPU 0.

# any_setup: CPU 1 is a thread of CPU 0's core, for Linux and the model
# (or the case is skipped); this case's shell, and whatever it starts,
# runs on CPU 0.
any_setup() {
	local sib
	sib=$(cat /sys/devices/system/cpu/cpu0/topology/thread_siblings_list)
	echo "cpu0's thread siblings: $sib; the model's: $(model_field 0 siblings)"
	[ "$sib" != 0 ] || skip "cpu0 has no thread sibling (knc-vm --threads 2)"
	in_cpu_list 1 "$sib" || skip "cpu1 is not a thread of cpu0's core ($sib)"
	in_cpu_list 1 "$(model_field 0 siblings)" || fail "the model does not see CPU 1 as CPU 0's sibling"
	expect_eq "format any" config:21 "$(cat $KNC_SYSFS/format/any)"
	taskset -p -c 0 $BASHPID >/dev/null
}

# start_waitloop: the loop waits on CPU 1, asleep in read(2) on a FIFO;
# sets pid. Writing to fd 3 runs it there, alone: LOOP_INSNS exactly.
start_waitloop() {
	local fifo=/tmp/any.fifo
	rm -f $fifo
	mkfifo $fifo
	taskset -c 1 $WAITLOOP <$fifo &
	pid=$!
	exec 3>$fifo
	wait_in_read "$pid"
}

t_any_thread_mode() {
	local out pid ev=knc/instructions_executed p0 a0 c1 wd pref spflt=()
	any_setup
	out=$(mktemp)

	# Executed instructions: CPU 0's any counter counts CPU 1's loop on
	# top of what its plain counter sees of CPU 0 (perf, the shell).
	# perf -C 0 stays on CPU 0: with more CPUs it would run on each in
	# turn to enable and read them.
	start_waitloop
	# the loop has ended when it is a zombie, or reaped by this shell
	pstat_cpus "$out" -C 0 -e "{$ev/u,$ev,any/u}" -- sh -c "echo >&3; for i in \$(seq 600); do
		[ \"\$(cut -d' ' -f3 /proc/$pid/stat 2>/dev/null || echo Z)\" = Z ] && exit 0
		sleep 0.05
	done; exit 1" || { exec 3>&-; kill "$pid"; fail "the loop did not end"; }
	exec 3>&-
	wait "$pid"
	p0=$(cpu_count_of "$out" 0 $ev/u)
	a0=$(cpu_count_of "$out" 0 $ev,any/u)
	echo "CPU 0: plain $p0, any $a0"
	[ "$p0" -gt 0 ] || fail "perf and the shell ran no user instructions on CPU 0?"
	expect_eq "CPU 0: any minus plain, CPU 1's loop" $LOOP_INSNS $((a0 - p0))

	# Injected events on CPU 1 (in user mode): the plain counter on CPU 0
	# sees none, the any counter all, at once.
	pstat_cpus "$out" -C 0,1 -e '{knc/data_read/u,knc/data_read,any/u}' -- \
		taskset -c 1 "$MODEL" inject data_read 4321
	expect_eq "CPU 0, plain" 0 "$(cpu_count_of "$out" 0 knc/data_read/u)"
	expect_eq "CPU 0, any" 4321 "$(cpu_count_of "$out" 0 knc/data_read,any/u)"
	expect_eq "CPU 1, plain" 4321 "$(cpu_count_of "$out" 1 knc/data_read/u)"
	expect_eq "CPU 1, any" 4321 "$(cpu_count_of "$out" 1 knc/data_read,any/u)"
	# The ring is the one they happened in, on CPU 1.
	pstat_cpus "$out" -C 0 -e '{knc/data_read,any/u,knc/data_read,any/k}' -- \
		taskset -c 1 sh -c "$MODEL inject data_read 100 --user && $MODEL inject data_read 7 --kernel"
	expect_eq "CPU 0, any/u" 100 "$(cpu_count_of "$out" 0 knc/data_read,any/u)"
	expect_eq "CPU 0, any/k" 7 "$(cpu_count_of "$out" 0 knc/data_read,any/k)"

	# PERF_SPFLT_CONTROL is each thread's own: CPU 0's any counter of user
	# instructions under SPFLT control counts none of a region that sets
	# CPU 1's USER_PREF while CPU 0's is clear, and all of it once CPU 0's
	# is set. Written through the msr driver, the watchdog off and no knc
	# event open; put back after.
	msr_driver
	wd=$(cat /proc/sys/kernel/nmi_watchdog)
	echo 0 >/proc/sys/kernel/nmi_watchdog
	msr_rw 0 0x2f 0
	msr_rw 0 0x20 0
	msr_rw 0 0x28 $((0x610016))		# EN, any, USR; instructions_executed
	for pref in 0 1; do
		msr_rw 0 0x20 0
		msr_rw 0 0x2c $(((pref << 63) | 1))	# counter 0 under SPFLT
		msr_rw 0 0x2f 1
		taskset -c 1 $SPFLT region 1000000 >/dev/null
		msr_rw 0 0x2f 0
		spflt[pref]=$(($(msr_rw 0 0x20)))
	done
	msr_rw 0 0x2c 0
	msr_rw 0 0x28 0
	msr_rw 0 0x20 0
	echo "$wd" >/proc/sys/kernel/nmi_watchdog
	expect_eq "CPU 0's any counter, its USER_PREF clear" 0 "${spflt[0]}"
	[ "${spflt[1]}" -ge 2000003 ] ||
		fail "CPU 0's any counter, its USER_PREF set: ${spflt[1]}, not all of CPU 1's region"

	# Unhalted cycles stay each thread's own, any or not (the document
	# does not say how threads' cycles combine): CPU 0's any counter sees
	# what its plain one does (both read a moment apart), not CPU 1's
	# cycles on top. CPU 1 is busy for 0.2 s of its time, 2.2e8 cycles
	# however fast the host: far more than a host's pause between the
	# two counters' reads.
	pstat_cpus "$out" -C 0,1 -e '{knc/cpu_clk_unhalted/,knc/cpu_clk_unhalted,any/}' -- \
		taskset -c 1 build/tests/busy 0.2
	p0=$(cpu_count_of "$out" 0 knc/cpu_clk_unhalted/)
	a0=$(cpu_count_of "$out" 0 knc/cpu_clk_unhalted,any/)
	c1=$(cpu_count_of "$out" 1 knc/cpu_clk_unhalted/)
	echo "cycles: CPU 0 plain $p0, any $a0; CPU 1 $c1"
	[ "$c1" -gt 150000000 ] || fail "CPU 1 was busy for 0.2 s in $c1 cycles?"
	[ $((a0 > p0 ? a0 - p0 : p0 - a0)) -lt $((c1 / 2)) ] ||
		fail "CPU 0's any counter: $((a0 - p0)) cycles more than its plain one"
}
case_add "any (EvtSel bit 21) counts the sibling's instructions and injected events exactly, under its own SPFLT; cycles stay its own" t_any_thread_mode

# An overflow that CPU 1's instructions cause on CPU 0's any counter is
# found by the model's periodic look (every ms) while CPU 0 idles: a sample
# comes while the loop runs, not when CPU 0 next touches its PMU, as it
# does when perf stops the counter. How many come is not exact: while CPU 0
# handles a PMI its counters stop, and so does their count of CPU 1's
# instructions.
t_any_overflow_pmi() {
	local d=/tmp/model-any.data t1=/tmp/any.t1 pid n
	any_setup
	start_waitloop
	rm -f /tmp/any.fifo2
	mkfifo /tmp/any.fifo2
	# CPU 0's bash sleeps in read(2) for 5 s; 1 s in, a shell on CPU 1
	# notes the time and starts the loop there. /proc/uptime is
	# CLOCK_MONOTONIC in a guest that never suspends.
	perf record -k monotonic -C 0 -o $d -e knc/instructions_executed,any/u -c 1000000 -- \
		bash -c "exec 4<>/tmp/any.fifo2
			taskset -c 1 sh -c 'sleep 1; cut -d\" \" -f1 /proc/uptime >$t1; echo' >&3 &
			read -t 5 -u 4; wait"
	exec 3>&-
	wait "$pid"
	perf script -i $d -F time,ip | tee /tmp/model-any.txt
	# kernel addresses: taken while CPU 0 idled (0 where perf hides a
	# kernel IP from an exclude_kernel event, as Linux 7.3 does)
	n=$(awk -v t1="$(cat $t1)" '{ t = $1 + 0 } ($2 ~ /^ffff/ || $2 == "0") && t >= t1 && t < t1 + 1.5 { n++ }
		END { print n + 0 }' /tmp/model-any.txt)
	echo "$n samples in CPU 0's idle time up to 1.5 s after $(cat $t1)"
	[ "$n" -ge 1 ] || fail "no sample while CPU 1's loop ran"
	expect_pmis_serviced
}
case_add "an any counter's overflow from the sibling's instructions interrupts an idle CPU" t_any_overflow_pmi

# The baseline every case starts from (lib.sh): knc_pmu.ko loaded, the NMI
# watchdog off.
knc_modules_loaded
if [[ " $REPLY " != *" knc_pmu "* ]]; then
	knc_modules_load || { echo "Bail out! knc_pmu.ko does not load"; exit 1; }
fi
echo 0 >/proc/sys/kernel/nmi_watchdog
perf_throttle_off
run_cases "$@"
