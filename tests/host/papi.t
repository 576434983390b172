#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# PAPI's view of KNC (Debian's PAPI and libpfm4, unpatched) names the same
# 59 events as tools/perf/pmu-events/knc, as TAP.
set -uo pipefail
cd "$(dirname "$0")/../.." || exit 1

log=$(mktemp)
. tests/host/tap.sh

echo "TAP version 13"
if command -v papi_native_avail >/dev/null; then
	# libpfm4's KNC table, forced: this CPU is no KNC.
	LIBPFM_FORCE_PMU=knc papi_native_avail 2>&1 |
		awk '/^\| [A-Z0-9_]+ / { print tolower($2) }' | sort >"$log.papi"
	python3 tools/knc/gen-events.py --list-table | sort >"$log.json"
	diff -u "$log.json" "$log.papi" >"$log"
	st=$?
	[ "$(wc -l <"$log.json")" -eq 59 ] || { echo "the JSON has not 59 events" >>"$log"; st=1; }
else
	echo "papi_native_avail is not installed (make deps)" >"$log"
	st=1
fi
result $st "libpfm4's knc events, through PAPI, are the JSON's 59" "$log"
rm -f "$log" "$log.papi" "$log.json"

echo "1..$n"
exit $bad
