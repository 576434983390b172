# SPDX-License-Identifier: GPL-2.0
# Helpers for the suites that run on the QEMU KNC PMU model (model.sh,
# linux-knc.sh, fuzz.sh there), sourced after lib.sh; sim.sh defines the
# same names for the simulator.
# shellcheck shell=bash
# The constants are for the scripts that source this file:
# shellcheck disable=SC2034

MODEL=tools/knc/knc-model
INJ=$MODEL
real_events() {
	"$MODEL" real "$1"
}

evtsels() {
	"$MODEL" regs | awk '{ for (i = 1; i < NF; i++) if ($i ~ /^evtsel[01]$/) print $(i + 1) }'
}

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

# The model's PMU of vCPU $1: one field of `info knc-pmu`
model_field() {
	"$MODEL" regs | awk -v cpu="cpu $1:" -v f="$2" \
		'index($0, cpu) == 1 { for (i = 1; i < NF; i++) if ($i == f) { print $(i + 1); exit } }'
}

# model_sum FIELD: a field of `info knc-pmu`, summed over the vCPUs
model_sum() {
	"$MODEL" regs | awk -v f="$1" '{ for (i = 1; i < NF; i++) if ($i == f) s += $(i + 1) } END { print s + 0 }'
}
