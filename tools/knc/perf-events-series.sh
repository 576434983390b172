#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# perf's vendor events for Knights Corner, as a git format-patch series
# against Linux 7.3 (Debian's linux-source-7.3, the newest Linux its
# registry serves: tools/knc/linux-src.sh --tarball): intel_metrics.py
# skipping the metric groups a model has no events for (patch 1), the
# core PMU's events and the mapfile.csv row (patch 2) and the metrics
# (patch 3), in tools/perf/pmu-events/arch/x86/knightscorner/.
#
#   tools/knc/perf-events-series.sh [OUT]    (default: build/perf-events/series)
#   tools/knc/perf-events-series.sh --inputs  (what it reads of this tree,
#                                              a path a line, and exit)
#
# The JSON is generated from tools/perf/pmu-events/knc/ by
# tools/knc/gen-events.py --perf-events, --perf-mapfile: nothing is
# written twice. Patch 1 is tools/knc/perf-events/0001-intel-metrics.diff.
# As tools/knc/intree-series.sh, the series is made in a scratch git
# repository holding only the files it touches, taken from the tarball
# (KNC_LINUX_73_TARBALL), with tools/knc/series-lib.sh. Its commits are
# dated by the last commit of its inputs, so the same inputs give the
# same series. To: and Cc: are what 7.3's scripts/get_maintainer.pl
# gives for the patches (from the tarball's MAINTAINERS). The commit
# messages and the cover letter are tools/knc/perf-events/*.
# tests/host/perf-events-series.t checks it.
set -euo pipefail

REPO=$(cd "$(dirname "$0")/../.." && pwd)
INPUTS=(tools/perf/pmu-events/knc tools/knc/gen-events.py tools/knc/perf-events
	tools/knc/perf-events-series.sh tools/knc/series-lib.sh)
if [ "${1:-}" = --inputs ]; then
	printf '%s\n' "${INPUTS[@]}"
	exit 0
fi
. "$REPO/tools/knc/series-lib.sh"
TARBALL=${KNC_LINUX_73_TARBALL:-$("$REPO/tools/knc/linux-src.sh" --tarball)}
TOP=linux-source-7.3
MSG=$REPO/tools/knc/perf-events
OUT=${1:-$REPO/build/perf-events/series}
EVENTS=tools/perf/pmu-events/arch/x86/knightscorner
MAPCSV=tools/perf/pmu-events/arch/x86/mapfile.csv
METRICS_PY=tools/perf/pmu-events/intel_metrics.py
GEN=("python3" "$REPO/tools/knc/gen-events.py")

die() { echo "perf-events-series: $*" >&2; exit 1; }
[ -f "$TARBALL" ] || die "$TARBALL not found (tools/knc/linux-src.sh --tarball fetches it)"

SERIES_DATE=$(git -C "$REPO" log -1 --format=%aD -- "${INPUTS[@]}")
export SERIES_DATE
rm -rf "$OUT"
mkdir -p "$OUT"
# The base holds get_maintainer.pl and MAINTAINERS too: one pass over the
# tarball.
GM=(MAINTAINERS scripts/get_maintainer.pl)
series_init "" "$TARBALL" "$TOP" \
	"Linux 7.3 (Debian's linux-source-7.3): the files the series touches, MAINTAINERS" \
	"$MAPCSV" "$METRICS_PY" "${GM[@]}"

# 1. intel_metrics.py; 2. the events and their mapfile.csv row; 3. the
# metrics (jevents.py takes any *metrics.json for metrics).
git apply "$MSG/0001-intel-metrics.diff" || die "0001-intel-metrics.diff does not apply"
series_commit "$MSG/0001-intel-metrics.msg"
"${GEN[@]}" --perf-events "$EVENTS" --perf-mapfile "$MAPCSV"
metrics=("$EVENTS"/*metrics.json)
if [ "${#metrics[@]}" -ne 1 ] || [ ! -f "${metrics[0]}" ]; then
	die "no metrics file in $EVENTS"
fi
mv "${metrics[0]}" "$SERIES_WORK/.git/metrics.json"
series_commit "$MSG/0002-events.msg"
mv "$SERIES_WORK/.git/metrics.json" "${metrics[0]}"
series_commit "$MSG/0003-metrics.msg"

# maintainers: get_maintainer.pl's To: (maintainers) and Cc: (reviewers
# and lists) options for git format-patch, as 7.3's MAINTAINERS has them.
maintainers() {
	local gm=(perl scripts/get_maintainer.pl --no-tree --no-git --no-git-fallback --no-rolestats)
	git format-patch -q -o .git/plain "$SERIES_BASE"
	"${gm[@]}" --nor --nol .git/plain/*.patch | sed 's/^/--to=/'
	"${gm[@]}" --nom .git/plain/*.patch | sed 's/^/--cc=/'
}
mapfile -t to < <(maintainers)
[ "${#to[@]}" -gt 0 ] || die "get_maintainer.pl named nobody"
series_format "$OUT" "$MSG/cover-letter.txt" "${to[@]}"
ls "$OUT"
