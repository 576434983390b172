# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
#
# cache-lib.sh - what the scripts that keep builds under the cache
# (default /var/cache/knc-pmu) share: one build at a time per cache
# directory, older builds pruned, and a kernel tree configured from a base
# target and a fragment, then checked against it. Sourced by
# debug-kernel.sh and linux-src.sh (both), and by
# build-perf.sh and tests/host/intree.t (cache_prune). Its callers define
# log and die.

# cache_lock DIR WHO: hold DIR/lock on fd 9 until the script ends; while
# another WHO holds it, wait, and say so
cache_lock() {
	mkdir -p "$1"
	exec 9>"$1/lock"
	if ! flock -n 9; then
		log "waiting for another $2 ($1/lock)"
		flock 9
	fi
}

# cache_prune DIR FILE KEEP: of DIR's builds, DIR/KEY (KEY a hex hash)
# that hold FILE, remove all but the KEEP whose FILE is newest
cache_prune() {
	find "$1" -mindepth 2 -maxdepth 2 -path "$1/[0-9a-f]*/$2" -printf '%T@ %h\n' | sort -n |
		head -n -"$3" | cut -d' ' -f2- | while read -r old; do rm -rf "$old"; done
}

# toolchain_id: the tools a kernel tree's .config records (the compiler's
# version text, the linker's, pahole's version: CONFIG_CC_VERSION_TEXT,
# CONFIG_PAHOLE_VERSION, ...), for its cache key: Kbuild warns when a
# module is built with other tools than its tree was, and a W=1 build must
# not warn. The compiler is clang with LLVM= set as Kbuild takes it, else
# gcc.
toolchain_id() {
	if [[ -n ${LLVM:-} ]]; then
		"clang${LLVM#1}" --version | head -n 1
		"ld.lld${LLVM#1}" --version | head -n 1
	else
		gcc --version | head -n 1
		ld --version | head -n 1
	fi
	pahole --version 2>/dev/null || echo "no pahole"
}

# kconfig TREE BASE FRAG LOG: configure TREE (make BASE: tinyconfig,
# defconfig) with FRAG merged in, the output in LOG, then check that the
# .config holds FRAG: Kconfig drops what a dependency forbids without a
# word. "# CONFIG_X is not set" holds where X is not set or missing (its
# menu is off).
kconfig() {
	local tree=$1 frag=$3 missing
	{
		make -C "$tree" ARCH=x86_64 "$2" &&
			"$tree"/scripts/kconfig/merge_config.sh -m -O "$tree" "$tree/.config" "$frag" &&
			make -C "$tree" ARCH=x86_64 olddefconfig
	} >"$4" 2>&1 || die "configuring failed: $4"
	missing=$( { grep '^CONFIG_' "$frag" | grep -vxF -f "$tree/.config"
		sed -n 's/^# \(CONFIG_[A-Z0-9_]*\) is not set$/^\1=/p' "$frag" | grep -f - "$tree/.config"; } ||
		true)
	[[ -z $missing ]] || die "not in the .config: $missing"
}
