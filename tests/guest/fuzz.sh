#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# The perf_event_open fuzzer (build/tests/fuzz, tests/guest/progs/fuzz.c)
# on the simulator or on the QEMU model, whichever the guest has:
#   tools/knc/knc-vm --threads 2 --tcg-thread single -- tests/guest/fuzz.sh
#   tools/knc/knc-vm --native --no-module --threads 2 --tcg-thread single \
#       -- tests/guest/fuzz.sh
# A baseline without knc (on the model, Linux's own KNC driver and the NMI
# watchdog have the counters), which must leave the kernel log clean, so
# that a report in the run with knc is knc's; and the same with knc, after
# which nothing may be left programmed and counting must be exact.
# Each runs the fuzzer as root and as a user without privileges under
# perf_event_paranoid 2. One TCG thread: under multi-threaded TCG a vCPU
# can run kernel text another vCPU is patching (perf's static keys), and
# the baseline alone soft-locks the guest within a minute.
# KNC_FUZZ_SECONDS (default 15) is each fuzzer run's length, KNC_FUZZ_SEED
# (default 1) its seed; make fuzz runs for minutes with a random seed.
# KNC_FUZZ_BASELINE=0 leaves the baseline out: tests/run keeps it on the
# debug kernel, one per backend, where the checkers would report what the
# kernel does without knc.
# Prints TAP.
set -u
cd "$(dirname "$0")/../.." || exit 1
. tests/guest/lib/lib.sh

FUZZ=build/tests/fuzz
FUZZ_SECONDS=${KNC_FUZZ_SECONDS:-15}
FUZZ_SEED=${KNC_FUZZ_SEED:-1}
# What a kernel problem looks like in the log.
FUZZ_BAD='WARNING:|BUG:|Oops|KASAN|UBSAN|lockdep|circular locking|soft lockup|hard LOCKUP|rcu_.*stall|general protection|Call Trace'

# knc-vm loads knc_sim for the simulator; on the model nothing is loaded.
if [ -d /sys/module/knc_sim ]; then
	backend=sim
	. tests/guest/lib/sim.sh
else
	backend=model
	. tests/guest/lib/qmodel.sh
fi

# A PMI costs a millisecond of host time under TCG, not a microsecond: at
# the boot rate, 400 PMIs a tick, a storm of tiny periods held the fuzzer
# as a user past its alarm (when knc's handler did not yet report its time
# to perf's adaptive throttle, which lowers the rate only after a storm's
# first hundred PMIs). Four a tick (perf_event_max_sample_rate 1000) still
# throttles every storm.
echo 1000 >/proc/sys/kernel/perf_event_max_sample_rate

# summary WHO OUT: the fuzzer's output OUT, and its summary line ("fuzz:
# seed, seconds, opens, ops, errnos") as a TAP diagnostic whether the case
# passes or fails
exec 3>&1
summary() {
	cat "$2"
	echo "# as $1: $(grep '^fuzz:' "$2")" >&3
}

fuzz_reports() {
	dmesg | grep -c -E "$FUZZ_BAD" || true
}

# fuzz_root_and_user: the fuzzer as root, then as a user without
# privileges under perf_event_paranoid 2, with perf's throttle as it
# boots; no new kernel report.
fuzz_root_and_user() {
	local before bin=/tmp/fuzz-nobody out=/tmp/fuzz.out
	before=$(fuzz_reports)
	timeout $((FUZZ_SECONDS + 120)) "$FUZZ" -s "$FUZZ_SEED" -t "$FUZZ_SECONDS" >$out ||
		{ cat $out; fail "the fuzzer as root failed or hung"; }
	summary root $out
	cp "$FUZZ" $bin
	chmod 755 $bin
	paranoid 2
	(cd /tmp && timeout $((FUZZ_SECONDS + 120)) $NOBODY $bin -s "$((FUZZ_SEED + 1))" \
		-t "$FUZZ_SECONDS") >$out || { cat $out; fail "the fuzzer as a user failed or hung"; }
	summary "a user" $out
	if [ "$(fuzz_reports)" != "$before" ]; then
		dmesg | grep -E -A 20 "$FUZZ_BAD" | tail -n 60
		fail "the kernel log has new reports"
	fi
}

t_fuzz_without_knc() {
	if [ "$backend" = model ]; then
		dmesg | grep -q "Performance Events: knc PMU driver" ||
			fail "neither knc_sim nor the QEMU model's PMU"
	fi
	fuzz_root_and_user
}
[ "${KNC_FUZZ_BASELINE:-1}" = 0 ] ||
	case_add --unloads "fuzzer baseline without knc, as root and as a user: the kernel log stays clean" \
		t_fuzz_without_knc

# On the debug kernel kmemleak scans first, knc unloaded (what leaked
# before is not knc's), and last, knc still loaded.
t_fuzz() {
	local out
	[ ! -e $KMEMLEAK ] || kmemleak_baseline
	knc_modules_load
	fuzz_root_and_user
	expect_no_evtsel_enabled
	out=$(mktemp)
	if [ "$backend" = model ]; then
		pstat "$out" -e knc/instructions_executed/u -- $LOOP
		expect_eq "instructions after fuzzing" $LOOP_INSNS \
			"$(count_of "$out" knc/instructions_executed/u)"
	else
		pstat "$out" -e knc/l2_read_miss/ -- "$KNC_SIM" inject l2_read_miss 4321 >/dev/null
		expect_eq "per-task count after fuzzing" 4321 "$(count_of "$out" knc/l2_read_miss/)"
		pstat "$out" -a -e knc/data_read_miss/ -- "$KNC_SIM" inject data_read_miss 1234 >/dev/null
		expect_eq "CPU-wide count after fuzzing" 1234 "$(count_of "$out" knc/data_read_miss/)"
	fi
	[ ! -e $KMEMLEAK ] || expect_no_new_leak
}
case_add "fuzzer with knc, as root and as a user: no kernel report, counts exact after$(
	[ ! -e $KMEMLEAK ] || echo ", kmemleak finds nothing new of knc's or perf's")" t_fuzz

# The baseline every case starts from (lib.sh): knc unloaded.
[ "$backend" = model ] || knc_unload
run_cases "$@"
