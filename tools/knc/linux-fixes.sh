#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Fixes to Linux's own Knights Corner driver (arch/x86/events/intel/knc.c)
# and to the RDPMC offer of perf's core and the x86 core, as git
# format-patch series, one change per patch: for upstream against Linux
# 7.3, the newest Linux Debian's registry serves (linux-source-7.3,
# prepared by tools/knc/linux-src.sh), and, once they are upstream, the
# fixes marked for stable against 6.12 and 6.1 (Debian's linux-source-6.12
# and linux-source-6.1), in stable's form. tests/host/linux-fixes.t
# applies each to its base, checks it with that tree's checkpatch.pl and
# builds it.
#
#   tools/knc/linux-fixes.sh [OUT]    (default: build/linux-fixes/series)
#   tools/knc/linux-fixes.sh --7.3-only OUT
#                   7.3's series only (OUT/7.3/): what
#                   tools/knc/debug-kernel.sh applies, without reading the
#                   6.12 and 6.1 tarballs
#   tools/knc/linux-fixes.sh -h | --help    this text
#
#   OUT/7.3/knc/    the knc.c series: a cover letter and four patches,
#                   1 counter 1's event select (stable), 2 the NMI that
#                   re-enables a disabled PMU (no reproducer: not for
#                   stable), 3 the LVT unmask (stable), 4 the move to the
#                   x86 core's event select helpers (a cleanup: not for
#                   stable); To: and Cc: from 7.3's
#                   scripts/get_maintainer.pl
#   OUT/7.3/x86/    the RDPMC series, a posting of its own: a cover
#                   letter, 1 perf's core counts a new buffer's mapping
#                   before it writes the buffer's user page
#                   (kernel/events/core.c), 2 the x86 core offers RDPMC
#                   only on the page of an event that is mapped
#                   (arch/x86/events/core.c); both for stable
#   OUT/BASE/knc/, OUT/BASE/x86/ (BASE 6.12, 6.1): the backports, only the
#                   patches marked for stable, [PATCH BASE n/m], each the
#                   upstream commit's message with "commit SHA upstream."
#                   first in its body
#
# The tags come from a Linux git history, LINUX_GIT=/path/to/linux.git
# (a clone of torvalds/linux, bare or not, with the tags v7.3, v6.12 and
# v6.1):
# - Fixes: <12 hex> ("subject") on each fix: the oldest commit of
#   LINUX_GIT's v7.3 that adds the defect's code to its file (or to the
#   file's name before arch/x86/events/: git log -S, below in
#   culprit()), checked to be an ancestor of v7.3 and of each stable base
#   a backport is made for; an error if it is not;
# - Cc: stable@vger.kernel.org on the fixes marked for stable, only with
#   their Fixes: tag: without LINUX_GIT no patch has Fixes: or Cc: stable
#   (its notes say so, and so does this script on stderr), and none is
#   for posting to stable as made;
# - the backports are written only when LINUX_GIT has every stable fix
#   upstream: a commit of LINUX_UPSTREAM (default: LINUX_GIT's HEAD) after
#   v7.3 with the patch's subject, touching its file. Otherwise none is
#   written, and stderr says which fix is not upstream yet.
# Link: on patch 1 points at the public report, pinned to a commit of its
# repository. Each patch is From: and Signed-off-by: whoever runs this,
# as git config user.name and user.email give them (an error without
# them), in one trailer block (git interpret-trailers --parse reads it
# whole).
#
# Each base's series is made in a scratch git repository holding only the
# files it touches, so it applies to the whole tree with `git am` or
# `patch -p1`. The edits are below, once for all bases: exact replacements
# that must match once, with what differs between the bases filled in
# (the MSR accessors' names, event->mmap_count's type, perf_mmap()'s
# shape). The messages, the notes below each "---" and the cover letters
# are in tools/knc/linux-fixes/: NAME.msg and NAME.notes, NAME-BASE.notes
# where a backport has its own, @BASE@ and @WRMSR_SAFE@ filled in.
set -euo pipefail

REPO=$(cd "$(dirname "$0")/../.." && pwd)
case ${1:-} in
-h | --help)
	sed -n '3,/^set -euo/{/^set -euo/d;s/^# \{0,1\}//;p}' "$0"
	exit 0 ;;
esac
TARBALL_61=${KNC_LINUX_TARBALL:-/usr/src/linux-source-6.1.tar.xz}
TARBALL_612=${KNC_LINUX_TARBALL_612:-/usr/src/linux-source-6.12.tar.xz}
MSG=$REPO/tools/knc/linux-fixes
LINUX_GIT=${LINUX_GIT:-}
LINUX_UPSTREAM=${LINUX_UPSTREAM:-HEAD}
# The public report of patch 1's defect, at the commit of its repository
# that added the measurements
REPORT=https://github.com/Lasimeri/Intel-Phi-3120A/blob/95861e3b752a706184997815339bff5a186714d9/card/examples/phiperf.md
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
EVCORE=kernel/events/core.c
# the same files before v4.6 moved them to arch/x86/events/
KNC_OLD=arch/x86/kernel/cpu/perf_event_knc.c
CORE_OLD=arch/x86/kernel/cpu/perf_event.c

# The patches: knc.c's series, then the RDPMC series; those for stable;
# the defect each fixes (culprit()); the one with a Link: to the report.
KNC_PATCHES=(0001-evtsel1 0002-disabled-pmu 0003-lvtpc 0004-evtsel-helpers)
X86_PATCHES=(0005-userpage-order 0006-rdpmc-redirect)
declare -A STABLE=([0001-evtsel1]=1 [0003-lvtpc]=1 [0005-userpage-order]=1 [0006-rdpmc-redirect]=1)
declare -A DEFECT=([0001-evtsel1]=evtsel [0002-disabled-pmu]=nmi [0003-lvtpc]=handler
	[0005-userpage-order]=rdpmc [0006-rdpmc-redirect]=rdpmc)
declare -A LINK=([0001-evtsel1]=$REPORT)

die() { echo "linux-fixes: $*" >&2; exit 1; }
say() { echo "linux-fixes: $*" >&2; }
# the sender, who signs off (series-lib.sh's series_ident)
# shellcheck source=tools/knc/series-lib.sh
. "$REPO/tools/knc/series-lib.sh"
series_ident linux-fixes || exit 1
name=$SERIES_NAME email=$SERIES_EMAIL
# Linux 7.3's tree (cached; fetched from trixie-backports the first time)
TREE_73=${KNC_LINUX_TREE_73:-$("$REPO/tools/knc/linux-src.sh" 2>"$WORK/linux-src.log")} ||
	die "tools/knc/linux-src.sh failed: $(cat "$WORK/linux-src.log")"

lgit() { git -C "$LINUX_GIT" "$@"; }

# culprit DEFECT: "Fixes: <12 hex> (\"subject\")" for the commit of
# LINUX_GIT's v7.3 that introduced DEFECT: the oldest that adds its code
# (git log -S counts the string's occurrences in each commit's change of
# the files, the old paths included, so the move to arch/x86/events/ is
# not the one found), an ancestor of each base in BASES.
culprit() {
	local str paths c b
	case $1 in
	# counter 1's event select written to config_base + idx
	evtsel) str='config_base + hwc->idx' paths=("$KNC" "$KNC_OLD") ;;
	# the no-status exit that enables the counters unconditionally
	nmi) str=$'knc_pmu_enable_all(0);\n\t\treturn handled;' paths=("$KNC" "$KNC_OLD") ;;
	# the PMI handler, without the LVT unmask since it was added
	handler) str='knc_pmu_handle_irq(struct pt_regs *regs)' paths=("$KNC" "$KNC_OLD") ;;
	# RDPMC allowed per mm, for the events it mapped
	rdpmc) str='perf_rdpmc_allowed' paths=("$CORE" "$CORE_OLD") ;;
	*) die "culprit: no defect $1" ;;
	esac
	c=$(lgit log --reverse --format=%H -S"$str" v7.3 -- "${paths[@]}" | sed -n 1p)
	str=${str//$'\n'/\\n}
	[ -n "$c" ] || die "$LINUX_GIT: no commit of v7.3 adds '$str' to ${paths[*]}"
	for b in "${BASES[@]}"; do
		lgit merge-base --is-ancestor "$c" "v$b" ||
			die "$LINUX_GIT: $c, which added '$str', is not an ancestor of v$b"
	done
	lgit log -1 --format='Fixes: %H ("%s")' "$c" | sed 's/^\(Fixes: .\{12\}\)[0-9a-f]*/\1/'
}

# upstream NAME FILE: the commit of LINUX_UPSTREAM after v7.3 whose subject
# is NAME's and which touches FILE (the oldest), or nothing
upstream() {
	local subject
	subject=$(sed -n 1p "$MSG/$1.msg")
	lgit log --reverse --format='%H%x09%s' "v7.3..$LINUX_UPSTREAM" -- "$2" |
		awk -F '\t' -v s="$subject" '!found && $2 == s { print $1; found = 1 }'
}

# BASES: the bases made: 7.3, and the stable ones when their backports
# can be made (every stable fix upstream in LINUX_GIT)
BASES=(7.3)
declare -A FIXES=() UPSTREAM=()
if [ -z "$LINUX_GIT" ]; then
	say "no LINUX_GIT (a Linux git history): no Fixes: tags, so no Cc: stable either, and no backports;" \
		"name a tree (LINUX_GIT=/path/to/linux.git) for the series to post"
else
	lgit rev-parse -q --verify 'v7.3^{commit}' >/dev/null || die "$LINUX_GIT: no tag v7.3"
	if [ -z "$ONLY" ]; then
		missing=
		for p in "${KNC_PATCHES[@]}" "${X86_PATCHES[@]}"; do
			[ -n "${STABLE[$p]:-}" ] || continue
			f=$KNC
			case $p in
			0005-*) f=$EVCORE ;;
			0006-*) f=$CORE ;;
			esac
			UPSTREAM[$p]=$(upstream "$p" "$f") || exit 1
			[ -n "${UPSTREAM[$p]}" ] || missing+=" $p"
		done
		if [ -n "$missing" ]; then
			say "not upstream in $LINUX_GIT ($LINUX_UPSTREAM):$missing; no backports for stable (they come after upstream)"
		else
			BASES+=(6.12 6.1)
		fi
	fi
	for b in "${BASES[@]}"; do
		lgit rev-parse -q --verify "v$b^{commit}" >/dev/null || die "$LINUX_GIT: no tag v$b"
	done
	declare -A found=()
	for p in "${!DEFECT[@]}"; do
		d=${DEFECT[$p]}
		if [ -z "${found[$d]:-}" ]; then
			found[$d]=$(culprit "$d") || exit 1
		fi
		FIXES[$p]=${found[$d]}
	done
fi
for b in "${BASES[@]}"; do
	case $b in
	6.1) [ -f "$TARBALL_61" ] || die "$TARBALL_61 not found (apt-get install linux-source-6.1)" ;;
	6.12) [ -f "$TARBALL_612" ] ||
		die "$TARBALL_612 not found (apt-get install -t bookworm-backports linux-source-6.12; tools/knc/install-deps)" ;;
	esac
done

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

# message NAME: NAME's commit message for this base, its tags one block:
# upstream (7.3) the message, Fixes:, Link:, Cc: stable (with Fixes:
# only), Signed-off-by:; a backport the upstream commit's message with
# "commit SHA upstream." first in its body, and the sender's sign-off
# unless it is that message's last line.
message() {
	local p=$1 up
	if [ "$base" != 7.3 ]; then
		up=${UPSTREAM[$p]}
		lgit log -1 --format=%B "$up" | python3 -c '
import sys
subject, _, body = sys.stdin.read().strip().partition("\n")
lines = [subject, "", "commit %s upstream." % sys.argv[1], body.rstrip()]
if body.rstrip().split("\n")[-1] != sys.argv[2]:
    lines.append(sys.argv[2])
print("\n".join(lines))
' "$up" "Signed-off-by: $name <$email>"
		return
	fi
	text "$p" msg
	echo
	[ -z "${FIXES[$p]:-}" ] || echo "${FIXES[$p]}"
	[ -z "${LINK[$p]:-}" ] || echo "Link: ${LINK[$p]}"
	[ -z "${FIXES[$p]:-}" ] || [ -z "${STABLE[$p]:-}" ] || echo "Cc: stable@vger.kernel.org"
	echo "Signed-off-by: $name <$email>"
}

# notes NAME: what goes below the "---"
notes() {
	text "$1" notes
	if [ "$base" = 7.3 ] && [ -n "${STABLE[$1]:-}" ] && [ -z "${FIXES[$1]:-}" ]; then
		printf '\n%s\n%s\n%s\n' "No Fixes: tag and no Cc: stable: made without a Linux git history" \
			"(LINUX_GIT) to find the commit that introduced the defect in; not for" \
			"posting as is."
	fi
}

commit() {	# commit NAME
	git add -A
	message "$1" >"$WORK/msg"
	git commit -q -F "$WORK/msg"
	git notes add -m "$(notes "$1")"
}

# edit NAME: the change of patch NAME to the current directory's files
edit() {
	case $1 in
	0001-evtsel1)
		# Counter 1's event select: config_base already is its MSR.
		for op in '&= ~' '|= '; do
			replace "$KNC" <<EOF
	val ${op}ARCH_PERFMON_EVENTSEL_ENABLE;

	(void)$wrmsr_safe(hwc->config_base + hwc->idx, val);
====
	val ${op}ARCH_PERFMON_EVENTSEL_ENABLE;

	(void)$wrmsr_safe(hwc->config_base, val);
EOF
		done ;;
	0002-disabled-pmu)
		# An NMI without overflow status leaves as the handler's other
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
		;;
	0003-lvtpc)
		# Unmask the LVT entry at that exit: status clear, counters not
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
		;;
	0004-evtsel-helpers)
		# The x86 core's event select helpers, as the Intel core
		# driver's general-purpose counters use.
		replace "$KNC" <<EOF
static inline void
knc_pmu_disable_event(struct perf_event *event)
{
	struct hw_perf_event *hwc = &event->hw;
	u64 val;

	val = hwc->config;
	val &= ~ARCH_PERFMON_EVENTSEL_ENABLE;

	(void)$wrmsr_safe(hwc->config_base, val);
}

static void knc_pmu_enable_event(struct perf_event *event)
{
	struct hw_perf_event *hwc = &event->hw;
	u64 val;

	val = hwc->config;
	val |= ARCH_PERFMON_EVENTSEL_ENABLE;

	(void)$wrmsr_safe(hwc->config_base, val);
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
		;;
	0005-userpage-order)
		# perf's core: a new buffer's mapping counted before its page
		# is written.
		if [ "$base" = 7.3 ]; then
			replace "$EVCORE" <<'EOF'
	perf_event_update_time(event);
	perf_event_init_userpage(event);
	perf_event_update_userpage(event);

	perf_mmap_account(vma, user_extra, extra);
	refcount_set(&event->mmap_count, 1);

	return 0;
====
	perf_mmap_account(vma, user_extra, extra);
	/*
	 * Count the mapping before the user page is written: the PMU's
	 * event_idx() may offer a counter only to an event that is mapped.
	 */
	refcount_set(&event->mmap_count, 1);

	perf_event_update_time(event);
	perf_event_init_userpage(event);
	perf_event_update_userpage(event);

	return 0;
EOF
		else
			# perf_mmap() counts every mapping at unlock:; rb is
			# set there only for a new buffer or an AUX area.
			replace "$EVCORE" <<'EOF'
		atomic_inc(&event->mmap_count);
	} else if (rb) {
====
		atomic_inc(&event->mmap_count);
		/*
		 * A new buffer's user page was written before the mapping
		 * was counted: write it again, for the PMU's event_idx(),
		 * which may offer a counter only to an event that is mapped.
		 */
		if (rb && !vma->vm_pgoff)
			perf_event_update_userpage(event);
	} else if (rb) {
EOF
		fi ;;
	0006-rdpmc-redirect)
		# x86 core: a counter only on the page of an event that is
		# mapped.
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
		;;
	*) die "edit: no patch $1" ;;
	esac
}

# series: the scratch repository of the base's files (in the current
# directory), the patches of the base committed on it: all for 7.3, those
# for stable for a backport; tags base, knc (the knc.c series' end)
series() {
	local p
	git init -q
	git config user.name "$name"
	git config user.email "$email"
	git add -A
	git commit -q -m "Linux $base: the files the series touch"
	git tag base
	for p in "${KNC_PATCHES[@]}" knc "${X86_PATCHES[@]}"; do
		if [ "$p" = knc ]; then
			git tag knc
			continue
		fi
		[ "$base" = 7.3 ] || [ -n "${STABLE[$p]:-}" ] || continue
		edit "$p"
		commit "$p"
	done
}

# format DIR PREFIX OPTS...: the knc series and the RDPMC series, each
# with its cover letter, into DIR/knc and DIR/x86, subjects [PREFIX ...]
format() {
	local dir=$1 prefix=$2
	shift 2
	git format-patch -q --notes --cover-letter --subject-prefix="$prefix" "$@" \
		-o "$dir/knc" base..knc
	text cover-letter-stable txt >"$WORK/cover.txt"
	python3 "$REPO/tools/knc/cover-letter.py" "$dir/knc/0000-cover-letter.patch" "$WORK/cover.txt"
	git format-patch -q --notes --cover-letter --subject-prefix="$prefix" "$@" -o "$dir/x86" knc..HEAD
	text cover-letter-x86-stable txt >"$WORK/cover.txt"
	python3 "$REPO/tools/knc/cover-letter.py" "$dir/x86/0000-cover-letter.patch" "$WORK/cover.txt"
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

# files DIR: the files the series touch, in DIR
files73() {
	local f
	for f in "$KNC" "$CORE" "$EVCORE"; do
		mkdir -p "${f%/*}" && cp "$TREE_73/$f" "$f"
	done
}

# Linux 7.3, for upstream: To: and Cc: for each series from its own patches.
base=7.3 wrmsr_safe=wrmsrq_safe mmap_count_read=refcount_read
mkdir -p "$WORK/$base" && cd "$WORK/$base"
files73
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
git format-patch -q --notes --cover-letter "${x86_to[@]}" -o "$OUT/$base/x86" knc..HEAD
text cover-letter-x86 txt >"$WORK/cover.txt"
python3 "$REPO/tools/knc/cover-letter.py" "$OUT/$base/x86/0000-cover-letter.patch" "$WORK/cover.txt"

# 6.12 and 6.1, for stable: [PATCH 6.12 ...], [PATCH 6.1 ...].
for base in "${BASES[@]:1}"; do
	wrmsr_safe=wrmsrl_safe mmap_count_read=atomic_read
	tarball=$TARBALL_61
	[ "$base" = 6.1 ] || tarball=$TARBALL_612
	mkdir -p "$WORK/$base" && cd "$WORK/$base"
	tar xf "$("$REPO/tools/knc/plain-tar" "$tarball")" --strip-components=1 --occurrence=1 \
		"linux-source-$base/$KNC" "linux-source-$base/$CORE" "linux-source-$base/$EVCORE"
	series
	format "$OUT/$base" "PATCH $base"
done
(cd "$OUT" && find . -name '*.patch' | sort)
