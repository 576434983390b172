# SPDX-License-Identifier: GPL-2.0
# PMU register accesses per operation, counted by the PMU itself: the QEMU
# model's per-vCPU MSR and LVT access counters, or the simulator's count of
# backend ops. Sourced by the suites and by tests/guest/bench.sh, which
# set
#   ACC_SOURCE   who counts: "model" (QEMU's `info knc-pmu`) or "sim"
#   ACC_TYPE     the perf type of the PMU under test (knc, or 4, raw
#                events of the cpu PMU that Linux's own driver provides)
#   ACC_BESIDE_CPU_PMU=1  knc_pmu.ko runs beside Linux's own driver, which
#                clears and sets GLOBAL_CTRL (a read and a write each time)
#                whenever Linux 6.1 disables and enables the cpu PMU: around
#                every switch of a perf_hw_context, knc's included. knc_pmu.ko
#                never reads GLOBAL_CTRL, so those reads tell the two apart;
#                the figures are knc_pmu.ko's alone, the "_cpu" rows the cpu
#                PMU's.
# Each figure is the difference of two runs of build/tests/pmuops of
# different lengths, pinned to CPU 1 (the counters are read from CPU 0),
# divided by the difference in operations: what both runs share (exec,
# open, close, exit) cancels out. pmuops runs SCHED_FIFO, so that no
# kworker or timer-woken task preempts it, and its opens do not wait in
# synchronize_rcu(): a switch while its events exist costs a switch's
# accesses, one before does not, and the runs could not tell which (an
# open and close measured 4.12). Then the only switches are the
# operation's own.
# shellcheck shell=bash

PMUOPS=build/tests/pmuops
ACC_CPU=1
# instructions_executed, user mode: real on the QEMU model
ACC_EVENT=0x16

# acc_snapshot CPU: "ACCESSES PMIS CTRL_READS" of that CPU's PMU so far
# (CPU "all": of every CPU's), read from CPU 0. The model counts each
# vCPU's MSR, RDPMC and LVT accesses (the x86 core reads its counters with
# RDPMC; pmuops never does), the simulator the driver's backend ops.
acc_snapshot() {
	local regs w i kv a=0 p=0 c=0
	# Parsed here, not by awk: in a debug guest a program run costs a good
	# part of a second, and a table takes 24 snapshots.
	case $ACC_SOURCE in
	model)
		regs=$(taskset -c 0 tools/knc/knc-model regs)
		while read -r -a w; do
			[[ ${w[2]:-} == access && ("${w[0]} ${w[1]}" == "cpu $1:" || $1 == all) ]] ||
				continue
			for ((i = 3; i < ${#w[@]} - 1; i += 2)); do
				case ${w[i]} in
				rdGLOBAL_CTRL) c=$((c + w[i + 1])) ;;&
				rd* | wr*) a=$((a + w[i + 1])) ;;
				pmi) p=$((p + w[i + 1])) ;;
				esac
			done
		done <<<"$regs" ;;
	sim)
		regs=$(taskset -c 0 tools/knc/knc-sim regs)
		while read -r -a w; do
			[[ ${w[0]:-} == "cpu$1" || $1 == all ]] || continue
			for kv in "${w[@]:1}"; do
				case $kv in
				rd_*=* | wr_*=*) a=$((a + ${kv#*=})) ;;
				pmis=*) p=$((p + ${kv#*=})) ;;
				esac
			done
		done <<<"$regs" ;;
	esac
	echo "$a $p $c"
}

# acc_regs_model: "REG COUNT" for each register the model counts, summed
# over every vCPU, "wrGLOBAL_CTRL" less Linux's driver's writes (one per
# read of it, see ACC_BESIDE_CPU_PMU) and without its reads
acc_regs_model() {
	local regs w i
	declare -A acc_count=()
	regs=$(taskset -c 0 tools/knc/knc-model regs)
	while read -r -a w; do
		[[ ${w[2]:-} == access ]] || continue
		for ((i = 3; i < ${#w[@]} - 1; i += 2)); do
			[[ ${w[i]} == rd* || ${w[i]} == wr* ]] &&
				acc_count[${w[i]}]=$((${acc_count[${w[i]}]:-0} + w[i + 1]))
		done
	done <<<"$regs"
	acc_count[wrGLOBAL_CTRL]=$((${acc_count[wrGLOBAL_CTRL]:-0} - ${acc_count[rdGLOBAL_CTRL]:-0}))
	unset 'acc_count[rdGLOBAL_CTRL]'
	for i in "${!acc_count[@]}"; do
		echo "$i ${acc_count[$i]}"
	done | sort
}

# acc_regs_per_op N1 N2 PMUOPS-ARGS-BEFORE-N...: "REG ACCESSES" per
# operation per vCPU, on the QEMU model, of the registers accessed: the
# difference between runs of N1 and N2 operations, as acc_per's
acc_regs_per_op() {
	local n1=$1 n2=$2 r0 r1 r2 r3
	shift 2
	r0=$(acc_regs_model)
	chrt -f 10 taskset -c $ACC_CPU $PMUOPS "$@" "$n1" >/dev/null || return 1
	r1=$(acc_regs_model)
	chrt -f 10 taskset -c $ACC_CPU $PMUOPS "$@" "$n2" >/dev/null || return 1
	r2=$(acc_regs_model)
	r3=$(nproc)
	awk -v n="$((n2 - n1))" -v cpus="$r3" -v r0="$r0" -v r1="$r1" -v r2="$r2" '
	# regs(S, V): V[REG] = ACCESSES of snapshot S; reg[1..] its registers
	function regs(s, v,   a, f, i, k) {
		k = split(s, a, "\n")
		for (i = 1; i <= k; i++) { split(a[i], f, " "); v[f[1]] = f[2]; reg[i] = f[1] }
		return k
	}
	BEGIN {
		regs(r0, v0); regs(r1, v1); k = regs(r2, v2)
		for (i = 1; i <= k; i++) {
			d = (v2[reg[i]] - v1[reg[i]]) - (v1[reg[i]] - v0[reg[i]])
			if (d != 0)
				printf "%s %.2f\n", reg[i], d / n / cpus
		}
	}'
}

# acc_run PMUOPS-ARGS...: print "ACCESSES PMIS SWITCHES CPU_PMU_ACCESSES NS"
# of one run, counted on CPU $ACC_CPU (ACC_ALL_CPUS=1: on all CPUs)
acc_run() {
	local a0 p0 c0 a1 p1 c1 out c s t k v cpu=$ACC_CPU
	[ "${ACC_ALL_CPUS:-0}" = 0 ] || cpu=all
	read -r a0 p0 c0 <<<"$(acc_snapshot $cpu)"
	out=$(chrt -f 10 taskset -c $ACC_CPU $PMUOPS "$@")
	s='' t=''
	while read -r k v _; do
		case $k in
		switches) s=$v ;;
		ns) t=$v ;;
		esac
	done <<<"$out"
	[ -n "$t" ] || return 1
	read -r a1 p1 c1 <<<"$(acc_snapshot $cpu)"
	c=0
	[ "${ACC_BESIDE_CPU_PMU:-0}" = 0 ] || c=$((2 * (c1 - c0)))
	echo "$((a1 - a0 - c)) $((p1 - p0)) $s $c $t"
}

# acc_per UNIT N1 N2 PMUOPS-ARGS-BEFORE-N...: "ACCESSES CPU_PMU_ACCESSES NS"
# per unit (the time as pmuops measured it, less nothing); UNIT is "switch" (per context switch out and
# in), "pmi" (per PMI, less the switches' share at $ACC_SWITCH each) or
# "op" (per operation N counts, less the switches' share).
acc_per() {
	local unit=$1 n1=$2 n2=$3 r1 r2
	shift 3
	r1=$(acc_run "$@" "$n1") || return 1
	r2=$(acc_run "$@" "$n2") || return 1
	echo "# $* $n1: $r1; $n2: $r2 (accesses, PMIs, switches, cpu PMU's, ns)" >&2
	awk -v u="$unit" -v n1="$n1" -v n2="$n2" -v sw="${ACC_SWITCH:-0}" \
		-v swc="${ACC_SWITCH_CPU:-0}" -v r1="$r1" -v r2="$r2" 'BEGIN {
		split(r1, a); split(r2, b)
		da = b[1] - a[1]; dp = b[2] - a[2]; ds = b[3] - a[3]; dc = b[4] - a[4]
		if (u == "switch") { d = ds }
		else { da -= sw * ds; dc -= swc * ds; d = (u == "pmi") ? dp : n2 - n1 }
		if (d <= 0) { print "nan nan nan"; exit }
		printf "%.2f %.2f %.0f\n", da / d, dc / d, (b[5] - a[5]) / d
	}'
}

# acc_table PMI-WORK...: the accesses of each operation, one "name value"
# line each. PMI-WORK is how the events overflow, the pmuops arguments
# before N: "loop" (executed instructions, on the QEMU model) or "-f FILE
# -l LINE write" (injection, on the simulator); ACC_PERIOD, ACC_PMI_N1 and
# ACC_PMI_N2 say how many PMIs each run gets.
acc_table() {
	local e="-e$ACC_TYPE:$ACC_EVENT" sw1 sw2
	sw1=$(acc_per switch 200 400 "$e" switch) || return 1
	read -r ACC_SWITCH ACC_SWITCH_CPU _ <<<"$sw1"
	export ACC_SWITCH ACC_SWITCH_CPU
	acc_row switch_1 "$sw1"
	sw2=$(acc_per switch 200 400 "$e" "$e" switch) || return 1
	acc_row switch_2 "$sw2"
	acc_row read "$(acc_per op 200 400 "$e" read)"
	# A switch in an open run costs a switch's accesses if the events
	# exist at the time, none if not, and the runs cannot tell which: none
	# are taken off. pmuops's hold and SCHED_FIFO leave none to take off.
	acc_row open_close "$(ACC_SWITCH=0 ACC_SWITCH_CPU=0 acc_per op 100 200 "$e" open)"
	acc_row pmi_1 "$(acc_per pmi "$ACC_PMI_N1" "$ACC_PMI_N2" "$e" -p "$ACC_PERIOD" "$@")"
	# A switch of a task with two events costs what switch_2 found.
	read -r ACC_SWITCH ACC_SWITCH_CPU _ <<<"$sw2"
	acc_row pmi_2 "$(acc_per pmi "$ACC_PMI_N1" "$ACC_PMI_N2" "$e" "$e" -p "$ACC_PERIOD" "$@")"
}

# acc_row NAME "OWN CPU": "NAME OWN", and "NAME_cpu CPU" beside the cpu PMU
acc_row() {
	local own cpu
	read -r own cpu _ <<<"$2"
	echo "$1 ${own:-nan}"
	[ "${ACC_BESIDE_CPU_PMU:-0}" = 0 ] || echo "${1}_cpu ${cpu:-nan}"
}

# acc_table_here: acc_table with this suite's PMU and its way to overflow.
# The native backend reserves the counters at its first event and releases
# them after its last, on every CPU each time: a knc event on CPU 0 stays
# open meanwhile, so that the figures are those of the operations
# themselves (reserving and releasing are not a cost of an open; model.sh
# counts them).
acc_table_here() {
	local reserver='' st=0
	case $ACC_SOURCE in
	model)
		if [ "$ACC_TYPE" = "$(cat "$KNC_SYSFS/type" 2>/dev/null)" ]; then
			perf stat -o /dev/null -C 0 -e knc/cpu_clk_unhalted/ -- sleep 86400 &
			reserver=$!
			wait_pid_comm $reserver sleep || return 1
		fi
		ACC_PERIOD=10000 ACC_PMI_N1=1000000 ACC_PMI_N2=2000000 acc_table loop || st=$?
		if [ -n "$reserver" ]; then
			pkill -P $reserver -x sleep
			wait $reserver
		fi
		return $st ;;
	sim)
		ACC_PERIOD=10000 ACC_PMI_N1=200 ACC_PMI_N2=400 acc_table \
			-f /sys/kernel/debug/knc_sim/inject -l "instructions_executed 10000 user" write ;;
	esac
}

# The least accesses the hardware allows, and what knc_pmu.ko makes: a
# task switched out and in with one event: stop (EvtSel), read the
# counter; write it, start (EvtSel). A PMI: stop (GLOBAL_CTRL), read the
# status, clear it, unmask the LVT entry, read and reload the counter,
# restart. A group of two (pmuops's two events) switches as one since
# Linux 6.2, GLOBAL_CTRL cleared and set around its stops and its starts:
# 12; Linux 6.1 brackets the whole context with the cpu PMU's disable
# (knc_core.c), and there it costs two events' 8. An access more fails the
# suites.
ACC_EXPECTED="switch_1 4 switch_2 12 read 1 open_close 4 pmi_1 7 pmi_2 9"
! kernel_before_6_2 || ACC_EXPECTED=${ACC_EXPECTED/switch_2 12/switch_2 8}

# acc_expect TABLE: each figure of acc_table's TABLE is the expected one
# (to 0.1: an unrelated NMI or switch in a run adds a little)
acc_expect() {
	awk -v expected="$ACC_EXPECTED" '
		{ got[$1] = $2 }
		END {
			n = split(expected, e, " ")
			for (i = 1; i < n; i += 2) {
				g = got[e[i]]
				w = e[i + 1]
				if (!(g != "" && g >= w - 0.1 && g <= w + 0.1)) {
					print e[i] ": " (g == "" ? "no figure" : g) " accesses, expected " w
					bad = 1
				}
			}
			exit bad
		}' <<<"$1"
}
