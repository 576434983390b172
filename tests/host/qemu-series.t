#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Host test (TAP version 13): the QEMU series as its sender mails it
# (tools/knc/qemu-series.sh, make qemu-series): every patch and the cover
# letter From: and Signed-off-by: the sender's git identity, the
# MAINTAINERS entry naming them, no stand-in identity left, the test
# bed's own patches (tools/knc/qemu/test/) left out; and without an
# identity no series, with an error that says what to set.
set -uo pipefail
cd "$(dirname "$0")/../.." || exit 1
. tests/host/tap.sh

log=$(mktemp)
out=$(mktemp -d)
trap 'rm -rf "$log" "$out"' EXIT
series_test_ident

echo "TAP version 13"
tools/knc/qemu-series.sh "$out/series" >"$log" 2>&1
result $? "make qemu-series writes the series" "$log"

stored=(tools/knc/qemu/*.patch)
made=$(find "$out/series" -name '0*.patch' ! -name 0000-cover-letter.patch | wc -l)
[ -f "$out/series/0000-cover-letter.patch" ] && [ "$made" -eq "${#stored[@]}" ] &&
	! ls "$out"/series/*stand-in* >/dev/null 2>&1
result $? "the cover letter and the ${#stored[@]} patches of the series, not the test bed's" "$log"

: >"$log"
for p in "$out"/series/*.patch; do
	grep -qx "$(series_from)" "$p" || echo "$p: not $(series_from)" >>"$log"
	case $p in
	*/0000-cover-letter.patch) ;;
	*) grep -qx "$(series_signoff)" "$p" || echo "$p: not $(series_signoff)" >>"$log" ;;
	esac
done
grep -l "localhost" "$out"/series/*.patch >>"$log"
grep -qx "+M: $SERIES_TEST_NAME <$SERIES_TEST_EMAIL>" "$out"/series/0004-*.patch ||
	echo "MAINTAINERS does not name the sender" >>"$log"
[ ! -s "$log" ]
result $? "every patch from and signed off by the sender, who maintains the model; no stand-in left" "$log"

# Without a git identity no series is made, and the error says what to set.
! GIT_CONFIG_VALUE_0='' GIT_CONFIG_VALUE_1='' tools/knc/qemu-series.sh "$out/none" >"$log" 2>&1 &&
	grep -q "no git identity to sign the patches off with; set yours: git config" "$log" &&
	[ ! -e "$out/none" ]
result $? "without a git identity: no series, and the error says what to set" "$log"
echo "1..$n"
exit $bad
