#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# The QEMU patch series (tools/knc/qemu/*.patch) in QEMU's own style, as
# TAP: QEMU 7.2's scripts/checkpatch.pl, taken from the Debian source
# package that make qemu fetched, on every patch.
set -uo pipefail
cd "$(dirname "$0")/../.." || exit 1

ORIG=$(ls "${KNC_CACHE:-/var/cache/knc-pmu}"/src/qemu_7.2*.orig.tar.xz 2>/dev/null | head -n 1)
CP=build/qemu-checkpatch
n=0 bad=0

echo "TAP version 13"
if [ -z "$ORIG" ]; then
	echo "not ok 1 - QEMU's source package is not in the cache (run make qemu)"
	echo "1..1"
	exit 1
fi
if [ ! -f $CP/scripts/checkpatch.pl ]; then
	mkdir -p $CP
	tar -xJf "$ORIG" -C $CP --strip-components=1 qemu-7.2.0/scripts/checkpatch.pl
fi
log=$(mktemp)
for p in tools/knc/qemu/*.patch; do
	n=$((n + 1))
	if perl $CP/scripts/checkpatch.pl --no-tree --no-signoff "$p" >"$log" 2>&1; then
		echo "ok $n - QEMU checkpatch $(basename "$p")"
	else
		echo "not ok $n - QEMU checkpatch $(basename "$p")"
		grep -E "^(ERROR|WARNING)|^#[0-9]+:" "$log" | sed 's/^/# /'
		bad=1
	fi
done
rm -f "$log"
echo "1..$n"
exit $bad
