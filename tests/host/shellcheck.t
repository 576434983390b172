#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# ShellCheck on every shell script in git, as TAP: the scripts with a
# bash or sh #! line and the libraries the suites source
# (tests/guest/lib/*.sh, tests/host/*.sh) or knc-vm sources
# (tools/knc/vm/*.sh), at severity warning, following sourced files (-x).
# A library's names that only its callers use carry a shellcheck
# directive saying so; knc-vm's pieces share its names throughout, so
# theirs are not checked (SC2034, SC2154).
# Under pipefail, no grep -q at the end of a pipe: it exits at its first
# match, the writer dies of SIGPIPE and the pipe fails although grep found
# what it looked for (grep ... >/dev/null reads its whole input).
set -uo pipefail
cd "$(dirname "$0")/../.." || exit 1

log=$(mktemp)
. tests/host/tap.sh

echo "TAP version 13"
if ! command -v shellcheck >/dev/null; then
	result 1 "shellcheck is not installed (tools/knc/install-deps)"
	echo "1..$n"
	exit 1
fi
mapfile -t scripts < <(git ls-files | while read -r f; do
	[ -f "$f" ] || continue
	if [[ $f == tests/guest/lib/*.sh || $f == tests/host/*.sh || $f == tools/knc/vm/*.sh ]] ||
		head -n 1 "$f" | grep -E '^#!(/usr)?/bin/(env )?(ba)?sh$' >/dev/null; then
		echo "$f"
	fi
done)
[ "${#scripts[@]}" -gt 20 ]
result $? "the shell scripts are found (${#scripts[@]})"
for f in "${scripts[@]}"; do
	opts=()
	[[ $f != tools/knc/vm/*.sh ]] || opts=(--exclude 'SC2034,SC2154')
	shellcheck -x -S warning "${opts[@]}" "$f" >"$log" 2>&1
	result $? "shellcheck $f" "$log"
	if grep -E '^[[:space:]]*set -[a-z]*o pipefail|^[[:space:]]*set -o pipefail' "$f" >/dev/null; then
		grep -n -E '[|][[:space:]]*grep[[:space:]]+(-[a-zA-Z]*q|--quiet)' "$f" >"$log"
		[ ! -s "$log" ]
		result $? "$f: no grep -q at the end of a pipe under pipefail" "$log"
	fi
done
rm -f "$log"
echo "1..$n"
exit $bad
