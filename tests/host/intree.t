#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# The in-tree series (tools/knc/intree-series.sh, `make intree`): it is
# made, it applies with git am to Linux 7.3 as Debian's linux-source-7.3
# has it (tools/knc/linux-src.sh --tarball), 7.3's checkpatch finds nothing
# in it, and the debug kernel's Linux 7.3 tree (tools/knc/debug-kernel.sh)
# with it applied and the driver and its KUnit tests built in
# (tools/knc/intree/kunit.config) builds without a warning in knc/ (W=1),
# the driver calling perf core and the x86 core directly. That kernel
# boots under QEMU and runs the KUnit suite of the event logic
# (knc_logic*_test.c; the simulator's stays out of the tree, and
# tests/guest/kunit.sh runs both on the debug kernel) under KASAN, lockdep
# and UBSAN: each case is a test point, and the cases must be the ones the
# host build of the same files runs. It boots again on the QEMU KNC PMU
# model (make qemu) with a userland and runs tests/guest/intree.sh: the
# driver as the core PMU, "cpu", counting exactly, a group as one. The
# build is incremental on a copy of the
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
TARBALL=${KNC_LINUX_73_TARBALL:-$(tools/knc/linux-src.sh --tarball 2>"$log")}
TOP=linux-source-7.3
CACHE=${KNC_CACHE:-/var/cache/knc-pmu}/intree
SERIES=build/intree/series
TREE=build/intree/linux
AM=build/intree/am
CHECKPATCH=build/intree/checkpatch-7.3/scripts/checkpatch.pl

series_test_ident
echo "TAP version 13"
if [ ! -f "$TARBALL" ]; then
	echo "not ok 1 - no linux-source-7.3 tarball (tools/knc/linux-src.sh --tarball: $(cat "$log"))"
	echo "1..1"
	exit 1
fi
KNC_LINUX_73_TARBALL=$TARBALL tools/knc/intree-series.sh >"$log" 2>&1
result $? "tools/knc/intree-series.sh makes the series" "$log"
patches=("$SERIES"/000[1-9]-*.patch)
[ "${#patches[@]}" -eq 3 ] && [ -f "$SERIES/0000-cover-letter.patch" ] &&
	! grep -q '\*\*\*' "$SERIES/0000-cover-letter.patch"
result $? "three patches and a filled-in cover letter"
for p in "${patches[@]}"; do
	grep -qxF "$(series_from)" "$p" && grep -qxF "$(series_signoff)" "$p" ||
		echo "$(basename "$p"): not from and signed off by the sender"
done >"$log"
grep -qxF "+M:	$SERIES_TEST_NAME <$SERIES_TEST_EMAIL>" "${patches[@]}" ||
	echo "MAINTAINERS does not name the sender" >>"$log"
[ ! -s "$log" ]
result $? "from and signed off by the sender, who maintains the driver in MAINTAINERS" "$log"

# The series is the driver as the tree has it, built in and written
# against 7.3: nothing of the out-of-tree module (knc_module.c, its tools,
# a built-in test, the Makefile's kernel version, knc_compat.h and the
# conditions on the kernel it and the Makefile answer for the module,
# knc_perf.h and perf core found at run time, what 7.3 removed, module
# parameters, pinning the module, unloading, other modules' backends
# registering), and not the simulator, which stays out of the tree with
# its exports.
grep -n -E 'knc_module|knc_sim|KNC_SIM|EXPORT_SYMBOL|KNC_NS|tools/knc|tests/unit|IS_BUILTIN|IS_MODULE\(|VERSION|KNC_(PIN_TASK_CONTEXT|NS_IDENT|HRTIMER_INIT|MMAP_COUNT_ATOMIC|NO_X86_EXPORTS|X86_EXPORTS|LEAVE_MM_NO_CPU)|#if.*(MODULE|rdmsrq|inc_perf_irq_stat|PERF_PMU_CAP_)|knc_compat|knc_perf(\.h|_init)|HETEROGENEOUS|hrtimer_init\(|kallsyms|knc_overflow|knc_took|knc_can_sample|__module_get|module_param|MODULE_PARM|hw_check|module_exit|knc_pmu_(un)?register|out-of-tree' \
	"${patches[@]}" >"$log"
[ $? -eq 1 ]
result $? "the series carries none of the module's notions" "$log"

# git am on pristine 7.3: a repository of the tarball's files the series
# changes, which are all git am reads (the whole tree would take a minute
# and more than a gigabyte more), and none of the files it adds in the
# tarball. The series is made against pristine 7.3, as it is posted; the
# kernel below applies it to the debug tree, which carries make
# linux-fixes' series too.
plain=$(tools/knc/plain-tar "$TARBALL")
awk '/^diff --git /{ f = substr($3, 3) } /^new file mode/{ print f }' "${patches[@]}" |
	sort -u >"$log.new"
mapfile -t changed < <(sed -n 's|^diff --git a/\([^ ]*\) b/.*|\1|p' "${patches[@]}" |
	sort -u | comm -23 - "$log.new" | sed "s|^|$TOP/|")
am() { git -C "$AM" -c user.name=intree.t -c user.email=intree.t@localhost "$@"; }
{
	rm -rf "$AM" && mkdir -p "$AM" &&
	tar xf "$plain" -C "$AM" --strip-components=1 --occurrence=1 "${changed[@]}" &&
	! tar tf "$plain" | sed "s|^$TOP/||" | grep -x -F -f "$log.new" | sed 's/^/in the tarball already: /' | grep . &&
	am init -q && am add -A -f && am commit -q -m "$TOP" &&
	am am --whitespace=error-all "${patches[@]/#/$PWD/}" &&
	[ "$(am rev-list --count HEAD)" -eq $((1 + ${#patches[@]})) ]
} >"$log" 2>&1
result $? "git am applies the series to $TOP as $(basename "$TARBALL") has it" "$log"
rm -rf "$AM"

if [ ! -x "$CHECKPATCH" ]; then
	mkdir -p "${CHECKPATCH%/scripts/*}"
	tar xf "$plain" -C "${CHECKPATCH%/scripts/*}" --strip-components=1 \
		$TOP/scripts/checkpatch.pl $TOP/scripts/spelling.txt \
		$TOP/scripts/const_structs.checkpatch
fi
# FILE_PATH_CHANGES asks whether MAINTAINERS needs updating for the files
# patch 2 adds; patch 1's entry covers arch/x86/events/knc/ (F:), which
# --no-tree cannot see.
for p in "${patches[@]}"; do
	"$CHECKPATCH" --no-tree -q --ignore FILE_PATH_CHANGES "$p" >"$log" 2>&1
	result $? "checkpatch (7.3): $(basename "$p")" "$log"
done

# The kernel: the debug kernel's tree (tools/knc/debug-kernel.sh, cached:
# Linux 7.3 with make linux-fixes' 7.3 series) copied, its intel/knc.c put
# back as 7.3 has it, with the files the series changes that the debug
# tree leaves out (Documentation/'s subdirectories), the series applied and
# tools/knc/intree/kunit.config
# merged into its .config, then built incrementally: only what the series
# and the new options touch is compiled again, and the KUnit suites run
# under KASAN, lockdep and UBSAN. The fixes series changes intel/knc.c,
# which the series deletes, and the x86 core (arch/x86/events/core.c,
# RDPMC), which the series leaves alone: the series stays against
# pristine 7.3, as it is posted (git am above), and the fixes to the file
# it replaces are undone here rather than rebased into it; the x86 core's
# fix stays, as it would beside the series upstream. The patches apply
# without fuzz. arch/x86/events/knc/ is built first with W=1 and must
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
		mapfile -t absent < <(for f in "${changed[@]}"; do
			[ -e "$TREE/${f#"$TOP"/}" ] || echo "$f"; done) &&
		tar xf "$plain" -C "$TREE" --strip-components=1 --occurrence=1 \
			$TOP/arch/x86/events/intel/knc.c "${absent[@]}" &&
		cat "${patches[@]}" | patch -s -p1 -F 0 -d "$TREE" &&
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
			! ar t "$o/intel/built-in.a" | grep "knc\.o$" >/dev/null &&
			nm "$o/knc/knc_core.o" | grep " U perf_event_overflow$" >/dev/null &&
			nm "$o/knc/knc_core.o" | grep " U perf_sample_event_took$" >/dev/null &&
			nm "$o/knc/knc_core.o" | grep " U perf_allow_cpu$" >/dev/null &&
			nm "$o/knc/knc_core.o" | grep " U perf_get_x86_pmu_capability$" >/dev/null &&
			nm "$o/knc/knc_rdpmc.o" | grep " U cr4_update_irqsoff$" >/dev/null &&
			! nm "$o"/knc/knc_*.o | grep "register_kprobe" >/dev/null || st=1
		[ $st -eq 0 ] || echo "a warning in knc/, not all of knc built in, intel/knc.o linked, or no direct call of perf_event_overflow(), perf_sample_event_took(), perf_allow_cpu(), perf_get_x86_pmu_capability() or cr4_update_irqsoff()" >>"$log"
	fi
	if [ $st -eq 0 ]; then
		mkdir -p "$CACHE/$key" &&
			echo "built $(date -u +%FT%TZ) from series $key: the debug kernel + $FRAG, knc/ with W=1 without a warning" >"$CACHE/$key/build.txt" &&
			mkdir -p "$CACHE/$key/tree/arch/x86/boot" "$CACHE/$key/tree/include/config" &&
			cp "$TREE/.config" "$CACHE/$key/tree/" &&
			cp "$TREE/include/config/kernel.release" "$CACHE/$key/tree/include/config/" &&
			cp "$TREE/arch/x86/boot/bzImage" "$KERNEL.tmp" && mv "$KERNEL.tmp" "$KERNEL" &&
			ln -sf ../../../../bzImage "$CACHE/$key/tree/arch/x86/boot/bzImage" &&
			cat "$CACHE/$key/build.txt" >>"$log"
		# The newest two kernels are kept.
		cache_prune "$CACHE" bzImage 2
	fi
	rm -rf "$TREE"
fi
result $st "Linux 7.3 with the series builds (the debug kernel + kunit.config: knc and its KUnit tests built in, knc/ W=1 clean)" "$log"

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

# Boot it again on the QEMU KNC PMU model (make qemu) with a userland, as a
# KNC owner would run it: tests/guest/intree.sh counts with perf, a group
# among its cases. The cache keeps the kernel as a tree knc-vm boots: the
# bzImage, its .config and its release.
if [ $st -eq 0 ]; then
	tools/knc/knc-vm --native --no-module --kernel "$CACHE/$key/tree" --timeout 900 \
		-- tests/guest/intree.sh >"$log.vm" 2>&1
	vst=$?
	while IFS= read -r line; do
		case $line in
		"ok "*) result 0 "on the model: ${line#ok * - }" ;;
		"not ok "*) result 1 "on the model: ${line#not ok * - }" ;;
		esac
	done <"$log.vm"
	[ $vst -eq 0 ]
	result $? "the in-tree kernel boots on the model and passes tests/guest/intree.sh" "$log.vm"
fi
rm -f "$log" "$log.build" "$log.boot" "$log.host" "$log.kunit" "$log.new" "$log.vm"

echo "1..$n"
exit $bad
