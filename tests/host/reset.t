#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Host test (TAP version 13): the QEMU KNC PMU model across a warm reset,
# the conformance table's warm_reset rule (section 1.4.4 of Intel document
# 327357-001: a warm reset zeroes every PMU register). No kernel: a boot
# ROM of its own (reset/reset-rom.S, see rom.sh) gives each register a
# value (counter 0 overflows, for a status bit), resets the machine
# through the keyboard controller and reads them again; each boot's
# values come out on the debug console.
set -uo pipefail
cd "$(dirname "$0")/../.." || exit 1
. tests/host/tap.sh
. tests/host/rom.sh

D=build/reset
MSRS="00000020 00000021 00000028 00000029 0000002c 0000002d 0000002f"

echo "TAP version 13"
echo "1..3"

rom_run reset
status=$?
[ -f $D/console ] && sed 's/^/# /' $D/console
[ $status -eq 1 ] && [ "$(awk '$1 == "R"' $D/console | wc -l)" -eq 7 ]
result $? "the ROM ran at power-on and again after the reset (QEMU exit $status)" $D/log

# values BOOT: "MSR HIGH LOW" of that boot, in the order of MSRS
values() { awk -v b="$1" '$1 == b { print $2, $3, $4 }' $D/console 2>/dev/null; }
zeros() { for m in $MSRS; do echo "$m 00000000 00000000"; done; }

diff <(zeros) <(values P) >$D/diff
result $? "every register reads zero at power-on" $D/diff
# The values written stuck (so that the zeros after are the reset's):
# none is zero, and the status shows counter 0's overflow.
values S | awk '$2 $3 == "0000000000000000" { print "zero before the reset: " $1; bad = 1 }
		$1 == "0000002d" && $3 != "00000001" { print "status " $3; bad = 1 }
		END { exit bad || NR != 7 }' >$D/diff &&
	diff <(zeros) <(values R) >>$D/diff
result $? "a warm reset zeroes every register the ROM set" $D/diff
exit $bad
