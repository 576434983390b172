#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# tests/debug-cut names cases that exist. run_cases leaves out, on the debug
# kernel, the cases whose "SCRIPT: NAME" line it finds there; a case renamed
# after its line was written would run there again without a word. Each
# line must name a guest script and a case that script, or a library of
# tests/guest/lib/ it can take cases from, adds with a literal name.
set -uo pipefail
cd "$(dirname "$0")/../.." || exit 1
. tests/host/tap.sh

echo "TAP version 13"
log=$(mktemp)
trap 'rm -f "$log"' EXIT
# the literal names case_add and case_add_to give in FILE...
names() {
	sed -nE 's/^[[:space:]]*case_add(_to [A-Z_]+)?( --[a-z]+)? "([^"$]*)".*/\3/p' "$@"
}
entries=0
while IFS= read -r line; do
	case $line in '#'* | '') continue ;; esac
	entries=$((entries + 1))
	script=${line%%: *} name=${line#*: }
	if [ "$script" = "$line" ] || [ ! -f "tests/guest/$script" ]; then
		echo "no guest script: $line" >>"$log"
	# grep reads all of it: with -q it would stop at the first match, and
	# sed, killed by SIGPIPE, fail the pipeline (pipefail)
	elif ! names "tests/guest/$script" tests/guest/lib/*.sh | grep -xF -- "$name" >/dev/null; then
		echo "$script adds no case named: $name" >>"$log"
	fi
done <tests/debug-cut
[ "$entries" -gt 0 ] || echo "tests/debug-cut lists no case" >>"$log"
[ ! -s "$log" ]
result $? "each of tests/debug-cut's $entries cases is one a guest script adds" "$log"
echo "1..$n"
exit $bad
