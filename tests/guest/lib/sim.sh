# SPDX-License-Identifier: GPL-2.0
# Helpers for the suites that run on the simulator (simulator.sh, stress.sh),
# sourced after lib.sh; model.sh defines the same names for the QEMU model.
# shellcheck shell=bash
# The constants are for the scripts that source this file:
# shellcheck disable=SC2034

INJ=$KNC_SIM
# the file a program writes an injection to itself (knc-sim inject's)
INJ_FILE=/sys/kernel/debug/knc_sim/inject
# the module that registers the PMU
PMU_KO=$KNC_SIM_KO
# The simulator's knobs as the suite found them, before each case (lib.sh's
# baseline); irqoff_max_ns is a measurement, not a knob.
BASELINE_FILES+=(/sys/kernel/debug/knc_sim/clock_hz /sys/kernel/debug/knc_sim/pmi_min_gap_ns
	/sys/kernel/debug/knc_sim/race_events)
# The clock model is the simulator's only event that moves by itself.
real_events() {
	if [ "$1" = on ]; then "$KNC_SIM" clock-hz 1100000000; else "$KNC_SIM" clock-hz 0; fi
}

# sim_regs NAME-ERE: the values of the registers NAME-ERE matches, over
# every CPU, one per line
sim_regs() {
	"$KNC_SIM" regs | grep -o -E "\<($1)=0x[0-9a-f]+" | cut -d= -f2
}

evtsels() {
	sim_regs 'evtsel[01]'
}

pmis() {
	"$KNC_SIM" regs | sed -n 's/.* pmis=\([0-9]*\).*/\1/p' | awk '{ s += $1 } END { print s }'
}

# tests/guest/lib/accesses.sh counts the backend's register operations
ACC_SOURCE=sim

# ctrs: every CPU's counter values, on one line
ctrs() {
	sim_regs 'ctr[01]' | xargs
}

# knc_modules_load, knc_modules_unload: the driver and its backend
knc_modules_load() {
	knc_load
}

knc_modules_unload() {
	knc_unload
}

# expect_pmis_serviced: the driver left no LVT entry masked and serviced
# every PMI the simulator raised
expect_pmis_serviced() {
	! "$KNC_SIM" regs | grep -q "lvt=masked" || fail "LVT entry left masked"
	! "$KNC_SIM" regs | grep -q -v "pmi_timeouts=0" || fail "a PMI was not serviced"
}
