#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# The Debian package (make deb, tests/host/deb.t) as a user installs it, on
# the booted kernel (tools/knc/knc-vm --no-module): dpkg -i has DKMS build
# and install knc_pmu and knc_sim for it, modprobe loads them and the
# simulated PMU counts, dpkg --purge leaves nothing of knc-pmu behind. The
# guest's writes go to its tmpfs overlay, never to the host. Prints TAP.
set -u
cd "$(dirname "$0")/../.." || exit 1
. tests/guest/lib/lib.sh

# no debconf questions: dpkg's output is the case's diagnostics
export DEBIAN_FRONTEND=noninteractive
VERSION=$(sed -n 's/^PACKAGE_VERSION="\(.*\)"/\1/p' dkms.conf)
DEB=build/deb/knc-pmu-dkms_${VERSION}_all.deb

# what of knc-pmu is on the system
leftovers() {
	find /usr/src /var/lib/dkms /lib/modules /usr/share/knc-pmu-dkms \
		-name 'knc*' 2>/dev/null
}

installed() {
	dpkg-query -W -f='${Status}\n' knc-pmu-dkms 2>/dev/null | grep -q "install ok installed"
}

deb_install() {
	# DKMS's postinst builds for the running kernel and for the newest in
	# /boot: hide the others' configs (in the guest's overlay), so that a
	# guest compiles under TCG for its own kernel only.
	find /boot -maxdepth 1 -name 'config-*' ! -name "config-$(uname -r)" -delete
	dpkg -i "$DEB" || fail "dpkg -i failed"
}

# Each case makes the package's state it starts from: a case run alone, or
# after one that failed, does not depend on another's install or purge.
need_installed() {
	installed || deb_install
}

t_install_builds() {
	local d
	d=/lib/modules/$(uname -r)/updates/dkms
	[ -f "$DEB" ] || fail "no $DEB (make deb)"
	! installed || dpkg --purge knc-pmu-dkms
	[ -z "$(leftovers)" ] || fail "knc-pmu is on the system before the install: $(leftovers)"
	deb_install
	dkms status -m knc-pmu -v "$VERSION" -k "$(uname -r)" | grep -q ': installed' ||
		fail "dkms status does not show knc-pmu installed for $(uname -r)"
	compgen -G "$d/knc_pmu.ko*" >/dev/null && compgen -G "$d/knc_sim.ko*" >/dev/null ||
		fail "no knc_pmu and knc_sim in $d"
}
case_add "dpkg -i: DKMS builds and installs knc_pmu and knc_sim for the running kernel" t_install_builds

t_modprobe_counts() {
	local out
	need_installed
	out=$(mktemp)
	modprobe knc_sim || fail "modprobe knc_sim failed"
	[ -d /sys/module/knc_pmu ] || fail "knc_pmu was not loaded first"
	modinfo -F filename knc_pmu | grep -q "/updates/dkms/" ||
		fail "modprobe did not take DKMS's knc_pmu: $(modinfo -F filename knc_pmu)"
	pstat "$out" -a -e knc/l2_read_miss/ -- "$KNC_SIM" inject l2_read_miss 4321
	expect_eq "CPU-wide count" 4321 "$(count_of "$out" knc/l2_read_miss/)"
	modprobe -r knc_sim || fail "modprobe -r knc_sim failed"
	[ ! -d /sys/module/knc_pmu ] || fail "knc_pmu was left loaded"
}
case_add "modprobe loads DKMS's modules and the simulated PMU counts exactly" t_modprobe_counts

t_purge_leaves_nothing() {
	need_installed
	dpkg --purge knc-pmu-dkms || fail "dpkg --purge failed"
	! dpkg-query -W -f='${Status}\n' knc-pmu-dkms 2>/dev/null | grep -q installed ||
		fail "dpkg still lists knc-pmu-dkms"
	[ -z "$(leftovers)" ] || fail "left behind: $(leftovers)"
}
case_add "dpkg --purge removes the modules, the sources and DKMS's tree" t_purge_leaves_nothing

run_cases "$@"
