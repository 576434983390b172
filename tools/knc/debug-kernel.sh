#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# debug-kernel.sh - build the debug kernel (make debug-kernel): Debian's
# linux-source-6.1 with the fixes to Linux's own KNC driver (make
# linux-fixes) applied, on tinyconfig plus tools/knc/debug/debug.config
# (KASAN, lockdep, atomic-sleep and list debugging, UBSAN, KUnit, the lockup
# and hung-task detectors, gcov for the knc modules, and what a knc-vm
# guest needs, all built in). KASAN instruments only the directories
# tools/knc/debug/kasan.mk names, where the driver's paths go.
#
# The tree is built in $KNC_CACHE/debug/KEY/linux (default KNC_CACHE
# /var/cache/knc-pmu), KEY a hash of the config fragment, kasan.mk, the code
# of this script and tools/knc/cache-lib.sh, the fixes' diffs and the
# tarball's name, size and time, and kept
# whole: knc_pmu.ko is built
# against it (make module-debug) and knc-vm boots its bzImage
# (knc-vm --debug-kernel). A second run with the same KEY only links
# build/debug/linux to it. The two newest trees are kept. A lock in the
# cache makes concurrent runs wait for each other. A cold build takes
# about 15 minutes on 2 cores.
set -euo pipefail
REPO=$(cd "$(dirname "$0")/../.." && pwd)
SCRIPT=$REPO/tools/knc/debug-kernel.sh
FRAG=$REPO/tools/knc/debug/debug.config
KASAN_MK=$REPO/tools/knc/debug/kasan.mk
TARBALL=${KNC_LINUX_TARBALL:-/usr/src/linux-source-6.1.tar.xz}
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
[[ -r $TARBALL ]] || die "$TARBALL not found (apt-get install linux-source-6.1)"
# shellcheck source=tools/knc/cache-lib.sh
. "$REPO/tools/knc/cache-lib.sh"

# The fixes series, of which only the diffs change the kernel.
FIXES=$(mktemp -d)
trap 'rm -rf "$FIXES"' EXIT
"$REPO/tools/knc/linux-fixes.sh" "$FIXES/series" >"$FIXES/log" 2>&1 ||
	die "tools/knc/linux-fixes.sh failed: $(cat "$FIXES/log")"
fixes=("$FIXES"/series/000[1-9]-*.patch)
# Comments do not change the kernel; this script's code and cache-lib.sh's
# (kconfig) may.
key=$( { cat "$FRAG" "$KASAN_MK";
	grep -hv '^[[:space:]]*#' "$SCRIPT" "$REPO/tools/knc/cache-lib.sh"; stat -c '%n %s %Y' "$TARBALL"
	sed -n '/^diff --git/,/^-- $/p' "${fixes[@]}"; } | sha256sum | cut -c1-16)
TREE=$CACHE/$key/linux
mkdir -p "$(dirname "$LINK")"
cache_lock "$CACHE" debug-kernel.sh

if [[ ! -f $CACHE/$key/done ]]; then
	log "building Linux 6.1 with tools/knc/debug/debug.config in $CACHE/$key (about 15 minutes; log: $CACHE/$key/build.log)"
	# shellcheck disable=SC2115 # neither is ever empty
	rm -rf "$CACHE/$key"
	mkdir -p "$TREE"
	tar xf "$("$REPO/tools/knc/plain-tar" "$TARBALL")" -C "$TREE" --strip-components=1
	cat "${fixes[@]}" | patch -s -p1 -d "$TREE" || die "the fixes series does not apply"
	# KASAN where the driver's paths go (tools/knc/debug/kasan.mk)
	cp "$KASAN_MK" "$TREE/scripts/Makefile.knc-kasan"
	sed -i '/^# Enable address sanitizer flags/i include $(srctree)/scripts/Makefile.knc-kasan\n' \
		"$TREE/scripts/Makefile.lib"
	grep -q '^include $(srctree)/scripts/Makefile.knc-kasan' "$TREE/scripts/Makefile.lib" ||
		die "scripts/Makefile.lib: no place for tools/knc/debug/kasan.mk"
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
