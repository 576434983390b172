#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# knc-vm's default TCG threading against QEMU 7.2's stale-int3 race
# (Documentation/knc-testbed.rst, "Linux 6.1 and 6.12"): build/tests/textpoke
# (tests/guest/progs/textpoke.c) flips a tracepoint's static keys and calls
# on CPU 0 while two tasks switch on CPU 1, for 20 seconds, in a Debian 6.1
# guest without the modules, threaded as knc-vm threads it by default.
# Under QEMU 7.2's multi-threaded TCG that guest stops within seconds; it
# must end, with its flips counted. As TAP.
set -uo pipefail
cd "$(dirname "$0")/../.." || exit 1
. tests/host/tap.sh

log=$(mktemp)
echo "TAP version 13"
tools/knc/knc-vm --no-module --timeout 240 -- build/tests/textpoke 20 >"$log" 2>&1
st=$?
flips=$(sed -n 's/^textpoke: \([0-9]*\) flips$/\1/p' "$log")
[ $st -eq 0 ] && [ "${flips:-0}" -gt 0 ]
result $? "a 6.1 guest threaded as knc-vm does by default patches a tracepoint for 20 s while tasks switch, and ends (${flips:-no} flips)" "$log"
rm -f "$log"
echo "1..$n"
exit $bad
