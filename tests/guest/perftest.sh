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

# Each test runs in its own session, its output in a file: on timeout the
# whole session is killed (perf test's shell tests leave children behind
# that would otherwise keep running, or keep a pipe open).
run_one() {	# run_one N LOG: the test's exit status, 124 on timeout
	local pid s
	setsid perf test "$1" >"$2" 2>&1 </dev/null &
	pid=$!
	for ((s = 0; s < limit; s++)); do
		kill -0 "$pid" 2>/dev/null || break
		sleep 1
	done
	if kill -0 "$pid" 2>/dev/null; then
		kill -KILL -- "-$pid" 2>/dev/null
		wait "$pid"
		return 124
	fi
	wait "$pid"
}

log=$dir/out
while IFS=$'\t' read -r n name; do
	run_one "$n" "$log"
	rc=$?
	if [ $rc -eq 124 ]; then
		res=TIMEOUT
	elif grep -q -E ': FAILED!' "$log"; then
		res=FAILED
	elif grep -q -E ': Ok$' "$log"; then
		res=Ok
	elif grep -q -E ': Skip' "$log"; then
		res=Skip
	else
		res=FAILED
	fi
	printf 'perftest\t%s\t%s\t%s\n' "$n" "$res" "$name"
	if [ "$res" != Ok ] && [ "$res" != Skip ]; then
		tail -n 5 "$log" | sed 's/^/# /'
	fi
	# a killed test may leave its tracing on: turn it off for the next
	if [ "$res" = TIMEOUT ] && [ -w /sys/kernel/tracing/tracing_on ]; then
		echo nop >/sys/kernel/tracing/current_tracer 2>/dev/null
		echo 0 >/sys/kernel/tracing/tracing_on 2>/dev/null
	fi
done <<<"$list"
cd / && rm -rf "$dir"
