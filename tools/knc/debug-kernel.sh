#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# debug-kernel.sh - build the debug kernel (make debug-kernel): Linux 7.3
# (Debian's linux-source-7.3, the tarball tools/knc/linux-src.sh --tarball
# fetches) with the upstream series of make linux-fixes applied (the knc.c
# series and the RDPMC series of perf's core and the x86 core, as
# tools/knc/linux-fixes.sh makes them against that tarball, without
# LINUX_GIT: their tags change no code), on tinyconfig plus
# tools/knc/debug/debug.config
# (KASAN, lockdep, atomic-sleep and list debugging, UBSAN, KUnit, the lockup
# and hung-task detectors, fault injection, kmemleak, gcov for the knc
# modules and for arch/x86/events/intel/knc.c, and what a knc-vm guest
# needs, all built in). KASAN instruments only what tools/knc/debug/kasan.mk
# names, where the driver's paths go. So the series sent upstream is the one
# booted under the checkers, on the kernel the card port follows.
#
# The tree is built in $KNC_CACHE/debug/KEY/linux (default KNC_CACHE
# /var/cache/knc-pmu), KEY a hash of the config fragment, kasan.mk, the code
# of this script and tools/knc/cache-lib.sh, the series' diffs, the
# tarball's name and the tools' versions (toolchain_id), and kept whole (but for Documentation/'s subdirectories):
# the knc modules are built against it (make module-debug), knc-vm boots its
# bzImage (knc-vm --debug-kernel) and tests/host/intree.t builds the in-tree
# series on a copy of it. A second run with the same KEY only links
# build/debug/linux to it. The two newest trees are kept. A lock in the
# cache makes concurrent runs wait for each other.
set -euo pipefail
REPO=$(cd "$(dirname "$0")/../.." && pwd)
SCRIPT=$REPO/tools/knc/debug-kernel.sh
FRAG=$REPO/tools/knc/debug/debug.config
KASAN_MK=$REPO/tools/knc/debug/kasan.mk
CACHE=${KNC_CACHE:-/var/cache/knc-pmu}/debug
JOBS=${JOBS:-$(nproc)}
LINK=$REPO/build/debug/linux

log() { printf 'debug-kernel: %s\n' "$*" >&2; }
die() { printf 'debug-kernel: error: %s\n' "$*" >&2; exit 1; }

case ${1:-} in
-h | --help)
	sed -n '3,/^set -euo/{/^set -euo/d;s/^# \{0,1\}//;p}' "$SCRIPT"
	exit 0 ;;
'') ;;
*) die "unknown argument '$1' (see --help)" ;;
esac
# shellcheck source=tools/knc/cache-lib.sh
. "$REPO/tools/knc/cache-lib.sh"

WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT
TARBALL=$("$REPO/tools/knc/linux-src.sh" --tarball 2>"$WORK/log") ||
	die "tools/knc/linux-src.sh --tarball failed: $(cat "$WORK/log")"
# The series, of which only the diffs change the kernel.
LINUX_GIT='' "$REPO/tools/knc/linux-fixes.sh" --7.3-only "$WORK/series" >"$WORK/log" 2>&1 ||
	die "tools/knc/linux-fixes.sh failed: $(cat "$WORK/log")"
fixes=("$WORK"/series/7.3/knc/000[1-9]-*.patch "$WORK"/series/7.3/x86/000[1-9]-*.patch)
# Comments do not change the kernel; this script's code and cache-lib.sh's
# (kconfig) may, and so do the tools (toolchain_id).
key=$( { basename "$(dirname "$TARBALL")"; cat "$FRAG" "$KASAN_MK"; toolchain_id
	grep -hv '^[[:space:]]*#' "$SCRIPT" "$REPO/tools/knc/cache-lib.sh"
	sed -n '/^diff --git/,/^-- $/p' "${fixes[@]}"; } | sha256sum | cut -c1-16)
TREE=$CACHE/$key/linux
mkdir -p "$(dirname "$LINK")"
cache_lock "$CACHE" debug-kernel.sh

if [[ ! -f $CACHE/$key/done ]]; then
	log "building Linux 7.3 with the fixes and tools/knc/debug/debug.config in $CACHE/$key (log: $CACHE/$key/build.log)"
	# shellcheck disable=SC2115 # neither is ever empty
	rm -rf "$CACHE/$key"
	mkdir -p "$TREE"
	tar xf "$("$REPO/tools/knc/plain-tar" "$TARBALL")" -C "$TREE" --strip-components=1 \
		--exclude='linux-source-7.3/Documentation/*/*' || die "unpacking $TARBALL failed"
	cat "${fixes[@]}" | patch -s -p1 -d "$TREE" || die "the series does not apply"
	# KASAN where the driver's paths go (tools/knc/debug/kasan.mk)
	cp "$KASAN_MK" "$TREE/scripts/Makefile.knc-kasan"
	sed -i '/^# Enable address sanitizer flags/i include $(srctree)/scripts/Makefile.knc-kasan\n' \
		"$TREE/scripts/Makefile.lib"
	grep -q '^include $(srctree)/scripts/Makefile.knc-kasan' "$TREE/scripts/Makefile.lib" ||
		die "scripts/Makefile.lib: no place for tools/knc/debug/kasan.mk"
	# Linux's own KNC driver's lines, for tools/knc/coverage
	grep -q '^obj-\$(CONFIG_CPU_SUP_INTEL).*knc\.o' "$TREE/arch/x86/events/intel/Makefile" ||
		die "arch/x86/events/intel/Makefile: no knc.o"
	echo 'GCOV_PROFILE_knc.o := y' >>"$TREE/arch/x86/events/intel/Makefile"
	kconfig "$TREE" tinyconfig "$FRAG" "$CACHE/$key/config.log"
	start=$SECONDS
	make -C "$TREE" ARCH=x86_64 -j"$JOBS" bzImage modules >"$CACHE/$key/build.log" 2>&1 ||
		die "the build failed: tail $CACHE/$key/build.log"
	echo "built $(date -u +%FT%TZ) in $((SECONDS - start)) s: $(cat "$TREE/include/config/kernel.release")" >"$CACHE/$key/done"
	# The newest two trees are kept.
	cache_prune "$CACHE" "done" 2
fi
ln -sfn "$TREE" "$LINK"
log "$(cat "$CACHE/$key/done") -> build/debug/linux"
