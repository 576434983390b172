#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# make bench, in a guest: one column of the table tools/knc/bench prints.
#   tests/guest/bench.sh sim      knc_pmu.ko on the simulator
#   tests/guest/bench.sh native   knc_pmu.ko on the QEMU model
#   tests/guest/bench.sh linux    Linux's own driver (arch/x86/events/intel/knc.c,
#                                 the cpu PMU) on the QEMU model, nothing loaded
# Prints "ROW VALUE" lines: register accesses per operation (counted, see
# tests/guest/accesses.sh) and perf bench sched pipe's cost per round trip
# with each event, as a ratio to the run without events.
set -u
cd "$(dirname "$0")/../.." || exit 1
. tests/guest/lib.sh
. tests/guest/accesses.sh

mode=${1:-}
PIPE_LOOPS=${PIPE_LOOPS:-20000}
PIPE_RUNS=${PIPE_RUNS:-3}

ACC_BESIDE_CPU_PMU=0
case $mode in
sim)
	ACC_SOURCE=sim
	ACC_TYPE=$(cat $KNC_SYSFS/type)
	events=(task-clock knc/l2_read_miss/ knc/cpu_clk_unhalted/) ;;
native)
	ACC_SOURCE=model
	ACC_BESIDE_CPU_PMU=1
	ACC_TYPE=$(cat $KNC_SYSFS/type)
	events=(task-clock knc/l2_read_miss/ knc/cpu_clk_unhalted/) ;;
linux)
	ACC_SOURCE=model
	ACC_TYPE=4	# PERF_TYPE_RAW: the cpu PMU
	echo 0 >/proc/sys/kernel/nmi_watchdog	# it holds a counter, PMIs included
	events=(task-clock r10cb cycles) ;;	# l2_read_miss: event 0xcb, umask 0x10
*)
	echo "usage: $0 sim|native|linux" >&2
	exit 2 ;;
esac
# The rows, in the order of events
labels=(task-clock l2_read_miss cycles)
export ACC_SOURCE ACC_TYPE ACC_BESIDE_CPU_PMU
perf_throttle_off

acc_table_here | sed 's/^/acc_/'

# usecs per round trip of perf bench sched pipe, with perf stat -e $1
pipe_usecs() {
	local cmd=(perf bench sched pipe -l "$PIPE_LOOPS")
	[ "$1" = none ] || cmd=(perf stat -e "$1" -o /dev/null -- "${cmd[@]}")
	"${cmd[@]}" 2>/dev/null | awk '$2 == "usecs/op" { print $1 }'
}

# The runs alternate between the events, and each event's figure is its
# median, so that a slow phase of the host weighs on all of them alike.
declare -A usecs
for run in $(seq "$PIPE_RUNS"); do
	for ev in none "${events[@]}"; do
		usecs[$ev]+="$(pipe_usecs "$ev") "
	done
	: "$run"
done
median() { tr ' ' '\n' | grep . | sort -n | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'; }
base=$(median <<<"${usecs[none]}")
printf 'pipe_usecs_none %.1f\n' "$base"
for i in "${!events[@]}"; do
	m=$(median <<<"${usecs[${events[$i]}]}")
	echo "pipe_ratio_${labels[$i]} $(awk -v m="$m" -v b="$base" 'BEGIN { printf "%.2f\n", m / b }')"
done
