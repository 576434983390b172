#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# fixed-kernel.sh - build Linux 7.3 with the upstream series of make
# linux-fixes applied (make fixed-kernel): the knc.c series and the x86
# core's RDPMC patch, as tools/knc/linux-fixes.sh makes them against
# linux-source-7.3 (tools/knc/linux-src.sh's tarball), so that the series
# sent upstream is also the one booted on the QEMU model (tests/run's suite
# linux-knc-7.3). No checkers: the debug kernel runs Linux's driver under
# KASAN and lockdep with 6.1's series. The config is tinyconfig plus what a
# knc-vm guest needs: the lines of tools/knc/debug/debug.config above its
# "# The checkers." heading, but for what tools/knc/fixed-kernel.config
# turns off (ACPI, INET, modules, probes, tracing: its one guest needs
# none), with CONFIG_LOCALVERSION="-knc-fixed".
#
# Cached in $KNC_CACHE/fixed-7.3/KEY (default KNC_CACHE /var/cache/knc-pmu),
# KEY a hash of the tarball's, the config, the code of this script and
# tools/knc/cache-lib.sh and the series' diffs. Only what knc-vm boots is
# kept, as a tree of its own:
# linux/arch/x86/boot/bzImage, linux/.config and
# linux/include/config/kernel.release (knc-vm --kernel DIR); build/fixed-7.3/linux
# links to it. The two newest are kept. A lock in the cache makes
# concurrent runs wait for each other. A cold build takes about 15 minutes
# of CPU (the tarball's unpacking included), a failed one leaves only its
# logs.
set -euo pipefail
REPO=$(cd "$(dirname "$0")/../.." && pwd)
SCRIPT=$REPO/tools/knc/fixed-kernel.sh
GUEST_FRAG=$REPO/tools/knc/debug/debug.config
OFF_FRAG=$REPO/tools/knc/fixed-kernel.config
CACHE=${KNC_CACHE:-/var/cache/knc-pmu}/fixed-7.3
JOBS=${JOBS:-$(nproc)}
LINK=$REPO/build/fixed-7.3/linux
# shellcheck source=tools/knc/cache-lib.sh
. "$REPO/tools/knc/cache-lib.sh"

log() { printf 'fixed-kernel: %s\n' "$*" >&2; }
die() { printf 'fixed-kernel: error: %s\n' "$*" >&2; exit 1; }

case ${1:-} in
-h | --help)
	sed -n '3,/^set -euo/{/^set -euo/d;s/^# \{0,1\}//;p}' "$SCRIPT"
	exit 0 ;;
'') ;;
*) die "unknown argument '$1' (see --help)" ;;
esac

# The unpacked tree ($tree) goes at the end, whether or not the build
# did: only what knc-vm boots stays.
WORK=$(mktemp -d) tree=
trap 'rm -rf "$WORK" "$tree"' EXIT
TARBALL=$("$REPO/tools/knc/linux-src.sh" --tarball 2>"$WORK/log") ||
	die "tools/knc/linux-src.sh --tarball failed: $(cat "$WORK/log")"
"$REPO/tools/knc/linux-fixes.sh" --7.3-only "$WORK/series" >"$WORK/log" 2>&1 ||
	die "tools/knc/linux-fixes.sh failed: $(cat "$WORK/log")"
fixes=("$WORK"/series/7.3/knc/000[1-9]-*.patch "$WORK"/series/7.3/x86/000[1-9]-*.patch)

# The guest's part of the debug kernel's config, in 7.3's names (6.1's
# PROC_SYSCTL is SYSCTL there), less the options fixed-kernel.config turns
# off (its "# CONFIG_X is not set" lines replace debug.config's lines of
# X), and this kernel's name.
grep -qx '# The checkers\.' "$GUEST_FRAG" || die "$GUEST_FRAG: no '# The checkers.' heading"
off=$(sed -n 's/^# \(CONFIG_[A-Z0-9_]*\) is not set$/\1/p' "$OFF_FRAG")
[[ -n $off ]] && ! grep -qv -e '^#' -e '^$' "$OFF_FRAG" ||
	die "$OFF_FRAG: not only comments and '# CONFIG_X is not set' lines"
{
	sed -e '/^# The checkers\.$/,$d' -e 's/^CONFIG_PROC_SYSCTL=/CONFIG_SYSCTL=/' "$GUEST_FRAG" |
		grep -v '^CONFIG_LOCALVERSION=' | grep -vwF "$off"
	grep '^# CONFIG_' "$OFF_FRAG"
	echo 'CONFIG_LOCALVERSION="-knc-fixed"'
} >"$WORK/fixed.config"

# Comments do not change the kernel; this script's code and cache-lib.sh's
# (kconfig) may.
key=$( { basename "$(dirname "$TARBALL")"; cat "$WORK/fixed.config";
	grep -hv '^[[:space:]]*#' "$SCRIPT" "$REPO/tools/knc/cache-lib.sh"
	sed -n '/^diff --git/,/^-- $/p' "${fixes[@]}"; } | sha256sum | cut -c1-16)
OUT=$CACHE/$key/linux
mkdir -p "$(dirname "$LINK")"
cache_lock "$CACHE" fixed-kernel.sh

if [[ ! -f $CACHE/$key/done ]]; then
	log "building Linux 7.3 with the fixes in $CACHE/$key (log: $CACHE/$key/build.log)"
	# shellcheck disable=SC2115 # neither is ever empty
	rm -rf "$CACHE/$key"
	tree=$CACHE/$key/src
	mkdir -p "$tree"
	tar xf "$("$REPO/tools/knc/plain-tar" "$TARBALL")" -C "$tree" --strip-components=1 --exclude='linux-source-7.3/Documentation/*/*' ||
		die "unpacking $TARBALL failed"
	cat "${fixes[@]}" | patch -s -p1 -d "$tree" || die "the series does not apply"
	kconfig "$tree" tinyconfig "$WORK/fixed.config" "$CACHE/$key/config.log"
	start=$SECONDS
	make -C "$tree" ARCH=x86_64 -j"$JOBS" bzImage >"$CACHE/$key/build.log" 2>&1 ||
		die "the build failed: tail $CACHE/$key/build.log"
	mkdir -p "$OUT/arch/x86/boot" "$OUT/include/config"
	cp "$tree/arch/x86/boot/bzImage" "$OUT/arch/x86/boot/"
	cp "$tree/.config" "$OUT/"
	cp "$tree/include/config/kernel.release" "$OUT/include/config/"
	echo "built $(date -u +%FT%TZ) in $((SECONDS - start)) s: $(cat "$OUT/include/config/kernel.release")" \
		>"$CACHE/$key/done"
	# The newest two builds are kept.
	cache_prune "$CACHE" "done" 2
fi
ln -sfn "$OUT" "$LINK"
log "$(cat "$CACHE/$key/done") -> build/fixed-7.3/linux"
