#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# make bench, in a guest: one column of the table tools/knc/bench prints.
#   tests/guest/bench.sh sim      knc_pmu.ko + knc_sim.ko, the simulator
#   tests/guest/bench.sh native   knc_pmu.ko on the QEMU model
#   tests/guest/bench.sh linux    Linux's own driver (arch/x86/events/intel/knc.c,
#                                 the cpu PMU) on the QEMU model, nothing loaded
#   tests/guest/bench.sh scale    on the QEMU model with nothing loaded and any
#                                 number of vCPUs: load, perf stat -a's open,
#                                 read and close, unload, per CPU
# Prints "ROW VALUE" lines: register accesses per operation (counted, see
# tests/guest/lib/accesses.sh) and perf bench sched pipe's cost per round trip
# with each event, as a ratio to the run without events.
set -u
cd "$(dirname "$0")/../.." || exit 1
. tests/guest/lib/lib.sh
. tests/guest/lib/accesses.sh

mode=${1:-}

# scale: what grows with the CPUs, in all: accesses summed over every vCPU
# (less Linux's driver's GLOBAL_CTRL traffic, as in accesses.sh) and the
# guest's microseconds. tools/knc/bench compares the vCPU counts.
if [ "$mode" = scale ]; then
	ACC_SOURCE=model ACC_BESIDE_CPU_PMU=1 ACC_ALL_CPUS=1
	export ACC_SOURCE ACC_BESIDE_CPU_PMU ACC_ALL_CPUS
	n=$(nproc)
	echo 0 >/proc/sys/kernel/nmi_watchdog
	# all_cpus NAME CMD...: accesses and microseconds of CMD
	all_cpus() {
		local name=$1 a0 c0 a1 c1 t0 t1
		shift
		read -r a0 _ c0 <<<"$(acc_snapshot all)"
		t0=$(date +%s%N)
		"$@" || return 1
		t1=$(date +%s%N)
		read -r a1 _ c1 <<<"$(acc_snapshot all)"
		echo "scale_${name}_acc $((a1 - a0 - 2 * (c1 - c0)))"
		echo "scale_${name}_us $(((t1 - t0) / 1000))"
	}
	echo "scale_cpus $n"
	all_cpus load insmod "$KNC_KO"
	ACC_TYPE=$(cat $KNC_SYSFS/type)
	export ACC_TYPE
	# pmuops -a: one CPU-wide event on every CPU, as perf stat -a opens it;
	# per open and close, and per read, of all of them. Once first: the
	# first take after loading resets each PMU in full, later ones do not.
	$PMUOPS -a "-e$ACC_TYPE:0x10cb" open 1 >/dev/null || exit 1
	read -r a _ t <<<"$(acc_per op 10 20 -a "-e$ACC_TYPE:0x10cb" open)"
	echo "scale_open_close_acc $a"
	echo "scale_open_close_us $((t / 1000))"
	read -r a _ t <<<"$(acc_per op 50 100 -a "-e$ACC_TYPE:0x10cb" read)"
	echo "scale_read_acc $a"
	echo "scale_read_us $((t / 1000))"
	# knc-stat --view (the card a row per core): what an interval of
	# 100 ms costs once it runs. Its start (opening nine events on every
	# CPU) varies from run to run and is left out: the window runs from one
	# snapshot's start to the next's while it prints, the snapshots alike
	# (reading every vCPU's accesses takes seconds at 64). In the window:
	# the register accesses on every CPU (the reads, and the rotation of
	# its six groups that multiplexing needs) and knc-stat's own CPU time
	# (schedstat), per interval.
	view_cost() {
		local out pid i a0 a1 c0 c1 s0 s1 t0 t1 n
		out=$(mktemp)
		taskset -c 0 build/card/knc-stat --view -x, -I 100 -n 100000 -o "$out" &
		pid=$!
		for ((i = 0; i < 300; i++)); do
			[ -s "$out" ] && break
			sleep 0.1
		done
		if ! [ -s "$out" ]; then
			kill "$pid" 2>/dev/null
			wait "$pid"
			echo "# knc-stat --view printed no interval in 30 s" >&2
			return 1
		fi
		t0=$(date +%s%N)
		read -r s0 _ </proc/$pid/schedstat
		read -r a0 _ c0 <<<"$(acc_snapshot all)"
		sleep 2
		t1=$(date +%s%N)
		read -r s1 _ </proc/$pid/schedstat
		read -r a1 _ c1 <<<"$(acc_snapshot all)"
		kill -INT "$pid"
		wait "$pid"
		rm -f "$out"
		# the window's intervals, in hundredths
		n=$(((t1 - t0) / 1000000))
		echo "scale_view_acc $(((a1 - a0 - 2 * (c1 - c0)) * 100 / n))"
		echo "scale_view_us $(((s1 - s0) / 10 / n))"
	}
	view_cost || exit 1
	all_cpus unload rmmod knc_pmu
	exit 0
fi

PIPE_LOOPS=${PIPE_LOOPS:-20000}
PIPE_RUNS=${PIPE_RUNS:-9}

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
	echo "usage: $0 sim|native|linux|scale" >&2
	exit 2 ;;
esac
# The rows, in the order of events
labels=(task-clock l2_read_miss cycles)
export ACC_SOURCE ACC_TYPE ACC_BESIDE_CPU_PMU
perf_throttle_off

acc_table_here | sed 's/^/acc_/'

# loop_ns ITERS CMD...: the time in ns (pmuops times it) of a loop of
# ITERS iterations of two user instructions, under CMD
loop_ns() {
	local iters=$1
	shift
	"$@" build/tests/pmuops -e1:9 loop "$iters" | awk '$1 == "ns" { print $2 }'
}

# record_loop ITERS PERIOD EVENT: perf record -c PERIOD -e EVENT of the
# loop: "NS SAMPLES LOST", LOST counting lost samples and throttling records
record_loop() {
	local d=/tmp/bench-rec.data ns
	ns=$(loop_ns "$1" perf record -q -o $d -c "$2" -e "$3" --)
	echo "$ns $(perf script -i $d -F event 2>/dev/null | wc -l) \
$(perf report -i $d --stats 2>/dev/null | awk '/LOST|THROTTLE/ { n += $NF } END { print n + 0 }')"
}

# median3 CMD...: the run of CMD (printing "NS SAMPLES LOST") with the
# median NS of three
median3() {
	{ "$@"; "$@"; "$@"; } | sort -n | sed -n 2p
}

# On the model: a PMI's cost against a software event's overflow, each the
# extra time of the loop (10^8 user instructions) per sample, at about
# 10^4 samples: knc's instructions (a PMI each) and task-clock (an hrtimer
# interrupt each), each against the same event with a period too long to
# overflow (TCG runs a loop whose instructions are counted slower). A PMI
# costs a few microseconds under TCG: at 10^3 samples the extra time was
# within the loop's own variation, and came out negative. Then the highest
# sample rate with none lost, on 10^7 instructions.
if [ "$mode" = native ]; then
	cost_iters=50000000 rate_iters=5000000
	read -r kb _ <<<"$(median3 record_loop $cost_iters 1000000000000 knc/instructions_executed/u)"
	read -r kns kn _ <<<"$(median3 record_loop $cost_iters 10000 knc/instructions_executed/u)"
	read -r tb _ <<<"$(median3 record_loop $cost_iters 1000000000000 task-clock)"
	read -r tns tn _ <<<"$(median3 record_loop $cost_iters $((tb / 10000)) task-clock)"
	echo "# per sample: knc $kn samples, $kns ns (none: $kb); task-clock $tn, $tns ns (none: $tb)" >&2
	awk -v kb="$kb" -v kns="$kns" -v kn="$kn" -v tb="$tb" -v tns="$tns" -v tn="$tn" 'BEGIN {
		k = (kns - kb) / kn; t = (tns - tb) / tn
		printf "pmi_us %.1f\nswovf_us %.1f\npmi_ratio %.2f\n", k / 1000, t / 1000, k / t }'
	best=0
	for p in 100000 30000 10000 3000 1000 300 100; do
		read -r ns n lost <<<"$(record_loop $rate_iters $p knc/instructions_executed/u)"
		echo "# -c $p: $n samples in $ns ns, $lost lost or throttled" >&2
		if [ "$lost" -ne 0 ] || [ "$n" -lt $((2 * rate_iters / p)) ]; then
			break
		fi
		best=$(awk -v n="$n" -v ns="$ns" 'BEGIN { printf "%.0f", n / ns * 1e9 }')
		best_p=$p
	done
	echo "max_rate $best"
	echo "max_rate_period ${best_p:-0}"
fi

# usecs per round trip of perf bench sched pipe, with perf stat -e $1
pipe_usecs() {
	local cmd=(perf bench sched pipe -l "$PIPE_LOOPS")
	[ "$1" = none ] || cmd=(perf stat -e "$1" -o /dev/null -- "${cmd[@]}")
	"${cmd[@]}" 2>/dev/null | awk '$2 == "usecs/op" { print $1 }'
}

# The runs alternate between the events, a round being one run of each,
# so that a slow phase of the host weighs on all of them alike. An event's
# ratio is the median over the rounds of its time over the same round's
# time without events; and a knc event costs "no more than task-clock" in
# a round where its time is at most task-clock's.
declare -A usecs
for _ in $(seq "$PIPE_RUNS"); do
	for ev in none "${events[@]}"; do
		usecs[$ev]+="$(pipe_usecs "$ev") "
	done
done
median() { tr ' ' '\n' | grep . | sort -n | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'; }
printf 'pipe_usecs_none %.1f\n' "$(median <<<"${usecs[none]}")"
echo "pipe_rounds $PIPE_RUNS"
read -r -a none <<<"${usecs[none]}"
read -r -a tclk <<<"${usecs[${events[0]}]}"
for i in "${!events[@]}"; do
	read -r -a t <<<"${usecs[${events[$i]}]}"
	for r in "${!t[@]}"; do
		awk -v m="${t[$r]}" -v b="${none[$r]}" 'BEGIN { print m / b }'
	done | median | awk -v l="${labels[$i]}" '{ printf "pipe_ratio_%s %.2f\n", l, $1 }'
	[ "$i" -gt 0 ] || continue
	for r in "${!t[@]}"; do
		awk -v m="${t[$r]}" -v c="${tclk[$r]}" 'BEGIN { print (m <= c) }'
	done | awk -v l="${labels[$i]}" '{ n += $1 } END { print "pipe_le_task_clock_" l, n + 0 }'
done
