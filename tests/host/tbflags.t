#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Host test (TAP version 13): vCPUs with and without the QEMU KNC PMU
# model do not share translated code. The model counts instructions in
# code it adds to each TB, so whether a vCPU has it must be part of the
# TB's flags: else a vCPU with the model runs TBs translated for one
# without (and counts nothing), and one without runs the model's code. No
# kernel: a boot ROM of its own (tbflags/tbflags-rom.S, see rom.sh) on two
# vCPUs, the BSP with knc-pmu=on and the AP (-device) with knc-pmu=off,
# which run the same loops in both orders.
set -uo pipefail
cd "$(dirname "$0")/../.." || exit 1
. tests/host/tap.sh
. tests/host/rom.sh

D=build/tbflags
N=1000

echo "TAP version 13"
echo "1..3"
# -no-reboot: a fault the ROM cannot handle (a triple fault) ends QEMU
rom_run tbflags -no-reboot -smp 1,sockets=2,maxcpus=2 \
	-device max-x86_64-cpu,socket-id=1,core-id=0,thread-id=0,knc-pmu=off
status=$?
[ -f $D/console ] && sed 's/^/# /' $D/console
[ $status -eq 1 ] && grep -qx "b done" $D/console
result $? "both vCPUs ran loop_b, the one without the model after the one with it (QEMU exit $status)" $D/log

# delta LOOP: counter 0's count across LOOP on the BSP, in decimal
delta() {
	local hex
	hex=$(awk -v l="$1" '$1 == l { print $2 }' $D/console 2>/dev/null)
	[ -z "$hex" ] || echo $((16#$hex))
}

a=$(delta a) c=$(delta c)
echo "# loop_a (the AP's TBs first): $a, loop_c (the BSP's alone): $c"
# 2N + 2 for the loop; and measure's MOV, CALL, MOV and RDMSR around it
[ "$c" = $((2 * N + 6)) ]
result $? "the vCPU with the model counts a loop only it ran: $c, 2N + 6"
[ -n "$a" ] && [ "$a" = "$c" ]
result $? "it counts the same loop that the vCPU without the model ran first: $a, as $c"
exit $bad
