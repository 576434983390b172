#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# linux-src.sh - a Linux Debian's registry serves, prepared for building
# external modules against it (make modules_prepare). Prints the tree's
# path.
#
#   tools/knc/linux-src.sh [--series SERIES] [--refresh] [--tarball]
#
# SERIES 7.3 (the default): the newest Linux there, linux-source-7.3 from
# trixie-backports, on x86_64's defconfig plus tools/knc/linux-src.config,
# built by gcc; make module-7.3 and tests/host/kver.t compile knc_pmu.ko
# and knc_sim.ko against it. SERIES 7.2: Linux 7.2, linux-source-7.2 from
# sid, configured as the Knights Corner card port's kernel (mainline 7.2
# plus the port's patches, which this tree has not): x86_64's defconfig
# plus tools/knc/linux-src-card.config, built with LLVM=-19 (Debian's
# clang-19, lld-19, llvm-19; the port's clang differs in emitting no CMOV
# and returning floats in x87's ST0, which a compile test of kernel code
# does not need). make module-7.2 and kver.t build the modules against it
# as a card's kernel builds them.
#
# This machine's apt state is left alone: apt reads a sources list of this
# script's own (SERIES's suite, main, from the archive the binary packages
# come from, tools/knc/apt-lib.sh's apt_archive_uri) with its lists and
# cache under the cache directory, and apt-get download fetches the
# package, which dpkg-deb unpacks there.
#
# Cached under $KNC_CACHE/linux-SERIES (default KNC_CACHE
# /var/cache/knc-pmu): the tarball by its SHA-256 (src/HASH/), fetched
# once; --refresh asks the registry again and fetches a newer one. The
# prepared tree in KEY/linux, KEY a hash of the tarball's, the config
# fragment, the code of this script and tools/knc/cache-lib.sh, and the
# compiler, linker and pahole versions (toolchain_id);
# the two newest trees are kept; build/SERIES/linux links to it. --tarball
# prints the tarball's path instead, fetching it if needed but preparing
# nothing (perf's vendor events series and its perf 7.3 build take their
# files from 7.3's). A lock in the cache makes concurrent runs wait for
# each other. Cold: about 25 s of CPU to unpack (without Documentation/'s
# subdirectories) and 40 s to prepare (7.3, gcc); 7.2 (clang), about a
# minute for both.
set -euo pipefail
REPO=$(cd "$(dirname "$0")/../.." && pwd)
SCRIPT=$REPO/tools/knc/linux-src.sh
JOBS=${JOBS:-$(nproc)}

log() { printf 'linux-src: %s\n' "$*" >&2; }
die() { printf 'linux-src: error: %s\n' "$*" >&2; exit 1; }

SERIES=7.3 refresh=0 tarball_only=0
while (($#)); do
	case $1 in
	-h | --help)
		sed -n '3,/^set -euo/{/^set -euo/d;s/^# \{0,1\}//;p}' "$SCRIPT"
		exit 0 ;;
	--series)
		(($# > 1)) || die "--series needs a SERIES (see --help)"
		SERIES=$2
		shift ;;
	--refresh) refresh=1 ;;
	--tarball) tarball_only=1 ;;
	*) die "unknown argument '$1' (see --help)" ;;
	esac
	shift
done

# Each series: the suite that serves it, the config fragment, and the
# compiler (LLVM= as Kbuild takes it; empty: gcc). Kbuild reads LLVM from
# the environment as from its command line: exported, it reaches kconfig's
# makes as well as modules_prepare's, so that the .config is made by the
# compiler that builds the tree (CONFIG_CC_IS_CLANG, the flags it tests
# for). kconfig (cache-lib.sh) takes no make variables of its own: its code
# is in the debug and fixed kernels' keys too.
case $SERIES in
7.3) SUITE=trixie-backports FRAG=$REPO/tools/knc/linux-src.config LLVM= ;;
7.2) SUITE=sid FRAG=$REPO/tools/knc/linux-src-card.config LLVM=-19 ;;
*) die "no series '$SERIES': 7.3 or 7.2" ;;
esac
export LLVM
PACKAGE=linux-source-$SERIES
CACHE=${KNC_CACHE:-/var/cache/knc-pmu}/linux-$SERIES
LINK=$REPO/build/$SERIES/linux

# shellcheck source=tools/knc/apt-lib.sh
. "$REPO/tools/knc/apt-lib.sh"
# shellcheck source=tools/knc/cache-lib.sh
. "$REPO/tools/knc/cache-lib.sh"

mkdir -p "$(dirname "$LINK")"
cache_lock "$CACHE" linux-src.sh

# fetch: the package's newest version into src/HASH/, HASH its SHA-256
# as the registry states it (apt checks the download against it)
fetch() {
	local apt=$CACHE/apt sha deb
	apt_private "$apt" deb "$SUITE"
	log "asking $(apt_archive_uri) $SUITE for $PACKAGE"
	apt-get "${APT_PRIVATE[@]}" -qq update >"$apt/fetch.log" 2>&1 ||
		die "apt-get update failed: $apt/fetch.log"
	sha=$(apt-cache "${APT_PRIVATE[@]}" show "$PACKAGE" 2>>"$apt/fetch.log" | sed -n 's/^SHA256: //p' | head -n 1)
	[[ -n $sha ]] || die "$SUITE has no $PACKAGE ($apt/fetch.log)"
	if [[ ! -f $CACHE/src/$sha/done ]]; then
		rm -rf "$CACHE/src/$sha" && mkdir -p "$CACHE/src/$sha"
		(cd "$CACHE/src/$sha" && apt-get "${APT_PRIVATE[@]}" -qq download "$PACKAGE") >>"$apt/fetch.log" 2>&1 ||
			die "apt-get download $PACKAGE failed: $apt/fetch.log"
		deb=("$CACHE/src/$sha"/*.deb)
		dpkg-deb -x "${deb[0]}" "$CACHE/src/$sha/x" || die "dpkg-deb -x ${deb[0]} failed"
		mv "$CACHE/src/$sha/x/usr/src/$PACKAGE.tar.xz" "$CACHE/src/$sha/"
		rm -rf "$CACHE/src/$sha/x" "${deb[@]}"
		basename "${deb[0]}" >"$CACHE/src/$sha/done"
	fi
	ln -sfn "src/$sha" "$CACHE/current"
	find "$CACHE/src" -mindepth 1 -maxdepth 1 ! -name "$sha" -exec rm -rf {} +
}

if ((refresh)) || [[ ! -f $CACHE/current/done ]]; then
	fetch
fi
src=$(readlink "$CACHE/current")
TARBALL=$CACHE/$src/$PACKAGE.tar.xz
[[ -r $TARBALL ]] || die "$TARBALL missing: run $0 --refresh"
if ((tarball_only)); then
	echo "$TARBALL"
	exit 0
fi

# Comments do not change the tree; this script's code and cache-lib.sh's
# (kconfig) may, and so do the tools (toolchain_id).
key=$( { echo "${src#src/}"; cat "$FRAG"; toolchain_id
	grep -hv '^[[:space:]]*#' "$SCRIPT" "$REPO/tools/knc/cache-lib.sh"; } | sha256sum | cut -c1-16)
TREE=$CACHE/$key/linux
if [[ ! -f $CACHE/$key/done ]]; then
	log "preparing $(cat "$CACHE/$src/done") in $CACHE/$key (about a minute of CPU; log: $CACHE/$key/prepare.log)"
	# shellcheck disable=SC2115 # neither is ever empty
	rm -rf "$CACHE/$key"
	mkdir -p "$TREE"
	# Documentation/'s top level holds the Kconfig file the build reads.
	tar xf "$("$REPO/tools/knc/plain-tar" "$TARBALL")" -C "$TREE" --strip-components=1 --exclude="$PACKAGE/Documentation/*/*" ||
		die "unpacking $TARBALL failed"
	kconfig "$TREE" defconfig "$FRAG" "$CACHE/$key/config.log"
	make -C "$TREE" ARCH=x86_64 -j"$JOBS" modules_prepare >"$CACHE/$key/prepare.log" 2>&1 ||
		die "make modules_prepare failed: tail $CACHE/$key/prepare.log"
	echo "prepared $(date -u +%FT%TZ): $(cat "$TREE/include/config/kernel.release")${LLVM:+ (LLVM=$LLVM)} from $(cat "$CACHE/$src/done")" \
		>"$CACHE/$key/done"
	# The newest two trees are kept.
	cache_prune "$CACHE" "done" 2
fi
ln -sfn "$TREE" "$LINK"
log "$(cat "$CACHE/$key/done") -> build/$SERIES/linux"
echo "$TREE"
