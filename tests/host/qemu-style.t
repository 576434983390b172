#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# The QEMU patch series in QEMU's own style, as TAP: tools/knc/qemu/*.patch
# checked by the scripts/checkpatch.pl of the QEMU they are made against
# (11.1, which also wants the Signed-off-by lines), taken from the upstream
# tarball that make qemu fetched, on every patch and on the test bed's
# patches on top (tools/knc/qemu/test/); and the cover letter's list of
# the patches. A tarball missing from the cache is a failure.
set -uo pipefail
cd "$(dirname "$0")/../.." || exit 1

CACHE=${KNC_CACHE:-/var/cache/knc-pmu}
n=0 bad=0
log=$(mktemp)
trap 'rm -f "$log"' EXIT

# check_series VERSION TOPDIR TARGET DIR [CHECKPATCH-OPTION...]: the
# patches in DIR with the checkpatch.pl of the cached tarball of QEMU
# VERSION (its top directory TOPDIR), which make TARGET fetches
check_series() {
	local version=$1 top=$2 target=$3 dir=$4 orig cp p
	shift 4
	orig=$(ls "$CACHE"/src/qemu_"$version"*.orig.tar.xz 2>/dev/null | head -n 1)
	if [ -z "$orig" ]; then
		n=$((n + 1))
		echo "not ok $n - QEMU $version's source package is not in the cache (run make $target)"
		bad=1
		return
	fi
	cp=build/qemu-checkpatch-$version
	if [ ! -f "$cp/scripts/checkpatch.pl" ]; then
		mkdir -p "$cp"
		tar -xJf "$orig" -C "$cp" --strip-components=1 "$top/scripts/checkpatch.pl"
	fi
	for p in "$dir"/*.patch; do
		n=$((n + 1))
		if perl "$cp/scripts/checkpatch.pl" --no-tree "$@" "$p" >"$log" 2>&1; then
			echo "ok $n - QEMU $version checkpatch $(basename "$p")"
		else
			echo "not ok $n - QEMU $version checkpatch $(basename "$p")"
			grep -E "^(ERROR|WARNING)|^#[0-9]+:" "$log" | sed 's/^/# /'
			bad=1
		fi
	done
}

# cover_letter DIR: DIR/cover-letter.txt lists the series' patches, each
# by its subject, in order
cover_letter() {
	local p
	for p in "$1"/*.patch; do
		sed -n '/^Subject: /{N;s/\n//;s/^Subject: \[PATCH \(v[0-9]* \)\{0,1\}[0-9]*\/[0-9]*\] /  /;p}' "$p"
	done >"$log.want"
	sed -n '/^knc-pmu ([0-9]*):$/,/^$/p' "$1/cover-letter.txt" | sed '1d;$d' >"$log.have"
	n=$((n + 1))
	if diff -u "$log.want" "$log.have" >"$log"; then
		echo "ok $n - $1/cover-letter.txt lists the series"
	else
		echo "not ok $n - $1/cover-letter.txt lists the series"
		sed 's/^/# /' "$log"
		bad=1
	fi
	rm -f "$log.want" "$log.have"
}

echo "TAP version 13"
check_series 11.1 qemu-11.1.1 qemu tools/knc/qemu
# the test bed's patches on top of the series, in QEMU's style too
check_series 11.1 qemu-11.1.1 qemu tools/knc/qemu/test
cover_letter tools/knc/qemu
echo "1..$n"
exit $bad
