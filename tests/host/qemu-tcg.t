#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# The QEMU series' own test, as QEMU runs its x86_64 system-mode TCG
# tests (tests/tcg/x86_64/Makefile.softmmu-target): tcg-knc-pmu, which
# make qemu builds beside build/qemu/qemu-system-x86_64, boots
# as the kernel and counts a loop's instructions and REP STOSB exactly on
# the model. It must pass as TCG runs it, under -icount and with one
# instruction per TB, and fail without the model. As TAP.
set -uo pipefail
cd "$(dirname "$0")/../.." || exit 1
. tests/host/tap.sh

QEMU=build/qemu/qemu-system-x86_64
# the model needs a Knights Corner CPUID, as the series' own run gives it
KNC=max,vendor=GenuineIntel,family=11,model=1
TEST=build/qemu/tcg-knc-pmu
log=$(mktemp)

# run NAME EXPECT QEMU-OPTIONS...: the test under QEMU-OPTIONS exits 0 and
# its console ends with PASS (EXPECT pass), or it fails (EXPECT fail)
run() {
	local name=$1 expect=$2 st
	shift 2
	timeout 300 "$QEMU" -monitor none -display none -net none \
		-L /usr/share/seabios -L /usr/share/qemu \
		-chardev file,path="$log.out",id=output \
		-device isa-debugcon,chardev=output \
		-device isa-debug-exit,iobase=0xf4,iosize=0x4 \
		"$@" -kernel "$TEST" >"$log" 2>&1
	st=$?
	{ echo "exit status $st"; tail -n 5 "$log.out"; } >>"$log"
	if [ "$expect" = pass ]; then
		[ $st -eq 0 ] && [ "$(tail -n 1 "$log.out")" = PASS ]
	else
		[ $st -ne 0 ] && grep -q "want" "$log.out"
	fi
	result $? "$name" "$log"
}

echo "TAP version 13"
if [ ! -x "$QEMU" ] || [ ! -f "$TEST" ]; then
	echo "$QEMU or $TEST is missing (make qemu)" >"$log"
	result 1 "the QEMU series' system-mode TCG test is built" "$log"
else
	run "tcg-knc-pmu passes under TCG" pass -cpu $KNC,knc-pmu=on
	run "tcg-knc-pmu passes under -icount shift=0" pass -cpu $KNC,knc-pmu=on -icount shift=0
	run "tcg-knc-pmu passes with one instruction per TB" pass \
		-cpu $KNC,knc-pmu=on -accel tcg,one-insn-per-tb=on
	run "tcg-knc-pmu fails without the model (knc-pmu=off)" fail -cpu $KNC
fi
rm -f "$log" "$log.out"
echo "1..$n"
exit $bad
