# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
# The scratch repository of a git format-patch series against a Linux
# source tarball, sourced by tools/knc/intree-series.sh and
# tools/knc/perf-events-series.sh: the repository holds only the files
# the series touches, taken from the tarball, so the series applies to the
# whole tree with `git am` or `patch -p1`.
#
#   series_init WORK TARBALL TOP SUBJECT FILE...
#	WORK (if empty, a temporary directory removed on exit) becomes a
#	git repository of FILE... (paths below TOP, the tarball's top
#	directory) committed with SUBJECT, and the current directory
#	(SERIES_WORK); the sender (series_ident) is its author and signs
#	off. SERIES_DATE, if set, dates every commit: the same inputs then
#	make the same series, byte for byte.
#   series_ident WHO
#	SERIES_NAME and SERIES_EMAIL: git config user.name and user.email
#	as git reads them here (the repository's, the user's, GIT_CONFIG_*),
#	the From: and Signed-off-by: of whoever makes the series; without
#	them WHO fails with a line saying so, never with a stand-in. The
#	builds that apply a series and send nothing (make perf, make
#	debug-kernel) are given one by the Makefile (BUILD_IDENT).
#   series_commit MSGFILE
#	commits the work tree with MSGFILE's text and the sign-off.
#   series_format OUT COVER [OPTION...]
#	writes the series since the base with a cover letter into OUT, its
#	subject and blurb from COVER (tools/knc/cover-letter.py); OPTIONs
#	(--to=..., --cc=...) go to git format-patch.

SERIES_REPO=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)

series_ident() {
	SERIES_NAME=$(git -C "$SERIES_REPO" config user.name || true)
	SERIES_EMAIL=$(git -C "$SERIES_REPO" config user.email || true)
	[ -n "$SERIES_NAME" ] && [ -n "$SERIES_EMAIL" ] && return 0
	echo "$1: no git identity to sign the patches off with; set yours:" \
		"git config --global user.name 'Your Name'; git config --global user.email you@example.org" >&2
	return 1
}

series_init() {
	local work=$1 tarball=$2 top=$3 subject=$4
	shift 4
	series_ident "${0##*/}" || return 1
	if [ -z "$work" ]; then
		work=$(mktemp -d)
		# shellcheck disable=SC2064 # the directory is known now
		trap "rm -rf '$work'" EXIT
	fi
	rm -rf "$work"
	mkdir -p "$work"
	# shellcheck disable=SC2034 # for the caller
	SERIES_WORK=$work
	tar xf "$("$SERIES_REPO/tools/knc/plain-tar" "$tarball")" -C "$work" --strip-components=1 --occurrence=1 "${@/#/$top/}"
	cd "$work" || return 1
	if [ -n "${SERIES_DATE:-}" ]; then
		export GIT_AUTHOR_DATE=$SERIES_DATE GIT_COMMITTER_DATE=$SERIES_DATE
	fi
	git init -q
	git config user.name "$SERIES_NAME"
	git config user.email "$SERIES_EMAIL"
	git add -A
	git commit -q -m "$subject"
	SERIES_BASE=$(git rev-parse HEAD)
	SERIES_SIGNOFF="Signed-off-by: $SERIES_NAME <$SERIES_EMAIL>"
}

series_commit() {
	git add -A
	git commit -q -F - <<-MSG
	$(cat "$1")

	$SERIES_SIGNOFF
	MSG
}

series_format() {
	git format-patch -q --cover-letter "${@:3}" -o "$1" "$SERIES_BASE"
	python3 "$SERIES_REPO/tools/knc/cover-letter.py" "$1"/0000-cover-letter.patch "$2"
}
