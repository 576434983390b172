#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# The in-tree series (tools/knc/intree-series.sh, `make intree`): it is
# made, checkpatch finds nothing in it, and the debug kernel's Linux 6.1
# tree (tools/knc/debug-kernel.sh) with it applied and the driver and its
# KUnit tests built in (tools/knc/intree/kunit.config) builds without a
# warning in knc/ (W=1), the driver calling perf_event_overflow() directly.
# That kernel boots under QEMU and runs the KUnit suite of the event logic
# (knc_logic*_test.c; the simulator's stays out of the tree, and
# tests/guest/kunit.sh runs both on the debug kernel) under KASAN, lockdep
# and UBSAN: each case is a test point, and the cases must be the ones the
# host build of the same files runs. The build is incremental on a copy of the
# debug tree (a minute or two; tests/run runs this test after the debug
# kernel is built, as suite debug-intree), and the kernel is cached under
# $KNC_CACHE/intree/ (default /var/cache/knc-pmu) by a hash of its inputs,
# so a second run boots the cached kernel. Prints TAP.
set -uo pipefail
cd "$(dirname "$0")/../.." || exit 1

log=$(mktemp)
. tests/host/tap.sh
# shellcheck source=tools/knc/cache-lib.sh
. tools/knc/cache-lib.sh
TARBALL=${KNC_LINUX_TARBALL:-/usr/src/linux-source-6.1.tar.xz}
CACHE=${KNC_CACHE:-/var/cache/knc-pmu}/intree
SERIES=build/intree/series
TREE=build/intree/linux
CHECKPATCH=build/intree/checkpatch/scripts/checkpatch.pl

echo "TAP version 13"
tools/knc/intree-series.sh >"$log" 2>&1
result $? "tools/knc/intree-series.sh makes the series" "$log"
patches=("$SERIES"/000[1-9]-*.patch)
[ "${#patches[@]}" -eq 4 ] && [ -f "$SERIES/0000-cover-letter.patch" ] &&
	! grep -q '\*\*\*' "$SERIES/0000-cover-letter.patch"
result $? "four patches and a filled-in cover letter"

# The series is the driver as the tree has it: nothing of the out-of-tree
# module (knc_module.c, its tools, a built-in test, the Makefile's kernel
# version, the conditions on the kernel knc_compat.h and the Makefile
# answer for the module, perf core found at run time), and not the
# simulator, which stays out of the tree with its exports.
grep -n -E 'knc_module|knc_sim|KNC_SIM|EXPORT_SYMBOL|KNC_NS|tools/knc|tests/unit|IS_BUILTIN|IS_MODULE\(|VERSION|KNC_(PIN_TASK_CONTEXT|NS_IDENT|HRTIMER_INIT|MMAP_COUNT_ATOMIC|LEAVE_MM_NO_CPU)|#if.*(rdmsrq|inc_perf_irq_stat|PERF_PMU_CAP_)|kallsyms|knc_overflow|knc_took|out-of-tree' \
	"${patches[@]}" >"$log"
[ $? -eq 1 ]
result $? "the series carries none of the module's notions" "$log"

if [ ! -x "$CHECKPATCH" ]; then
	mkdir -p build/intree/checkpatch
	tar xf "$(tools/knc/plain-tar "$TARBALL")" -C build/intree/checkpatch --strip-components=1 \
		linux-source-6.1/scripts/checkpatch.pl linux-source-6.1/scripts/spelling.txt \
		linux-source-6.1/scripts/const_structs.checkpatch
fi
# FILE_PATH_CHANGES asks whether MAINTAINERS needs updating for the files
# patch 3 adds; patch 1's entry covers arch/x86/events/knc/ (F:), which
# --no-tree cannot see.
for p in "${patches[@]}"; do
	"$CHECKPATCH" --no-tree -q --ignore FILE_PATH_CHANGES "$p" >"$log" 2>&1
	result $? "checkpatch: $(basename "$p")" "$log"
done

# The kernel: the debug kernel's tree (tools/knc/debug-kernel.sh, cached)
# copied, its intel/knc.c put back as Debian has it (the debug kernel
# carries make linux-fixes; the series removes the file), the series
# applied and tools/knc/intree/kunit.config merged into
# its .config, then built incrementally: only what the series and the new
# options touch is compiled again, and the KUnit suites run under KASAN,
# lockdep and UBSAN. arch/x86/events/knc/ is built first with W=1 and must
# not warn. Cached by a hash of everything it depends on: the patches but
# for the lines that change with each run (commit ids and dates), the
# config, this test, and the debug tree (its cache key names its inputs).
FRAG=tools/knc/intree/kunit.config
tools/knc/debug-kernel.sh >"$log" 2>&1
st=$?
DEBUG_TREE=$(readlink -f build/debug/linux)
key=$( { grep -v -E '^(From [0-9a-f]{40} |Date: )' "${patches[@]}"; cat "$FRAG" "$0"
	echo "$DEBUG_TREE"; } | sha256sum | cut -c1-16)
KERNEL=$CACHE/$key/bzImage
# in_place CMD...: run CMD with the copy bind-mounted at the debug tree's
# own path, in a mount namespace of its own (other processes still see the
# debug tree). Kbuild builds objtool with absolute paths, and every object
# depends on objtool: at another path it would build objtool and then the
# whole kernel again.
in_place() {
	# shellcheck disable=SC2016 # expanded by the inner sh
	unshare -m --propagation private sh -c 'mount --bind "$1" "$2" && shift 2 && exec "$@"' \
		sh "$TREE" "$DEBUG_TREE" "$@"
}
if [ $st -ne 0 ]; then
	:
elif [ -f "$KERNEL" ]; then
	cat "$CACHE/$key/build.txt" >"$log"
else
	st=1
	{
		rm -rf "$TREE" && mkdir -p "$(dirname "$TREE")" &&
		cp -a "$DEBUG_TREE" "$TREE" &&
		tar xf "$(tools/knc/plain-tar "$TARBALL")" -C "$TREE" --strip-components=1 --occurrence=1 \
			linux-source-6.1/arch/x86/events/intel/knc.c &&
		cat "${patches[@]}" | patch -s -p1 -d "$TREE" &&
		"$TREE"/scripts/kconfig/merge_config.sh -m -O "$TREE" "$TREE/.config" "$FRAG" &&
		in_place make -s -C "$DEBUG_TREE" ARCH=x86_64 olddefconfig &&
		! grep '^CONFIG_' "$FRAG" | grep -vxF -f "$TREE/.config" |
			sed 's/^/not in .config: /' | grep . &&
		in_place make -C "$DEBUG_TREE" ARCH=x86_64 -j"$(nproc)" W=1 arch/x86/events/knc/ >"$log.build" 2>&1 &&
		in_place make -C "$DEBUG_TREE" ARCH=x86_64 -j"$(nproc)" bzImage >>"$log.build" 2>&1
	} >"$log" 2>&1 && st=0
	[ $st -eq 0 ] || tail -n 40 "$log.build" >>"$log" 2>/dev/null
	if [ $st -eq 0 ]; then
		o=$TREE/arch/x86/events
		# The copied tree keeps intel/knc.o from the debug build: what
		# counts is what the kernel links.
		! grep -E "warning:" "$log.build" | grep -E "events/knc/" >>"$log" &&
			[ "$(ar t "$o/knc/built-in.a" | xargs -n 1 basename | xargs)" = \
			  "knc_core.o knc_logic.o knc_main.o knc_native.o knc_rdpmc.o knc_reserve.o knc_spflt.o knc_sysfs.o knc_logic_test.o knc_logic_encode_test.o knc_logic_table_test.o knc_logic_assign_test.o knc_logic_period_test.o" ] &&
			! ar t "$o/intel/built-in.a" | grep -q "knc\.o$" &&
			nm "$o/knc/knc_core.o" | grep -q " U perf_event_overflow$" &&
			nm "$o/knc/knc_core.o" | grep -q " U perf_sample_event_took$" &&
			! nm "$o"/knc/knc_*.o | grep -q "register_kprobe" || st=1
		[ $st -eq 0 ] || echo "a warning in knc/, not all of knc built in, intel/knc.o linked, or no direct perf_event_overflow() call" >>"$log"
	fi
	if [ $st -eq 0 ]; then
		mkdir -p "$CACHE/$key" &&
			echo "built $(date -u +%FT%TZ) from series $key: the debug kernel + $FRAG, knc/ with W=1 without a warning" >"$CACHE/$key/build.txt" &&
			cp "$TREE/arch/x86/boot/bzImage" "$KERNEL.tmp" && mv "$KERNEL.tmp" "$KERNEL" &&
			cat "$CACHE/$key/build.txt" >>"$log"
		# The newest two kernels are kept.
		cache_prune "$CACHE" bzImage 2
	fi
	rm -rf "$TREE"
fi
result $st "Linux 6.1 with the series builds (the debug kernel + kunit.config: knc and its KUnit tests built in, knc/ W=1 clean)" "$log"

# Boot it: the KUnit suites run at boot and kunit_shutdown ends QEMU. Each
# KUnit case is a test point here, and the kernel must run exactly the
# cases the host build of the same files runs (tests/unit).
if [ $st -eq 0 ]; then
	timeout 300 qemu-system-x86_64 -nodefaults -nographic -no-reboot -m 512 \
		-bios /usr/share/qemu/qboot.rom -kernel "$KERNEL" -serial stdio \
		-append "console=ttyS0 kunit_shutdown=reboot" </dev/null >"$log.boot" 2>&1
	make -s -C tests/unit >/dev/null &&
		tests/unit/test_knc | sed -n 's/^ok [0-9]* - \(knc_logic\.\)/\1/p' | sort >"$log.host"
	sed -e 's/\r$//' -e 's/^\[ *[0-9.]*\] //' "$log.boot" |
		awk -f tests/unit/ktap-cases.awk | sort -k2 >"$log.kunit"
	while read -r res name; do
		st=0
		if [ "$res" != ok ]; then
			st=1
			grep -B 30 -F "${name#*.}" "$log.boot" | tail -n 30 >"$log"
		fi
		result $st "kunit: $name" "$log"
	done <"$log.kunit"
	awk '{ print $2 }' "$log.kunit" | diff "$log.host" - >"$log"
	result $? "the KUnit kernel ran the $(wc -l <"$log.host") cases tests/unit runs, no more, no fewer" "$log"
	tail -n 20 "$log.boot" >"$log"
	grep -q "reboot: Restarting system" "$log.boot"
	result $? "the KUnit kernel finished its suites and shut down" "$log"
fi
rm -f "$log" "$log.build" "$log.boot" "$log.host" "$log.kunit"

echo "1..$n"
exit $bad
