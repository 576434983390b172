#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# The guest half of tools/knc/insncount: print the kernel's text symbols
# (gzip, base64) for the host to find functions and name addresses, run
# two pmuops ping-pongs, task-clock on CPU 0 and a knc event on CPU 1 (or
# with "linux" the cpu PMU's raw l2_read_miss), open QEMU's gdbstub and
# wait while the host single-steps them.
#   tests/guest/insncount.sh knc|linux PORT SECONDS
set -u
cd "$(dirname "$0")/../.." || exit 1
# shellcheck source=tests/guest/lib/lib.sh
. tests/guest/lib/lib.sh

mode=${1:-knc} port=${2:-12345} hold=${3:-900}
case $mode in
knc) type=$(cat "$KNC_SYSFS/type") ;;
linux) type=4 ;;	# PERF_TYPE_RAW: Linux's knc.c, the cpu PMU
*) echo "usage: insncount.sh knc|linux PORT SECONDS" >&2; exit 2 ;;
esac
echo 0 >/proc/sys/kernel/nmi_watchdog
echo "insncount: kallsyms begin"
grep -E ' [tT] ' /proc/kallsyms | gzip -1 | base64 -w 0
echo
echo "insncount: kallsyms end"
# l2_read_miss: event 0xcb, umask 0x10; pinned SCHED_FIFO, as accesses.sh
chrt -f 10 taskset -c 0 build/tests/pmuops -e1:1 switch 1000000000 >/dev/null &
tc=$!
chrt -f 10 taskset -c 1 build/tests/pmuops "-e$type:0x10cb" switch 1000000000 >/dev/null &
ev=$!
sleep 2
build/tests/qmon hmp "gdbserver tcp::$port" || { kill $tc $ev; exit 1; }
echo "insncount: gdbstub ready"
# Virtual time stands still while gdb holds the guest.
sleep "$hold"
kill $tc $ev
