#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# tools/knc/check-times: tools/knc/check-times.md is what the tool writes
# from tools/knc/check-times.d/, and a tests/run log becomes a column of
# it with its builds, suites and totals. In a copy of the tool, so that the
# repository's files stay as they are. As TAP.
set -uo pipefail
cd "$(dirname "$0")/../.." || exit 1
. tests/host/tap.sh

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
log=$tmp/diag
mkdir -p "$tmp/tools/knc"
cp tools/knc/check-times "$tmp/tools/knc/"
cp -r tools/knc/check-times.d "$tmp/tools/knc/"

echo "TAP version 13"
"$tmp/tools/knc/check-times" >"$log" 2>&1 &&
	diff -u tools/knc/check-times.md "$tmp/tools/knc/check-times.md" >>"$log"
result $? "tools/knc/check-times.md is what check-times writes from check-times.d/" "$log"

cat >"$tmp/run.log" <<'EOF'
# make deps: 245 s, CPU 90 s
# make qemu: 433 s, CPU 624 s
ok 1 - a case
# each suite's wall and CPU time, in seconds, and the processes a guest suite forked
#   suite                 wall   CPU  forked
#   debug-model           1014  1056    1271
#   host/docs.t              6     6       -
# total: 3682 s, CPU 6911 s (builds included), 10925 processes forked in guests
906 passed, 0 failed
EOF
md=$tmp/tools/knc/check-times.md
# column_ok: check-times.md has run.log's column, each figure where it
# belongs; the first that is not, and the table, in $log
column_ok() {
	local want
	for want in '^| CPU s | .* | zz-t |$' \
		'^| make qemu | .* | 624 |$' \
		'^| make deps | .* | 90 |$' \
		'^| debug-model | .* | 1056 |$' \
		'^| \*\*CPU, in all\*\* | .* | 6911 |$' \
		'^| \*\*wall\*\* | .* | 3682 s (61 min) |$' \
		'^- zz-t: a test; .*, abc1234; builds cold: make deps, make qemu; 906 passed, 0 failed$'; do
		grep -q -- "$want" "$md" && continue
		{ echo "no line matches $want in check-times.md:"; cat "$md"; } >>"$log"
		return 1
	done
}
"$tmp/tools/knc/check-times" --label zz-t --commit abc1234 --machine "a test" "$tmp/run.log" >"$log" 2>&1 &&
	column_ok
result $? "a tests/run log becomes a column: its builds (cold), suites, totals and result" "$log"

# The same check fails on broken copies of the log: its CPU, its result.
declare -A breaks=(
	[CPU]='s/CPU 6911 s/CPU 9999999 s/;6911'
	[result]='s/^906 passed, 0 failed$/777 passed, 5 failed/;906 passed'
)
for what in CPU result; do
	: >"$log"
	sed -e "${breaks[$what]%;*}" "$tmp/run.log" >"$tmp/broken.log"
	! cmp -s "$tmp/run.log" "$tmp/broken.log" &&
		"$tmp/tools/knc/check-times" --label zz-t --commit abc1234 --machine "a test" \
			"$tmp/broken.log" >"$log" 2>&1 &&
		! column_ok && grep -q -F "${breaks[$what]#*;}" "$log"
	result $? "the column check fails on a copy of the log with another $what" "$log"
done

: >"$log"
printf 'no totals here\n' >"$tmp/bad.log"
! "$tmp/tools/knc/check-times" --label bad "$tmp/bad.log" >"$log" 2>&1 &&
	grep -q "has no tests/run totals" "$log" && [ ! -e "$tmp/tools/knc/check-times.d/bad.txt" ]
result $? "a log without tests/run's totals is refused, and nothing recorded" "$log"
echo "1..$n"
exit $bad
