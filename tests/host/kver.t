#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# The supported kernels (Linux 6.1 up to 7.3, x86_64), as TAP: `make` (the
# user's build, W=1) of knc_pmu.ko and knc_sim.ko, and knc_model_test.ko,
# against Debian 12's 6.1, bookworm-backports' 6.12, Linux 7.3
# (linux-source-7.3, prepared by tools/knc/linux-src.sh, cached) and Linux
# 7.2 as the Knights Corner card port configures it, built with clang
# (LLVM=-19; tools/knc/linux-src.sh --series 7.2): any compiler warning
# fails. 7.3's and 7.2's trees are prepared, not built, so they have no
# Module.symvers and modpost reports every kernel symbol undefined
# (KBUILD_MODPOST_WARN=1): those lines are expected, any other is not.
# Then modinfo states the kernel (both modules) and the range (knc_pmu),
# make install installs and runs depmod, make without kernel headers says
# what to do, and the range is the same in knc_module.c, the Makefile,
# dkms.conf, README and the docs. Each build
# is in a copy of the sources: the guests load the tree's.
set -uo pipefail
cd "$(dirname "$0")/../.." || exit 1

. tests/host/tap.sh

KNC=arch/x86/events/knc
S=$(mktemp -d)
trap 'rm -rf "$S"' EXIT
log=$S/log

echo "TAP version 13"
range=$(sed -n 's/^#define KNC_KERNELS[[:space:]]*"\(.*\)"$/\1/p' $KNC/knc_module.c)
[ "$range" = "Linux 6.1 up to 7.3, x86_64" ]
result $? "knc_module.c states the range: $range"

t0=$(awk '{ print $14 + $15 + $16 + $17 }' /proc/$$/stat)
# uts KDIR: the release KDIR builds for (Debian's headers have the
# upstream version in include/config/kernel.release)
uts() { sed -n 's/^#define UTS_RELEASE "\(.*\)"$/\1/p' "$1/include/generated/utsrelease.h" 2>/dev/null; }
tree73=$(tools/knc/linux-src.sh 2>"$log")
result $? "tools/knc/linux-src.sh prepares Linux 7.3 ($(tail -n 1 "$log"))" "$log"
tree72=$(tools/knc/linux-src.sh --series 7.2 2>"$log") && [[ $(uts "$tree72") == 7.2.* ]]
result $? "tools/knc/linux-src.sh --series 7.2 prepares the card port's Linux 7.2 ($(tail -n 1 "$log"))" "$log"

kdirs=("$(ls -d /lib/modules/6.1.*/build 2>/dev/null | sort -V | tail -n 1)"
	"$(ls -d /lib/modules/6.12.*/build 2>/dev/null | sort -V | tail -n 1)" "$tree73" "$tree72")
# copy DIR: what `make` needs, as a user has it
copy() {
	mkdir -p "$1/$KNC" "$1/kmod"
	cp Makefile dkms.conf "$1"/
	cp $KNC/*.[ch] $KNC/*.tbl $KNC/Makefile "$1/$KNC"/
	rm -f "$1/$KNC"/*.mod.c
	cp tests/guest/kmod/* $KNC/knc_logic.h $KNC/knc_compat.h $KNC/knc_events.tbl "$1/kmod"/
}
# warnings LOG: its lines that are warnings or errors, but modpost's
# undefined symbols against a tree without Module.symvers (7.3 names the
# symbol "symbol 'S'", 7.2 and older "\"S\" [MODULE.ko]")
warnings() {
	grep -E -i "warning|error" "$1" | grep -v "Skipping BTF" |
		grep -v -E "^(WARNING|ERROR): modpost: .*: symbol '[^']*' undefined!$" |
		grep -v -E '^(WARNING|ERROR): modpost: "[^"]*" \[[^]]*\.ko\] undefined!$' |
		grep -v -E "^WARNING: .*/Module.symvers is missing\.$|^WARNING: modpost: suppressed [0-9]+ unresolved symbol warnings" |
		grep -v -E "^ +(You may get many unresolved symbol errors|You can set KBUILD_MODPOST_WARN=1 to turn errors into warning)"
}

for k in "${kdirs[@]}"; do
	if [ -z "$k" ] || [ ! -f "$k/Makefile" ]; then
		result 1 "kernel headers or tree $k (make deps; tools/knc/linux-src.sh)"
		continue
	fi
	rel=$(uts "$k")
	d=$S/$rel
	copy "$d"
	extra=()
	[ -f "$k/Module.symvers" ] || extra=(KBUILD_MODPOST_WARN=1)
	# The card's kernel is built by clang: its modules must be too (Kbuild
	# warns of a compiler other than the tree's).
	cc=()
	[ "$k" != "$tree72" ] || cc=(LLVM=-19)
	extra+=("${cc[@]}")
	make -C "$d" KDIR="$k" W=1 "${extra[@]}" >"$log" 2>&1
	status=$?
	warnings "$log" >"$log.w"
	[ $status -eq 0 ] && [ ! -s "$log.w" ] && [ -f "$d/$KNC/knc_pmu.ko" ] && [ -f "$d/$KNC/knc_sim.ko" ]
	result $? "make KDIR=<$rel> ${cc[*]:+${cc[*]} }W=1: knc_pmu.ko and knc_sim.ko, warning-free" "$log.w"
	make -C "$k" M="$d/kmod" W=1 "${extra[@]}" modules >"$log" 2>&1
	status=$?
	warnings "$log" >"$log.w"
	[ $status -eq 0 ] && [ ! -s "$log.w" ]
	result $? "knc_model_test.ko against $rel, W=1, warning-free" "$log.w"
	: >"$log"
	for m in knc_pmu knc_sim; do
		[ "$(modinfo -F vermagic "$d/$KNC/$m.ko" | cut -d' ' -f1)" = "$rel" ] ||
			echo "$m: vermagic $(modinfo -F vermagic "$d/$KNC/$m.ko")" >>"$log"
	done
	modinfo -F description "$d/$KNC/knc_pmu.ko" | grep -F "($range)" >/dev/null ||
		echo "knc_pmu: description $(modinfo -F description "$d/$KNC/knc_pmu.ko")" >>"$log"
	[ ! -s "$log" ]
	result $? "$rel: modinfo of both modules states the kernel, knc_pmu's the range" "$log"
done
t1=$(awk '{ print $14 + $15 + $16 + $17 }' /proc/$$/stat)
echo "# 7.3's and 7.2's trees and the builds: $(((t1 - t0) / $(getconf CLK_TCK))) s of CPU"

# make install, against 6.1's headers, into a scratch root.
rel=$(uts "${kdirs[0]}")
make -C "$S/$rel" KDIR="${kdirs[0]}" install DESTDIR="$S/root" >"$log" 2>&1 &&
	grep -q "^updates/knc_sim.ko[^:]*: updates/knc_pmu.ko" "$S/root/lib/modules/$rel/modules.dep"
result $? "make install DESTDIR=...: both modules in updates/, depmod ran (modules.dep)" "$log"

# make for a kernel whose headers are not installed.
! make -C "$S/$rel" KVER=0.0.0-none >"$log" 2>&1 && grep -q "apt-get install linux-headers-0.0.0-none" "$log" &&
	grep -q "make KDIR=/path/to/linux" "$log" && grep -q -F "supports $range" "$log"
result $? "make without the running kernel's headers says what to do" "$log"

# The range, said everywhere the same.
: >"$log"
grep -q -x "KNC_KERNELS := $range" Makefile || echo "Makefile: KNC_KERNELS" >>"$log"
for f in README.md Documentation/knc-pmu.rst; do
	grep -q -F "$range" "$f" || echo "$f does not say $range" >>"$log"
done
[ ! -s "$log" ]
result $? "the Makefile, README and Documentation/knc-pmu.rst state the range" "$log"
(
	. ./dkms.conf
	for k in 6.1.0-56-amd64 6.12.95+deb12-amd64 7.3.4-amd64 7.0.1 6.18.44-1; do
		[[ $k =~ $BUILD_EXCLUSIVE_KERNEL ]] || echo "refuses $k"
	done
	for k in 6.0.19 5.10.0-30-amd64 7.4.0 7.10.1 8.0.0 6.100.1 16.1.0; do
		[[ ! $k =~ $BUILD_EXCLUSIVE_KERNEL ]] || echo "accepts $k"
	done
	for a in i686 aarch64 x86_64_v2; do
		[[ ! $a =~ $BUILD_EXCLUSIVE_ARCH ]] || echo "accepts $a"
	done
	[[ x86_64 =~ $BUILD_EXCLUSIVE_ARCH ]] || echo "refuses x86_64"
) >"$log" 2>&1
[ ! -s "$log" ]
result $? "dkms.conf builds for Linux 6.1 up to 7.3 and x86_64 only (BUILD_EXCLUSIVE_*)" "$log"

echo "1..$n"
exit $bad
