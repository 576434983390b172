# SPDX-License-Identifier: GPL-2.0
# Helpers for the guest suites (sourced by tests/guest/run.sh, native.sh).
# shellcheck shell=bash
# The constants are for the scripts that source this file:
# shellcheck disable=SC2034

KNC_SIM=tools/knc/knc-sim
# The modules built for the running kernel: 6.1's in the tree, 6.12's in
# build/6.12/knc (make module-612), the debug kernel's in build/debug/knc
# (make module-debug); the test module knc_model_test.ko in
# build/{6.1,6.12,debug}/kmod.
case $(uname -r) in
6.12.*) KNC_KO_DIR=build/6.12/knc KMOD_DIR=build/6.12/kmod ;;
*-knc-debug) KNC_KO_DIR=build/debug/knc KMOD_DIR=build/debug/kmod ;;
*) KNC_KO_DIR=arch/x86/events/knc KMOD_DIR=build/6.1/kmod ;;
esac
KNC_KO=$KNC_KO_DIR/knc_pmu.ko
KNC_SIM_KO=$KNC_KO_DIR/knc_sim.ko
# ring-0 checks of QEMU's KNC PMU model (tests/guest/kmod)
KNC_MODEL_TEST_KO=$KMOD_DIR/knc_model_test.ko
KNC_SYSFS=/sys/bus/event_source/devices/knc
EVOPEN=${EVOPEN:-build/tests/evopen}
# 2000004 user instructions (tests/guest/progs/loop.S)
LOOP=build/tests/loop
LOOP_INSNS=2000004
# Run a command as a user without privileges (nobody).
NOBODY="setpriv --reuid=65534 --regid=65534 --clear-groups --"
tap_n=0
tap_failed=0

# Linux before 6.2 keeps a task's context pointing at the PMU
# (KNC_PIN_TASK_CONTEXT): the module that owns it stays pinned.
kernel_before_6_2() {
	local v
	v=$(uname -r)
	[ "${v%%.*}" -lt 6 ] || { [ "${v%%.*}" -eq 6 ] && [ "$(echo "$v" | cut -d. -f2)" -lt 2 ]; }
}

# pinned_or_reloaded KO: after per-task use, Linux before 6.2 pins the
# module KO, which owns the PMU (rmmod refused, one dmesg line); 6.2+
# unloads and reloads it, and the caller then counts per task. Call it as
# a plain command: fail relies on set -e, which a || or an if would turn off.
pinned_or_reloaded() {
	local ko=$1 mod out
	mod=$(basename "$ko" .ko)
	if kernel_before_6_2; then
		if out=$(rmmod "$mod" 2>&1); then
			insmod "$ko"
			fail "rmmod succeeded after per-task use (Linux 6.1 would keep a dangling context)"
		fi
		echo "$out"
		echo "$out" | grep -q "in use" || fail "rmmod did not fail with EBUSY"
		expect_eq "pin messages" 1 "$(dmesg | grep -c "$mod pinned until reboot")"
		return 0
	fi
	expect_eq "pin messages" 0 "$(dmesg | grep -c 'pinned until reboot')"
	rmmod "$mod" || fail "rmmod $mod after per-task use failed on $(uname -r)"
	insmod "$ko" || fail "reload of $mod failed"
}

# expect_insmod_busy KO ERE: insmod KO fails with EBUSY, and one of the last
# kernel log lines, matching ERE, says why.
expect_insmod_busy() {
	local out
	if out=$(insmod "$1" 2>&1); then
		rmmod "$(basename "$1" .ko)"
		fail "$(basename "$1") loaded; expected EBUSY"
	fi
	echo "$out"
	echo "$out" | grep -q "Device or resource busy" || fail "insmod did not fail with EBUSY"
	dmesg | tail -n 3 | grep -q -E "$2" || fail "no kernel log line saying why ($2)"
}

# skip WHY: end the running case as skipped (TAP "# SKIP WHY")
TAP_SKIP=77
skip() {
	echo "$*"
	exit $TAP_SKIP
}

# run_case NAME FUNCTION: run one case, its output becomes TAP diagnostics.
# With KNC_TIMES set, a "# time N s, M processes" line follows each result.
run_case() {
	local name=$1 fn=$2 log status t0=$SECONDS f0
	# (a subshell, itself counted: only when the count is shown)
	[ -z "${KNC_TIMES:-}" ] || f0=$(forks)
	log=$(mktemp)
	tap_n=$((tap_n + 1))
	# Not in an if: there bash would ignore set -e in the case's function.
	( set -e; "$fn" ) >"$log" 2>&1
	status=$?
	if [ $status -eq 0 ]; then
		echo "ok $tap_n - $name"
	elif [ $status -eq $TAP_SKIP ]; then
		echo "ok $tap_n - $name # SKIP $(tail -n 1 "$log")"
	else
		echo "not ok $tap_n - $name"
		tap_failed=$((tap_failed + 1))
		sed 's/^/# /' "$log"
	fi
	[ -z "${KNC_TIMES:-}" ] || echo "# time $((SECONDS - t0)) s, $(($(forks) - f0)) processes"
	rm -f "$log"
}

# The suite's cases, in the order they run: case_add puts each in.
cases=()

# case_add NAME FUNCTION [WHY]: register the case FUNCTION, run under NAME
# (WHY: see run_cases), as the suite's next case. A suite calls it right
# after the case's function, so that a case's name, WHY and code read
# together, and the order of the calls is the order the cases run in.
case_add() {
	case_add_to cases "$@"
}

# case_add_to ARRAY NAME FUNCTION [WHY]: case_add to another list, as a
# library's cases (COUNTING_CASES), which its suites then add to cases
# where those cases are to run
case_add_to() {
	local -n list=$1
	list+=("$2|$3${4:+|$4}")
}

# run_cases [PATTERN]: run the entries of the array cases (those whose
# name or function contains PATTERN), print TAP, and return non-zero if one
# failed. An entry is "name|function" or "name|function|WHY" (case_add
# makes them): WHY names what makes the case depend on the kernel it runs
# on, one of
#   register  perf_pmu_register()/unregister() and the module life cycle
#             (6.1's perf_hw_context "taken" flag, 6.2's per-PMU contexts)
#   unload    the unload rules (6.1 pins a module after per-task use)
#   ctx       task contexts and context switches (group scheduling,
#             rotation, sched_task; rewritten in 6.2)
#   sample    the overflow path (perf_event_overflow() and
#             perf_sample_event_took() found through kallsyms, throttling,
#             signals, the sample's layout)
#   core      perf core's checks and routing (attr validation, event types
#             offered to each PMU, permissions, tracepoints, the user page)
#   hotplug   CPU hotplug states
#   x86       the x86 core's PMU beside knc (its reservation, dirty
#             counters, the NMI watchdog; leave_mm()'s signature)
#   build     the modules built for that kernel (DKMS)
#   user      not the kernel but what user space makes of the PMU (perf's
#             event parsing, listing and metrics, the JSON, PAPI, each
#             event's encoding end to end), on the counting path the other
#             cases drive: it runs once, on 6.12, where a guest is fastest
#             (KNC_USER_CASES=0 skips it: tests/run on the debug kernel)
# A case without WHY tests the driver, the simulator or the model alone:
# the same on any kernel. With KNC_KERNEL_CASES=1 (tests/run on 6.12) only
# the cases with a WHY run; the debug kernel runs the others too.
run_cases() {
	local c name fn why rest f0
	f0=$(forks)
	echo "TAP version 13"
	[ "${KNC_KERNEL_CASES:-0}" != 1 ] ||
		echo "# KNC_KERNEL_CASES=1: only the cases that depend on the kernel, and user space's"
	[ "${KNC_USER_CASES:-1}" != 0 ] ||
		echo "# KNC_USER_CASES=0: not the cases of user space's side (they run on 6.12)"
	for c in "${cases[@]}"; do
		name=${c%%|*}
		rest=${c#*|}
		fn=${rest%%|*}
		why=${rest#"$fn"}
		why=${why#|}
		if [ $# -gt 0 ] && ! [[ $fn == *$1* || $name == *$1* ]]; then
			continue
		fi
		if [ "${KNC_KERNEL_CASES:-0}" = 1 ] && [ -z "$why" ]; then
			continue
		fi
		if [ "${KNC_USER_CASES:-1}" = 0 ] && [ "$why" = user ]; then
			continue
		fi
		run_case "$name" "$fn"
	done
	echo "# processes forked: $(($(forks) - f0))"
	echo "1..$tap_n"
	[ "$tap_failed" -eq 0 ]
}

# forks: the processes forked since boot (/proc/stat). A guest's time goes
# mostly to starting programs (each a good part of a second in a debug
# guest under TCG): the count is the suites' machine-independent cost.
forks() {
	local k v
	while read -r k v _; do
		[ "$k" != processes ] || { echo "$v"; return 0; }
	done </proc/stat
}

# Exact sample counts must not hang on perf's throttle. Under TCG an NMI
# takes long in host time, so perf lowers perf_event_max_sample_rate as a
# suite runs ("perf: interrupt took too long"), and a burst of more PMIs
# than the rate allows in one tick is throttled. Raise the rate and keep
# perf from lowering it; perf_throttle_default puts back the boot values.
perf_throttle_off() {
	echo 25 >/proc/sys/kernel/perf_cpu_time_max_percent
	echo 1000000 >/proc/sys/kernel/perf_event_max_sample_rate
	echo 0 >/proc/sys/kernel/perf_cpu_time_max_percent
}

perf_throttle_default() {
	echo 25 >/proc/sys/kernel/perf_cpu_time_max_percent
	echo 100000 >/proc/sys/kernel/perf_event_max_sample_rate
}

fail() {
	echo "$*"
	return 1
}

# expect_no_evtsel_enabled: EN (bit 22) is clear in every CPU's EvtSel0
# and EvtSel1, as the suite's evtsels (sim.sh, qmodel.sh) reads them
expect_no_evtsel_enabled() {
	local sel n=0
	for sel in $(evtsels); do
		[ $((sel & (1 << 22))) -eq 0 ] || fail "an EvtSel was left enabled: $sel"
		n=$((n + 1))
	done
	expect_eq "EvtSels read" $((2 * $(nproc))) "$n"
}

# paranoid N: perf_event_paranoid is N for the rest of the running case;
# its value before comes back when the case ends, passed or failed.
paranoid() {
	if [ -z "${paranoid_before:-}" ]; then
		paranoid_before=$(cat /proc/sys/kernel/perf_event_paranoid)
		trap 'echo "$paranoid_before" >/proc/sys/kernel/perf_event_paranoid' EXIT
	fi
	echo "$1" >/proc/sys/kernel/perf_event_paranoid
}

# wait_pid_comm PID COMM: PID has exec'd COMM (its events are open by then
# when it is the workload of a perf stat)
wait_pid_comm() {
	local i
	for i in $(seq 300); do
		pgrep -P "$1" -x "$2" >/dev/null && return 0
		sleep 0.1
	done
	fail "$2 never started under pid $1"
}

# expect_eq WHAT EXPECTED ACTUAL
expect_eq() {
	[ "$2" = "$3" ] || fail "$1: expected '$2', got '$3'"
}

# pstat OUT PERF-STAT-ARGS...: perf stat -x';' (event names hold commas);
# OUT gets "event<TAB>value<TAB>pct" lines (a value may be "<not supported>").
# pstat and count_of run no program but perf: in a debug guest under TCG a
# program run costs a good part of a second, and the suites call them often.
pstat() {
	local out=$1 raw=$1.raw line f semis lines=()
	shift
	perf stat -x';' -o "$raw" "$@" || {
		[ ! -f "$raw" ] || mapfile -t lines <"$raw"
		[ ${#lines[@]} -eq 0 ] || printf '%s\n' "${lines[@]}"
		rm -f "$raw"
		return 1
	}
	mapfile -t lines <"$raw"
	rm -f "$raw"
	for line in "${lines[@]}"; do
		semis=${line//[^;]/}
		[[ -n $line && $line != \#* && ${#semis} -ge 3 ]] || continue
		IFS=';' read -r -a f <<<"$line"
		printf '%s\t%s\t%s\n' "${f[2]:-}" "${f[0]:-}" "${f[4]:-}"
	done >"$out"
	[ ${#lines[@]} -eq 0 ] || printf '%s\n' "${lines[@]}"
}

# count_of OUT EVENT: the value perf reported for EVENT
count_of() {
	local line rest
	while IFS= read -r line; do
		[ "${line%%$'\t'*}" = "$2" ] || continue
		rest=${line#*$'\t'}
		[ "$rest" != "$line" ] || rest=
		echo "${rest%%$'\t'*}"
	done <"$1"
}

inject() {
	"$KNC_SIM" inject "$@"
}

# nsamples DATA [EVENT]: samples in a perf.data, of EVENT if given
nsamples() {
	perf script -i "$1" -F event 2>/dev/null | grep -c "${2:-.}" || true
}

# msr_driver: /dev/cpu/N/msr, from the msr module unless it is built in
# (the debug kernel has no /lib/modules of its own).
msr_driver() {
	[ -e /dev/cpu/0/msr ] || modprobe msr
}

# msr_rw CPU MSR [VALUE]: rdmsr (printed in hex) or wrmsr through the msr
# driver, which uses the _safe accessors: a #GP is an error, not an oops
# (build/tests/msr).
msr_rw() {
	build/tests/msr "$@"
}

# knc_load [KNC_PMU_PARAM...]: the core, then the simulated PMU
knc_load() {
	insmod "$KNC_KO" "$@" && insmod "$KNC_SIM_KO"
}

knc_unload() {
	rmmod knc_sim && rmmod knc_pmu
}

# The table events (not the generic aliases), lower case, from the JSON.
table_events() {
	python3 tools/knc/gen-events.py --list-table
}

# event_pairs: the table events, two to a line where both fit on the two
# counters at once (a counter-0-only event beside one that can use either
# counter), so that one perf stat counts both exactly
event_pairs() {
	python3 tools/knc/gen-events.py --list-counters | awk -F'\t' '
		$2 == "0" { c0[n0++] = $1; next }
		{ any[na++] = $1 }
		END {
			for (i = 0; i < n0; i++)
				print c0[i], (j < na ? any[j++] : "")
			for (; j < na; j += 2)
				print any[j], (j + 1 < na ? any[j + 1] : "")
		}'
}

# pmi_irqs: the PMI row of /proc/interrupts, summed over the CPUs
pmi_irqs() {
	local w n s
	while read -r -a w; do
		[ "${w[0]:-}" = PMI: ] || continue
		s=0
		for n in "${w[@]:1}"; do
			[[ $n =~ ^[0-9]+$ ]] || break
			s=$((s + 10#$n))
		done
		echo "$s"
	done </proc/interrupts
}

# kmemleak (the debug kernel's CONFIG_DEBUG_KMEMLEAK, scanning only when
# asked): kmemleak_baseline scans and forgets what it found, so that
# expect_no_new_leak sees only what leaked since. An object is reported
# once it is 5 s old and nothing points to it.
KMEMLEAK=/sys/kernel/debug/kmemleak

kmemleak_baseline() {
	[ -e $KMEMLEAK ] || fail "no kmemleak in $(uname -r)"
	echo scan >$KMEMLEAK
	echo clear >$KMEMLEAK
}

# expect_no_new_leak: no new unreferenced object allocated on a path
# through knc's code or perf's, or through code that is gone (an unloaded
# module's, whose addresses no longer resolve). The whole report is shown.
expect_no_new_leak() {
	local report
	[ -e $KMEMLEAK ] || fail "no kmemleak in $(uname -r)"
	sleep 6
	echo scan >$KMEMLEAK
	report=$(cat $KMEMLEAK)
	echo "${report:-kmemleak: nothing new}"
	! echo "$report" | grep -q -E '^ +\[<[0-9a-f]+>\] (.*(knc|perf_)|0x[0-9a-f]+$)' ||
		fail "kmemleak: a new leak of knc's or perf's"
}
