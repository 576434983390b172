#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# tests/run's reading of a suite's TAP (its function tally): the counts it
# gives fake suites' outputs and exit statuses. A suite skipped whole
# ("1..0 # SKIP") is one skipped only when that line is its whole plan; a
# SKIP line beside cases, or beside another plan, does not stand in for
# the plan, and a plan not met or a non-zero exit without a failing case
# is one failure. And what the end of a run shows of a failed suite (its
# function digest). As TAP.
set -uo pipefail
cd "$(dirname "$0")/../.." || exit 1
. tests/host/tap.sh

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
log=$tmp/diag

echo "TAP version 13"
# tally as tests/run defines it
sed -n '/^tally() {$/,/^}$/p' tests/run >"$tmp/tally.sh"
# shellcheck source=/dev/null
grep -q '^}$' "$tmp/tally.sh" && . "$tmp/tally.sh"
result $? "tests/run defines tally" "$tmp/tally.sh"

# expect TITLE STATUS WANT TAP: tally of TAP (with \n escapes) that its
# suite exited with STATUS is "WANT 7 9" (passed failed skipped, then
# the seconds and CPU given)
expect() {
	local got status
	printf '%b' "$4" >"$tmp/out"
	got=$(tally fake "$tmp/out" "$2" 7 9)
	[ "$got" = "$3 7 9" ]
	status=$?
	{ echo "tally gave \"$got\", expected \"$3 7 9\", for:"; cat "$tmp/out"; } >"$log"
	result $status "$1" "$log"
}

expect "two cases of a plan of two, exit 0: two passed" \
	0 "2 0 0" 'TAP version 13\nok 1 - a\nok 2 - b\n1..2\n'
expect "a case skipped: one passed, one skipped" \
	0 "1 0 1" 'ok 1 - a\nok 2 - b # SKIP no b\n1..2\n'
expect "a failing case, exit 1: one failure" \
	1 "1 1 0" 'ok 1 - a\nnot ok 2 - b\n1..2\n'
expect "fewer cases than planned: one failure" \
	0 "1 1 0" 'ok 1 - a\n1..2\n'
expect "no plan: one failure" \
	0 "1 1 0" 'ok 1 - a\n'
expect "exit 1 without a failing case: one failure" \
	1 "2 1 0" 'ok 1 - a\nok 2 - b\n1..2\n'
expect "the skip plan (1..0, SKIP) as the whole plan, exit 0: one skipped" \
	0 "0 0 1" 'TAP version 13\n1..0 # SKIP no gcov build\n'
expect "the skip plan (1..0, SKIP) as the whole plan but exit 1: one failure" \
	1 "0 1 0" '1..0 # SKIP no gcov build\n'
expect "the skip plan (1..0, SKIP) after cases (no other plan): one failure" \
	0 "2 1 0" 'ok 1 - a\nok 2 - b\n1..0 # SKIP not this\n'
expect "the skip plan (1..0, SKIP) before a plan met, exit 1: two plans, one failure" \
	1 "2 1 0" '1..0 # SKIP not this\nok 1 - a\nok 2 - b\n1..2\n'
expect "the skip plan (1..0, SKIP) beside a plan not met: one failure" \
	0 "1 1 0" 'ok 1 - a\n1..0 # SKIP not this\n1..2\n'
expect "the skip plan (1..0, SKIP) beside a failing case: its failure and the plans'" \
	1 "0 2 0" 'not ok 1 - a\n1..0 # SKIP not this\n'

# digest as tests/run defines it: what the end of a run shows of a failed
# suite
sed -n '/^digest() {$/,/^}$/p' tests/run >"$tmp/digest.sh"
# shellcheck source=/dev/null
grep -q '^}$' "$tmp/digest.sh" && . "$tmp/digest.sh"
result $? "tests/run defines digest" "$tmp/digest.sh"

# expect_digest TITLE TAP WANT: digest of TAP is WANT (both with \n escapes)
expect_digest() {
	local status
	printf '%b' "$2" >"$tmp/out"
	printf '%b' "$3" >"$tmp/want"
	digest "$tmp/out" >"$tmp/got"
	cmp -s "$tmp/want" "$tmp/got"
	status=$?
	{ echo "digest gave:"; cat "$tmp/got"; echo "expected:"; cat "$tmp/want"; } >"$log"
	result $status "$1" "$log"
}

expect_digest "digest: a failing case and its diagnostics, not the cases that passed" \
	'ok 1 - a\n# a note\nnot ok 2 - b\n# got 1\n# want 2\nok 3 - c\n# later\n1..3\n' \
	'not ok 2 - b\n# got 1\n# want 2\n'
expect_digest "digest: a failing case's diagnostics, six lines of them" \
	'not ok 1 - a\n# 1\n# 2\n# 3\n# 4\n# 5\n# 6\n# 7\n1..1\n' \
	'not ok 1 - a\n# 1\n# 2\n# 3\n# 4\n# 5\n# 6\n'
expect_digest "digest: no failing case (the guest died): the last twelve lines" \
	"TAP version 13\n$(printf 'line %d\\n' $(seq 1 14))# suite fake: planned no cases, ran 0\n" \
	"$(printf 'line %d\\n' $(seq 4 14))# suite fake: planned no cases, ran 0\n"
expect_digest "digest: a dead guest: knc-vm's error, then the last twelve lines" \
	"knc-vm: booting\nknc-vm: error: the guest never reported CMD's exit status\n$(printf 'line %d\\n' $(seq 1 12))" \
	"knc-vm: error: the guest never reported CMD's exit status\n$(printf 'line %d\\n' $(seq 1 12))"
# a suite tests/run did not start because the suite it needs failed
# (run_job): its one line is why
expect_digest "digest: a suite not started, its need failed: that line" \
	'1..0 # SKIP debug failed\n' '1..0 # SKIP debug failed\n'
echo "1..$n"
exit $bad
