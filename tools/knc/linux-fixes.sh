#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Fixes to Linux's own Knights Corner driver (arch/x86/events/intel/knc.c)
# and to the x86 core's RDPMC offer, as a git format-patch series against
# Linux 6.1 (Debian's linux-source-6.1), one defect per patch, for upstream
# and stable; the same patches apply to 6.12 (tests/host/linux-fixes.t).
#
#   tools/knc/linux-fixes.sh [OUT]    (default: build/linux-fixes/series)
#
# As tools/knc/intree-series.sh does, the series is made in a scratch git
# repository holding only the files it touches, taken from
# /usr/src/linux-source-6.1.tar.xz (KNC_LINUX_TARBALL); it applies to the
# whole tree with `git am` or `patch -p1`. Each patch's edit is below: an
# exact replacement that must match once. The commit messages, the notes
# below each patch's "---" and the cover letter are in tools/knc/linux-fixes/.
set -euo pipefail

REPO=$(cd "$(dirname "$0")/../.." && pwd)
TARBALL=${KNC_LINUX_TARBALL:-/usr/src/linux-source-6.1.tar.xz}
TOP=linux-source-6.1
MSG=$REPO/tools/knc/linux-fixes
# Its own scratch repository: tools/knc/debug-kernel.sh makes the series
# too, maybe while tests/host/linux-fixes.t does.
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT
OUT=${1:-$REPO/build/linux-fixes/series}
KNC=arch/x86/events/intel/knc.c
CORE=arch/x86/events/core.c

die() { echo "linux-fixes: $*" >&2; exit 1; }
[ -f "$TARBALL" ] || die "$TARBALL not found (apt-get install linux-source-6.1)"

rm -rf "$OUT"
mkdir -p "$OUT"
tar xf "$TARBALL" -C "$WORK" --strip-components=1 --occurrence=1 "$TOP/$KNC" "$TOP/$CORE"
cd "$WORK"
git init -q
# The repo's git user signs off (its last commit's author where none is set).
git config user.name "$(git -C "$REPO" config user.name || git -C "$REPO" log -1 --format=%an)"
git config user.email "$(git -C "$REPO" config user.email || git -C "$REPO" log -1 --format=%ae)"
git add -A
git commit -q -m "Linux 6.1 (Debian's linux-source-6.1): the files the series touches"
base=$(git rev-parse HEAD)
signoff="Signed-off-by: $(git config user.name) <$(git config user.email)>"

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

commit() {	# commit NAME: tools/knc/linux-fixes/NAME.msg, NAME.notes
	git add -A
	git commit -q -F - <<-MSG
	$(cat "$MSG/$1.msg")
	$signoff
	MSG
	git notes add -F "$MSG/$1.notes"
}

# 1. Counter 1's event select: config_base already is its MSR.
for op in '&= ~' '|= '; do
	replace "$KNC" <<EOF
	val ${op}ARCH_PERFMON_EVENTSEL_ENABLE;

	(void)wrmsrl_safe(hwc->config_base + hwc->idx, val);
====
	val ${op}ARCH_PERFMON_EVENTSEL_ENABLE;

	(void)wrmsrl_safe(hwc->config_base, val);
EOF
done
commit 0001-evtsel1

# 2. An NMI without overflow status leaves as the handler's other exit
# does: the counters are enabled again only if the PMU is.
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

# 3. Unmask the LVT entry at that exit: status clear, counters not yet on.
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
replace "$CORE" <<'EOF'
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
	    !atomic_read(&event->mmap_count))
		return 0;

	if (is_metric_idx(hwc->idx))
EOF
commit 0004-rdpmc-redirect

git format-patch -q --notes --cover-letter -o "$OUT" "$base"
python3 "$REPO/tools/knc/cover-letter.py" "$OUT"/0000-cover-letter.patch "$MSG/cover-letter.txt"
ls "$OUT"
