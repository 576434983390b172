#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Host test (TAP version 13): tools/knc/apt-lib.sh, the apt source entries
# install-deps and build-libpfm4.sh add, on apt directories
# of its own (APT_SOURCES_DIR): both list formats, and the entry added
# once, from the binary packages' archive; and the private sources list
# of build-qemu.sh and linux-src.sh, which apt reads instead of the
# machine's.
set -uo pipefail
cd "$(dirname "$0")/../.." || exit 1
. tests/host/tap.sh
. tools/knc/apt-lib.sh

d=$(mktemp -d)
trap 'rm -rf "$d"' EXIT
log=$d/log
APT_SOURCES_DIR=$d/apt
mkdir -p "$APT_SOURCES_DIR/sources.list.d"

# expect_has "TYPE SUITE..." "TYPE SUITE..." : which pairs apt has, which not
expect_has() {
	local p
	: >"$log"
	for p in $1; do
		apt_has_source "${p%:*}" "${p#*:}" || echo "no ${p%:*} $p" >>"$log"
	done
	for p in $2; do
		! apt_has_source "${p%:*}" "${p#*:}" || echo "unexpected $p" >>"$log"
	done
	[ ! -s "$log" ]
}

echo "TAP version 13"
echo "1..6"

cat >"$APT_SOURCES_DIR/sources.list.d/debian.sources" <<EOS
Types: deb deb-src
URIs: http://mirror.example/debian
Suites: bookworm bookworm-updates
Components: main
Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg

Types: deb-src
URIs: http://mirror.example/debian
Suites: bookworm-proposed-updates
Enabled: no
Components: main
EOS
expect_has "deb:bookworm deb-src:bookworm deb:bookworm-updates" \
	"deb:bookworm-backports deb-src:bookworm-proposed-updates deb:bookworm-update"
result $? "deb822: each type and suite of a stanza, not a disabled one" "$log"

rm "$APT_SOURCES_DIR/sources.list.d/debian.sources"
cat >"$APT_SOURCES_DIR/sources.list" <<EOS
deb http://deb.debian.org/debian bookworm main
#deb-src http://deb.debian.org/debian bookworm main
deb-src [arch=amd64 signed-by=/usr/share/keyrings/debian-archive-keyring.gpg] http://deb.debian.org/debian bookworm-backports main
EOS
echo "deb-src [trusted=yes] http://deb.debian.org/debian bookworm-updates main" \
	>"$APT_SOURCES_DIR/sources.list.d/extra.list"
expect_has "deb:bookworm deb-src:bookworm-backports deb-src:bookworm-updates" \
	"deb-src:bookworm deb:bookworm-backports deb:main"
result $? "one-line lists: options skipped, a comment is no entry" "$log"

# install-deps once took a deb-src bookworm-backports entry for the
# binary packages' one: the type counts.
rm "$APT_SOURCES_DIR/sources.list" "$APT_SOURCES_DIR/sources.list.d/extra.list"
printf 'Types: deb\nURIs: http://mirror.example/debian\nSuites: bookworm\nComponents: main\n' \
	>"$APT_SOURCES_DIR/sources.list.d/debian.sources"
printf 'Types: deb-src\nURIs: http://mirror.example/debian\nSuites: bookworm-backports\n' \
	>"$APT_SOURCES_DIR/sources.list.d/src.sources"
f=$APT_SOURCES_DIR/sources.list.d/knc.sources
apt_add_source deb bookworm-backports "$f" 2>"$log"
s=$?
{
	cat "$log"
	cat "$f"
} >"$d/out" 2>&1
[ $s -eq 0 ] && grep -q "adding a deb entry for http://mirror.example/debian bookworm-backports" "$log" &&
	diff - "$f" >>"$d/out" 2>&1 <<EOS
Types: deb
URIs: http://mirror.example/debian
Suites: bookworm-backports
Components: main
Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg
EOS
result $? "an entry is added from debian.sources' archive, beside a deb-src one" "$d/out"

cp "$f" "$d/before"
apt_add_source deb bookworm-backports "$f" 2>"$log"
s=$?
[ $s -eq 1 ] && [ ! -s "$log" ] && cmp -s "$d/before" "$f" && apt_has_source deb bookworm-backports
result $? "the entry is added once (status $s)" "$log"

rm "$APT_SOURCES_DIR/sources.list.d"/*
apt_add_source deb-src bookworm "$f" 2>"$log" &&
	grep -q -x "URIs: http://deb.debian.org/debian" "$f" && apt_has_source deb-src bookworm
result $? "without debian.sources, deb.debian.org" "$log"

# apt-get --print-uris update names what it would fetch, from the private
# list alone: not the machine's suites (/etc/apt), of which trixie-backports
# is none.
p=$d/private
apt_private "$p" deb-src trixie-backports &&
	apt-get "${APT_PRIVATE[@]}" --print-uris update >"$d/out" 2>&1 &&
	grep -q "^'http://deb.debian.org/debian/dists/trixie-backports/main/source/Sources" "$d/out" &&
	! grep -v trixie-backports "$d/out" && [ -d "$p/lists/partial" ] &&
	[ -d "$p/cache/archives/partial" ]
result $? "apt_private: apt reads its list alone, and its lists and cache are the caller's" "$d/out"
exit $bad
