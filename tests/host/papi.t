#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# PAPI's view of KNC (Debian's PAPI and libpfm4, unpatched) names the same
# 59 events as tools/perf/pmu-events/knc, and its presets name events of
# that table, as TAP.
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

# PAPI's presets on a KNC: each one event of the JSON, and the table in
# Documentation/knc-pmu.rst ("PAPI's presets") lists the same pairs.
if command -v papi_avail >/dev/null; then
	for p in $(LIBPFM_FORCE_PMU=knc papi_avail -a 2>&1 | awk '/^PAPI_/ { print $1 }'); do
		LIBPFM_FORCE_PMU=knc papi_avail -e "$p" |
			sed -n "s/^ Native Code\[0\]: [0-9a-fx]* |\([A-Z0-9_]*\).*/$p \L\1/p"
	done | sort >"$log.papi"
	awk '/^   \* - ``PAPI_/ { gsub(/`/, "", $3); p = $3; next }
	     p && /^     - ``/ { gsub(/`/, "", $2); print p, $2; p = "" }' \
		Documentation/knc-pmu.rst | sort >"$log.doc"
	diff -u "$log.papi" "$log.doc" >"$log"
	st=$?
	[ "$(wc -l <"$log.papi")" -eq 14 ] || { echo "not 14 presets" >>"$log"; st=1; }
	cut -d' ' -f2 "$log.papi" | grep -v -x -F -f "$log.json" >>"$log" && st=1
else
	st=1
fi
result $st "PAPI's 14 KNC presets are JSON events, as the documentation's table says" "$log"
rm -f "$log" "$log.papi" "$log.json" "$log.doc"

echo "1..$n"
exit $bad
