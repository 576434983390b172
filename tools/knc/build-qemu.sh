#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# build-qemu.sh - build QEMU 11.1 (Debian's 1:11.1.1+ds-1 source) with the
# Knights Corner PMU model (tools/knc/qemu/*.patch, then the test bed's
# tools/knc/qemu/test/*.patch). Called by the top-level `make qemu`.
#
# The build is cached outside the repository, by content hash: the same
# source package, patches, configure flags and script reuse the binary of
# an earlier build (in another clone too). See --help.

set -euo pipefail

SCRIPT_PATH="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)/$(basename "${BASH_SOURCE[0]}")"
REPO="$(cd "$(dirname "$SCRIPT_PATH")/../.." && pwd)"

CACHE="${KNC_CACHE:-/var/cache/knc-pmu}"
SRC_CACHE="$CACHE/src"
FETCH_LOG="$SRC_CACHE/fetch.log"
JOBS="${JOBS:-$(nproc 2>/dev/null || echo 2)}"
KEEP=3		# cached builds kept, per version

QEMU_SOURCE_PACKAGE="qemu"
BUILD_DEPS="dpkg-dev meson ninja-build python3 python3-venv pkg-config \
libglib2.0-dev libpixman-1-dev libattr1-dev libcap-ng-dev libfdt-dev zlib1g-dev"
# No debug information: it is a third of the compile time, and nothing
# here debugs QEMU itself (insncount debugs the guest, through gdbstub).
# Nor QEMU's default devices: the pc machine and what knc-vm and the tests
# use (tools/knc/qemu-devices.mak): 1125 C objects instead of 1372.
CONFIGURE_FLAGS=(--target-list=x86_64-softmmu --without-default-features
	--enable-tcg --enable-virtfs --enable-attr --enable-cap-ng
	--enable-fdt=system --disable-docs --disable-install-blobs
	--disable-debug-info --without-default-devices --with-devices-x86_64=knc)
DEVICES="$REPO/tools/knc/qemu-devices.mak"

# Debian's QEMU 11.1 (sid's 1:11.1.1+ds-1; Debian 12 and bookworm-backports
# have no QEMU 11).  Sid's index has moved on to later 11.1 releases, but
# the archive's pool still serves this version's three files: apt-get source
# takes them while the index lists the version, else curl takes them from the
# pool.  Either way the tarballs must have the SHA-256 sums that the .dsc
# states, pinned here.  Its configure runs meson from a venv and wants
# meson >= 1.5, pycotap and qemu.qmp >= 0.0.5, which Debian 12 lacks
# (prepare_meson).
QEMU_VERSION="1:11.1.1+ds-1"	# epoch:upstream-debian
QEMU_ORIG_SHA256=0b1376e75dbe3e2fea4e408f8669f88a723f419f36a5b7d74cc6a4cfe07e4f5e
QEMU_DEBIAN_SHA256=870a1193f28ce522ac91f68100d75dce5527e08d8958344b389c9fa24b44968f
SUITE=sid
PATCH_DIR="$REPO/tools/knc/qemu"
OUT="$REPO/build/qemu"
BUILDS="$CACHE/qemu-11.1"
# the series' system-mode TCG test (its last patch), kept beside the binary
# for tests/host/qemu-tcg.t
TCG_TEST=knc-pmu

usage() {
	cat <<EOF
Usage: tools/knc/build-qemu.sh [--force]
       tools/knc/build-qemu.sh --print-deps | --help

Build qemu-system-x86_64 (x86_64-softmmu, TCG, virtfs, the pc machine and
the devices of tools/knc/qemu-devices.mak only) with the
Knights Corner PMU model: Debian's QEMU $QEMU_VERSION (sid's) with
tools/knc/qemu/*.patch (the series) and tools/knc/qemu/test/*.patch (the
test bed's patches on top of it: the SPFLT stand-in), left at
build/qemu/qemu-system-x86_64.

  1. Fetch the source package into $SRC_CACHE, once:
     with apt-get source while $SUITE's index lists the version (apt reads
     a sources list of the script's own, under $SRC_CACHE/apt-$SUITE;
     the machine's apt state is left alone), else with curl from the
     archive's pool (.dsc, upstream and Debian tarballs).  The tarballs
     must have the SHA-256 sums the .dsc states, which the script pins.
     Should the pool serve the upstream tarball but not Debian's part
     (.dsc, .debian.tar.xz), the upstream tarball is built without Debian's
     patches (with a warning).
  2. Unpack it with dpkg-source -x (Debian's own patches applied), apply
     the patches in order, configure and build with ninja, in
     $BUILDS/KEY, where KEY hashes what the build
     reads: the source's name, the patches, the configure flags, meson's
     packages and the build's own steps (the functions that unpack,
     configure and build; not this script's other lines, so that an edit
     to its fetching or its help does not rebuild).  The +ds tarball lacks
     the EDK2 firmware: its unpacking is turned off.  Meson 1.7 and pycotap
     come from bookworm-backports' packages, qemu.qmp from
     trixie-backports' python3-qemu-qmp, unpacked into
     $CACHE/meson-backports and $CACHE/qemu-qmp-backports
     (the system's meson stays Debian 12's).
  3. Copy the binary to build/qemu/, with the series' system-mode TCG test,
     tcg-knc-pmu, built by QEMU's build-tcg-tests-x86_64-softmmu
     (tests/host/qemu-tcg.t runs it).  An existing build for the same KEY is
     reused (seconds); the $KEEP newest builds are kept.  A lock in the cache
     makes concurrent runs (another clone, CI) wait for each other.

A cold build takes about 9 minutes of CPU. Run it as root (apt-get, the
cache directory), or set KNC_CACHE to a writable directory and install the
packages below first.

Options:
  --force         rebuild even if the cached build exists
  --print-deps    print the Debian build packages on one line and exit
  -h, --help      this text

Environment: KNC_CACHE (default /var/cache/knc-pmu), JOBS,
  KNC_QEMU_SRC=DIR  build an already unpacked and patched QEMU 11.1 tree
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

# private_apt SUITE TYPE: apt_private's options (tools/knc/apt-lib.sh) for
# a TYPE entry for SUITE, with its lists and cache under
# $SRC_CACHE/apt-SUITE; the lists are updated on the first call.
private_apt() {
	local dir="$SRC_CACHE/apt-$1"
	apt_private "$dir" "$2" "$1"
	if [ ! -e "$dir/updated" ]; then
		apt-get "${APT_PRIVATE[@]}" -qq update >>"$FETCH_LOG" 2>&1 || return 1
		touch "$dir/updated"
	fi
}

# unpack_debs DIR: DIR/debs/*.deb unpacked into DIR/root, once
unpack_debs() {
	local d
	if [ ! -d "$1/root" ]; then
		rm -rf "$1/root.tmp"
		for d in "$1"/debs/*.deb; do
			dpkg-deb -x "$d" "$1/root.tmp" || die "dpkg-deb -x $d failed"
		done
		mv "$1/root.tmp" "$1/root"
	fi
}

# prepare_meson: QEMU 11.1's configure wants meson >= 1.5 and pycotap in
# its venv, from the system or from python/wheels (which the +ds tarball
# lacks), and installs its tooling into the venv whatever the build, which
# wants qemu.qmp >= 0.0.5; Debian 12 has meson 1.0 and no qemu.qmp, nor
# has bookworm-backports.  Unpack bookworm-backports' meson and
# python3-pycotap into $CACHE/meson-backports and trixie-backports'
# python3-qemu-qmp into $CACHE/qemu-qmp-backports (pure Python, all three;
# each directory fetched and unpacked on its own) and put them on PYTHONPATH,
# leaving the system's meson alone.  Sets MESON_DEBS to the packages' file
# names (part of the build's KEY).
MESON_ROOT="$CACHE/meson-backports"
QMP_ROOT="$CACHE/qemu-qmp-backports"
MESON_DEBS=""
PYTHON_DIRS=""
prepare_meson() {
	mkdir -p "$MESON_ROOT/debs" "$QMP_ROOT/debs"
	if ! ls "$MESON_ROOT"/debs/meson_*.deb "$MESON_ROOT"/debs/python3-pycotap_*.deb >/dev/null 2>&1; then
		log "fetching meson and python3-pycotap from bookworm-backports"
		(cd "$MESON_ROOT/debs" && apt-get download meson/bookworm-backports \
			python3-pycotap/bookworm-backports) >>"$FETCH_LOG" 2>&1 ||
			die "apt-get download meson/bookworm-backports python3-pycotap/bookworm-backports failed (bookworm-backports is in apt's sources after make deps; see $FETCH_LOG)"
		rm -rf "$MESON_ROOT/root"
	fi
	if ! ls "$QMP_ROOT"/debs/python3-qemu-qmp_*.deb >/dev/null 2>&1; then
		log "fetching python3-qemu-qmp from trixie-backports"
		private_apt trixie-backports deb ||
			die "apt-get update of trixie-backports failed (see $FETCH_LOG)"
		(cd "$QMP_ROOT/debs" && apt-get "${APT_PRIVATE[@]}" download python3-qemu-qmp) \
			>>"$FETCH_LOG" 2>&1 ||
			die "apt-get download python3-qemu-qmp (trixie-backports) failed (see $FETCH_LOG)"
		rm -rf "$QMP_ROOT/root"
	fi
	unpack_debs "$MESON_ROOT"
	unpack_debs "$QMP_ROOT"
	MESON_DEBS="$(cd "$MESON_ROOT/debs" && echo *.deb) $(cd "$QMP_ROOT/debs" && echo *.deb)"
	PYTHON_DIRS="$MESON_ROOT/root/usr/lib/python3/dist-packages:$QMP_ROOT/root/usr/lib/python3/dist-packages"
	export PYTHONPATH="$PYTHON_DIRS${PYTHONPATH:+:$PYTHONPATH}"
}

# configure_in SRC: configure SRC/build with the devices of $DEVICES (as
# SRC/configs/devices/x86_64-softmmu/knc.mak), logging to $LOG.  QEMU 11.1's
# venv (SRC/build/pyvenv) keeps the backports' meson and qemu.qmp on its
# path through a .pth file, for the reconfigures that ninja runs.
configure_in() {
	local pth
	cp "$DEVICES" "$1/configs/devices/x86_64-softmmu/knc.mak"
	(cd "$1/build" && run_logged "$LOG" ../configure "${CONFIGURE_FLAGS[@]}")
	for pth in "$1"/build/pyvenv/lib/python3*/site-packages; do
		tr : '\n' <<<"$PYTHON_DIRS" >"$pth/knc-meson-backports.pth"
	done
}

if [ -n "${KNC_QEMU_SRC:-}" ]; then
	[ -x "$KNC_QEMU_SRC/configure" ] || die "$KNC_QEMU_SRC is not a QEMU source tree"
	mkdir -p "$KNC_QEMU_SRC/build" "$OUT" "$SRC_CACHE"
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

# the series, then the test bed's own patches on top (tools/knc/qemu/test/:
# not part of what is proposed to QEMU, see tools/knc/qemu-series.sh)
shopt -s nullglob
PATCHES=("$PATCH_DIR"/*.patch "$PATCH_DIR"/test/*.patch)
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
# The upstream tarball: qemu_11.1.1+ds.orig.tar.xz for 1:11.1.1+ds-1
ORIG_NAME="${QEMU_SOURCE_PACKAGE}_$(v=${QEMU_VERSION#*:}; echo "${v%-*}").orig.tar.xz"
DEBIAN_NAME="${QEMU_SOURCE_PACKAGE}_${QEMU_VERSION#*:}.debian.tar.xz"

# sum_ok FILE SHA256: FILE, in $SRC_CACHE, has that SHA-256
sum_ok() {
	[ -f "$SRC_CACHE/$1" ] &&
		[ "$(sha256sum <"$SRC_CACHE/$1" | cut -d' ' -f1)" = "$2" ]
}

# source_ok: the .dsc, both tarballs with their pinned sums, and the .dsc
# states those sums
source_ok() {
	sum_ok "$ORIG_NAME" "$QEMU_ORIG_SHA256" &&
		sum_ok "$DEBIAN_NAME" "$QEMU_DEBIAN_SHA256" &&
		grep -q "^ $QEMU_ORIG_SHA256 [0-9]* $ORIG_NAME\$" "$SRC_CACHE/$PINNED_DSC" &&
		grep -q "^ $QEMU_DEBIAN_SHA256 [0-9]* $DEBIAN_NAME\$" "$SRC_CACHE/$PINNED_DSC"
}

# apt_source: apt-get source of the pinned version, through the script's
# own sources list for $SUITE
apt_source() {
	private_apt "$SUITE" deb-src &&
		(cd "$SRC_CACHE" && apt-get "${APT_PRIVATE[@]}" source --download-only \
			"$QEMU_SOURCE_PACKAGE=$QEMU_VERSION") >>"$FETCH_LOG" 2>&1
}

# pool_get FILE: FILE from the archive's pool into $SRC_CACHE
pool_get() {
	local url
	url="$(apt_archive_uri)/pool/main/${QEMU_SOURCE_PACKAGE:0:1}/$QEMU_SOURCE_PACKAGE/$1"
	echo "curl $url" >>"$FETCH_LOG"
	curl -fsS --retry 2 -o "$SRC_CACHE/$1.part" "$url" >>"$FETCH_LOG" 2>&1 &&
		mv "$SRC_CACHE/$1.part" "$SRC_CACHE/$1"
}

# fetch_source: download the source package into $SRC_CACHE; print the
# name of what to build: its .dsc, or the upstream tarball alone when the
# archive serves only that (remembered in $PINNED_DSC.upstream-only)
fetch_source() {
	local f

	command -v apt-get >/dev/null || die "apt-get not found: a Debian machine is needed"
	command -v curl >/dev/null || die "curl not found"
	log "fetching the $QEMU_SOURCE_PACKAGE $QEMU_VERSION source package (log: $FETCH_LOG)" >&2
	if apt_source && source_ok; then
		echo "$PINNED_DSC"
		return
	fi
	log "$SUITE's index does not list $QEMU_VERSION: fetching its files from the archive's pool" >&2
	for f in "$PINNED_DSC" "$ORIG_NAME" "$DEBIAN_NAME"; do
		pool_get "$f" || rm -f "$SRC_CACHE/$f"
	done
	if source_ok; then
		echo "$PINNED_DSC"
		return
	fi
	sum_ok "$ORIG_NAME" "$QEMU_ORIG_SHA256" ||
		die "no $ORIG_NAME with SHA-256 $QEMU_ORIG_SHA256 from the archive (see $FETCH_LOG)"
	if [ -f "$SRC_CACHE/$DEBIAN_NAME" ] && ! sum_ok "$DEBIAN_NAME" "$QEMU_DEBIAN_SHA256"; then
		die "$DEBIAN_NAME does not have SHA-256 $QEMU_DEBIAN_SHA256 (see $FETCH_LOG)"
	fi
	# the archive serves the upstream tarball but not Debian's part
	rm -f "$SRC_CACHE/$PINNED_DSC" "$SRC_CACHE/$DEBIAN_NAME"
	echo "$ORIG_NAME" >"$SRC_CACHE/$PINNED_DSC.upstream-only"
	echo "$ORIG_NAME"
}

if [ -f "$SRC_CACHE/$PINNED_DSC" ] && source_ok; then
	DSC_NAME=$PINNED_DSC
elif [ -s "$SRC_CACHE/$PINNED_DSC.upstream-only" ] && sum_ok "$ORIG_NAME" "$QEMU_ORIG_SHA256"; then
	DSC_NAME=$ORIG_NAME
else
	DSC_NAME=$(fetch_source)
fi
DSC="$SRC_CACHE/$DSC_NAME"
[ -f "$DSC" ] || die "$DSC missing after fetching it (see $FETCH_LOG)"
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
	# Nor has it pc-bios/dtb/*.dtb, which meson installs when dtc is not
	# there to build them (Debian's patches skip both, for the upstream
	# tarball alone this does)
	if [ ! -e "$1/src/pc-bios/dtb/bamboo.dtb" ]; then
		sed -i "s/^subdir('dtb')$/#&/" "$1/src/pc-bios/meson.build"
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
	printf 'devices %s\n' "$(sha256sum <"$DEVICES" | cut -d' ' -f1)"
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
