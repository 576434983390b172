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
#	(SERIES_WORK); the repository's git user (its last commit's author
#	where none is set) signs off. SERIES_DATE, if set, dates every
#	commit: the same inputs then make the same series, byte for byte.
#   series_commit MSGFILE
#	commits the work tree with MSGFILE's text and the sign-off.
#   series_format OUT COVER [OPTION...]
#	writes the series since the base with a cover letter into OUT, its
#	subject and blurb from COVER (tools/knc/cover-letter.py); OPTIONs
#	(--to=..., --cc=...) go to git format-patch.

SERIES_REPO=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)

series_init() {
	local work=$1 tarball=$2 top=$3 subject=$4
	shift 4
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
	git config user.name "$(git -C "$SERIES_REPO" config user.name ||
		git -C "$SERIES_REPO" log -1 --format=%an)"
	git config user.email "$(git -C "$SERIES_REPO" config user.email ||
		git -C "$SERIES_REPO" log -1 --format=%ae)"
	git add -A
	git commit -q -m "$subject"
	SERIES_BASE=$(git rev-parse HEAD)
	SERIES_SIGNOFF="Signed-off-by: $(git config user.name) <$(git config user.email)>"
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
