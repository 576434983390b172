#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Host test (TAP version 13): the kernel instructions a knc event costs a
# context switch, counted exactly by tools/knc/insncount (single-stepping
# in the QEMU model under Linux 6.12, through QEMU's gdbstub): task-clock
# on CPU 0, knc's l2_read_miss on CPU 1. Like the register accesses that
# model.sh asserts, the count does not depend on the machine; a change
# that lengthens the hot path fails here until its budget is raised on
# purpose.
set -uo pipefail
cd "$(dirname "$0")/../.." || exit 1

# The driver's part of a switch out and in, knc_pmu_add() + knc_pmu_del()
# and perf core's two pmu_disable() and pmu_enable() pairs: 264 (Debian's
# gcc 12; add() and del() 199 of them), and the whole switch, perf core's
# part included: 2898, within 7% of task-clock's 2716. The pmu_enable()
# and pmu_disable() that start and stop a group as one cost 53 more than
# perf core's empty ones: knc_pmu_enable() writes the EvtSel that add()
# wrote before. The guest runs with mitigations=off (insncount), so
# that no return takes a thunk that depends on where it lies in its cache
# line: the counts do not move with the module's layout.
DRIVER_BUDGET=264
SWITCH_BUDGET=2898

echo "TAP version 13"
echo "1..4"
out=$(tools/knc/insncount --hits 6 2>&1)
status=$?
printf '# %s\n' "${out//$'\n'/$'\n'# }"
if [ $status -ne 0 ]; then
	for i in 1 2 3 4; do echo "not ok $i - tools/knc/insncount failed"; done
	exit 1
fi
# cnt FUNC@CPU: the count of its calls; "" if they differ
cnt() {
	echo "$out" | awk -v f="$1" '$1 == f { for (i = 4; i <= NF; i++) if ($i != $2) exit; print $2 }'
}
# most FUNC@CPU: the commonest count of its calls (insncount counts the
# sched hooks of the tasks with events only)
most() { echo "$out" | awk -v f="$1" '$1 == f { print $2 }'; }

# per_switch FUNC@CPU: its instructions a switch out and in, for a
# callback perf core calls once in each (their counts differ)
per_switch() {
	echo "$out" | awk -v f="$1" '$1 == f { for (i = 4; i <= NF; i++) s += $i; n = NF - 3 }
		END { if (n >= 2 && n % 2 == 0) print s * 2 / n }'
}
add=$(cnt knc_pmu_add@1) del=$(cnt knc_pmu_del@1)
en=$(per_switch knc_pmu_enable@1) dis=$(per_switch knc_pmu_disable@1)
if [ -n "$add" ] && [ -n "$del" ]; then
	echo "ok 1 - a knc event's add() and del() take one path at every switch ($add and $del)"
else
	echo "not ok 1 - a knc event's add() and del() take one path at every switch"
fi

drv=$((add + del + en + dis))
if [ -n "$add" ] && [ -n "$del" ] && [ -n "$en" ] && [ -n "$dis" ] && [ $drv -le $DRIVER_BUDGET ]; then
	echo "ok 2 - add(), del(), pmu_enable() and pmu_disable() of a switch take $drv kernel instructions ($add, $del, $en, $dis), at most $DRIVER_BUDGET"
else
	echo "not ok 2 - add(), del(), pmu_enable() and pmu_disable() of a switch take ${add:-?}+${del:-?}+${en:-?}+${dis:-?} kernel instructions, over $DRIVER_BUDGET"
fi

core() {	# core CPU DRIVER: the perf core's own share of a switch
	echo $(($(most "__perf_event_task_sched_out@$1") + $(most "__perf_event_task_sched_in@$1") - $2))
}
tc_add=$(cnt task_clock_event_add@0) tc_del=$(cnt task_clock_event_del@0)
if [ -n "$tc_add" ] && [ -n "$tc_del" ] && [ -n "$add" ] && [ -n "$del" ] && [ -n "$en" ] && [ -n "$dis" ]; then
	knc_core=$(core 1 "$drv") tc_core=$(core 0 $((tc_add + tc_del)))
	diff=$((knc_core - tc_core))
	if [ ${diff#-} -le 16 ]; then
		echo "ok 3 - the perf core spends as much on a knc event's switch as on task-clock's ($knc_core, $tc_core): the rest is the driver's"
	else
		echo "not ok 3 - the perf core spends $knc_core instructions on a knc event's switch, $tc_core on task-clock's"
	fi
else
	echo "not ok 3 - no counts of task-clock's switch"
fi

sw_out=$(most "__perf_event_task_sched_out@1") sw_in=$(most "__perf_event_task_sched_in@1")
if [ -n "$sw_out" ] && [ -n "$sw_in" ] && [ $((sw_out + sw_in)) -le $SWITCH_BUDGET ]; then
	echo "ok 4 - a switch out and in of a task with a knc event takes $((sw_out + sw_in)) kernel instructions, at most $SWITCH_BUDGET"
else
	echo "not ok 4 - a switch out and in of a task with a knc event takes ${sw_out:-?}+${sw_in:-?} kernel instructions, over $SWITCH_BUDGET"
fi
