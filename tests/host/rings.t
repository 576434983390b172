#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Host test (TAP version 13): the rings the QEMU KNC PMU model's USR and
# OS bits count, the conformance table's usr_os_rings rule (table 1-5 of
# Intel document 327357-001: OS ring 0, USR rings 1, 2 and 3). Linux runs
# nothing in rings 1 and 2, so a boot ROM of its own (rings/rings-rom.S,
# see rom.sh) enters protected mode with segments for every ring and runs
# the same 2002 instructions in rings 1, 2 and 3, counter 0 counting them
# with USR and counter 1 with OS; it prints each ring's two deltas.
set -uo pipefail
cd "$(dirname "$0")/../.." || exit 1
. tests/host/tap.sh
. tests/host/rom.sh

D=build/rings

echo "TAP version 13"
echo "1..3"
# -no-reboot: a fault the ROM cannot handle (a triple fault) ends QEMU
rom_run rings -no-reboot
status=$?
[ -f $D/console ] && sed 's/^/# /' $D/console
[ $status -eq 1 ] && [ "$(wc -l <$D/console)" -eq 3 ]
result $? "the ROM ran in rings 1, 2 and 3 and came back (QEMU exit $status)" $D/log

# delta RING COLUMN: counter 0's (USR, column 2) or 1's (OS, 3) delta
delta() {
	local hex
	hex=$(awk -v r="$1" -v c="$2" '$1 == r { print $c }' $D/console 2>/dev/null)
	[ -z "$hex" ] || echo $((16#$hex))
}

: >$D/diff
for r in 1 2 3; do
	echo "# ring $r: USR $(delta $r 2), OS $(delta $r 3)"
	[ "$(delta $r 2)" = 2002 ] || echo "ring $r: USR counted $(delta $r 2), not 2002" >>$D/diff
done
[ ! -s $D/diff ]
result $? "USR counts the 2002 instructions in each of rings 1, 2 and 3" $D/diff

# OS counts ring 0's part alone: the reads, the IRET, the INT's delivery;
# the same few instructions whichever ring the loop ran in
os=$(for r in 1 2 3; do delta $r 3; done | sort -u)
[ "$(echo "$os" | wc -l)" -eq 1 ] && [ -n "$os" ] && [ "$os" -lt 100 ]
result $? "OS counts none of them: the same $os ring-0 instructions around each ring's loop"
exit $bad
