#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# DKMS as a user runs it, in a scratch tree (build/dkms), as TAP: stage the
# sources (make dkms-src), dkms add, build and install for Debian 12's 6.1
# and for 6.12, then dkms remove, which must leave nothing of knc-pmu
# behind. What dkms installed is kept in build/dkms/root; the guest suites
# modprobe it (t_dkms_modprobe in tests/guest/simulator.sh).
set -uo pipefail
cd "$(dirname "$0")/../.." || exit 1

S=$PWD/build/dkms
ROOT=$S/root
log=$(mktemp)

. tests/host/tap.sh

echo "TAP version 13"
if ! command -v dkms >/dev/null; then
	echo "not ok 1 - dkms is not installed (make deps)"
	echo "1..1"
	exit 1
fi

version=$(sed -n 's/^PACKAGE_VERSION="\(.*\)"/\1/p' dkms.conf)
kernels=()
for k in /lib/modules/6.1.*/build /lib/modules/6.12.*/build; do
	[ -d "$k" ] && kernels+=("$(basename "$(dirname "$k")")")
done
[ ${#kernels[@]} -eq 2 ]
result $? "headers of 6.1 and 6.12 are installed (${kernels[*]})"

rm -rf "$S"
mkdir -p "$S/dkms" "$S/installed"
make -s dkms-src DESTDIR="$S" >"$log" 2>&1
result $? "make dkms-src stages knc-pmu-$version" "$log"
# A scratch tree: nothing goes to /usr/src, /var/lib/dkms or /lib/modules.
tree=(--sourcetree "$S/usr/src" --dkmstree "$S/dkms" --installtree "$S/installed")
dkms add -m knc-pmu -v "$version" "${tree[@]}" >"$log" 2>&1
result $? "dkms add" "$log"

for k in "${kernels[@]}"; do
	mkdir -p "$S/installed/$k"
	dkms build -m knc-pmu -v "$version" -k "$k" "${tree[@]}" >"$log" 2>&1
	result $? "dkms build for $k" "$log"
	# 6.12's modules are compressed (.ko.xz), as the kernel's own are.
	d=$S/installed/$k/updates/dkms
	dkms install -m knc-pmu -v "$version" -k "$k" --no-depmod "${tree[@]}" >"$log" 2>&1 &&
		compgen -G "$d/knc_pmu.ko*" >/dev/null && compgen -G "$d/knc_sim.ko*" >/dev/null &&
		[ "$(modinfo -F vermagic "$d"/knc_sim.ko* | cut -d' ' -f1)" = "$k" ]
	result $? "dkms install for $k: knc_pmu and knc_sim built for $k" "$log"
	# Kept for the guest suites, which modprobe it on each kernel.
	mkdir -p "$ROOT/lib/modules/$k"
	cp -a "$S/installed/$k/updates" "$ROOT/lib/modules/$k/"
done
dkms status -m knc-pmu "${tree[@]}" >"$log" 2>&1
[ "$(grep -c ': installed' "$log")" -eq ${#kernels[@]} ]
result $? "dkms status shows it installed for both kernels" "$log"

dkms remove -m knc-pmu -v "$version" --all --no-depmod "${tree[@]}" >"$log" 2>&1
result $? "dkms remove --all" "$log"
find "$S/dkms" "$S/installed" -name 'knc*' >"$log"
[ ! -s "$log" ] && [ -z "$(ls -A "$S/dkms")" ]
result $? "dkms remove leaves nothing of knc-pmu behind" "$log"
find /usr/src /var/lib/dkms /lib/modules -name 'knc*' 2>/dev/null >"$log"
[ ! -s "$log" ]
result $? "nothing of knc-pmu went outside the scratch tree" "$log"
rm -f "$log"

echo "1..$n"
exit $bad
