#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# build-qemu.sh - build QEMU 10.0 (bookworm-backports' source) with the
# Knights Corner PMU model (tools/knc/qemu/*.patch). Called by the
# top-level `make qemu`.
#
# The build is cached outside the repository, by content hash: the same
# source package, patches, configure flags and script reuse the binary of
# an earlier build (in another clone too). See --help.

set -euo pipefail

SCRIPT_PATH="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)/$(basename "${BASH_SOURCE[0]}")"
REPO="$(cd "$(dirname "$SCRIPT_PATH")/../.." && pwd)"

CACHE="${KNC_CACHE:-/var/cache/knc-pmu}"
SRC_CACHE="$CACHE/src"
JOBS="${JOBS:-$(nproc 2>/dev/null || echo 2)}"
KEEP=3		# cached builds kept, per version

QEMU_SOURCE_PACKAGE="qemu"
BUILD_DEPS="dpkg-dev meson ninja-build python3 python3-venv pkg-config \
libglib2.0-dev libpixman-1-dev libattr1-dev libcap-ng-dev libfdt-dev zlib1g-dev"
# No debug information: it is a third of the compile time, and nothing
# here debugs QEMU itself (insncount debugs the guest, through gdbstub).
CONFIGURE_FLAGS=(--target-list=x86_64-softmmu --without-default-features
	--enable-tcg --enable-virtfs --enable-attr --enable-cap-ng
	--enable-fdt=system --disable-docs --disable-install-blobs
	--disable-debug-info)

# bookworm-backports' QEMU 10.0 (trixie's, rebuilt for Debian 12).  Its
# configure runs meson from a venv and wants meson >= 1.5 and pycotap, which
# only bookworm-backports has (prepare_meson).
QEMU_VERSION="1:10.0.2+ds-2+deb13u1~bpo12+1"	# epoch:upstream-debian
SUITE=bookworm-backports
DEB_SRC_LIST=/etc/apt/sources.list.d/knc-pmu-deb-src-backports.sources
PATCH_DIR="$REPO/tools/knc/qemu"
OUT="$REPO/build/qemu"
BUILDS="$CACHE/qemu-10.0"
# the series' system-mode TCG test (its last patch), kept beside the binary
# for tests/host/qemu-tcg.t
TCG_TEST=knc-pmu

usage() {
	cat <<EOF
Usage: tools/knc/build-qemu.sh [--force]
       tools/knc/build-qemu.sh --print-deps | --help

Build qemu-system-x86_64 (x86_64-softmmu, TCG, virtfs only) with the
Knights Corner PMU model: bookworm-backports' QEMU $QEMU_VERSION with
tools/knc/qemu/*.patch, left at build/qemu/qemu-system-x86_64.

  1. Fetch the source package with apt-get source (adding a deb-src entry
     for the machine's Debian archive and bookworm-backports when there is
     none) into $SRC_CACHE, once.  Should the archive no
     longer have the version, its newest of the same upstream version is
     taken (with a warning); should it serve the upstream tarball but not
     Debian's part (.dsc, .debian.tar.xz), the upstream tarball is built
     without Debian's patches (with a warning).
  2. Unpack it with dpkg-source -x (Debian's own patches applied), apply
     the patches in order, configure and build with ninja, in
     $BUILDS/KEY, where KEY hashes what the build
     reads: the source's name, the patches, the configure flags, meson's
     packages and the build's own steps (the functions that unpack,
     configure and build; not this script's other lines, so that an edit
     to its fetching or its help does not rebuild).  The +ds tarball lacks
     the EDK2 firmware: its unpacking is turned off.  Meson 1.7 and pycotap
     come from bookworm-backports' packages, unpacked into
     $CACHE/meson-backports (the system's meson stays
     Debian 12's).
  3. Copy the binary to build/qemu/, with the series' system-mode TCG test,
     tcg-knc-pmu, built by QEMU's build-tcg-tests-x86_64-softmmu
     (tests/host/qemu-tcg.t runs it).  An existing build for the same KEY is
     reused (seconds); the $KEEP newest builds are kept.  A lock in the cache
     makes concurrent runs (another clone, CI) wait for each other.

A cold build takes about 10 minutes of CPU. Run it as root (apt-get, the
cache directory), or set KNC_CACHE to a writable directory and install the
packages below first.

Options:
  --force         rebuild even if the cached build exists
  --print-deps    print the Debian build packages on one line and exit
  -h, --help      this text

Environment: KNC_CACHE (default /var/cache/knc-pmu), JOBS,
  KNC_QEMU_SRC=DIR  build an already unpacked and patched QEMU 10.0 tree
                    in place (DIR/build, incremental; for work on the model)

Debian packages needed: $BUILD_DEPS

Try it:  tools/knc/knc-vm --native -- perf stat -e knc/instructions_executed/u -- build/tests/loop
EOF
}

# shellcheck source=tools/knc/apt-lib.sh
. "$REPO/tools/knc/apt-lib.sh"

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

# install_binary BIN TEST: BIN, and the TCG test TEST (as tcg-$TCG_TEST),
# to $OUT
install_binary() {
	mkdir -p "$OUT"
	cp -f "$1" "$OUT/qemu-system-x86_64.tmp"
	mv -f "$OUT/qemu-system-x86_64.tmp" "$OUT/qemu-system-x86_64"
	cp -f "$2" "$OUT/tcg-$TCG_TEST"
}

# build_tcg_test DIR: QEMU's x86_64 system-mode TCG tests in the build tree
# DIR/build; prints the path of the series' one
build_tcg_test() {
	log "building QEMU's x86_64 system-mode TCG tests (for $TCG_TEST)" >&2
	run_logged "$LOG" make -C "$1/build" build-tcg-tests-x86_64-softmmu
	echo "$1/build/tests/tcg/x86_64-softmmu/$TCG_TEST"
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

# prepare_meson: QEMU 10.0's configure wants meson >= 1.5 and pycotap in
# its venv, from the system or from python/wheels (which the +ds tarball
# lacks); Debian 12 has meson 1.0.  Unpack bookworm-backports' meson and
# python3-pycotap (pure Python) into $CACHE/meson-backports and put them on
# PYTHONPATH, leaving the system's meson alone.  Sets MESON_DEBS to the
# packages' file names (part of the build's KEY).
MESON_ROOT="$CACHE/meson-backports"
MESON_DEBS=""
prepare_meson() {
	local d
	mkdir -p "$MESON_ROOT/debs"
	if ! ls "$MESON_ROOT"/debs/meson_*.deb "$MESON_ROOT"/debs/python3-pycotap_*.deb >/dev/null 2>&1; then
		log "fetching meson and python3-pycotap from bookworm-backports"
		(cd "$MESON_ROOT/debs" && apt-get download meson/bookworm-backports \
			python3-pycotap/bookworm-backports) >>"$SRC_CACHE/fetch.log" 2>&1 ||
			die "apt-get download meson/bookworm-backports python3-pycotap/bookworm-backports failed (bookworm-backports is in apt's sources after make deps; see $SRC_CACHE/fetch.log)"
		rm -rf "$MESON_ROOT/root"
	fi
	if [ ! -d "$MESON_ROOT/root" ]; then
		for d in "$MESON_ROOT"/debs/*.deb; do
			dpkg-deb -x "$d" "$MESON_ROOT/root.tmp" || die "dpkg-deb -x $d failed"
		done
		mv "$MESON_ROOT/root.tmp" "$MESON_ROOT/root"
	fi
	MESON_DEBS=$(cd "$MESON_ROOT/debs" && echo *.deb)
	export PYTHONPATH="$MESON_ROOT/root/usr/lib/python3/dist-packages${PYTHONPATH:+:$PYTHONPATH}"
}

# configure_in SRC: configure SRC/build, logging to $LOG.  QEMU 10.0's
# venv (SRC/build/pyvenv) keeps bookworm-backports' meson on its path
# through a .pth file, for the reconfigures that ninja runs.
configure_in() {
	local pth
	(cd "$1/build" && run_logged "$LOG" ../configure "${CONFIGURE_FLAGS[@]}")
	for pth in "$1"/build/pyvenv/lib/python3*/site-packages; do
		echo "$MESON_ROOT/root/usr/lib/python3/dist-packages" >"$pth/knc-meson-backports.pth"
	done
}

if [ -n "${KNC_QEMU_SRC:-}" ]; then
	[ -x "$KNC_QEMU_SRC/configure" ] || die "$KNC_QEMU_SRC is not a QEMU source tree"
	mkdir -p "$KNC_QEMU_SRC/build" "$OUT"
	LOG="$OUT/build.log"
	: >"$LOG"
	if [ ! -f "$KNC_QEMU_SRC/build/build.ninja" ]; then
		log "configuring $KNC_QEMU_SRC"
		prepare_meson
		configure_in "$KNC_QEMU_SRC"
	fi
	log "ninja in $KNC_QEMU_SRC/build (log: ${OUT#"$REPO"/}/build.log)"
	run_logged "$LOG" ninja -C "$KNC_QEMU_SRC/build" -j"$JOBS" qemu-system-x86_64
	install_binary "$KNC_QEMU_SRC/build/qemu-system-x86_64" "$(build_tcg_test "$KNC_QEMU_SRC")"
	log "built ${OUT#"$REPO"/}/qemu-system-x86_64 from $KNC_QEMU_SRC"
	exit 0
fi

shopt -s nullglob
PATCHES=("$PATCH_DIR"/*.patch)
shopt -u nullglob

mkdir -p "$BUILDS" "$SRC_CACHE" 2>/dev/null ||
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
# The upstream tarball: qemu_10.0.2+ds.orig.tar.xz for 1:10.0.2+ds-2...
ORIG_NAME="${QEMU_SOURCE_PACKAGE}_$(v=${QEMU_VERSION#*:}; echo "${v%-*}").orig.tar.xz"

# upstream_only: apt-get source fetched the upstream tarball, but the
# archive answered 404 for the .dsc and the Debian tarball (seen with
# bookworm-backports' qemu 10.0); the build can still go on from it.
# Remembered in $PINNED_DSC.upstream-only, as FALLBACK is.
upstream_only() {
	[ -f "$SRC_CACHE/$ORIG_NAME" ] &&
		tail -n 5 "$FETCH_LOG" | grep -q '\.dsc  *404' &&
		echo "$ORIG_NAME" >"$SRC_CACHE/$PINNED_DSC.upstream-only"
}

apt_source() {
	(cd "$SRC_CACHE" && apt-get source --download-only "$@") >>"$FETCH_LOG" 2>&1
}

# fetch_source: download the source package into $SRC_CACHE; print the
# name of its .dsc
fetch_source() {
	local v

	command -v apt-get >/dev/null || die "apt-get not found: a Debian machine is needed"
	if apt_add_source deb-src "$SUITE" "$DEB_SRC_LIST"; then
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
	# the archive serves the upstream tarball but not Debian's part
	if upstream_only; then
		echo "$ORIG_NAME"
		return
	fi
	v=$(apt-cache showsrc --only-source "$QEMU_SOURCE_PACKAGE" 2>/dev/null |
		sed -n 's/^Version: //p' | grep -F "${QEMU_VERSION%%-*}-" | sort -V | tail -n 1)
	[ -n "$v" ] ||
		die "apt has no $QEMU_SOURCE_PACKAGE ${QEMU_VERSION%%-*} source package (a deb-src line for $SUITE main is needed; see $FETCH_LOG)"
	log "warning: the archive no longer has $QEMU_VERSION; building $v, which ${PATCH_DIR#"$REPO"/}/*.patch were not made against" >&2
	apt_source "$QEMU_SOURCE_PACKAGE=$v" ||
		die "apt-get source $QEMU_SOURCE_PACKAGE=$v failed (see $FETCH_LOG)"
	echo "${QEMU_SOURCE_PACKAGE}_${v#*:}.dsc" >"$FALLBACK"
	cat "$FALLBACK"
}

if [ -f "$SRC_CACHE/$PINNED_DSC" ]; then
	DSC_NAME=$PINNED_DSC
elif [ -s "$SRC_CACHE/$PINNED_DSC.upstream-only" ] && [ -f "$SRC_CACHE/$ORIG_NAME" ]; then
	DSC_NAME=$ORIG_NAME
elif [ -s "$FALLBACK" ] && [ -f "$SRC_CACHE/$(cat "$FALLBACK")" ]; then
	DSC_NAME=$(cat "$FALLBACK")
	log "warning: building $DSC_NAME, not $PINNED_DSC (gone from the archive)"
else
	DSC_NAME=$(fetch_source)
fi
DSC="$SRC_CACHE/$DSC_NAME"
[ -f "$DSC" ] || die "$DSC missing after apt-get source (see $FETCH_LOG)"
if [ "$DSC_NAME" = "$ORIG_NAME" ]; then
	log "warning: the archive has no $PINNED_DSC, only its upstream tarball: building $ORIG_NAME without Debian's patches"
fi
prepare_meson

# unpack_patch DIR: the source package, with the patches applied, in DIR/src
unpack_patch() {
	local p
	if [ "$DSC_NAME" = "$ORIG_NAME" ]; then
		mkdir -p "$1/src"
		run_logged "$LOG" tar -xJf "$DSC" -C "$1/src" --strip-components=1 --no-same-owner
	else
		run_logged "$LOG" dpkg-source --no-check -x "$DSC" "$1/src"
	fi
	# The +ds tarball lacks pc-bios/edk2-*.fd.bz2; meson would unpack them
	# when bzip2 is there.
	if [ ! -e "$1/src/pc-bios/edk2-x86_64-code.fd.bz2" ]; then
		sed -i 's/^\( *unpack_edk2_blobs = \)bzip2\.found()$/\1false/' "$1/src/meson.build"
	fi
	for p in ${PATCHES[@]+"${PATCHES[@]}"}; do
		log "applying $(basename "$p")"
		run_logged "$LOG" patch -d "$1/src" -p1 -N -s -i "$p"
	done
}

# build_in DIR: configure and build DIR/src; the binary and the TCG test
# to DIR
build_in() {
	mkdir -p "$1/src/build"
	log "configuring"
	configure_in "$1/src"
	log "building qemu-system-x86_64 (ninja -j$JOBS)"
	run_logged "$LOG" ninja -C "$1/src/build" -j"$JOBS" qemu-system-x86_64
	cp "$1/src/build/qemu-system-x86_64" "$1/"
	cp "$(build_tcg_test "$1/src")" "$1/tcg-$TCG_TEST"
}

# The cache key: what the build reads, its own steps included (their
# text, as bash prints it: comments left out)
KEY=$( {
	printf 'dsc %s\n' "$DSC_NAME"
	printf 'configure %s\n' "${CONFIGURE_FLAGS[*]}"
	printf 'meson %s\n' "$MESON_DEBS"
	declare -f unpack_patch build_in configure_in build_tcg_test
	for p in ${PATCHES[@]+"${PATCHES[@]}"}; do
		printf 'patch %s %s\n' "$(basename "$p")" "$(sha256sum <"$p" | cut -d' ' -f1)"
	done
} | sha256sum | cut -c1-16)
BUILD="$BUILDS/$KEY"
BIN="$BUILD/qemu-system-x86_64"

TEST=$BUILD/tcg-$TCG_TEST

if [ "$FORCE" = 0 ] && [ -x "$BIN" ] && [ -f "$TEST" ]; then
	install_binary "$BIN" "$TEST"
	touch "$BUILD" 2>/dev/null || true	# recently used: not pruned
	log "${OUT#"$REPO"/}/qemu-system-x86_64 is up to date (cached build $KEY)"
	exit 0
fi
start=$SECONDS

# ---- 2. unpack, patch, configure, build ------------------------------------
rm -rf "$BUILD" "$BUILD.tmp"
mkdir -p "$BUILD.tmp"
LOG="$BUILD.tmp/build.log"
log "unpacking $DSC_NAME with ${#PATCHES[@]} patch(es) (log: $LOG)"
unpack_patch "$BUILD.tmp"
build_in "$BUILD.tmp"
# Keep the binary, the TCG test and the log: not the 1 GB tree, nor the
# copy of the orig tarball that dpkg-source -x leaves beside it.
find "$BUILD.tmp" -mindepth 1 -maxdepth 1 ! -name qemu-system-x86_64 ! -name build.log \
	! -name "tcg-*" -exec rm -rf {} +
mv "$BUILD.tmp" "$BUILD"

# ---- 3. install, prune ------------------------------------------------------
install_binary "$BIN" "$TEST"
# shellcheck disable=SC2012
ls -1td "$BUILDS"/*/ 2>/dev/null | tail -n +$((KEEP + 1)) | xargs -r rm -rf
log "built ${OUT#"$REPO"/}/qemu-system-x86_64 (cached as $KEY) in $((SECONDS - start)) s"
