#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# build-perf.sh - build perf 6.1 (Debian linux-source-6.1) with the Knights
# Corner pmu-events tables compiled in.  Called by the top-level `make perf`.
#
# Steps (see --help): unpack the kernel source once into build/perf/src/,
# apply tools/knc/patches/*.patch, copy tools/perf/pmu-events/knc/*.json into
# arch/x86/knightscorner/, add the KNC mapfile row, build perf out of tree
# into build/perf/obj/ and leave the binary at build/perf/perf.  A stamp
# skips all of it when nothing changed.
#
# With --linux 7.3 --series DIR --out OUT (`make perf-7.3-events`): perf
# 7.3 (Debian's linux-source-7.3, fetched by tools/knc/linux-src.sh
# --tarball) with a git format-patch series applied instead, the one of
# tools/knc/perf-events-series.sh, which carries the tables itself; the
# binary is OUT/perf.

set -euo pipefail

# Debian packages perf's build needs (installed by the top-level Makefile,
# not by this script).  python3 runs jevents.py; xz-utils and patch are used
# here; the -dev packages are what perf 6.1's feature detection needs for the
# features we keep (libelf/libdw: symbols, probes, DWARF unwinding; zstd, cap,
# numa, zlib, lzma: compressed data, capabilities, `perf bench numa`).
PERF_BUILD_DEPS="make gcc libc6-dev python3 xz-utils patch pkg-config flex bison \
libelf-dev libdw-dev libtraceevent-dev libzstd-dev libcap-dev libnuma-dev \
zlib1g-dev liblzma-dev"
# Debian package that ships the kernel source tarball.
PERF_SOURCE_PACKAGE="linux-source-6.1"

SCRIPT_PATH="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)/$(basename "${BASH_SOURCE[0]}")"
REPO="$(cd "$(dirname "$SCRIPT_PATH")/../.." && pwd)"

LINUX=6.1
SERIES=
# Only what perf's build reads: tools/ (perf, its libs, tools/include), the
# top Makefile and scripts/ (PERF-VERSION-GEN runs `make kernelversion`),
# include/ and arch/x86/ (header cross-checks, memcpy/memset sources).
EXTRACT_PATHS=(Makefile tools scripts include arch/x86)

JSON_DIR="${KNC_JSON_DIR:-$REPO/tools/perf/pmu-events/knc}"
PATCH_DIR="$REPO/tools/knc/patches"
OUT="$REPO/build/perf"
JOBS="${JOBS:-$(nproc 2>/dev/null || echo 2)}"

MAPFILE_ROW="GenuineIntel-11-1,v1,knightscorner,core"
MODEL_DIR="knightscorner"
MAKE_VARS=(LIBTRACEEVENT_DYNAMIC=1 NO_LIBPYTHON=1 NO_LIBPERL=1 NO_JVMTI=1 WERROR=0)

usage() {
	cat <<EOF
Usage: tools/knc/build-perf.sh [--force] [--json-dir DIR]
       tools/knc/build-perf.sh --linux 7.3 --series DIR --out DIR [--force]
       tools/knc/build-perf.sh --series-digest PATCH
       tools/knc/build-perf.sh --print-deps | --help

Build perf 6.1 with the Knights Corner (PMU "knc") pmu-events tables and
leave it at build/perf/perf (relative to the repository root).

  1. Unpack $TARBALL
     (package $PERF_SOURCE_PACKAGE) into build/perf/src/, only
     ${EXTRACT_PATHS[*]}; done once (again only if the tarball or a patch
     changes).
  2. Apply tools/knc/patches/*.patch (jevents.py: Unit "knc" -> PMU "knc"),
     add the mapfile row "$MAPFILE_ROW" to
     tools/perf/pmu-events/arch/x86/mapfile.csv, and copy the JSON files to
     tools/perf/pmu-events/arch/x86/$MODEL_DIR/.
  3. make -C tools/perf ${MAKE_VARS[*]} O=build/perf/obj -j$JOBS
     (output in build/perf/build.log; its tail is shown on failure).
  4. Copy the binary to build/perf/perf.

A stamp (sha256 of the JSON files, this script and the patches, plus the
tarball's path, size and mtime) skips everything when build/perf/perf exists
and nothing changed; when only the JSON changed the tables are re-copied and
make runs incrementally. Each binary built is also kept under
\${KNC_CACHE:-/var/cache/knc-pmu}/perf/HASH (HASH of the stamp; the three
newest), and a clone whose stamp has one there copies it instead of
building.

With --series, step 2 is the series' patches applied in step 1 (its
0001-... files, not tools/knc/patches), which carry the tables; --linux
names the source (linux-source-VERSION), --out where build/perf is above.

Options:
  --json-dir DIR  JSON tables to build in (default tools/perf/pmu-events/knc;
                  also settable with KNC_JSON_DIR)
  --linux VERSION 6.1 (default), the tarball
                  /usr/src/linux-source-6.1.tar.xz (KNC_LINUX_TARBALL), or
                  7.3, linux-source-7.3's from trixie-backports as
                  tools/knc/linux-src.sh --tarball fetches it
                  (KNC_LINUX_73_TARBALL)
  --series DIR    apply the git format-patch series in DIR
  --out DIR       build there (default build/perf; the cache directory is
                  named after it)
  --force         ignore the stamp and re-run make
  --series-digest PATCH  print the digest the stamp gives a series' patch
                  (of what it changes: no commit id, Date, To or Cc) and exit
  --print-deps    print the Debian build packages on one line and exit
  -h, --help      this text

Environment: KNC_LINUX_TARBALL, KNC_LINUX_73_TARBALL (source tarballs),
KNC_JSON_DIR, JOBS, KNC_CACHE.

Debian packages needed (installed by the top-level Makefile, not here):
  $PERF_SOURCE_PACKAGE
  $PERF_BUILD_DEPS

Try it:  PERF_CPUID=GenuineIntel-11-1-0 build/perf/perf list
(perf shows JSON events only for PMUs present in sysfs; on a machine without
a knc PMU point SYSFS_PATH at a fake sysfs tree, as tests/host/perf-list.t
does.)
EOF
}

log() { printf 'build-perf: %s\n' "$*"; }
die() { printf 'build-perf: error: %s\n' "$*" >&2; exit 1; }
# shellcheck source=tools/knc/cache-lib.sh
. "$REPO/tools/knc/cache-lib.sh"

# A series' commit ids, dates and recipients (the mail header's Date:,
# To: and Cc:, continuation lines included) are not what it changes.
series_digest() {
	awk 'NR == 1 && /^From [0-9a-f]+ Mon Sep 17 00:00:00 2001$/ { next }
		!body && /^$/ { body = 1 }
		!body && /^(Date|To|Cc): / { skip = 1; next }
		!body && skip && /^[ \t]/ { next }
		{ skip = 0; print }' "$1" | sha256sum | cut -d' ' -f1
}

FORCE=0
while [ $# -gt 0 ]; do
	case "$1" in
	-h|--help) usage; exit 0 ;;
	--print-deps) echo "$PERF_SOURCE_PACKAGE $PERF_BUILD_DEPS"; exit 0 ;;
	--series-digest) [ $# -ge 2 ] || die "--series-digest needs a patch"
		series_digest "$2"; exit 0 ;;
	--force) FORCE=1 ;;
	--json-dir) [ $# -ge 2 ] || die "--json-dir needs a directory"
		JSON_DIR="$2"; shift ;;
	--json-dir=*) JSON_DIR="${1#--json-dir=}" ;;
	--linux|--series|--out) [ $# -ge 2 ] || die "$1 needs an argument"
		case "$1" in
		--linux) LINUX="$2" ;;
		--series) SERIES="$(cd "$2" && pwd)" || die "no series directory $2" ;;
		--out) mkdir -p "$2" && OUT="$(cd "$2" && pwd)" ;;
		esac
		shift ;;
	*) usage >&2; die "unknown argument: $1" ;;
	esac
	shift
done

# ---- inputs -----------------------------------------------------------------

case "$LINUX" in
6.1) TARBALL="${KNC_LINUX_TARBALL:-/usr/src/linux-source-6.1.tar.xz}" ;;
7.3) TARBALL="${KNC_LINUX_73_TARBALL:-$("$REPO/tools/knc/linux-src.sh" --tarball)}" ||
		die "tools/knc/linux-src.sh --tarball failed"
	# As 6.1 builds by default: no BPF skeletons (7.3 would build
	# bpftool and vmlinux.h for them), no ShellCheck of perf's own tests,
	# no Rust test workload (with a rustc on the PATH, ar aborts on its
	# archive: "LLVM ERROR: Invalid encoding").
	MAKE_VARS+=(BUILD_BPF_SKEL=0 NO_SHELLCHECK=1 NO_RUST=1)
	# Its users list, count and run perf test's JSON and metric suites
	# (tests/host/perf-events-series.t, tests/guest/linux-knc.sh), which
	# need none of perf's optional libraries: a fifth less to compile.
	MAKE_VARS+=(NO_LIBELF=1 NO_LIBDW=1 NO_LIBTRACEEVENT=1 NO_LIBBPF=1 NO_SLANG=1
		NO_LIBNUMA=1 NO_LIBCAP=1 NO_LIBZSTD=1 NO_LZMA=1 NO_ZLIB=1 NO_DEMANGLE=1
		NO_LIBPFM4=1 NO_CAPSTONE=1 NO_LIBLLVM=1 NO_BABELTRACE2=1 NO_LIBDEBUGINFOD=1
		NO_AIO=1 NO_BACKTRACE=1)
	# and what its tools/perf/MANIFEST names outside tools/ besides.
	EXTRACT_PATHS+=(arch/arm64/tools kernel/bpf/disasm.c kernel/bpf/disasm.h) ;;
*) die "--linux $LINUX: 6.1 or 7.3" ;;
esac
PERF_SOURCE_PACKAGE="linux-source-$LINUX"
TAR_TOPDIR="linux-source-$LINUX"
SRC="$OUT/src"
OBJ="$OUT/obj"
LOG="$OUT/build.log"
STAMP="$OUT/.build-stamp"
CACHE="${KNC_CACHE:-/var/cache/knc-pmu}/$(basename "$OUT")"
UNPACK_STAMP="$SRC/.knc-unpack-stamp"
NAME="${OUT#"$REPO"/}/perf"

[ -f "$TARBALL" ] || die "$TARBALL not found: install the Debian package $PERF_SOURCE_PACKAGE (apt-get install $PERF_SOURCE_PACKAGE)"
for tool in xz tar patch make python3 sha256sum; do
	command -v "$tool" >/dev/null 2>&1 ||
		die "'$tool' not found; needed packages: $PERF_BUILD_DEPS"
done

[ -d "$JSON_DIR" ] || die "JSON directory $JSON_DIR does not exist"
JSON_DIR="$(cd "$JSON_DIR" && pwd)"
shopt -s nullglob
JSON_FILES=("$JSON_DIR"/*.json)
PATCHES=("$PATCH_DIR"/*.patch)
[ -z "$SERIES" ] || PATCHES=("$SERIES"/[0-9][0-9][0-9][1-9]-*.patch)
shopt -u nullglob
[ ${#JSON_FILES[@]} -gt 0 ] || die "no *.json files in $JSON_DIR"
[ -z "$SERIES" ] || [ ${#PATCHES[@]} -gt 0 ] || die "no patches in $SERIES"

# Fail early and clearly, rather than deep inside jevents.py: the one
# validator of the tables is gen-events.py.
python3 "$REPO/tools/knc/gen-events.py" --check --events-dir "$JSON_DIR" ||
	die "invalid event tables in $JSON_DIR (see above)"

tarball_id() {
	# path, size, mtime: cheap identity of the source tarball
	printf 'tarball %s %s\n' "$TARBALL" "$(stat -c '%s %Y' "$TARBALL")"
}

unpack_stamp() {
	tarball_id
	printf 'paths %s\n' "${EXTRACT_PATHS[*]}"
	local p
	for p in ${PATCHES[@]+"${PATCHES[@]}"}; do
		printf 'patch %s %s\n' "$(basename "$p")" "$(patch_digest "$p")"
	done
}

patch_digest() {
	if [ -n "$SERIES" ]; then
		series_digest "$1"
	else
		sha256sum <"$1" | cut -d' ' -f1
	fi
}

build_stamp() {
	unpack_stamp
	printf 'script %s\n' "$(sha256sum <"$SCRIPT_PATH" | cut -d' ' -f1)"
	printf 'make %s\n' "${MAKE_VARS[*]}"
	local f
	for f in "${JSON_FILES[@]}"; do
		printf 'json %s %s\n' "$(basename "$f")" "$(sha256sum <"$f" | cut -d' ' -f1)"
	done
}

WANT_STAMP="$(build_stamp)"
if [ "$FORCE" = 0 ] && [ -x "$OUT/perf" ] && [ -f "$STAMP" ] &&
   [ "$(cat "$STAMP")" = "$WANT_STAMP" ]; then
	log "$NAME is up to date"
	exit 0
fi
mkdir -p "$OUT"
rm -f "$STAMP"

# A binary built from the same stamp in another clone.
CACHED="$CACHE/$(printf '%s\n' "$WANT_STAMP" | sha256sum | cut -c1-16)/perf"
if [ "$FORCE" = 0 ] && [ -x "$CACHED" ]; then
	cp -f "$CACHED" "$OUT/perf.tmp"
	mv -f "$OUT/perf.tmp" "$OUT/perf"
	printf '%s\n' "$WANT_STAMP" >"$STAMP"
	log "$NAME from the cache (${CACHED%/perf})"
	exit 0
fi

# ---- 1. unpack once ----------------------------------------------------------

WANT_UNPACK="$(unpack_stamp)"
if [ ! -f "$UNPACK_STAMP" ] || [ "$(cat "$UNPACK_STAMP")" != "$WANT_UNPACK" ]; then
	log "unpacking $(basename "$TARBALL") (${EXTRACT_PATHS[*]}) into ${SRC#"$REPO"/}"
	rm -rf "$SRC" "$SRC.tmp" "$OBJ"
	mkdir -p "$SRC.tmp"
	members=()
	for p in "${EXTRACT_PATHS[@]}"; do members+=("$TAR_TOPDIR/$p"); done
	tar -x -C "$SRC.tmp" --strip-components=1 -f "$("$REPO/tools/knc/plain-tar" "$TARBALL")" "${members[@]}" ||
		die "unpacking $TARBALL failed"

	# 2a. source patches
	for p in ${PATCHES[@]+"${PATCHES[@]}"}; do
		log "applying $(basename "$p")"
		patch -d "$SRC.tmp" -p1 -N -s <"$p" >>"$LOG.patch" 2>&1 ||
			{ cat "$LOG.patch" >&2; die "patch $p does not apply"; }
	done
	rm -f "$LOG.patch"
	printf '%s\n' "$WANT_UNPACK" >"$SRC.tmp/.knc-unpack-stamp"
	mv "$SRC.tmp" "$SRC"
fi

# ---- 2. KNC tables -------------------------------------------------------------

EVDIR="$SRC/tools/perf/pmu-events"
if [ -n "$SERIES" ]; then
	[ -d "$EVDIR/arch/x86/$MODEL_DIR" ] || die "the series adds no arch/x86/$MODEL_DIR"
else
	grep -q "'knc': 'knc'" "$EVDIR/jevents.py" ||
		die "jevents.py lacks the 'knc' unit entry (patch not applied?)"

	MAP_CSV="$EVDIR/arch/x86/mapfile.csv"
	if ! grep -qxF "$MAPFILE_ROW" "$MAP_CSV"; then
		# keep the file newline-terminated before appending
		[ -z "$(tail -c1 "$MAP_CSV")" ] || echo >>"$MAP_CSV"
		echo "$MAPFILE_ROW" >>"$MAP_CSV"
	fi

	# Replace the whole model directory so a removed JSON file disappears too
	# (fresh mtimes on the copies make pmu-events.c regenerate).
	log "copying ${#JSON_FILES[@]} JSON file(s) from ${JSON_DIR#"$REPO"/} into arch/x86/$MODEL_DIR"
	rm -rf "$EVDIR/arch/x86/$MODEL_DIR"
	mkdir -p "$EVDIR/arch/x86/$MODEL_DIR"
	cp "${JSON_FILES[@]}" "$EVDIR/arch/x86/$MODEL_DIR/"
fi

# ---- 3. build ---------------------------------------------------------------------

mkdir -p "$OBJ"
log "building perf (make -j$JOBS, log: ${LOG#"$REPO"/})"
start=$SECONDS
# A parent make (`make perf`) must not leak its flags or command-line
# variables into perf's build; -j is given explicitly.
if ! env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL -u MAKEOVERRIDES \
	make -C "$SRC/tools/perf" -j"$JOBS" "${MAKE_VARS[@]}" O="$OBJ" >"$LOG" 2>&1; then
	echo "----- last 40 lines of $LOG -----" >&2
	tail -n 40 "$LOG" >&2
	die "perf build failed (full log: $LOG)"
fi
# Report features that were switched off, for the curious.
if grep -q 'OFF' "$LOG"; then
	log "optional features off: $(grep -o '[a-z0-9_-]*: \[ .*OFF.* \]' "$LOG" |
		sed 's/:.*//' | tr '\n' ' ')"
fi

[ -x "$OBJ/perf" ] || die "make succeeded but $OBJ/perf is missing"
grep -q "$MODEL_DIR" "$OBJ/pmu-events/pmu-events.c" ||
	die "the $MODEL_DIR table is missing from the generated pmu-events.c"

# ---- 4. install -------------------------------------------------------------------

cp -f "$OBJ/perf" "$OUT/perf.tmp"
mv -f "$OUT/perf.tmp" "$OUT/perf"
printf '%s\n' "$WANT_STAMP" >"$STAMP"
# Into the cache; the three newest builds are kept.
mkdir -p "${CACHED%/perf}"
cp -f "$OBJ/perf" "$CACHED.tmp" && mv -f "$CACHED.tmp" "$CACHED"
cache_prune "$CACHE" perf 3
log "built $NAME ($("$OUT/perf" --version)) in $((SECONDS - start)) s"
