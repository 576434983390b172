#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# The KUnit suites of arch/x86/events/knc on the debug kernel (make
# module-debug: build/debug/kunit/knc_kunit.ko): loading the module runs
# them. Each KUnit case is a test point, and the cases must be the ones
# the host build of the same files runs (tests/unit/test_knc, built by
# tests/run before the boot). Run with tools/knc/knc-vm --debug-kernel
# --no-module (knc_kunit.ko exports what knc_pmu.ko does). Prints TAP.
set -u
cd "$(dirname "$0")/../.." || exit 1
. tests/guest/lib/lib.sh

KO=build/debug/kunit/knc_kunit.ko
HOST=tests/unit/test_knc
KTAP=/tmp/knc-kunit.ktap

# The kernel log of the load (cleared before it), without timestamps.
t_load() {
	[ -f "$KO" ] || fail "$KO is missing (make module-debug)"
	[ -x "$HOST" ] || fail "$HOST is missing (make -C tests/unit)"
	dmesg -C
	insmod "$KO" || fail "insmod knc_kunit.ko failed"
	dmesg | sed -e 's/^\[ *[0-9.]*\] //' >"$KTAP"
	grep -q "# Subtest: " "$KTAP" || fail "no KUnit suite ran at load"
}

echo "TAP version 13"
run_case "knc_kunit.ko loads and runs its suites" t_load

awk -f tests/unit/ktap-cases.awk "$KTAP" 2>/dev/null | sort -k2 >/tmp/knc-kunit.cases
while read -r res name; do
	tap_n=$((tap_n + 1))
	if [ "$res" = ok ]; then
		echo "ok $tap_n - kunit: $name"
	else
		echo "not ok $tap_n - kunit: $name"
		tap_failed=$((tap_failed + 1))
		grep -B 30 -F -- "${name#*.}" "$KTAP" | tail -n 30 | sed 's/^/# /'
	fi
done </tmp/knc-kunit.cases

t_same_cases() {
	"$HOST" | sed -n 's/^ok [0-9]* - //p' | sort >/tmp/knc-kunit.host
	[ -s /tmp/knc-kunit.host ] || fail "the host build ran no case"
	awk '{ print $2 }' /tmp/knc-kunit.cases | diff /tmp/knc-kunit.host - ||
		fail "the kernel's cases differ from the host's (< host, > kernel)"
}
run_case "the kernel ran the cases tests/unit runs, no more, no fewer" t_same_cases

t_unload() {
	rmmod knc_kunit || fail "rmmod knc_kunit failed"
}
run_case "knc_kunit.ko unloads" t_unload

echo "1..$tap_n"
[ "$tap_failed" -eq 0 ]
