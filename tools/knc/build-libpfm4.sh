#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# build-libpfm4.sh - build Debian 12's libpfm4 with tools/knc/libpfm4/*.patch
# (libpfm4 opens KNC events on the knc PMU when knc_pmu.ko registered it).
# Called by the top-level `make libpfm4`; see --help.

set -euo pipefail

SCRIPT_PATH="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)/$(basename "${BASH_SOURCE[0]}")"
REPO="$(cd "$(dirname "$SCRIPT_PATH")/../.." && pwd)"

CACHE="${KNC_CACHE:-/var/cache/knc-pmu}"
SRC_CACHE="$CACHE/src"
PATCH_DIR="$REPO/tools/knc/libpfm4"
OUT="$REPO/build/libpfm4"
# What libpfm4 (Debian's, the one PAPI 7.0 in Debian 12 links) is.
VERSION="4.13.0-1"
DSC_NAME="libpfm4_$VERSION.dsc"
DEB_SRC_LIST=/etc/apt/sources.list.d/knc-pmu-deb-src.sources
KEEP=3

usage() {
	cat <<EOF
Usage: tools/knc/build-libpfm4.sh [--help]

Build libpfm.so.4 from Debian 12's libpfm4 $VERSION source package with
tools/knc/libpfm4/*.patch applied, and leave it in build/libpfm4/, beside
libpfm4's own check, validate (tests/host/libpfm4.t runs it). Run PAPI
or any libpfm4 tool with LD_LIBRARY_PATH=build/libpfm4 to use it instead
of the system's copy: on a KNC it then opens its events on the knc PMU
(knc_pmu.ko) when that is loaded, and on Linux's own driver (the cpu PMU,
PERF_TYPE_RAW) otherwise.

The source package is fetched once into $SRC_CACHE with apt-get source
(a deb-src entry, $DEB_SRC_LIST, is added when
there is none); the library is cached in $CACHE/libpfm4/KEY, KEY hashing
the source, the patches and this script. A cold build takes seconds.

Environment: KNC_CACHE (default /var/cache/knc-pmu)
EOF
}

# shellcheck source=tools/knc/apt-lib.sh
. "$REPO/tools/knc/apt-lib.sh"

log() { printf 'build-libpfm4: %s\n' "$*"; }
die() { printf 'build-libpfm4: error: %s\n' "$*" >&2; exit 1; }

case "${1:-}" in
-h|--help) usage; exit 0 ;;
"") ;;
*) usage >&2; die "unknown argument: $1" ;;
esac

mkdir -p "$SRC_CACHE" "$CACHE/libpfm4" ||
	die "cannot create $CACHE (run as root or set KNC_CACHE)"

apt_source() {
	(cd "$SRC_CACHE" && apt-get source --download-only "libpfm4=$VERSION") \
		>>"$SRC_CACHE/fetch.log" 2>&1
}

# fetch: the source package into $SRC_CACHE; on failure (no deb-src entry,
# stale lists), with Debian 12's deb-src entry and fresh lists
fetch() {
	apt_source && return
	apt_add_source deb-src bookworm "$DEB_SRC_LIST" || true
	apt-get update -qq || die "apt-get update failed"
	apt_source || die "apt-get source libpfm4=$VERSION failed (see $SRC_CACHE/fetch.log)"
}

[ -f "$SRC_CACHE/$DSC_NAME" ] || fetch

KEY=$( {
	echo "$DSC_NAME"
	sha256sum "$SCRIPT_PATH" | cut -d' ' -f1
	cat "$PATCH_DIR"/*.patch
} | sha256sum | cut -c1-16)
BUILD="$CACHE/libpfm4/$KEY"

if [ ! -f "$BUILD/libpfm.so.4" ] || [ ! -f "$BUILD/validate" ]; then
	rm -rf "$BUILD" "$BUILD.tmp"
	mkdir -p "$BUILD.tmp"
	log "building libpfm4 $VERSION with $(cd "$PATCH_DIR" && echo *.patch)"
	dpkg-source --no-check -x "$SRC_CACHE/$DSC_NAME" "$BUILD.tmp/src" >"$BUILD.tmp/build.log" 2>&1 ||
		die "dpkg-source -x failed (see $BUILD.tmp/build.log)"
	for p in "$PATCH_DIR"/*.patch; do
		patch -d "$BUILD.tmp/src" -p1 -N -s -i "$p" >>"$BUILD.tmp/build.log" 2>&1 ||
			die "$(basename "$p") does not apply to libpfm4 $VERSION (see $BUILD.tmp/build.log)"
	done
	# the library, and libpfm4's own check of its tables (tests/validate,
	# linked statically), which tests/host/libpfm4.t runs
	{ make -C "$BUILD.tmp/src" -j"$(nproc)" lib && make -C "$BUILD.tmp/src/tests"; } \
		>>"$BUILD.tmp/build.log" 2>&1 || die "make failed (see $BUILD.tmp/build.log)"
	cp "$BUILD.tmp/src/lib/libpfm.so.4."* "$BUILD.tmp/libpfm.so.4"
	cp "$BUILD.tmp/src/tests/validate" "$BUILD.tmp/validate"
	rm -rf "$BUILD.tmp/src"
	mv "$BUILD.tmp" "$BUILD"
	# shellcheck disable=SC2012
	ls -1td "$CACHE"/libpfm4/*/ | tail -n +$((KEEP + 1)) | xargs -r rm -rf
fi
touch "$BUILD"
mkdir -p "$OUT"
for f in libpfm.so.4 validate; do
	cp -f "$BUILD/$f" "$OUT/$f.tmp"
	mv -f "$OUT/$f.tmp" "$OUT/$f"
done
log "build/libpfm4/libpfm.so.4 (cached as $KEY)"
