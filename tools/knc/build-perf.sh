#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# build-perf.sh - build perf 7.3 (Debian's linux-source-7.3, as
# tools/knc/linux-src.sh --tarball fetches it) with perf's vendor events
# for Knights Corner (the series of tools/knc/perf-events-series.sh: the
# events of the core PMU, "cpu", Linux's own KNC driver) and the knc
# tables (tools/perf/pmu-events/knc/*.json: the events of the PMU "knc",
# knc_pmu.ko) compiled in.  Called by the top-level `make perf`.
#
# Steps (see --help): make the series into build/perf/series/, unpack the
# kernel source once into build/perf/src/, apply the series and
# tools/knc/patches/*.patch, add the knc events to the series' model
# directory, build perf out of tree into build/perf/obj/ and leave the
# binary at build/perf/perf.  Stamps skip all of it when nothing changed.

set -euo pipefail

# Debian packages perf's build needs (installed by the top-level Makefile,
# not by this script).  python3 runs jevents.py; xz-utils, patch and git
# (tools/knc/perf-events-series.sh) are used here; the -dev packages are
# the optional libraries of perf 7.3 this build keeps, as perf 6.1's
# feature detection found them on Debian 12 (libelf/libdw: symbols,
# probes, DWARF unwinding; libtraceevent: tracepoints, perf trace, sched,
# kmem; zstd, numa, zlib, lzma: compressed data, `perf bench numa`).  The
# others are off (MAKE_VARS), whatever the machine has installed.
PERF_BUILD_DEPS="make gcc libc6-dev python3 xz-utils patch git pkg-config flex bison \
libelf-dev libdw-dev libtraceevent-dev libzstd-dev libnuma-dev zlib1g-dev liblzma-dev"

SCRIPT_PATH="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)/$(basename "${BASH_SOURCE[0]}")"
REPO="$(cd "$(dirname "$SCRIPT_PATH")/../.." && pwd)"

# Only what perf's build reads: tools/ (perf, its libs, tools/include), the
# top Makefile and scripts/ (PERF-VERSION-GEN runs `make kernelversion`),
# include/ and arch/x86/ (header cross-checks, memcpy/memset sources), and
# what its tools/perf/MANIFEST names outside tools/ besides.
EXTRACT_PATHS=(Makefile tools scripts include arch/x86 arch/arm64/tools kernel/bpf/disasm.c
	kernel/bpf/disasm.h)

JSON_DIR="$REPO/tools/perf/pmu-events/knc"
PATCH_DIR="$REPO/tools/knc/patches"
OUT="$REPO/build/perf"
JOBS="${JOBS:-$(nproc 2>/dev/null || echo 2)}"

MODEL_DIR="knightscorner"
TABLES="tools/perf/pmu-events/arch"
# No BPF skeletons (bpftool and vmlinux.h would be built for them), no
# ShellCheck of perf's own tests, no Rust test workload (with a rustc on
# the PATH, ar aborts on its archive: "LLVM ERROR: Invalid encoding"), and
# none of the optional libraries PERF_BUILD_DEPS does not name.
MAKE_VARS=(WERROR=0 BUILD_BPF_SKEL=0 NO_SHELLCHECK=1 NO_RUST=1 NO_JVMTI=1 NO_LIBPYTHON=1
	NO_LIBBPF=1 NO_SLANG=1 NO_DEMANGLE=1 NO_LIBUNWIND=1 NO_LIBPFM4=1 NO_CAPSTONE=1
	NO_LIBLLVM=1 NO_BABELTRACE2=1 NO_LIBDEBUGINFOD=1)

usage() {
	cat <<EOF
Usage: tools/knc/build-perf.sh [--force]
       tools/knc/build-perf.sh --series-digest PATCH
       tools/knc/build-perf.sh --print-deps | --help

Build perf 7.3 with perf's vendor events for Knights Corner (the events of
the core PMU "cpu", as Linux's own KNC driver has it) and the Knights
Corner tables (the events of the PMU "knc", knc_pmu.ko) and leave it at
build/perf/perf (relative to the repository root).

  1. tools/knc/perf-events-series.sh build/perf/series: the vendor events
     series (intel_metrics.py, the knightscorner events and mapfile.csv
     row, the metrics).
  2. Unpack linux-source-7.3's tarball (tools/knc/linux-src.sh --tarball
     fetches it) into build/perf/src/: only what perf's build reads. Done
     once: again only if the tarball, a patch to perf's code or the files
     the tables' patches touch change.
  3. Apply the series' patches to perf's code (intel_metrics.py) and
     tools/knc/patches/*.patch (jevents.py: Unit "knc" -> PMU "knc";
     evsel.c: -F beats an alias's default period). Then, on every build,
     apply the series' patches of the tables ($TABLES/) to
     the files as unpacked, and add the events of
     tools/perf/pmu-events/knc/*.json (each "Unit": "knc") to the series'
     files of the same topic in arch/x86/$MODEL_DIR/. The metrics are the
     series': its knc-metrics.json is made from the same metrics.json,
     and its metrics hold on either PMU.
  4. make -C tools/perf O=build/perf/obj -j$JOBS, with WERROR=0, no BPF
     skeletons and none of perf's optional libraries but those of the
     packages below (output in build/perf/build.log; its tail is shown on
     failure).
  5. Copy the binary to build/perf/perf.

A stamp of the inputs (the files of this script, tools/knc/patches and
what tools/knc/perf-events-series.sh reads, the git identity that signs
the series off (make perf's BUILD_IDENT), the tarball's path, size and mtime) skips everything when
build/perf/perf exists and none changed. Otherwise the series is made, and
a second stamp, of what is built (the tarball, the patches by their
contents, this script, the make variables, the JSON files), skips the
build if that did not change; when only the tables changed make runs
incrementally. Each binary built is also kept under
\${KNC_CACHE:-/var/cache/knc-pmu}/perf/HASH (HASH of the second stamp; the
three newest), and a clone whose stamp has one there copies it instead of
building. Cold, the build takes some minutes of CPU.

Options:
  --force         ignore the stamps and re-run make
  --series-digest PATCH  print the digest the stamp gives a series' patch
                  (of what it changes: no commit id, From, Date, To, Cc or
                  Signed-off-by) and exit
  --print-deps    print the Debian build packages on one line and exit
  -h, --help      this text

Environment: KNC_LINUX_73_TARBALL (the source tarball), JOBS, KNC_CACHE.

Debian packages needed (installed by the top-level Makefile, not here):
  $PERF_BUILD_DEPS

Try it:  PERF_CPUID=GenuineIntel-11-1-0 build/perf/perf list
(perf shows JSON events only for PMUs present in sysfs; on a machine without
a knc or KNC cpu PMU point SYSFS_PATH at a fake sysfs tree, as
tests/host/perf-list.t and tests/host/perf-events-series.t do.)
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
		!body && /^(From|Date|To|Cc): / { skip = 1; next }
		!body && skip && /^[ \t]/ { next }
		body && /^Signed-off-by: / { next }
		{ skip = 0; print }' "$1" | sha256sum | cut -d' ' -f1
}

FORCE=0
while [ $# -gt 0 ]; do
	case "$1" in
	-h|--help) usage; exit 0 ;;
	--print-deps) echo "$PERF_BUILD_DEPS"; exit 0 ;;
	--series-digest) [ $# -ge 2 ] || die "--series-digest needs a patch"
		series_digest "$2"; exit 0 ;;
	--force) FORCE=1 ;;
	*) usage >&2; die "unknown argument: $1" ;;
	esac
	shift
done

# ---- inputs -----------------------------------------------------------------

TARBALL="${KNC_LINUX_73_TARBALL:-$("$REPO/tools/knc/linux-src.sh" --tarball)}" ||
	die "tools/knc/linux-src.sh --tarball failed"
TAR_TOPDIR="linux-source-7.3"
SERIES="$OUT/series"
SRC="$OUT/src"
OBJ="$OUT/obj"
LOG="$OUT/build.log"
STAMP="$OUT/.build-stamp"
INPUT_STAMP="$OUT/.input-stamp"
CACHE="${KNC_CACHE:-/var/cache/knc-pmu}/perf"
UNPACK_STAMP="$SRC/.knc-unpack-stamp"
PRISTINE="$SRC/.knc-pristine"
NAME="${OUT#"$REPO"/}/perf"

[ -f "$TARBALL" ] || die "$TARBALL not found (tools/knc/linux-src.sh --tarball fetches it)"
for tool in xz tar patch make python3 sha256sum git; do
	command -v "$tool" >/dev/null 2>&1 ||
		die "'$tool' not found; needed packages: $PERF_BUILD_DEPS"
done

shopt -s nullglob
JSON_FILES=("$JSON_DIR"/*.json)
KNC_PATCHES=("$PATCH_DIR"/*.patch)
shopt -u nullglob
[ ${#JSON_FILES[@]} -gt 0 ] || die "no *.json files in $JSON_DIR"

tarball_id() {
	# path, size, mtime: cheap identity of the source tarball
	printf 'tarball %s %s\n' "$TARBALL" "$(stat -c '%s %Y' "$TARBALL")"
}

input_stamp() {
	tarball_id
	# the series' sign-off, as tools/knc/series-lib.sh takes it (make
	# perf gives it the Makefile's BUILD_IDENT)
	printf 'identity %s <%s>\n' "$(git -C "$REPO" config user.name || true)" \
		"$(git -C "$REPO" config user.email || true)"
	local inputs
	mapfile -t inputs < <("$REPO/tools/knc/perf-events-series.sh" --inputs)
	(cd "$REPO" && find tools/knc/build-perf.sh tools/knc/patches "${inputs[@]}" -type f -print0 |
		sort -z | xargs -0 sha256sum)
}

WANT_INPUTS="$(input_stamp)"
if [ "$FORCE" = 0 ] && [ -x "$OUT/perf" ] && [ -f "$STAMP" ] && [ -f "$INPUT_STAMP" ] &&
   [ "$(cat "$INPUT_STAMP")" = "$WANT_INPUTS" ]; then
	log "$NAME is up to date"
	exit 0
fi
mkdir -p "$OUT"
rm -f "$INPUT_STAMP"

# ---- 1. the series -----------------------------------------------------------

"$REPO/tools/knc/perf-events-series.sh" "$SERIES" >"$LOG.series" 2>&1 ||
	{ cat "$LOG.series" >&2; die "tools/knc/perf-events-series.sh failed"; }
rm -f "$LOG.series"
shopt -s nullglob
SERIES_PATCHES=("$SERIES"/[0-9][0-9][0-9][1-9]-*.patch)
shopt -u nullglob
[ ${#SERIES_PATCHES[@]} -gt 0 ] || die "no patches in $SERIES"

# The files a patch touches.
patch_files() { sed -n 's|^diff --git a/\(.*\) b/.*|\1|p' "$1"; }
# The series' patches to perf's code are applied once, at unpacking; those
# of the tables only (files below $TABLES/) on every build, to the files
# as unpacked (kept in $PRISTINE), so that a change of the tables alone
# rebuilds incrementally.
CODE_PATCHES=() TABLE_PATCHES=()
for p in "${SERIES_PATCHES[@]}"; do
	if patch_files "$p" | grep -v "^$TABLES/" >/dev/null; then
		CODE_PATCHES+=("$p")
	else
		TABLE_PATCHES+=("$p")
	fi
done
CODE_PATCHES+=(${KNC_PATCHES[@]+"${KNC_PATCHES[@]}"})
table_files() {
	local p
	for p in ${TABLE_PATCHES[@]+"${TABLE_PATCHES[@]}"}; do patch_files "$p"; done | sort -u
}

# A series' patch by what it changes, any other by its bytes.
patch_digest() {
	case "$1" in
	"$SERIES"/*) series_digest "$1" ;;
	*) sha256sum <"$1" | cut -d' ' -f1 ;;
	esac
}

unpack_stamp() {
	tarball_id
	printf 'paths %s\n' "${EXTRACT_PATHS[*]}"
	local p
	for p in "${CODE_PATCHES[@]}"; do
		printf 'patch %s %s\n' "$(basename "$p")" "$(patch_digest "$p")"
	done
	printf 'tables %s\n' "$(table_files | tr '\n' ' ')"
}

build_stamp() {
	unpack_stamp
	local f
	for f in ${TABLE_PATCHES[@]+"${TABLE_PATCHES[@]}"}; do
		printf 'patch %s %s\n' "$(basename "$f")" "$(patch_digest "$f")"
	done
	printf 'script %s\n' "$(sha256sum <"$SCRIPT_PATH" | cut -d' ' -f1)"
	printf 'make %s\n' "${MAKE_VARS[*]}"
	for f in "${JSON_FILES[@]}"; do
		printf 'json %s %s\n' "$(basename "$f")" "$(sha256sum <"$f" | cut -d' ' -f1)"
	done
}

WANT_STAMP="$(build_stamp)"
if [ "$FORCE" = 0 ] && [ -x "$OUT/perf" ] && [ -f "$STAMP" ] &&
   [ "$(cat "$STAMP")" = "$WANT_STAMP" ]; then
	printf '%s\n' "$WANT_INPUTS" >"$INPUT_STAMP"
	log "$NAME is up to date (the same series)"
	exit 0
fi
rm -f "$STAMP"

# A binary built from the same stamp in another clone.
CACHED="$CACHE/$(printf '%s\n' "$WANT_STAMP" | sha256sum | cut -c1-16)/perf"
if [ "$FORCE" = 0 ] && [ -x "$CACHED" ]; then
	cp -f "$CACHED" "$OUT/perf.tmp"
	mv -f "$OUT/perf.tmp" "$OUT/perf"
	printf '%s\n' "$WANT_STAMP" >"$STAMP"
	printf '%s\n' "$WANT_INPUTS" >"$INPUT_STAMP"
	log "$NAME from the cache (${CACHED%/perf})"
	exit 0
fi

# ---- 2. unpack once ----------------------------------------------------------

WANT_UNPACK="$(unpack_stamp)"
if [ ! -f "$UNPACK_STAMP" ] || [ "$(cat "$UNPACK_STAMP")" != "$WANT_UNPACK" ]; then
	log "unpacking $(basename "$TARBALL") (${EXTRACT_PATHS[*]}) into ${SRC#"$REPO"/}"
	rm -rf "$SRC" "$SRC.tmp" "$OBJ"
	mkdir -p "$SRC.tmp"
	members=()
	for p in "${EXTRACT_PATHS[@]}"; do members+=("$TAR_TOPDIR/$p"); done
	tar -x -C "$SRC.tmp" --strip-components=1 -f "$("$REPO/tools/knc/plain-tar" "$TARBALL")" "${members[@]}" ||
		die "unpacking $TARBALL failed"

	# 3a. patches to perf's code
	for p in "${CODE_PATCHES[@]}"; do
		log "applying $(basename "$p")"
		patch -d "$SRC.tmp" -p1 -N -s <"$p" >>"$LOG.patch" 2>&1 ||
			{ cat "$LOG.patch" >&2; die "patch $p does not apply"; }
	done
	rm -f "$LOG.patch"
	# the files the tables' patches change, as unpacked
	while read -r f; do
		[ ! -e "$SRC.tmp/$f" ] || { mkdir -p "$(dirname "$SRC.tmp/.knc-pristine/$f")" &&
			cp -p "$SRC.tmp/$f" "$SRC.tmp/.knc-pristine/$f"; }
	done < <(table_files)
	printf '%s\n' "$WANT_UNPACK" >"$SRC.tmp/.knc-unpack-stamp"
	mv "$SRC.tmp" "$SRC"
fi

# ---- 3b. the tables ------------------------------------------------------------

EVDIR="$SRC/tools/perf/pmu-events"
grep -q "'knc': 'knc'" "$EVDIR/jevents.py" ||
	die "jevents.py lacks the 'knc' unit entry (patch not applied?)"
# Back to the files as unpacked: the model directory goes, as would a file
# a patch adds.
rm -rf "${EVDIR:?}/arch/x86/$MODEL_DIR"
while read -r f; do
	if [ -e "$PRISTINE/$f" ]; then
		cp -p "$PRISTINE/$f" "$SRC/$f"
	else
		rm -f "$SRC/$f"
	fi
done < <(table_files)
for p in ${TABLE_PATCHES[@]+"${TABLE_PATCHES[@]}"}; do
	patch -d "$SRC" -p1 -N -s <"$p" >"$LOG.patch" 2>&1 ||
		{ cat "$LOG.patch" >&2; die "patch $p does not apply"; }
done
rm -f "$LOG.patch"
[ -d "$EVDIR/arch/x86/$MODEL_DIR" ] || die "the series adds no arch/x86/$MODEL_DIR"

# The knc events join the series' events of their topic (the file name:
# jevents.py's topic), in the perf tree's form; the metrics are the
# series' already.
log "adding the knc events of ${#JSON_FILES[@]} JSON file(s) from ${JSON_DIR#"$REPO"/} to arch/x86/$MODEL_DIR"
python3 - "$EVDIR/arch/x86/$MODEL_DIR" "${JSON_FILES[@]}" <<'PY' || die "adding the knc events failed"
import json
import os
import sys

model = sys.argv[1]
for path in sys.argv[2:]:
    name = os.path.basename(path)
    if name.endswith("metrics.json"):
        continue
    with open(path, encoding="utf-8") as f:
        items = json.load(f)
    assert all(i.get("Unit") == "knc" for i in items), f"{name}: an event without Unit knc"
    dest = os.path.join(model, name)
    if os.path.exists(dest):
        with open(dest, encoding="utf-8") as f:
            items = json.load(f) + items
    with open(dest, "w", encoding="utf-8") as f:
        f.write(json.dumps(items, indent=4, ensure_ascii=False) + "\n")
PY

# ---- 4. build ---------------------------------------------------------------------

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
grep -q "pmu_events__$MODEL_DIR" "$OBJ/pmu-events/pmu-events.c" ||
	die "the $MODEL_DIR table is missing from the generated pmu-events.c"

# ---- 5. install -------------------------------------------------------------------

cp -f "$OBJ/perf" "$OUT/perf.tmp"
mv -f "$OUT/perf.tmp" "$OUT/perf"
printf '%s\n' "$WANT_STAMP" >"$STAMP"
printf '%s\n' "$WANT_INPUTS" >"$INPUT_STAMP"
# Into the cache; the three newest builds are kept.
mkdir -p "${CACHED%/perf}"
cp -f "$OBJ/perf" "$CACHED.tmp" && mv -f "$CACHED.tmp" "$CACHED"
cache_prune "$CACHE" perf 3
log "built $NAME ($("$OUT/perf" --version)) in $((SECONDS - start)) s"
