#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Stock `perf test` in the guest, each top-level test on its own under a
# timeout (the whole run does not finish in 25 minutes under TCG), from an
# empty directory (perf test runs ./tests/ scripts when it finds them).
# Prints one line per test: "perftest<TAB>N<TAB>RESULT<TAB>NAME", RESULT one
# of Ok, FAILED, Skip, TIMEOUT. tools/knc/perf-test runs it with and
# without knc and compares.
#
#   tests/guest/perftest.sh [N...]   (default: every test perf test list lists)
#
# KNC_PERF_TEST_TIMEOUT: seconds per test (default 150).
set -u
limit=${KNC_PERF_TEST_TIMEOUT:-150}
dir=$(mktemp -d)
cd "$dir" || exit 1

# " 12: Name" lines; subtests (" 12.3: ...") belong to their test.
list=$(perf test list 2>&1 | sed -n -E 's/^ *([0-9]+): (.*)$/\1\t\2/p')
if [ $# -gt 0 ]; then
	list=$(echo "$list" | awk -F'\t' -v want=" $* " 'index(want, " " $1 " ")')
fi
[ -n "$list" ] || { echo "perftest: perf test list listed nothing" >&2; exit 1; }

while IFS=$'\t' read -r n name; do
	out=$(timeout -k 10 "$limit" perf test "$n" 2>&1 </dev/null)
	rc=$?
	if [ $rc -eq 124 ] || [ $rc -eq 137 ]; then
		res=TIMEOUT
	elif echo "$out" | grep -q -E ': FAILED!'; then
		res=FAILED
	elif echo "$out" | grep -q -E ': Ok$'; then
		res=Ok
	elif echo "$out" | grep -q -E ': Skip'; then
		res=Skip
	else
		res=FAILED
	fi
	printf 'perftest\t%s\t%s\t%s\n' "$n" "$res" "$name"
	if [ "$res" = FAILED ]; then
		echo "$out" | tail -n 5 | sed 's/^/# /'
	fi
done <<<"$list"
cd / && rm -rf "$dir"
