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
"$tmp/tools/knc/check-times" --label zz-t --commit abc1234 --machine "a test" "$tmp/run.log" >"$log" 2>&1
md=$tmp/tools/knc/check-times.md
{
	grep -q '^| CPU s | .* | zz-t |$' "$md" &&
		grep -q '^| make qemu | .* | 624 |$' "$md" &&
		grep -q '^| make deps | .* | 90 |$' "$md" &&
		grep -q '^| debug-model | .* | 1056 |$' "$md" &&
		grep -q '^| \*\*CPU, in all\*\* | .* | 6911 |$' "$md" &&
		grep -q '^| \*\*wall\*\* | .* | 3682 s (61 min) |$' "$md" &&
		grep -q '^- zz-t: a test; .*, abc1234; builds cold: make deps, make qemu; 906 passed, 0 failed$' "$md"
} || cat "$md" >>"$log"
result $? "a tests/run log becomes a column: its builds (cold), suites, totals and result" "$log"

: >"$log"
printf 'no totals here\n' >"$tmp/bad.log"
! "$tmp/tools/knc/check-times" --label bad "$tmp/bad.log" >"$log" 2>&1 &&
	grep -q "has no tests/run totals" "$log" && [ ! -e "$tmp/tools/knc/check-times.d/bad.txt" ]
result $? "a log without tests/run's totals is refused, and nothing recorded" "$log"
echo "1..$n"
exit $bad
