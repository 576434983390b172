#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# The Debian package (make deb, debian/): it builds, lintian finds nothing
# in it (pedantic and informational tags included), it holds exactly what
# make dkms-src stages, and its maintainer scripts hand the module to DKMS.
# tests/guest/deb.sh installs and removes it on a booted kernel. TAP.
set -uo pipefail
cd "$(dirname "$0")/../.." || exit 1

log=$(mktemp)
tmp=$(mktemp -d)
trap 'rm -rf "$log" "$tmp"' EXIT
. tests/host/tap.sh

echo "TAP version 13"
version=$(sed -n 's/^PACKAGE_VERSION="\(.*\)"/\1/p' dkms.conf)
deb=build/deb/knc-pmu-dkms_${version}_all.deb

[ "$(dpkg-parsechangelog -l debian/changelog -S Version)" = "$version" ]
result $? "debian/changelog's version is dkms.conf's ($version)"

make -s deb >"$log" 2>&1 && [ -f "$deb" ]
result $? "make deb builds $(basename "$deb")" "$log"

lintian --pedantic -I --fail-on error,warning,info,pedantic \
	build/deb/knc-pmu_"${version}"_*.changes >"$log" 2>&1
status=$?
grep -v "running with root privileges" "$log" >"$log.tags"
[ $status -eq 0 ] && [ ! -s "$log.tags" ]
result $? "lintian --pedantic -I: no tag" "$log.tags"
rm -f "$log.tags"

# The package's /usr/src tree is make dkms-src's, file for file.
dpkg-deb -x "$deb" "$tmp/deb" &&
	make -s dkms-src DESTDIR="$tmp/staged" >"$log" 2>&1 &&
	diff -r "$tmp/staged/usr/src" "$tmp/deb/usr/src" >>"$log" 2>&1
result $? "it installs make dkms-src's tree as /usr/src/knc-pmu-$version" "$log"

dpkg-deb -f "$deb" Depends | grep -E '(^|, )dkms( |,|$)' >/dev/null
result $? "it depends on dkms"

# dh-dkms's scripts: dkms add, build and install at configure, dkms remove
# before removal.
names() { grep -q -x "DKMS_NAME=knc-pmu" "$1" && grep -q -x "DKMS_VERSION=$version" "$1"; }
dpkg-deb -e "$deb" "$tmp/control" &&
	names "$tmp/control/postinst" && grep -q "common.postinst" "$tmp/control/postinst" &&
	names "$tmp/control/prerm" && grep -q 'dkms remove -m $DKMS_NAME -v $DKMS_VERSION --all' "$tmp/control/prerm"
result $? "postinst builds knc-pmu $version with DKMS, prerm removes it"

echo "1..$n"
exit $bad
