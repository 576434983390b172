#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# perf's vendor events for Knights Corner, as a git format-patch series
# against Linux 6.12 (Debian's linux-source-6.12): the core PMU's events
# and the mapfile.csv row (patch 1), and the metrics (patch 2), in
# tools/perf/pmu-events/arch/x86/knightscorner/.
#
#   tools/knc/perf-events-series.sh [OUT]    (default: build/perf-events/series)
#
# The JSON is generated from tools/perf/pmu-events/knc/ by
# tools/knc/gen-events.py --perf-events, --perf-mapfile: nothing is
# written twice. As tools/knc/intree-series.sh, the series is made in a
# scratch git repository holding only the files it touches, taken from
# /usr/src/linux-source-6.12.tar.xz (KNC_LINUX_612_TARBALL), with
# tools/knc/series-lib.sh. Its commits are dated by the last commit of
# its inputs, so the same inputs give the same series. The commit
# messages and the cover letter are tools/knc/perf-events/*.
# tests/host/perf-events-series.t checks it.
set -euo pipefail

REPO=$(cd "$(dirname "$0")/../.." && pwd)
. "$REPO/tools/knc/series-lib.sh"
TARBALL=${KNC_LINUX_612_TARBALL:-/usr/src/linux-source-6.12.tar.xz}
TOP=linux-source-6.12
MSG=$REPO/tools/knc/perf-events
OUT=${1:-$REPO/build/perf-events/series}
EVENTS=tools/perf/pmu-events/arch/x86/knightscorner
MAPCSV=tools/perf/pmu-events/arch/x86/mapfile.csv
GEN=("python3" "$REPO/tools/knc/gen-events.py")
INPUTS=(tools/perf/pmu-events/knc tools/knc/gen-events.py tools/knc/perf-events
	tools/knc/perf-events-series.sh tools/knc/series-lib.sh)

die() { echo "perf-events-series: $*" >&2; exit 1; }
[ -f "$TARBALL" ] || die "$TARBALL not found (apt-get install -t bookworm-backports linux-source-6.12)"

SERIES_DATE=$(git -C "$REPO" log -1 --format=%aD -- "${INPUTS[@]}")
export SERIES_DATE
rm -rf "$OUT"
mkdir -p "$OUT"
series_init "" "$TARBALL" "$TOP" \
	"Linux 6.12 (Debian's linux-source-6.12): the files the series touches" "$MAPCSV"

# 1. The events and their mapfile.csv row; 2. the metrics (jevents.py
# takes any *metrics.json for metrics).
"${GEN[@]}" --perf-events "$EVENTS" --perf-mapfile "$MAPCSV"
metrics=("$EVENTS"/*metrics.json)
if [ "${#metrics[@]}" -ne 1 ] || [ ! -f "${metrics[0]}" ]; then
	die "no metrics file in $EVENTS"
fi
mv "${metrics[0]}" "$SERIES_WORK/.git/metrics.json"
series_commit "$MSG/0001-events.msg"
mv "$SERIES_WORK/.git/metrics.json" "${metrics[0]}"
series_commit "$MSG/0002-metrics.msg"

series_format "$OUT" "$MSG/cover-letter.txt"
ls "$OUT"
