#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Kernel style of the module sources (the driver's and the test modules'),
# as TAP: checkpatch.pl (from Debian's linux-source-6.1) on every file, and
# W=1 builds with sparse (C=2) against 6.1 and 6.12 that must print no
# warning at all.
set -uo pipefail
cd "$(dirname "$0")/../.." || exit 1

KNC=arch/x86/events/knc
KDIR=${KDIR:-$(ls -d /lib/modules/6.1.*/build 2>/dev/null | sort -V | tail -n 1)}
KDIR_612=${KDIR_612:-$(ls -d /lib/modules/6.12.*/build 2>/dev/null | sort -V | tail -n 1)}
SRC_TAR=$(ls /usr/src/linux-source-6.1.tar.* 2>/dev/null | head -n 1)
CP=build/checkpatch

. tests/host/tap.sh

echo "TAP version 13"
if [ ! -x $CP/scripts/checkpatch.pl ]; then
	mkdir -p $CP
	tar -xf "$(tools/knc/plain-tar "$SRC_TAR")" -C $CP --strip-components=1 \
		linux-source-6.1/scripts/checkpatch.pl \
		linux-source-6.1/scripts/spelling.txt \
		linux-source-6.1/scripts/const_structs.checkpatch
fi

log=$(mktemp)
# The driver's sources, without what Kbuild generates.
srcs=()
for f in $KNC/*.[ch]; do
	[[ $f == *.mod.c ]] || srcs+=("$f")
done
for f in "${srcs[@]}" $KNC/Makefile tools/knc/debug/kunit/*.c tests/guest/kmod/*.c; do
	$CP/scripts/checkpatch.pl --no-tree --show-types --terse -f "$f" >"$log" 2>&1
	result $? "checkpatch $f" "$log"
done

# A fresh W=1 build with sparse on every file; any warning fails.
# build_clean KDIR DIR NAME
build_clean() {
	make -s -C "$1" M="$PWD/$2" clean >/dev/null 2>&1
	make -C "$1" M="$PWD/$2" W=1 C=2 modules >"$log" 2>&1
	status=$?
	grep -E -i "warning|error" "$log" | grep -v "Skipping BTF" >"$log.w"
	[ $status -eq 0 ] && [ ! -s "$log.w" ]
	result $? "$3" "$log.w"
}
# Each in a copy of the sources, as Kbuild builds in the source directory,
# and the guests beside this suite load the modules built there.
for k in "$KDIR" "$KDIR_612"; do
	d=build/style-$(basename "$(dirname "$k")")
	rm -rf "$d" && mkdir -p "$d"
	cp "${srcs[@]}" $KNC/*.tbl $KNC/Makefile "$d"/
	build_clean "$k" "$d" "W=1 C=2 (sparse) build against $(basename "$(dirname "$k")") is warning-free"
done
# The model's test module, in a copy beside the headers it includes.
for k in "$KDIR" "$KDIR_612"; do
	d=build/style-kmod-$(basename "$(dirname "$k")")
	rm -rf "$d" && mkdir -p "$d"
	cp tests/guest/kmod/* $KNC/knc_logic.h $KNC/knc_compat.h $KNC/knc_events.tbl "$d"/
	build_clean "$k" "$d" "knc_model_test.ko: W=1 C=2 (sparse) build against $(basename "$(dirname "$k")") is warning-free"
done
rm -f "$log" "$log.w"

echo "1..$n"
exit $bad
