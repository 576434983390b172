#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# ShellCheck on every shell script in git, as TAP: the scripts with a
# bash or sh #! line and the libraries the guest suites source
# (tests/guest/*.sh), at severity warning, following sourced files (-x).
# A library's names that only its callers use carry a shellcheck
# directive saying so.
set -uo pipefail
cd "$(dirname "$0")/../.." || exit 1

n=0 bad=0
echo "TAP version 13"
if ! command -v shellcheck >/dev/null; then
	echo "not ok 1 - shellcheck is not installed (tools/knc/install-deps)"
	echo "1..1"
	exit 1
fi
mapfile -t scripts < <(git ls-files | while read -r f; do
	[ -f "$f" ] || continue
	if [[ $f == tests/guest/*.sh ]] ||
		head -n 1 "$f" | grep -q -E '^#!(/usr)?/bin/(env )?(ba)?sh$'; then
		echo "$f"
	fi
done)
log=$(mktemp)
for f in "${scripts[@]}"; do
	n=$((n + 1))
	if shellcheck -x -S warning "$f" >"$log" 2>&1; then
		echo "ok $n - shellcheck $f"
	else
		echo "not ok $n - shellcheck $f"
		sed 's/^/# /' "$log"
		bad=1
	fi
done
rm -f "$log"
[ "$n" -gt 20 ] || { n=$((n + 1)); echo "not ok $n - only $((n - 1)) scripts found"; bad=1; }
echo "1..$n"
exit $bad
