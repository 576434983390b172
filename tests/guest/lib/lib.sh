# SPDX-License-Identifier: GPL-2.0
# Helpers for the guest suites (sourced by tests/guest/simulator.sh, native.sh).
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

# log_mark, log_since: log_since prints the kernel log's lines since the
# last log_mark: what a step logged, however many lines the kernel logs
# beside it (a fixed "dmesg | tail -n N" can miss the line looked for).
log_mark() { LOG_MARK=$(dmesg | wc -l); }
log_since() { dmesg | tail -n +$((LOG_MARK + 1)); }

# expect_insmod_busy KO ERE: insmod KO fails with EBUSY, and a kernel log
# line it caused, matching ERE, says why.
expect_insmod_busy() {
	local out
	log_mark
	if out=$(insmod "$1" 2>&1); then
		rmmod "$(basename "$1" .ko)"
		fail "$(basename "$1") loaded; expected EBUSY"
	fi
	echo "$out"
	echo "$out" | grep -q "Device or resource busy" || fail "insmod did not fail with EBUSY"
	log_since | grep -q -E "$2" || fail "no kernel log line saying why ($2)"
}

# skip WHY: end the running case as skipped (TAP "# SKIP WHY")
TAP_SKIP=77
skip() {
	echo "$*"
	exit $TAP_SKIP
}

# run_case NAME FUNCTION: run one case, its output becomes TAP diagnostics.
# It starts from the suite's baseline (baseline_restore). With KNC_TIMES
# set, a "# time N s, M processes" line follows each result. A case that
# passed on a later try than its first (tried) says so after its "ok".
run_case() {
	local name=$1 fn=$2 log status t0=$SECONDS f0 try tries case_tries
	# (a subshell, itself counted: only when the count is shown)
	[ -z "${KNC_TIMES:-}" ] || f0=$(forks)
	log=$(mktemp)
	case_tries=$log.tries
	tap_n=$((tap_n + 1))
	# Not in an if: there bash would ignore set -e in the case's function.
	( set -e; baseline_restore; "$fn" ) >"$log" 2>&1
	status=$?
	if [ $status -eq 0 ]; then
		echo "ok $tap_n - $name"
		if [ -e "$case_tries" ] && read -r try tries <"$case_tries"; then
			echo "# passed on try $try of $tries"
		fi
	elif [ $status -eq $TAP_SKIP ]; then
		echo "ok $tap_n - $name # SKIP $(tail -n 1 "$log")"
	else
		echo "not ok $tap_n - $name"
		tap_failed=$((tap_failed + 1))
		sed 's/^/# /' "$log"
	fi
	[ -z "${KNC_TIMES:-}" ] || echo "# time $((SECONDS - t0)) s, $(($(forks) - f0)) processes"
	[ -z "${KNC_GCOV_CASES:-}" ] || gcov_snapshot "$tap_n" "$name" $((SECONDS - t0))
	rm -f "$log" "$case_tries"
}

# tried N M: the running case's check held on its Nth try of at most M (a
# case that repeats what the host's load can spoil, as a loop "for try in
# 1 2 3"); past the first, run_case prints "# passed on try N of M" when
# the case passes, so that a retry shows in the TAP
tried() {
	[ "${1:-1}" -le 1 ] || echo "$1 $2" >"${case_tries:?tried outside run_case}"
}

# gcov_snapshot N NAME [SECONDS]: with KNC_GCOV_CASES=1 (make coverage),
# under knc-vm --gcov (KNC_VM_GCOV) on the debug kernel, the modules'
# profiles so far (cumulative) into KNC_VM_GCOV/cases/N/, with NAME in its
# file name and the case's SECONDS in its file time: tools/knc/coverage
# takes a case's lines from the difference with the snapshot before it (0:
# before the first case), and weighs the cases by their time.
gcov_snapshot() {
	local d=${KNC_VM_GCOV:?KNC_GCOV_CASES=1 needs knc-vm --gcov}/cases/$1
	mkdir -p "$d" && printf '%s\n' "$2" >"$d/name" && printf '%s\n' "${3:-0}" >"$d/time" &&
		find /sys/kernel/debug/gcov -name '*.gcda' -exec cp --parents -t "$d" {} + ||
		echo "# gcov_snapshot $1 ($2) failed"
}

# --- the baseline every case starts from --------------------------------
# No case depends on another's state. run_cases records the state the suite
# starts its cases in (baseline_save), and run_case puts it back before each
# case (baseline_restore): the knc modules then loaded, with the same
# parameters (unloading those loaded since or with others, loading those
# gone), every CPU online, and the values of
# the files in BASELINE_FILES (perf's sysctls, a backend's knobs: sim.sh
# and qmodel.sh add theirs), and a backend's state outside the guest
# (backend_baseline, where a backend library defines it). Only what
# differs is written, so a case that left everything as it found it costs
# no program started. Cases therefore run in any order (KNC_SHUFFLE, see
# run_cases) or alone (a PATTERN), and one that fails halfway leaves
# nothing behind for the next. A case that needs another start (knc
# unloaded, the NMI watchdog on) makes it from the baseline itself.

BASELINE_FILES=(/proc/sys/kernel/perf_event_paranoid)
baseline_saved=0
baseline_mods=''
baseline_cpus=''
baseline_rate=''
baseline_pct=''
declare -A baseline_vals=() baseline_args=()

# knc_modules_loaded: the knc modules loaded, newest first, in REPLY (read
# in bash: no program started); none on a kernel without modules
knc_modules_loaded() {
	local m _
	REPLY=''
	[ -e /proc/modules ] || return 0
	while read -r m _; do
		[[ $m != knc_* ]] || REPLY+="$m "
	done </proc/modules
}

# knc_module_args NAME: the parameters module NAME has, as insmod takes
# them ("sampling=Y hw_check=Y "), in REPLY (read in bash)
knc_module_args() {
	local p v
	REPLY=''
	for p in "/sys/module/$1/parameters/"*; do
		[ -r "$p" ] || continue
		read -r v <"$p"
		REPLY+="${p##*/}=$v "
	done
}

baseline_save() {
	local f v m
	knc_modules_loaded
	baseline_mods=$REPLY
	for m in $baseline_mods; do
		knc_module_args "$m"
		baseline_args[$m]=$REPLY
	done
	read -r baseline_cpus </sys/devices/system/cpu/online
	read -r baseline_rate </proc/sys/kernel/perf_event_max_sample_rate
	read -r baseline_pct </proc/sys/kernel/perf_cpu_time_max_percent
	for f in "${BASELINE_FILES[@]}"; do
		[ -e "$f" ] || continue
		read -r v <"$f"
		baseline_vals[$f]=$v
	done
	baseline_saved=1
}

# baseline_restore: the state baseline_save recorded, back (run_case calls
# it in the case's subshell, under set -e: a failure fails the case)
baseline_restore() {
	local f v m i cpu rate pct mods gone=() drop=0
	[ "$baseline_saved" = 1 ] || return 0
	knc_modules_loaded
	read -r -a mods <<<"$REPLY"
	# Oldest first, a module goes when the baseline has not got it or had
	# it with other parameters (sampling=0, say), and so does every module
	# loaded after one that goes: it may use it.
	for ((i = ${#mods[@]} - 1; i >= 0; i--)); do
		m=${mods[i]}
		if ((!drop)); then
			if [[ " $baseline_mods " != *" $m "* ]]; then
				drop=1
			else
				knc_module_args "$m"
				[ "$REPLY" = "${baseline_args[$m]}" ] || drop=1
			fi
		fi
		((!drop)) || gone=("$m" "${gone[@]}")
	done
	for m in "${gone[@]}"; do
		rmmod "$m"
	done
	knc_modules_loaded
	if [ "$REPLY" != "$baseline_mods" ]; then
		read -r -a mods <<<"$baseline_mods"
		# oldest first: knc_pmu before the backend that uses it, with
		# the parameters it had (one word each)
		for ((i = ${#mods[@]} - 1; i >= 0; i--)); do
			m=${mods[i]}
			[[ " $REPLY " != *" $m "* ]] || continue
			# shellcheck disable=SC2086
			case $m in
			knc_pmu) insmod "$KNC_KO" ${baseline_args[$m]} ;;
			knc_sim) insmod "$KNC_SIM_KO" ${baseline_args[$m]} ;;
			*) fail "baseline: cannot load $m" ;;
			esac
		done
	fi
	read -r v </sys/devices/system/cpu/online
	if [ "$v" != "$baseline_cpus" ]; then
		for cpu in /sys/devices/system/cpu/cpu[0-9]*/online; do
			read -r v <"$cpu"
			[ "$v" = 1 ] || echo 1 >"$cpu"
		done
	fi
	read -r rate </proc/sys/kernel/perf_event_max_sample_rate
	read -r pct </proc/sys/kernel/perf_cpu_time_max_percent
	if [ "$rate" != "$baseline_rate" ] || [ "$pct" != "$baseline_pct" ]; then
		perf_throttle_set "$baseline_rate" "$baseline_pct"
	fi
	for f in "${!baseline_vals[@]}"; do
		[ -e "$f" ] || continue
		read -r v <"$f"
		[ "$v" = "${baseline_vals[$f]}" ] || echo "${baseline_vals[$f]}" >"$f"
	done
	! declare -F backend_baseline >/dev/null || backend_baseline
}

# The suite's cases: case_add puts each in.
cases=()

# case_add [--unloads|--last] NAME FUNCTION [WHY]: register the case
# FUNCTION, run under NAME (WHY: see run_cases), as the suite's next case. A
# suite calls it right after the case's function, so that a case's name,
# WHY and code read together.
#   --unloads  the case unloads knc's module or needs it unloaded, which
#              Linux before 6.2 allows only until the first per-task event
#              pins the module (KNC_PIN_TASK_CONTEXT), so on such a kernel
#              run_cases runs these cases before the others; they open no
#              per-task event.
#   --last     the case runs after all the others: it checks what they left
#              behind (kmemleak since the suite's start), or it leaves what
#              no other case may start from (a module it loaded, pinned by
#              per-task use).
case_add() {
	case_add_to cases "$@"
}

# case_add_to ARRAY [--unloads] NAME FUNCTION [WHY]: case_add to another
# list, as a library's cases (COUNTING_CASES), which its suites then add to
# cases where those cases are to run
case_add_to() {
	local -n list=$1
	local flags=''
	shift
	case $1 in --unloads | --last) flags=${1#--}; shift ;; esac
	list+=("$1|$2|${3:-}|$flags")
}

# case_matches NAME FUNCTION PATTERN...: whether NAME or FUNCTION contains
# one of the PATTERNs
case_matches() {
	local name=$1 fn=$2 p
	shift 2
	for p; do
		[[ $fn == *$p* || $name == *$p* ]] && return 0
	done
	return 1
}

# run_cases [PATTERN...]: run the entries of the array cases (those whose
# name or function contains one of the PATTERNs), print TAP, and return
# non-zero if one failed. An entry is "name|function|WHY|FLAGS" (case_add
# makes them): WHY names what makes the case depend on the kernel it runs on, one of
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
#             (KNC_USER_CASES=0 skips it: tests/run on the debug kernel
#             and on 6.1)
# A case without WHY tests the driver, the simulator or the model alone:
# the same on any kernel. With KNC_KERNEL_CASES=1 (tests/run on 6.12 and
# 6.1) only the cases with a WHY run; the debug kernel runs the others too,
# but for those tests/debug-cut lists ("SCRIPT: NAME"): counting cases whose
# every line of the modules another debug case executes too, which 6.12
# runs instead (KNC_DEBUG_CUT=off: the list is not read, as make coverage
# runs every case to measure, and 6.1 runs only the kernel's cases).
# KNC_WHYS="WHY..." keeps only the cases of those WHYs (tests/run on 6.1:
# the ones where 6.1's perf core differs from 6.2's and later).
# The cases run in the order they were added, but that on Linux before 6.2
# those with FLAGS "unloads" run first, and those with "last" always run
# last. With KNC_SHUFFLE=SEED (a number; "off": as added) each of those
# groups runs in a random order drawn from SEED instead: no case depends on
# another's state, and tests/run shuffles every suite that uses run_cases.
run_cases() {
	local c name fn why flags f0 g i j t first=() rest=() last=() cutlist=''
	f0=$(forks)
	[ "${KNC_DEBUG_CUT:-on}" = off ] || cutlist=$(sed -n "s/^${0##*/}: //p" tests/debug-cut)
	echo "TAP version 13"
	[ "${KNC_KERNEL_CASES:-0}" != 1 ] ||
		echo "# KNC_KERNEL_CASES=1: only the cases that depend on the kernel, and user space's"
	[ "${KNC_USER_CASES:-1}" != 0 ] ||
		echo "# KNC_USER_CASES=0: not the cases of user space's side (they run on 6.12)"
	[ -z "${KNC_WHYS:-}" ] || echo "# KNC_WHYS=$KNC_WHYS: only the cases that depend on the kernel for these"
	for c in "${cases[@]}"; do
		IFS='|' read -r name fn why flags <<<"$c"
		if [ $# -gt 0 ] && ! case_matches "$name" "$fn" "$@"; then
			continue
		fi
		# the debug kernel's cut: 6.12 runs them
		if [[ -n $cutlist && $'\n'$cutlist$'\n' == *$'\n'"$name"$'\n'* ]]; then
			[ "${KNC_USER_CASES:-1}" != 0 ] || continue
			why=${why:-covered}
		fi
		if [ "${KNC_KERNEL_CASES:-0}" = 1 ] && [ -z "$why" ]; then
			continue
		fi
		if [ "${KNC_USER_CASES:-1}" = 0 ] && [ "$why" = user ]; then
			continue
		fi
		if [ -n "${KNC_WHYS:-}" ] && [[ " $KNC_WHYS " != *" $why "* ]]; then
			continue
		fi
		if [ "$flags" = unloads ] && kernel_before_6_2; then
			first+=("$name|$fn")
		elif [ "$flags" = last ]; then
			last+=("$name|$fn")
		else
			rest+=("$name|$fn")
		fi
	done
	if [ -n "${KNC_SHUFFLE:-}" ] && [ "$KNC_SHUFFLE" != off ]; then
		echo "# KNC_SHUFFLE=$KNC_SHUFFLE: the cases in a random order"
		RANDOM=$KNC_SHUFFLE
		for g in first rest last; do
			local -n group=$g
			for ((i = ${#group[@]} - 1; i > 0; i--)); do
				j=$((RANDOM % (i + 1)))
				t=${group[i]} group[i]=${group[j]} group[j]=$t
			done
			unset -n group
		done
	fi
	baseline_save
	[ -z "${KNC_GCOV_CASES:-}" ] || gcov_snapshot 0 "before the first case"
	for c in "${first[@]}" "${rest[@]}" "${last[@]}"; do
		run_case "${c%%|*}" "${c#*|}"
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
	perf_throttle_set 1000000 0
}

perf_throttle_default() {
	perf_throttle_set 100000 25
}

# perf_throttle_set RATE PCT: perf_event_max_sample_rate RATE and
# perf_cpu_time_max_percent PCT (perf refuses a new rate while PCT is 0)
perf_throttle_set() {
	echo 25 >/proc/sys/kernel/perf_cpu_time_max_percent
	echo "$1" >/proc/sys/kernel/perf_event_max_sample_rate
	echo "$2" >/proc/sys/kernel/perf_cpu_time_max_percent
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

# group_counts_as_one PMU: a group starts and stops as one. The same
# kernel-mode event twice in a group counts the same instructions, the task
# alone on its CPU and switched out and in against a busy one. perf core
# adds and deletes a group's events one by one; without pmu_enable() and
# pmu_disable() that gate the counters (Linux 6.2 and later), the two
# counters start and stop a few hundred kernel instructions apart.
group_counts_as_one() {
	local pmu=$1 out bg='' c i
	out=$(mktemp)
	for i in alone switched; do
		if [ $i = switched ]; then
			taskset -c 0 sh -c 'while :; do :; done' &
			bg=$!
		fi
		pstat "$out" -e "{$pmu/instructions_executed/k,$pmu/instructions_executed/k}" -- \
			taskset -c 0 $LOOP
		[ -z "$bg" ] || { kill "$bg"; wait "$bg" 2>/dev/null || true; }
		c=$(count_of "$out" "$pmu/instructions_executed/k" | paste -sd' ')
		echo "$i: $c"
		[[ $c =~ ^[1-9][0-9]*\ [0-9]+$ ]] || fail "$i: not two counts: '$c'"
		expect_eq "$i: the group's second count" "${c% *}" "${c#* }"
	done
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
