#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# qemu-series.sh - the QEMU KNC PMU series (tools/knc/qemu/*.patch and its
# cover letter) as the sender mails it: in OUT (default build/qemu-series/),
# From: and Signed-off-by: the git identity of whoever runs it
# (tools/knc/series-lib.sh, series_ident), and so is the MAINTAINERS entry
# the series adds. Without an identity it fails, saying what to set.
#
# The stored patches carry a stand-in identity, STORED below, that the
# build (tools/knc/build-qemu.sh) applies as it is: whoever builds, the
# build is the same. Called by `make qemu-series`. The test patches
# beside the series (tools/knc/qemu/test/) are not for the list and are
# left out.

set -euo pipefail

REPO="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
PATCH_DIR="$REPO/tools/knc/qemu"
STORED="knc-pmu <knc-pmu@localhost>"
OUT="${1:-$REPO/build/qemu-series}"

die() { printf 'qemu-series: error: %s\n' "$*" >&2; exit 1; }

# shellcheck source=tools/knc/series-lib.sh
. "$REPO/tools/knc/series-lib.sh"
series_ident qemu-series || exit 1
ident="$SERIES_NAME <$SERIES_EMAIL>"

# sender FILE: FILE with the stand-in replaced by the sender wherever it
# is: From:, Signed-off-by:, the M: line of MAINTAINERS that the series
# adds and the later patches' context of it
sender() {
	IDENT=$ident STORED=$STORED perl -pe 's/\Q$ENV{STORED}\E/$ENV{IDENT}/g' "$1"
}

rm -rf "$OUT"
mkdir -p "$OUT"
sender "$PATCH_DIR/cover-letter.txt" >"$OUT/0000-cover-letter.patch"
for p in "$PATCH_DIR"/*.patch; do
	sender "$p" >"$OUT/$(basename "$p")"
done
if grep -l -F "$STORED" "$OUT"/*.patch >&2; then
	die "the stand-in identity ($STORED) is left in the files above"
fi
echo "qemu-series: $(find "$OUT" -name '0*.patch' ! -name 0000-cover-letter.patch | wc -l) patches and the cover letter in ${OUT#"$REPO"/}, from $ident"
