#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Kernel style of the module sources, as TAP: checkpatch.pl (from Debian's
# linux-source-6.1) on every file, and a W=1 build with sparse (C=2) that
# must print no warning at all.
set -uo pipefail
cd "$(dirname "$0")/../.." || exit 1

KNC=arch/x86/events/knc
KDIR=${KDIR:-$(ls -d /lib/modules/*/build 2>/dev/null | sort -V | tail -n 1)}
SRC_TAR=$(ls /usr/src/linux-source-6.1.tar.* 2>/dev/null | head -n 1)
CP=build/checkpatch
n=0 bad=0

result() {	# result OK? NAME [LOG]
	n=$((n + 1))
	if [ "$1" -eq 0 ]; then
		echo "ok $n - $2"
	else
		echo "not ok $n - $2"
		bad=1
		[ -z "${3:-}" ] || sed 's/^/# /' "$3"
	fi
}

echo "TAP version 13"
if [ ! -x $CP/scripts/checkpatch.pl ]; then
	mkdir -p $CP
	tar -xf "$SRC_TAR" -C $CP --strip-components=1 \
		linux-source-6.1/scripts/checkpatch.pl \
		linux-source-6.1/scripts/spelling.txt \
		linux-source-6.1/scripts/const_structs.checkpatch
fi

log=$(mktemp)
for f in $(ls $KNC/*.[ch] | grep -v "\.mod\.c$") $KNC/Makefile; do
	$CP/scripts/checkpatch.pl --no-tree --show-types --terse -f "$f" >"$log" 2>&1
	result $? "checkpatch $f" "$log"
done

# A fresh W=1 build with sparse on every file; any warning fails.
make -s -C "$KDIR" M="$PWD/$KNC" clean >/dev/null 2>&1
make -C "$KDIR" M="$PWD/$KNC" W=1 C=2 modules >"$log" 2>&1
status=$?
grep -E -i "warning|error" "$log" | grep -v "Skipping BTF" >"$log.w"
[ $status -eq 0 ] && [ ! -s "$log.w" ]
result $? "W=1 C=2 (sparse) build is warning-free" "$log.w"
rm -f "$log" "$log.w"

echo "1..$n"
exit $bad
