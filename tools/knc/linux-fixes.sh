#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Fixes to Linux's own Knights Corner driver (arch/x86/events/intel/knc.c)
# and to the x86 core's RDPMC offer, as git format-patch series, one defect
# per patch: for upstream against Linux 7.3, the newest Linux Debian's
# registry serves (linux-source-7.3, prepared by tools/knc/linux-src.sh),
# and the same fixes for stable against 6.12 and 6.1 (Debian's
# linux-source-6.12 and linux-source-6.1). tests/host/linux-fixes.t applies
# each to its base, checks it with that tree's checkpatch.pl and builds it.
#
#   tools/knc/linux-fixes.sh [OUT]    (default: build/linux-fixes/series)
#   tools/knc/linux-fixes.sh --7.3-only OUT
#                   7.3's series only (OUT/7.3/): what
#                   tools/knc/debug-kernel.sh applies, without reading the
#                   6.12 and 6.1 tarballs
#
#   OUT/BASE/knc/   the knc.c series (BASE 7.3, 6.12, 6.1): a cover letter
#                   and three patches; 7.3's with To: and Cc: from 7.3's
#                   scripts/get_maintainer.pl
#   OUT/BASE/x86/   the x86 core's RDPMC fix, one patch, a posting of its
#                   own (arch/x86/events/core.c, any x86 PMU)
#
# Each patch is From: and Signed-off-by: whoever runs this, as git config
# user.name and user.email give them (an error without them).
# Each base's series is made in a scratch git repository holding only the
# files it touches, so it applies to the whole tree with `git am` or
# `patch -p1`. The edits are below, once for all bases: exact replacements
# that must match once, with what differs between the bases filled in
# (the MSR accessors' names, event->mmap_count's type). Patch 1 uses the x86
# core's event select helpers; on 6.1 it keeps its first form, the same
# fix open-coded. The messages, the notes below each "---" and the
# cover letters are in tools/knc/linux-fixes/: NAME.msg and NAME.notes,
# NAME-BASE.msg or NAME-BASE.notes where a base has its own, @BASE@ and
# @WRMSR_SAFE@ filled in.
set -euo pipefail

REPO=$(cd "$(dirname "$0")/../.." && pwd)
TARBALL_61=${KNC_LINUX_TARBALL:-/usr/src/linux-source-6.1.tar.xz}
TARBALL_612=${KNC_LINUX_TARBALL_612:-/usr/src/linux-source-6.12.tar.xz}
MSG=$REPO/tools/knc/linux-fixes
# Its own scratch repositories: tools/knc/debug-kernel.sh makes the series
# too, maybe while tests/host/linux-fixes.t does.
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT
# ONLY: the one base to make (empty: all three)
ONLY=
if [ "${1:-}" = --7.3-only ]; then
	ONLY=7.3
	shift
fi
OUT=$(realpath -m "${1:-$REPO/build/linux-fixes/series}")
KNC=arch/x86/events/intel/knc.c
CORE=arch/x86/events/core.c

die() { echo "linux-fixes: $*" >&2; exit 1; }
# the sender, who signs off (series-lib.sh's series_ident)
# shellcheck source=tools/knc/series-lib.sh
. "$REPO/tools/knc/series-lib.sh"
series_ident linux-fixes || exit 1
name=$SERIES_NAME email=$SERIES_EMAIL
[ "$ONLY" = 7.3 ] || [ -f "$TARBALL_61" ] || die "$TARBALL_61 not found (apt-get install linux-source-6.1)"
[ -n "$ONLY" ] || [ -f "$TARBALL_612" ] ||
	die "$TARBALL_612 not found (apt-get install -t bookworm-backports linux-source-6.12; tools/knc/install-deps)"
# Linux 7.3's tree (cached; fetched from trixie-backports the first time)
TREE_73=${KNC_LINUX_TREE_73:-$("$REPO/tools/knc/linux-src.sh" 2>"$WORK/linux-src.log")} ||
	die "tools/knc/linux-src.sh failed: $(cat "$WORK/linux-src.log")"

rm -rf "$OUT"
mkdir -p "$OUT"

# replace FILE: stdin holds the old text, a line "====", the new text; the
# old text must occur exactly once in FILE.
replace() {
	python3 -c '
import sys
path = sys.argv[1]
old, new = sys.stdin.read()[:-1].split("\n====\n")
src = open(path).read()
if src.count(old) != 1:
    sys.exit("linux-fixes: %d matches in %s for:\n%s" % (src.count(old), path, old))
open(path, "w").write(src.replace(old, new, 1))
' "$1"
}

# text NAME EXT: tools/knc/linux-fixes/NAME-BASE.EXT or NAME.EXT, filled in
text() {
	local f=$MSG/$1.$2
	[ ! -f "$MSG/$1-$base.$2" ] || f=$MSG/$1-$base.$2
	sed -e "s/@BASE@/$base/g" -e "s/@WRMSR_SAFE@/$wrmsr_safe/g" "$f"
}

commit() {	# commit NAME
	git add -A
	git commit -q -F - <<-MSG
	$(text "$1" msg)

	Signed-off-by: $name <$email>
	MSG
	git notes add -m "$(text "$1" notes)"
}

# series BASE: the scratch repository of BASE's files (in the current
# directory), the four patches committed on it
series() {
	git init -q
	git config user.name "$name"
	git config user.email "$email"
	git add -A
	git commit -q -m "Linux $base: the files the series touch"
	git tag base

	# 1. Counter 1's event select: config_base already is its MSR.
	if [ "$base" = 6.1 ]; then
		for op in '&= ~' '|= '; do
			replace "$KNC" <<EOF
	val ${op}ARCH_PERFMON_EVENTSEL_ENABLE;

	(void)$wrmsr_safe(hwc->config_base + hwc->idx, val);
====
	val ${op}ARCH_PERFMON_EVENTSEL_ENABLE;

	(void)$wrmsr_safe(hwc->config_base, val);
EOF
		done
	else
		replace "$KNC" <<EOF
static inline void
knc_pmu_disable_event(struct perf_event *event)
{
	struct hw_perf_event *hwc = &event->hw;
	u64 val;

	val = hwc->config;
	val &= ~ARCH_PERFMON_EVENTSEL_ENABLE;

	(void)$wrmsr_safe(hwc->config_base + hwc->idx, val);
}

static void knc_pmu_enable_event(struct perf_event *event)
{
	struct hw_perf_event *hwc = &event->hw;
	u64 val;

	val = hwc->config;
	val |= ARCH_PERFMON_EVENTSEL_ENABLE;

	(void)$wrmsr_safe(hwc->config_base + hwc->idx, val);
}
====
static void knc_pmu_enable_event(struct perf_event *event)
{
	/*
	 * Not x86_pmu_enable_event(): x86_pmu_enable() starts the events it
	 * scheduled before it sets cpuc->enabled, and GLOBAL_CTRL, which
	 * knc_pmu_enable_all() sets, gates the counters anyway.
	 */
	__x86_pmu_enable_event(&event->hw, ARCH_PERFMON_EVENTSEL_ENABLE);
}
EOF
		replace "$KNC" <<'EOF'
	.disable		= knc_pmu_disable_event,
====
	.disable		= x86_pmu_disable_event,
EOF
	fi
	commit 0001-evtsel1

	# 2. An NMI without overflow status leaves as the handler's other
	# exit does: the counters are enabled again only if the PMU is.
	replace "$KNC" <<'EOF'
	status = knc_pmu_get_status();
	if (!status) {
		knc_pmu_enable_all(0);
		return handled;
	}
====
	status = knc_pmu_get_status();
	if (!status)
		goto done;
EOF
	commit 0002-disabled-pmu

	# 3. Unmask the LVT entry at that exit: status clear, counters not
	# yet on.
	replace "$KNC" <<'EOF'
#include <asm/hardirq.h>
====
#include <asm/apic.h>
#include <asm/hardirq.h>
EOF
	replace "$KNC" <<'EOF'
done:
	/* Only restore PMU state when it's active. See x86_pmu_disable(). */
====
done:
	/*
	 * The APIC masked the LVT entry when it delivered the PMI. Unmask it
	 * with the overflow status clear, as a set status keeps the PMI line
	 * high, and before the counters run again, so that their next
	 * overflow raises a PMI (Intel document 327357-001, 1.4.3.9).
	 */
	apic_write(APIC_LVTPC, APIC_DM_NMI);

	/* Only restore PMU state when it's active. See x86_pmu_disable(). */
EOF
	commit 0003-lvtpc
	git tag knc

	# 4. x86 core: a counter only on the page of an event that is mapped.
	replace "$CORE" <<'EOF'
	if (atomic_inc_return(&mm->context.perf_rdpmc_allowed) == 1)
		on_each_cpu_mask(mm_cpumask(mm), cr4_update_pce, NULL, 1);
}
====
	if (atomic_inc_return(&mm->context.perf_rdpmc_allowed) == 1)
		on_each_cpu_mask(mm_cpumask(mm), cr4_update_pce, NULL, 1);

	/*
	 * perf_mmap() wrote the page before it counted this mapping, so
	 * without a counter (see x86_pmu_event_idx()): offer it now.
	 */
	perf_event_update_userpage(event);
}
EOF
	replace "$CORE" <<EOF
	struct hw_perf_event *hwc = &event->hw;

	if (!(hwc->flags & PERF_EVENT_FLAG_USER_READ_CNT))
		return 0;

	if (is_metric_idx(hwc->idx))
====
	struct hw_perf_event *hwc = &event->hw;

	/*
	 * RDPMC is allowed in the mm of a task that mapped this event
	 * (x86_pmu_event_mapped()). An event whose output goes to another
	 * event's buffer writes that event's page, which a task may have
	 * mapped with RDPMC still disabled: no counter there, user space
	 * must read() instead.
	 */
	if (!(hwc->flags & PERF_EVENT_FLAG_USER_READ_CNT) ||
	    !$mmap_count_read(&event->mmap_count))
		return 0;

	if (is_metric_idx(hwc->idx))
EOF
	commit 0004-rdpmc-redirect
}

# format DIR PREFIX OPTS...: the knc series (with the backports' cover
# letter) and the x86 patch into DIR/knc and DIR/x86, subjects [PREFIX ...]
format() {
	local dir=$1 prefix=$2
	shift 2
	git format-patch -q --notes --cover-letter --subject-prefix="$prefix" "$@" \
		-o "$dir/knc" base..knc
	text cover-letter-stable txt >"$WORK/cover.txt"
	python3 "$REPO/tools/knc/cover-letter.py" "$dir/knc/0000-cover-letter.patch" "$WORK/cover.txt"
	git format-patch -q --notes --subject-prefix="$prefix" "$@" -o "$dir/x86" knc..HEAD
}

# maintainers PATCH...: get_maintainer.pl's To: (maintainers) and Cc:
# (reviewers and lists) options for git format-patch, from 7.3's tree
maintainers() {
	local gm=(perl "$TREE_73/scripts/get_maintainer.pl" --no-git --no-git-fallback --no-rolestats)
	(
		cd "$TREE_73" || exit 1
		"${gm[@]}" --nor --nol "$@" | sed 's/^/--to=/'
		"${gm[@]}" --nom "$@" | sed 's/^/--cc=/'
	)
}

# Linux 7.3, for upstream: To: and Cc: for each series from its own patches.
base=7.3 wrmsr_safe=wrmsrq_safe mmap_count_read=refcount_read
mkdir -p "$WORK/$base/${KNC%/*}" && cd "$WORK/$base"
cp "$TREE_73/$KNC" "$KNC" && cp "$TREE_73/$CORE" "$CORE"
series
git format-patch -q -o "$WORK/plain/knc" base..knc
git format-patch -q -o "$WORK/plain/x86" knc..HEAD
mapfile -t knc_to < <(maintainers "$WORK"/plain/knc/000[1-9]-*.patch)
mapfile -t x86_to < <(maintainers "$WORK"/plain/x86/*.patch)
if [ ${#knc_to[@]} -eq 0 ] || [ ${#x86_to[@]} -eq 0 ]; then
	die "get_maintainer.pl named nobody"
fi
git format-patch -q --notes --cover-letter "${knc_to[@]}" -o "$OUT/$base/knc" base..knc
text cover-letter txt >"$WORK/cover.txt"
python3 "$REPO/tools/knc/cover-letter.py" "$OUT/$base/knc/0000-cover-letter.patch" "$WORK/cover.txt"
git format-patch -q --notes "${x86_to[@]}" -o "$OUT/$base/x86" knc..HEAD

# 6.12 and 6.1, for stable: [PATCH 6.12 ...], [PATCH 6.1 ...].
bases=(6.12 6.1)
[ -z "$ONLY" ] || bases=()
for base in "${bases[@]}"; do
	wrmsr_safe=wrmsrl_safe mmap_count_read=atomic_read
	tarball=$TARBALL_61
	[ "$base" = 6.1 ] || tarball=$TARBALL_612
	mkdir -p "$WORK/$base" && cd "$WORK/$base"
	tar xf "$("$REPO/tools/knc/plain-tar" "$tarball")" --strip-components=1 --occurrence=1 \
		"linux-source-$base/$KNC" "linux-source-$base/$CORE"
	series
	format "$OUT/$base" "PATCH $base"
done
(cd "$OUT" && find . -name '*.patch' | sort)
