# SPDX-License-Identifier: GPL-2.0
# TAP helpers for the shell host tests (sourced by tests/host/*.t).
# shellcheck shell=bash
# The tests that source this file read n and bad:
# shellcheck disable=SC2034
n=0 bad=0

# result STATUS NAME [LOG]: case NAME passed if STATUS is 0; else LOG, if
# given, becomes its diagnostics.
result() {
	n=$((n + 1))
	if [ "$1" -eq 0 ]; then
		echo "ok $n - $2"
	else
		echo "not ok $n - $2"
		bad=1
		[ -z "${3:-}" ] || sed 's/^/# /' "$3"
	fi
}

# skip NAME REASON: case NAME cannot run here, for REASON (TAP "# SKIP")
skip() {
	n=$((n + 1))
	echo "ok $n - $1 # SKIP $2"
}

# series_made DIR COUNT: DIR holds a git format-patch series of COUNT
# patches (their paths in the array patches) and a filled-in cover letter.
series_made() {
	patches=("$1"/000[1-9]-*.patch)
	[ "${#patches[@]}" -eq "$2" ] && [ -f "$1/0000-cover-letter.patch" ] &&
		! grep -q '\*\*\*' "$1/0000-cover-letter.patch"
}

# The series scripts sign off with the git identity of whoever runs them
# (tools/knc/series-lib.sh, series_ident); a test gives them its own
# (series_test_ident: GIT_CONFIG_*, above every config file, for the test
# and what it runs), whoever runs it. series_from, series_signoff: its
# From: and Signed-off-by: lines.
SERIES_TEST_NAME="KNC Test"
SERIES_TEST_EMAIL=knc-test@knc-pmu.invalid
series_test_ident() {
	export GIT_CONFIG_COUNT=2 GIT_CONFIG_KEY_0=user.name GIT_CONFIG_VALUE_0="$SERIES_TEST_NAME" \
		GIT_CONFIG_KEY_1=user.email GIT_CONFIG_VALUE_1="$SERIES_TEST_EMAIL"
}
series_from() {
	echo "From: $SERIES_TEST_NAME <$SERIES_TEST_EMAIL>"
}
series_signoff() {
	echo "Signed-off-by: $SERIES_TEST_NAME <$SERIES_TEST_EMAIL>"
}
