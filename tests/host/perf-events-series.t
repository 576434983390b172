#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# perf's vendor events for KNC (tools/knc/perf-events-series.sh, `make
# perf-events-series`): the series is made, signed off, with a filled-in
# cover letter; checkpatch.pl of Linux 7.3 finds nothing in it; it applies
# with `git am` to 7.3's tools/perf/pmu-events (linux-source-7.3, as
# tools/knc/linux-src.sh --tarball fetches it); 7.3's intel_metrics.py,
# which perf's build runs for every Intel model, stops on knightscorner
# without patch 1 and generates its metrics with it; 7.3's jevents.py
# accepts the patched tree and emits the knightscorner tables for the KNC
# CPUID; the files it adds are what tools/knc/gen-events.py makes of
# tools/perf/pmu-events/knc/ today (no drift) and keep the perf tree's
# JSON layout. The perf of `make perf` (perf 7.3: build/perf/perf, from
# its cache, or some CPU-minutes cold) is built from this series (its
# build stamp names the patches), perf test's PMU JSON and metric parsing
# suites pass, and on a KNC CPUID (PERF_CPUID, a fake sysfs with Linux's
# KNC "cpu" PMU) perf list shows every event and metric
# (tests/host/perf-events-list.py). The 7.3 files
# are unpacked once into build/perf-events/linux-7.3 (a stamp names the
# tarball). Prints TAP.
set -uo pipefail
cd "$(dirname "$0")/../.." || exit 1

log=$(mktemp)
tmp=$(mktemp -d)
. tests/host/tap.sh
TARBALL=${KNC_LINUX_73_TARBALL:-$(tools/knc/linux-src.sh --tarball 2>"$log")}
TOP=linux-source-7.3
B=build/perf-events
SERIES=$B/series
BASE=$B/linux-7.3
PERF=build/perf/perf
PMU_EVENTS=tools/perf/pmu-events
MODEL=$PMU_EVENTS/arch/x86/knightscorner

series_test_ident
echo "TAP version 13"
if [ ! -f "$TARBALL" ]; then
	echo "not ok 1 - no linux-source-7.3 tarball (tools/knc/linux-src.sh --tarball: $(cat "$log"))"
	echo "1..1"
	exit 1
fi
tools/knc/perf-events-series.sh >"$log" 2>&1
result $? "tools/knc/perf-events-series.sh makes the series" "$log"
series_made "$SERIES" 3
result $? "three patches and a filled-in cover letter"
subjects=("perf jevents: Skip Intel metric groups a model has no events for"
	"perf vendor events intel: Add Knights Corner events"
	"perf vendor events intel: Add Knights Corner metrics")
# The Subject: header, its continuation lines unfolded.
subject_of() {
	awk '/^Subject: / { s = $0; f = 1; next } f && /^ / { s = s $0; next } f { print s; exit }' "$1"
}
# The metrics need the counter 1 fix of make linux-fixes: the cover letter
# and patch 3 name it by its subject (tools/knc/linux-fixes/), and the
# cover letter holds patch 3 behind it. Lines unfolded: a subject may wrap.
fix=$(head -n 1 tools/knc/linux-fixes/0001-evtsel1.msg)
unfolded() { tr '\n' ' ' <"$1" | tr -s ' '; }
[ -n "$fix" ] && [ "${#patches[@]}" -eq 3 ] &&
	unfolded "$SERIES/0000-cover-letter.patch" | grep -F "\"$fix\"" >/dev/null &&
	unfolded "$SERIES/0000-cover-letter.patch" | grep -F "please hold patch 3 until that fix is in" >/dev/null &&
	unfolded "${patches[2]}" | grep -F "\"$fix\"" >/dev/null
result $? "the cover letter and patch 3 name the counter 1 fix ('$fix'), patch 3 held behind it"
for i in "${!patches[@]}"; do
	p=${patches[i]}
	grep -qxF "$(series_signoff)" "$p" &&
		grep -qxF "$(series_from)" "$p" &&
		[ "$(subject_of "$p")" = "Subject: [PATCH $((i + 1))/3] ${subjects[i]}" ]
	result $? "from and signed off by the sender, subject '${subjects[i]}': $(basename "$p")"
done
# To: and Cc: as 7.3's get_maintainer.pl gives them: the perf tools
# entry's maintainers and its list.
for p in "$SERIES"/0000-cover-letter.patch "${patches[@]}"; do
	sed -n '/^To: /,/^$/p' "$p" | grep 'acme@kernel.org' >/dev/null &&
		sed -n '/^Cc: /,/^$/p' "$p" | grep 'linux-perf-users@vger.kernel.org' >/dev/null
	result $? "To: and Cc: from get_maintainer.pl (7.3): $(basename "$p")"
done

# The 7.3 files: perf's pmu-events directory and checkpatch.
stamp=$(stat -c '%n %s %Y' "$TARBALL")
if [ "$(cat "$BASE.stamp" 2>/dev/null)" != "$stamp" ]; then
	rm -rf "$BASE" && mkdir -p "$BASE" &&
		tar xf "$(tools/knc/plain-tar "$TARBALL")" -C "$BASE" --strip-components=1 $TOP/$PMU_EVENTS \
			$TOP/scripts/checkpatch.pl $TOP/scripts/spelling.txt \
			$TOP/scripts/const_structs.checkpatch &&
		echo "$stamp" >"$BASE.stamp"
fi

# FILE_PATH_CHANGES asks whether MAINTAINERS needs updating for every file
# a patch adds; tools/perf/ is the perf subsystem's (F: tools/perf/), which
# --no-tree cannot see.
for p in "${patches[@]}"; do
	"$BASE/scripts/checkpatch.pl" --no-tree --strict -q --ignore FILE_PATH_CHANGES "$p" >"$log" 2>&1
	result $? "checkpatch (7.3) --strict: $(basename "$p")" "$log"
done

# jevents.py x86 reads arch/x86, arch/test and arch/common only.
tree=$tmp/linux
mkdir -p "$tree/$PMU_EVENTS/arch"
cp "$BASE/$PMU_EVENTS"/*.py "$tree/$PMU_EVENTS/"
cp -a "$BASE/$PMU_EVENTS/arch/x86" "$BASE/$PMU_EVENTS/arch/test" "$BASE/$PMU_EVENTS/arch/common" \
	"$tree/$PMU_EVENTS/arch/"
abs=("${patches[@]/#/$PWD/}")
(
	cd "$tree" && git init -q && git add -A &&
		git -c user.name=base -c user.email=base@localhost commit -q -m "Linux 7.3" &&
		git -c user.name=am -c user.email=am@localhost am -q "${abs[@]}"
) >"$log" 2>&1
result $? "git am applies the series to Linux 7.3's tools/perf/pmu-events" "$log"

# perf's build (pmu-events/Build) runs intel_metrics.py for every Intel
# model directory: 7.3's own stops on knightscorner ("No event ..."),
# patch 1's generates its metrics and their groups.
model=(knightscorner pmu-events/arch)
(
	cd "$tree/tools/perf" &&
		git show HEAD~3:tools/perf/pmu-events/intel_metrics.py >pmu-events/intel_metrics_73.py &&
		! python3 pmu-events/intel_metrics_73.py "${model[@]}" >/dev/null 2>"$tmp/stock.log" &&
		grep -q "^Exception: No event" "$tmp/stock.log" && rm pmu-events/intel_metrics_73.py &&
		python3 pmu-events/intel_metrics.py "${model[@]}" >"$tmp/extra-metrics.json" &&
		python3 pmu-events/intel_metrics.py -metricgroups "${model[@]}" \
			>"$tmp/extra-metricgroups.json" &&
		mv "$tmp"/extra-metric*.json pmu-events/arch/x86/knightscorner/
) >"$log" 2>&1
result $? "intel_metrics.py (7.3) stops on knightscorner; with patch 1 it generates its metrics" "$log"

# jevents.py as perf's build runs it, on the x86 tree.
(cd "$tree/tools/perf" &&
	python3 pmu-events/jevents.py x86 all pmu-events/arch "$tmp/pmu-events.c" "$tmp/pmu-events-string.c") \
	>"$log" 2>&1 &&
	python3 - "$tmp/pmu-events.c" >>"$log" 2>&1 <<'PY'
import re
import sys
c = open(sys.argv[1]).read()
for table in ("pmu_events__knightscorner", "pmu_metrics__knightscorner"):
    n = len(re.findall(r"^\t\{ \d+ \},$", c.split(f"{table}_default_core[] = {{")[1].split("};")[0], re.M))
    print(f"{table}: {n} entries (default_core)")
    assert n > 0, table
row = re.search(r'\.arch = "x86",\s*\.cpuid = "GenuineIntel-11-1",\s*\.event_table = \{\s*'
                r'\.pmus = pmu_events__knightscorner,.*?\.metric_table = \{\s*'
                r'\.name = "knightscorner",\s*\.pmus = pmu_metrics__knightscorner,', c, re.S)
assert row, "no x86 map entry GenuineIntel-11-1 -> knightscorner"
print("map: GenuineIntel-11-1 -> knightscorner")
PY
result $? "jevents.py (7.3) accepts the tree and emits the knightscorner tables for GenuineIntel-11-1" "$log"
# What the build generates is not the series'.
rm -f "$tree/$MODEL"/extra-metric*.json

# No drift: the series adds what gen-events.py makes of the JSON today.
mkdir -p "$tmp/gen" && cp "$BASE/$PMU_EVENTS/arch/x86/mapfile.csv" "$tmp/gen/" &&
	python3 tools/knc/gen-events.py --perf-events "$tmp/gen/knightscorner" --perf-mapfile "$tmp/gen/mapfile.csv" &&
	diff -r "$tmp/gen/knightscorner" "$tree/$MODEL" >"$log" 2>&1 &&
	diff "$tmp/gen/mapfile.csv" "$tree/$PMU_EVENTS/arch/x86/mapfile.csv" >>"$log" 2>&1
result $? "the series' files are gen-events.py --perf-events, --perf-mapfile of the JSON" "$log"

# The perf tree's layout: lists of objects, keys in alphabetical order
# (counter.json as the other models have it), 4-space indents, no Unit
# (the core PMU), the model's row in mapfile.csv among Intel's in order.
python3 - "$tree/$MODEL" "$tree/$PMU_EVENTS/arch/x86/mapfile.csv" >"$log" 2>&1 <<'PY'
import json
import pathlib
import sys
bad = []
for path in sorted(pathlib.Path(sys.argv[1]).glob("*.json")):
    text = path.read_text()
    items = json.loads(text)
    if text != json.dumps(items, indent=4, ensure_ascii=False) + "\n":
        bad.append(f"{path.name}: not in 4-space json.dumps form")
    for item in items:
        keys = list(item)
        if path.name == "counter.json":
            ok = keys == ["Unit", "CountersNumFixed", "CountersNumGeneric"]
        else:
            ok = keys == sorted(keys) and "Unit" not in item
        if not ok:
            bad.append(f"{path.name}: {keys}")
    names = [i.get("EventName") or i.get("MetricName") for i in items]
    if path.name != "counter.json" and names != sorted(names):
        bad.append(f"{path.name}: not sorted by name")
intel = [r.split(",")[2] for r in open(sys.argv[2]).read().splitlines()
         if r.startswith("GenuineIntel-")]
if "knightscorner" not in intel or intel.index("knightscorner") + 1 != intel.index("knightslanding"):
    bad.append("mapfile.csv: knightscorner is not just before knightslanding")
print("\n".join(bad))
sys.exit(1 if bad else 0)
PY
result $? "the files have the perf tree's layout (sorted keys and names, no Unit, mapfile order)" "$log"

# make perf's perf 7.3 (tests/guest/linux-knc.sh runs it on the model),
# built or taken from the cache: its build stamp, the cache's key, names
# each patch of this series by its contents (build-perf.sh leaves out the
# commit ids, dates and recipients).
stamp_has_series() {
	local p
	for p in "${patches[@]}"; do
		grep -qxF "patch $(basename "$p") $(tools/knc/build-perf.sh --series-digest "$p")" \
			"$(dirname "$PERF")/.build-stamp" || { echo "not built from $p"; return 1; }
	done
}
make -s perf >"$log" 2>&1 && [ -x "$PERF" ] && stamp_has_series >>"$log" 2>&1
result $? "make perf: $PERF, built from this series" "$log"
if [ -x "$PERF" ]; then
	# By number: perf test matches a suite of subtests by their names.
	for t in "PMU JSON event tests" "Parse and process metrics"; do
		num=$("$PERF" test list 2>&1 | awk -v t="$t" -F': ' '$2 == t { print $1 + 0 }')
		"$PERF" test -v "${num:-none}" >"$log" 2>&1 &&
			grep -q ": Ok$" "$log" && ! grep -E -q ": (FAILED!|Skip)" "$log"
		result $? "$PERF test '$t': $(grep -c ": Ok$" "$log") Ok" "$log"
	done
	# Linux's KNC driver's "cpu" PMU, at a type no kernel hands out.
	cpu=$tmp/sys/bus/event_source/devices/cpu
	mkdir -p "$cpu/format"
	echo 65000 >"$cpu/type"
	for f in event:0-7 umask:8-15 edge:18 inv:23 cmask:24-31; do
		echo "config:${f#*:}" >"$cpu/format/${f%%:*}"
	done
	SYSFS_PATH=$tmp/sys PERF_CPUID=GenuineIntel-11-1-0 tests/host/perf-events-list.py "$PERF" >"$log" 2>&1
	result $? "perf list on a KNC CPUID (PERF_CPUID, fake sysfs): $(grep -c '^ok' "$log") checks of tests/host/perf-events-list.py" "$log"
fi
rm -rf "$log" "$tmp"
echo "1..$n"
exit $bad
