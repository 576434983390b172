#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# The libpfm4 patch (tools/knc/libpfm4/) as libpfm4 upstream would take
# it, as TAP: it applies without fuzz to Debian's libpfm4 4.13 (the source
# package make libpfm4 fetched), tools/knc/libpfm4-patch.sh (make
# libpfm4-patch) hands it out From: and signed off by the sender, and
# libpfm4's own check of its event tables, tests/validate, passes with it
# (make libpfm4 builds it).
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
# make libpfm4-patch: the patch as its sender posts it, From: and signed
# off by the sender, the rest as stored; refused without a git identity.
series_test_ident
sent=$dir/sent
tools/knc/libpfm4-patch.sh "$sent" >"$log" 2>&1 &&
	for p in tools/knc/libpfm4/*.patch; do
		q=$sent/${p##*/}
		grep -qxF "$(series_from)" "$q" && grep -qxF "$(series_signoff)" "$q" &&
			! grep -q 'knc-pmu@localhost' "$q" &&
			diff <(grep -v -e '^From: ' -e '^Signed-off-by: ' "$p") \
				<(grep -v -e '^From: ' -e '^Signed-off-by: ' "$q") || exit 1
	done >>"$log" 2>&1
result $? "libpfm4-patch.sh: the patch From: and signed off by the sender, nothing else changed" "$log"
! GIT_CONFIG_VALUE_0='' GIT_CONFIG_VALUE_1='' tools/knc/libpfm4-patch.sh "$sent" >"$log" 2>&1 &&
	grep -q "no git identity to sign the patches off with" "$log"
result $? "libpfm4-patch.sh without user.name and user.email fails and says to set them" "$log"
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
