#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# The libpfm4 patch (tools/knc/libpfm4/) as libpfm4 upstream would take
# it, as TAP: it applies without fuzz to Debian's libpfm4 4.13 (the source
# package make libpfm4 fetched), and libpfm4's own check of its event
# tables, tests/validate, passes with it (make libpfm4 builds it).
set -uo pipefail
cd "$(dirname "$0")/../.." || exit 1
. tests/host/tap.sh

DSC=${KNC_CACHE:-/var/cache/knc-pmu}/src/libpfm4_4.13.0-1.dsc
log=$(mktemp)
dir=$(mktemp -d)
trap 'rm -rf "$log" "$dir"' EXIT

echo "TAP version 13"
for p in tools/knc/libpfm4/*.patch; do
	if [ ! -f "$DSC" ]; then
		echo "$DSC is missing (make libpfm4)" >"$log"
		st=1
	else
		[ -d "$dir/src" ] || dpkg-source --no-check -x "$DSC" "$dir/src" >"$log" 2>&1
		patch -d "$dir/src" -p1 -F0 -s -i "$PWD/$p" >>"$log" 2>&1
		st=$?
	fi
	result $st "$(basename "$p") applies to libpfm4 4.13 without fuzz" "$log"
done
if [ -x build/libpfm4/validate ]; then
	(cd build/libpfm4 && ./validate) >"$log" 2>&1
	st=$?
	tail -n 3 "$log" >"$log.tail"
	grep -q "^All tests passed" "$log" || st=1
else
	echo "build/libpfm4/validate is missing (make libpfm4)" >"$log.tail"
	st=1
fi
result $st "libpfm4's tests/validate passes with the patch" "$log.tail"
rm -f "$log.tail"
echo "1..$n"
exit $bad
