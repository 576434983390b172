#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Host test (TAP version 13): the QEMU KNC PMU model across a warm reset,
# the conformance table's warm_reset rule (section 1.4.4 of Intel document
# 327357-001: a warm reset zeroes every PMU register). No kernel: a boot
# ROM of its own (reset/reset-rom.S) runs at the reset vector, gives each
# register a value (counter 0 overflows, for a status bit), resets the
# machine through the keyboard controller and reads them again; each
# boot's values come out on the debug console.
set -uo pipefail
cd "$(dirname "$0")/../.." || exit 1
. tests/host/tap.sh

QEMU=build/qemu/qemu-system-x86_64
CPU=max,vendor=GenuineIntel,family=11,model=1,stepping=0,knc-pmu=on
D=build/reset
MSRS="00000020 00000021 00000028 00000029 0000002c 0000002d 0000002f"

echo "TAP version 13"
echo "1..4"
if [ ! -x $QEMU ]; then
	for i in 1 2 3 4; do echo "not ok $i - $QEMU is missing (make qemu)"; done
	exit 1
fi
mkdir -p $D
log=$D/log
as --32 -o $D/reset-rom.o tests/host/reset/reset-rom.S >$log 2>&1 &&
	ld -m elf_i386 -Ttext=0 -e 0 --oformat binary -o $D/reset-rom.bin $D/reset-rom.o >>$log 2>&1
result $? "the boot ROM assembles" $log

# isa-debug-exit: the ROM's exit code 0 is QEMU's 1
rm -f $D/console
timeout 120 $QEMU -M pc -accel tcg -cpu $CPU -bios $D/reset-rom.bin -nodefaults \
	-display none -serial none -monitor none -debugcon file:$D/console \
	-device isa-debug-exit,iobase=0xf4,iosize=4 >$log 2>&1
status=$?
sed 's/^/# /' $D/console
[ $status -eq 1 ] && [ "$(awk '$1 == "R"' $D/console | wc -l)" -eq 7 ]
result $? "the ROM ran at power-on and again after the reset (QEMU exit $status)" $log

# values BOOT: "MSR HIGH LOW" of that boot, in the order of MSRS
values() { awk -v b="$1" '$1 == b { print $2, $3, $4 }' $D/console; }
zeros() { for m in $MSRS; do echo "$m 00000000 00000000"; done; }

diff <(zeros) <(values P) >$log
result $? "every register reads zero at power-on" $log
# The values written stuck (so that the zeros after are the reset's):
# none is zero, and the status shows counter 0's overflow.
values S | awk '$2 $3 == "0000000000000000" { print "# zero before the reset: " $1; bad = 1 }
		$1 == "0000002d" && $3 != "00000001" { print "# status " $3; bad = 1 }
		END { exit bad }' >$log &&
	diff <(zeros) <(values R) >>$log
result $? "a warm reset zeroes every register the ROM set" $log
exit $bad
