# SPDX-License-Identifier: GPL-2.0
# Helpers for the suites that run on the QEMU KNC PMU model (model.sh,
# linux-knc.sh, fuzz.sh there), sourced after lib.sh; sim.sh defines the
# same names for the simulator.
# shellcheck shell=bash
# The constants are for the scripts that source this file:
# shellcheck disable=SC2034

MODEL=tools/knc/knc-model
INJ=$MODEL
# none: a program makes events by executing instructions
INJ_FILE=
# the module that registers the PMU
PMU_KO=$KNC_KO
# Whether real execution counts lives in QEMU; the last setting is kept in
# MODEL_REAL for backend_baseline.
MODEL_REAL=/tmp/knc-model-real
real_events() {
	"$MODEL" real "$1"
	echo "$1" >$MODEL_REAL
}

# The NMI watchdog as the suite found it, before each case (lib.sh's
# baseline): it holds a counter when on.
BASELINE_FILES+=(/proc/sys/kernel/nmi_watchdog)

# backend_baseline: real execution counts, as at boot (lib.sh's
# baseline_restore calls it before each case)
backend_baseline() {
	local v=on
	[ ! -e $MODEL_REAL ] || read -r v <$MODEL_REAL
	[ "$v" = on ] || real_events on
}

evtsels() {
	"$MODEL" regs | awk '{ for (i = 1; i < NF; i++) if ($i ~ /^evtsel[01]$/) print $(i + 1) }'
}

pmis() {
	model_sum pmi
}

# tests/guest/lib/accesses.sh counts the model's MSR and LVT accesses;
# Linux's own driver, which drives the model at boot, is there beside knc
ACC_SOURCE=model
ACC_BESIDE_CPU_PMU=1

# knc_modules_load, knc_modules_unload: the driver, which finds the model's
# PMU (the NMI watchdog would hold a counter)
knc_modules_load() {
	echo 0 >/proc/sys/kernel/nmi_watchdog
	insmod "$KNC_KO"
}

knc_modules_unload() {
	rmmod knc_pmu
}

# PMIs lost on purpose since boot: knc_model_test.ko's pmi_lvt_masked rule
# overflows a counter under a masked LVT entry (model.sh, model_test_log)
PMI_LOST_ON_PURPOSE=/tmp/knc-pmi-lost-on-purpose

# expect_pmis_serviced: every PMI the model raised for a driver reached the
# guest, and the LVT performance entry is unmasked again on every CPU
expect_pmis_serviced() {
	expect_eq "PMIs lost to a masked LVT entry" "$(cat $PMI_LOST_ON_PURPOSE 2>/dev/null || echo 0)" \
		"$(model_sum pmi_lost)"
	! "$MODEL" regs | grep -E -q "lvtpc 0x1[0-9a-f]{4}" || fail "an LVT entry was left masked"
}

# The model's PMU of vCPU $1: one field of `info knc-pmu` (parsed in bash:
# in a debug guest each program run costs a good part of a second)
model_field() {
	local regs line w i
	regs=$("$MODEL" regs)
	while IFS= read -r line; do
		[[ $line == "cpu $1:"* ]] || continue
		read -r -a w <<<"$line"
		for ((i = 0; i < ${#w[@]} - 1; i++)); do
			[ "${w[i]}" != "$2" ] || { echo "${w[i + 1]}"; return 0; }
		done
	done <<<"$regs"
}

# model_sum FIELD: a field of `info knc-pmu`, summed over the vCPUs
model_sum() {
	local regs line w i s=0
	regs=$("$MODEL" regs)
	while IFS= read -r line; do
		read -r -a w <<<"$line"
		for ((i = 0; i < ${#w[@]} - 1; i++)); do
			[ "${w[i]}" = "$1" ] || continue
			if [[ ${w[i + 1]} =~ ^0[xX][0-9a-fA-F]+ ]]; then
				s=$((s + BASH_REMATCH[0]))
			elif [[ ${w[i + 1]} =~ ^[0-9]+ ]]; then
				s=$((s + 10#${BASH_REMATCH[0]}))
			fi
		done
	done <<<"$regs"
	echo "$s"
}

# expect_status0_nmis_left EVENT HANDLER: three backtrace NMIs (sysrq l)
# reach the other CPU while EVENT counts on every CPU (perf stat -a), and
# find GLOBAL_STATUS 0: the model raises no PMI without a status bit
# (knc_model_test.ko's pmi_not_after_clear), so such an NMI is someone
# else's. HANDLER, the PMU's NMI handler, must answer each with NMI_DONE
# (handled: 0 in the nmi_handler tracepoint), leaving it to the backtrace
# handler. EVENT '' counts nothing: the PMU's driver is loaded, idle.
expect_status0_nmis_left() {
	local ev=/sys/kernel/tracing/events/nmi/nmi_handler t=/tmp/nmi-handlers.txt i bt left claimed holder=''
	if [ -n "$1" ]; then
		perf stat -o /dev/null -a -e "$1" -- sleep infinity &
		holder=$!
		wait_pid_comm $holder sleep
	fi
	shift
	echo 1 >$ev/enable
	echo >/sys/kernel/tracing/trace
	for i in 1 2 3; do
		echo l >/proc/sysrq-trigger
	done
	echo 0 >$ev/enable
	grep -F "handled:" /sys/kernel/tracing/trace >$t
	if [ -n "$holder" ]; then
		pkill -P $holder -x sleep
		wait $holder
	fi
	bt=$(grep -c "nmi_cpu_backtrace_handler[ (].*handled: 1" $t || :)
	left=$(grep -c "$1[ (].*handled: 0" $t || :)
	claimed=$(grep -c "$1[ (].*handled: [1-9]" $t || :)
	echo "backtrace NMIs: $bt; $1 left $left of them, claimed $claimed"
	[ "$left" -gt 0 ] || sed 's/^/  /' $t
	[ "$bt" -ge 3 ] || fail "$bt backtrace NMIs reached the other CPU, not 3"
	expect_eq "NMIs $1 left to the next handler" "$bt" "$left"
	expect_eq "NMIs $1 claimed" 0 "$claimed"
}
