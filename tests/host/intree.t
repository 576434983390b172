#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# The in-tree series (tools/knc/intree-series.sh, `make intree`): it is
# made, checkpatch finds nothing in it, and a Linux 6.1 tree with it applied
# builds arch/x86/events/ (defconfig, the driver built in, the simulator a
# module, W=1) without a warning, the driver calling perf_event_overflow()
# directly. The build takes minutes; its result is cached under
# $KNC_CACHE/intree/ (default /var/cache/knc-pmu) by a hash of the series
# and of the source tarball, so a second run with the same inputs reuses it.
# Prints TAP.
set -uo pipefail
cd "$(dirname "$0")/../.." || exit 1

log=$(mktemp)
. tests/host/tap.sh
TARBALL=${KNC_LINUX_TARBALL:-/usr/src/linux-source-6.1.tar.xz}
CACHE=${KNC_CACHE:-/var/cache/knc-pmu}/intree
SERIES=build/intree/series
TREE=build/intree/linux
CHECKPATCH=build/intree/checkpatch/scripts/checkpatch.pl

echo "TAP version 13"
tools/knc/intree-series.sh >"$log" 2>&1
result $? "tools/knc/intree-series.sh makes the series" "$log"
patches=("$SERIES"/000[1-9]-*.patch)
[ "${#patches[@]}" -eq 2 ] && [ -f "$SERIES/0000-cover-letter.patch" ] &&
	! grep -q '\*\*\*' "$SERIES/0000-cover-letter.patch"
result $? "two patches and a filled-in cover letter"

if [ ! -x "$CHECKPATCH" ]; then
	mkdir -p build/intree/checkpatch
	tar xf "$TARBALL" -C build/intree/checkpatch --strip-components=1 \
		linux-source-6.1/scripts/checkpatch.pl linux-source-6.1/scripts/spelling.txt \
		linux-source-6.1/scripts/const_structs.checkpatch
fi
for p in "${patches[@]}"; do
	"$CHECKPATCH" --no-tree -q "$p" >"$log" 2>&1
	result $? "checkpatch: $(basename "$p")" "$log"
done

# One hash of everything the build depends on: the patches but for the
# lines that change with each run (commit ids and dates), this test, the
# tarball.
key=$( { grep -v -E '^(From [0-9a-f]{40} |Date: )' "${patches[@]}"; cat "$0"
	stat -c '%n %s %Y' "$TARBALL"; } | sha256sum | cut -c1-16)
if [ -f "$CACHE/$key.ok" ]; then
	cp "$CACHE/$key.ok" "$log"
	st=0
else
	st=1
	{
		rm -rf "$TREE" && mkdir -p "$TREE" &&
		tar xf "$TARBALL" -C "$TREE" --strip-components=1 &&
		cat "${patches[@]}" | patch -s -p1 -d "$TREE" &&
		make -s -C "$TREE" defconfig &&
		"$TREE"/scripts/config --file "$TREE/.config" \
			--enable PERF_EVENTS_INTEL_KNC --module PERF_EVENTS_INTEL_KNC_SIM &&
		make -s -C "$TREE" olddefconfig &&
		grep -qx CONFIG_PERF_EVENTS_INTEL_KNC=y "$TREE/.config" &&
		grep -qx CONFIG_PERF_EVENTS_INTEL_KNC_SIM=m "$TREE/.config" &&
		make -C "$TREE" -j"$(nproc)" W=1 arch/x86/events/ >"$log.build" 2>&1
	} >"$log" 2>&1 && st=0
	cat "$log.build" >>"$log" 2>/dev/null
	if [ $st -eq 0 ]; then
		o=$TREE/arch/x86/events
		! grep -E "warning:" "$log.build" | grep -E "events/knc/" >>"$log" &&
			[ "$(ar t "$o/knc/built-in.a" | xargs -n 1 basename | xargs)" = "knc_core.o knc_logic.o knc_native.o" ] &&
			[ -f "$o/knc/knc_sim.o" ] &&
			[ ! -e "$o/intel/knc.o" ] &&
			nm "$o/knc/knc_core.o" | grep -q " U perf_event_overflow$" &&
			! nm "$o/knc/knc_core.o" | grep -q "register_kprobe" || st=1
		[ $st -eq 0 ] || echo "a warning in knc/, knc_pmu not built in or knc_sim not a module, intel/knc.o built, or no direct perf_event_overflow() call" >>"$log"
	fi
	if [ $st -eq 0 ]; then
		mkdir -p "$CACHE" &&
			echo "built $(date -u +%FT%TZ) from series $key: knc_pmu built in, knc_sim a module, no warning" >"$CACHE/$key.ok"
		rm -rf "$TREE"
	fi
fi
result $st "Linux 6.1 with the series builds arch/x86/events/ (KNC=y, KNC_SIM=m, W=1)" "$log"
rm -f "$log" "$log.build"

echo "1..$n"
exit $bad
