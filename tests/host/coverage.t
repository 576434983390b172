#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# tools/knc/coverage and tests/run's coverage job on a synthetic gcov
# build: a file of arch/x86/events/knc/ compiled with --coverage into
# build/debug/knc and run once, in a copy of the tool's tree. The floor is
# a share of the modules' instrumented lines, met or not, which the KUnit
# build's copy of the same file does not make up; a failed suite, a missing
# gcov build and a floor file without its share fail the job, as does
# tests/run's job without a debug suite. As TAP.
set -uo pipefail
cd "$(dirname "$0")/../.." || exit 1
. tests/host/tap.sh

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
log=$tmp/diag
top=$PWD

echo "TAP version 13"
mkdir -p "$tmp/tools/knc" "$tmp/arch/x86/events/knc" "$tmp/build/debug/knc" "$tmp/tests"
cp tools/knc/coverage "$tmp/tools/knc/"
cat >"$tmp/arch/x86/events/knc/knc_fake.c" <<'EOC'
int knc_fake(int x)
{
	if (x > 100)
		return x * 2;
	return x + 1;
}

#ifndef ARG
#define ARG 1
#endif
int main(void)
{
	return knc_fake(ARG) > 0 ? 0 : 1;
}
EOC
# a suite's profile as knc-vm --gcov leaves it: under a path that names
# the build
prof=$tmp/cov/debug/suite/sys/kernel/debug/gcov$tmp/build/debug/knc
(cd "$tmp/build/debug/knc" &&
	gcc --coverage -O0 -o fake "$tmp/arch/x86/events/knc/knc_fake.c" &&
	./fake && mkdir -p "$prof" && mv ./*.gcda "$prof/knc_fake.gcda" &&
	for f in ./*.gcno; do mv "$f" knc_fake.gcno; done) >"$log" 2>&1
result $? "a synthetic gcov build and a suite's profile" "$log"

# cov FLOOR [ARG...]: tools/knc/coverage on the profile, FLOOR the floor
# file's text; its status, its output in $log
cov() {
	printf '%s\n' "$1" >"$tmp/tests/coverage-floor"
	shift
	(cd "$tmp" && tools/knc/coverage --floor tests/coverage-floor "$@" cov/debug) >"$log" 2>&1
}
line() { grep -E -q -- "$1" "$log" || { echo "no line matches $1"; false; } >>"$log"; }

cov "percent 50" && line '^ok 1 - debug: the modules. profile, [1-9][0-9]* lines executed' &&
	line '^ok 2 - coverage: the suites executed ([0-9]+) of ([0-9]+) instrumented lines of the modules \([0-9.]+%\), the floor is 50% ' &&
	line '^1\.\.2$'
result $? "a floor under the share executed: met, with the totals" "$log"

cov "percent 100"
[ $? -eq 1 ] && line '^not ok 2 - coverage: the suites executed [0-9]+ of [0-9]+ instrumented lines .*the floor is 100% '
result $? "a floor over the share executed (a line never ran): the job fails" "$log"

cov "lines 1"
[ $? -eq 1 ] && line "^not ok 2 - tests/coverage-floor has no 'percent P' line"
result $? "a floor file without its share fails" "$log"

cov "percent 50" --failed debug-model
[ $? -eq 1 ] && line '^not ok 2 - debug-model failed' && line '^ok 3 - coverage: the suites executed'
result $? "a failed suite fails the job, which still counts the others' lines" "$log"

# The KUnit build's copy of the file, its profile the other branch's: its
# lines are its own, and the modules' line stays unexecuted.
kprof=$tmp/cov/debug/suite/sys/kernel/debug/gcov$tmp/build/debug/kunit
mkdir -p "$tmp/build/debug/kunit"
(cd "$tmp/build/debug/kunit" &&
	gcc --coverage -O0 -DARG=200 -o fake "$tmp/arch/x86/events/knc/knc_fake.c" &&
	./fake && mkdir -p "$kprof" && mv ./*.gcda "$kprof/knc_fake.gcda" &&
	for f in ./*.gcno; do mv "$f" knc_fake.gcno; done) >"$log" 2>&1 &&
	cov "percent 100"
[ $? -eq 1 ] && line '^not ok 2 - coverage: the suites executed [0-9]+ of [0-9]+ instrumented lines of the modules .*the floor is 100% ' &&
	line '^# knc_fake\.c \(KUnit\) +[0-9]+ +[1-9]'
result $? "the KUnit build's lines are its own: its calls do not count as the modules'" "$log"
rm -rf "$tmp/build/debug/kunit" "$tmp/cov/debug/suite/sys/kernel/debug/gcov$tmp/build/debug/kunit"

rm "$tmp"/build/debug/knc/*.gcno
cov "percent 50"
[ $? -eq 1 ] && line '^not ok 1 - the modules. gcov build: no notes' && line '^1\.\.1$' &&
	! grep -q SKIP "$log"
result $? "without a gcov build the job fails, it does not skip" "$log"

# tests/run's job: the debug suites asked for that failed, or none asked for
sed -n '/^COVERED=(/,/)$/p; /^coverage() {$/,/^}$/p' "$top/tests/run" >"$tmp/job.sh"
# shellcheck source=/dev/null
. "$tmp/job.sh"
R=$tmp/R
mkdir -p "$R/failed" "$tmp/build/coverage" && : >"$R/failed/debug-model"
: >"$tmp/tools/knc/coverage.args"
cat >"$tmp/tools/knc/coverage" <<'EOC'
#!/bin/sh
echo "$*" >"$(dirname "$0")/coverage.args"
EOC
chmod +x "$tmp/tools/knc/coverage"
# (jobs: the job list coverage reads)
# shellcheck disable=SC2034
jobs=(debug debug-model unit coverage)
(cd "$tmp" && coverage) >"$log" 2>&1 &&
	args=$(cat "$tmp/tools/knc/coverage.args") && echo "the tool's arguments: $args" >>"$log" &&
	[ "$args" = "--failed debug-model --floor tests/coverage-floor --out build/coverage/table.txt build/coverage/debug build/coverage/debug-model" ]
result $? "tests/run's job passes the debug suites that failed to the tool" "$log"

# shellcheck disable=SC2034
jobs=(unit coverage)
(cd "$tmp" && coverage) >"$log" 2>&1
[ $? -eq 1 ] && line "^not ok 1 - coverage: no debug kernel's suite ran" && line '^1\.\.1$'
result $? "tests/run's job without a debug suite fails" "$log"
echo "1..$n"
exit $bad
