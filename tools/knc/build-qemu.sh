#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# build-qemu.sh - build QEMU 7.2 (Debian 12's source) with the Knights Corner
# PMU model (tools/knc/qemu/*.patch). Called by the top-level `make qemu`.
#
# The build is cached outside the repository, by content hash: the same
# source package, patches, configure flags and script reuse the binary of
# an earlier build (in another clone too). See --help.

set -euo pipefail

SCRIPT_PATH="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)/$(basename "${BASH_SOURCE[0]}")"
REPO="$(cd "$(dirname "$SCRIPT_PATH")/../.." && pwd)"

CACHE="${KNC_CACHE:-/var/cache/knc-pmu}"
SRC_CACHE="$CACHE/src"
PATCH_DIR="$REPO/tools/knc/qemu"
OUT="$REPO/build/qemu"
JOBS="${JOBS:-$(nproc 2>/dev/null || echo 2)}"
KEEP=3		# cached builds kept

# Debian 12's QEMU: what qemu-system-x86 ships, so the model sits on the
# exact TCG and APIC code the stock test bed runs.  The patches are made
# against this version; when the archive has moved on (a point release
# drops the old one) the newest 7.2 there is built instead, with a warning.
QEMU_SOURCE_PACKAGE="qemu"
QEMU_VERSION="1:7.2+dfsg-7+deb12u18"	# epoch:upstream-debian
DEB_SRC_LIST=/etc/apt/sources.list.d/knc-pmu-deb-src.sources
BUILD_DEPS="dpkg-dev meson ninja-build python3 pkg-config libglib2.0-dev \
libpixman-1-dev libattr1-dev libcap-ng-dev libfdt-dev zlib1g-dev"
# No debug information: it is a third of the compile time, and nothing
# here debugs QEMU itself (insncount debugs the guest, through gdbstub).
CONFIGURE_FLAGS=(--target-list=x86_64-softmmu --without-default-features
	--enable-tcg --enable-virtfs --enable-attr --enable-cap-ng
	--enable-fdt=system --disable-docs --disable-install-blobs
	--disable-debug-info --meson=/usr/bin/meson)

usage() {
	cat <<EOF
Usage: tools/knc/build-qemu.sh [--force]
       tools/knc/build-qemu.sh --print-deps | --help

Build qemu-system-x86_64 (x86_64-softmmu, TCG, virtfs only) from Debian 12's
QEMU $QEMU_VERSION source with the patch series tools/knc/qemu/*.patch (the
Knights Corner PMU model) and leave it at build/qemu/qemu-system-x86_64.

  1. Fetch the source package with apt-get source (adding a deb-src entry
     for the machine's Debian archive, $DEB_SRC_LIST, when
     there is none) into $SRC_CACHE, once.  Should the archive
     no longer have $QEMU_VERSION, its newest 7.2 is taken (with a warning).
  2. Unpack it with dpkg-source -x (Debian's own patches applied), apply
     tools/knc/qemu/*.patch in order, configure and build with ninja, in
     $CACHE/qemu/KEY, where KEY hashes the .dsc's name,
     the patches, the configure flags and this script.
  3. Copy the binary to build/qemu/. An existing build for the same KEY is
     reused (seconds); the $KEEP newest builds are kept.  A lock in the
     cache makes concurrent runs (another clone, CI) wait for each other.

A cold build takes about 5 minutes on 2 cores. Run it as root (apt-get, the
cache directory), or set KNC_CACHE to a writable directory and install the
packages below first.

Options:
  --force         rebuild even if the cached build exists
  --print-deps    print the Debian build packages on one line and exit
  -h, --help      this text

Environment: KNC_CACHE (default /var/cache/knc-pmu), JOBS,
  KNC_QEMU_SRC=DIR  build an already unpacked and patched QEMU tree in
                    place (DIR/build, incremental; for work on the model)

Debian packages needed: $BUILD_DEPS

Try it:  tools/knc/knc-vm --native -- perf stat -e knc/instructions_executed/u -- build/tests/loop
EOF
}

log() { printf 'build-qemu: %s\n' "$*"; }
die() { printf 'build-qemu: error: %s\n' "$*" >&2; exit 1; }

FORCE=0
while [ $# -gt 0 ]; do
	case "$1" in
	-h|--help) usage; exit 0 ;;
	--print-deps) echo "$BUILD_DEPS"; exit 0 ;;
	--force) FORCE=1 ;;
	*) usage >&2; die "unknown argument: $1" ;;
	esac
	shift
done

# Debian's meson, and the Python it runs on (not a python3 earlier in PATH)
export PATH="/usr/bin:/bin:$PATH"

install_binary() {
	mkdir -p "$OUT"
	cp -f "$1" "$OUT/qemu-system-x86_64.tmp"
	mv -f "$OUT/qemu-system-x86_64.tmp" "$OUT/qemu-system-x86_64"
}

# run_logged LOG CMD...: run CMD with its output in LOG; show LOG's tail on failure
run_logged() {
	local log=$1
	shift
	if ! "$@" >>"$log" 2>&1; then
		echo "----- last 40 lines of $log -----" >&2
		tail -n 40 "$log" >&2
		die "'$*' failed (full log: $log)"
	fi
}

if [ -n "${KNC_QEMU_SRC:-}" ]; then
	[ -x "$KNC_QEMU_SRC/configure" ] || die "$KNC_QEMU_SRC is not a QEMU source tree"
	mkdir -p "$KNC_QEMU_SRC/build" "$OUT"
	LOG="$OUT/build.log"
	: >"$LOG"
	if [ ! -f "$KNC_QEMU_SRC/build/build.ninja" ]; then
		log "configuring $KNC_QEMU_SRC"
		(cd "$KNC_QEMU_SRC/build" && run_logged "$LOG" ../configure "${CONFIGURE_FLAGS[@]}")
	fi
	log "ninja in $KNC_QEMU_SRC/build (log: build/qemu/build.log)"
	run_logged "$LOG" ninja -C "$KNC_QEMU_SRC/build" -j"$JOBS" qemu-system-x86_64
	install_binary "$KNC_QEMU_SRC/build/qemu-system-x86_64"
	log "built build/qemu/qemu-system-x86_64 from $KNC_QEMU_SRC"
	exit 0
fi

shopt -s nullglob
PATCHES=("$PATCH_DIR"/*.patch)
shopt -u nullglob

mkdir -p "$CACHE/qemu" "$SRC_CACHE" 2>/dev/null ||
	die "cannot create $CACHE (run as root or set KNC_CACHE)"
# One build-qemu.sh at a time per cache: two cold builds of one KEY would
# share its directory.  A cache we cannot write can still serve a build.
LOCK="$CACHE/build-qemu.lock"
if { exec 9>>"$LOCK"; } 2>/dev/null; then
	if ! flock -n 9; then
		log "waiting for another build-qemu.sh ($LOCK)"
		flock 9
	fi
fi

# ---- 1. the source package ------------------------------------------------
PINNED_DSC="${QEMU_SOURCE_PACKAGE}_${QEMU_VERSION#*:}.dsc"
# Names the .dsc built instead of $PINNED_DSC, once the archive lost it.
FALLBACK="$SRC_CACHE/$PINNED_DSC.fallback"
FETCH_LOG="$SRC_CACHE/fetch.log"

have_deb_src() {
	grep -qs '^Types:.*deb-src' /etc/apt/sources.list.d/*.sources ||
		grep -qs '^deb-src ' /etc/apt/sources.list /etc/apt/sources.list.d/*.list
}

apt_source() {
	(cd "$SRC_CACHE" && apt-get source --download-only "$@") >>"$FETCH_LOG" 2>&1
}

# fetch_source: download the source package into $SRC_CACHE; print the
# name of its .dsc
fetch_source() {
	local uri v

	command -v apt-get >/dev/null || die "apt-get not found: a Debian machine is needed"
	if [ ! -f "$DEB_SRC_LIST" ] && ! have_deb_src; then
		# the same archive as the binary packages
		uri=$(sed -n 's/^URIs: *//p' /etc/apt/sources.list.d/debian.sources 2>/dev/null | head -n 1)
		uri=${uri:-http://deb.debian.org/debian}
		log "adding a deb-src entry for $uri ($DEB_SRC_LIST)" >&2
		cat >"$DEB_SRC_LIST" <<EOS
Types: deb-src
URIs: $uri
Suites: bookworm
Components: main
Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg
EOS
		apt-get update -qq >&2 || die "apt-get update failed"
	fi
	log "fetching the $QEMU_SOURCE_PACKAGE $QEMU_VERSION source package (log: $FETCH_LOG)" >&2
	if apt_source "$QEMU_SOURCE_PACKAGE=$QEMU_VERSION"; then
		echo "$PINNED_DSC"
		return
	fi
	# stale package lists, or a point release replaced the version
	log "refreshing apt's package lists" >&2
	apt-get update -qq >&2 || die "apt-get update failed"
	if apt_source "$QEMU_SOURCE_PACKAGE=$QEMU_VERSION"; then
		echo "$PINNED_DSC"
		return
	fi
	v=$(apt-cache showsrc --only-source "$QEMU_SOURCE_PACKAGE" 2>/dev/null |
		sed -n 's/^Version: //p' | grep -F "${QEMU_VERSION%%-*}-" | sort -V | tail -n 1)
	[ -n "$v" ] ||
		die "apt has no $QEMU_SOURCE_PACKAGE ${QEMU_VERSION%%-*} source package (a deb-src line for bookworm main is needed; see $FETCH_LOG)"
	log "warning: the archive no longer has $QEMU_VERSION; building $v, which tools/knc/qemu/*.patch were not made against" >&2
	apt_source "$QEMU_SOURCE_PACKAGE=$v" ||
		die "apt-get source $QEMU_SOURCE_PACKAGE=$v failed (see $FETCH_LOG)"
	echo "${QEMU_SOURCE_PACKAGE}_${v#*:}.dsc" >"$FALLBACK"
	cat "$FALLBACK"
}

if [ -f "$SRC_CACHE/$PINNED_DSC" ]; then
	DSC_NAME=$PINNED_DSC
elif [ -s "$FALLBACK" ] && [ -f "$SRC_CACHE/$(cat "$FALLBACK")" ]; then
	DSC_NAME=$(cat "$FALLBACK")
	log "warning: building $DSC_NAME, not $PINNED_DSC (gone from the archive)"
else
	DSC_NAME=$(fetch_source)
fi
DSC="$SRC_CACHE/$DSC_NAME"
[ -f "$DSC" ] || die "$DSC missing after apt-get source (see $FETCH_LOG)"

KEY=$( {
	printf 'dsc %s\n' "$DSC_NAME"
	printf 'configure %s\n' "${CONFIGURE_FLAGS[*]}"
	sha256sum "$SCRIPT_PATH" | cut -d' ' -f1
	for p in ${PATCHES[@]+"${PATCHES[@]}"}; do
		printf 'patch %s %s\n' "$(basename "$p")" "$(sha256sum <"$p" | cut -d' ' -f1)"
	done
} | sha256sum | cut -c1-16)
BUILD="$CACHE/qemu/$KEY"
BIN="$BUILD/qemu-system-x86_64"

if [ "$FORCE" = 0 ] && [ -x "$BIN" ]; then
	install_binary "$BIN"
	touch "$BUILD" 2>/dev/null || true	# recently used: not pruned
	log "build/qemu/qemu-system-x86_64 is up to date (cached build $KEY)"
	exit 0
fi
start=$SECONDS

# ---- 2. unpack, patch, configure, build ------------------------------------
rm -rf "$BUILD" "$BUILD.tmp"
mkdir -p "$BUILD.tmp"
LOG="$BUILD.tmp/build.log"
log "unpacking $DSC_NAME with ${#PATCHES[@]} patch(es) (log: $LOG)"
run_logged "$LOG" dpkg-source --no-check -x "$DSC" "$BUILD.tmp/src"
for p in ${PATCHES[@]+"${PATCHES[@]}"}; do
	log "applying $(basename "$p")"
	run_logged "$LOG" patch -d "$BUILD.tmp/src" -p1 -N -s -i "$p"
done
mkdir -p "$BUILD.tmp/src/build"
log "configuring"
(cd "$BUILD.tmp/src/build" && run_logged "$LOG" ../configure "${CONFIGURE_FLAGS[@]}")
log "building qemu-system-x86_64 (ninja -j$JOBS)"
run_logged "$LOG" ninja -C "$BUILD.tmp/src/build" -j"$JOBS" qemu-system-x86_64
cp "$BUILD.tmp/src/build/qemu-system-x86_64" "$BUILD.tmp/"
# Keep the binary and the log: not the 1 GB tree, nor the copy of the orig
# tarball that dpkg-source -x leaves beside it.
find "$BUILD.tmp" -mindepth 1 -maxdepth 1 ! -name qemu-system-x86_64 ! -name build.log \
	-exec rm -rf {} +
mv "$BUILD.tmp" "$BUILD"

# ---- 3. install, prune ------------------------------------------------------
install_binary "$BIN"
# shellcheck disable=SC2012
ls -1td "$CACHE"/qemu/*/ 2>/dev/null | tail -n +$((KEEP + 1)) | xargs -r rm -rf
log "built build/qemu/qemu-system-x86_64 (cached as $KEY) in $((SECONDS - start)) s"
