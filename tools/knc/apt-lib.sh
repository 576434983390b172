# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
# apt's source entries for Debian 12's archive, sourced by
# tools/knc/install-deps (bookworm-backports' binary packages),
# tools/knc/build-libpfm4.sh (source packages); tools/knc/build-qemu.sh and
# tools/knc/linux-src.sh read other suites through apt_private, without
# touching the machine's apt state.
#
#   apt_has_source TYPE SUITE
#	apt has a TYPE (deb or deb-src) entry for SUITE, in a deb822
#	.sources file or a one-line .list file.
#   apt_archive_uri
#	the archive the binary packages come from: the first URI of
#	debian.sources, else deb.debian.org.
#   apt_add_source TYPE SUITE FILE
#	unless apt_has_source TYPE SUITE, writes FILE: a TYPE entry for
#	SUITE main, from apt_archive_uri, signed by Debian's
#	archive keyring, and says so on stderr. Returns 0 when it wrote FILE
#	(the caller runs apt-get update), 1 when apt had the entry already.
#   apt_private DIR TYPE SUITE
#	a sources list of the caller's own in DIR: a TYPE entry for SUITE
#	main from apt_archive_uri, with apt's lists and cache under DIR, and
#	in APT_PRIVATE the options that make apt-get and apt-cache use it
#	and nothing of the machine's (the caller runs apt-get update).

APT_SOURCES_DIR=${APT_SOURCES_DIR:-/etc/apt}

apt_has_source() {
	local type=$1 suite=$2
	awk -v type="$type" -v suite="$suite" 'BEGIN { RS = "" }
		function has(field, word,   n, w, i) {
			if (!match($0, "(^|\n)" field ":[^\n]*"))
				return 0
			n = split(substr($0, RSTART, RLENGTH), w, /[ \t\n]+/)
			for (i = 2; i <= n; i++)
				if (w[i] == word)
					return 1
			return 0
		}
		has("Types", type) && has("Suites", suite) &&
			!match($0, /(^|\n)Enabled: *no/) { found = 1 }
		END { exit !found }' "$APT_SOURCES_DIR"/sources.list.d/*.sources 2>/dev/null ||
		awk -v type="$type" -v suite="$suite" '
			$1 == type {
				i = 2
				if ($i ~ /^\[/)
					while ($i !~ /\]$/ && i < NF)
						i++
				if ($i ~ /^\[/ || $i ~ /\]$/)
					i++
				if ($(i + 1) == suite)
					found = 1
			}
			END { exit !found }' "$APT_SOURCES_DIR"/sources.list \
			"$APT_SOURCES_DIR"/sources.list.d/*.list 2>/dev/null
}

apt_archive_uri() {
	local uri

	uri=$(sed -n 's/^URIs: *//p' "$APT_SOURCES_DIR"/sources.list.d/debian.sources 2>/dev/null |
		head -n 1)
	uri=${uri%% *}
	echo "${uri:-http://deb.debian.org/debian}"
}

apt_add_source() {
	local type=$1 suite=$2 file=$3 uri

	apt_has_source "$type" "$suite" && return 1
	uri=$(apt_archive_uri)
	printf '%s: adding a %s entry for %s %s (%s)\n' "$(basename "$0" .sh)" \
		"$type" "$uri" "$suite" "$file" >&2
	printf 'Types: %s\nURIs: %s\nSuites: %s\nComponents: main\nSigned-By: %s\n' \
		"$type" "$uri" "$suite" /usr/share/keyrings/debian-archive-keyring.gpg >"$file"
}

APT_PRIVATE=()
apt_private() {
	local dir=$1 type=$2 suite=$3

	# shellcheck disable=SC2034 # the callers read it
	APT_PRIVATE=(-o "Dir::Etc::SourceList=$dir/sources.list" -o Dir::Etc::SourceParts=/nonexistent
		-o "Dir::State::Lists=$dir/lists" -o "Dir::Cache=$dir/cache")
	mkdir -p "$dir/lists/partial" "$dir/cache/archives/partial"
	printf '%s [signed-by=%s] %s %s main\n' "$type" /usr/share/keyrings/debian-archive-keyring.gpg \
		"$(apt_archive_uri)" "$suite" >"$dir/sources.list"
}
