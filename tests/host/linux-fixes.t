#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# The fixes to Linux's own KNC driver and to perf's RDPMC offer
# (tools/knc/linux-fixes.sh, `make linux-fixes`). Its tags come from a
# Linux git history (LINUX_GIT); CI has none, so the test makes one of its
# own from the files the series touch: 6.1's, the RDPMC rule and knc.c
# each added by a commit of its own under their names before v4.6, then
# moved, tagged v6.1; 6.12's and 7.3's files, tagged v6.12 and v7.3. With
# it:
# - without LINUX_GIT: 7.3's series alone, no Fixes:, no Cc: stable, the
#   notes saying why;
# - before the fixes are upstream: 7.3's series, no backports; 7.3's
#   patches applied with `git am` on the history's v7.3 make them
#   upstream; a history whose v6.1 lacks the commit that added a defect
#   is then refused, and the history itself makes the backports too;
# - each patch: From: and Signed-off-by: the sender, every tag read by
#   git interpret-trailers --parse (one trailer block), Fixes: the very
#   commit that added the defect, an ancestor of the base, Cc: stable on
#   the fixes for stable, Link: to the report pinned to a commit; the
#   backports the stable fixes only, each with "commit SHA upstream."
#   first in its body, SHA the history's commit of its subject; 7.3's To:
#   and Cc: as 7.3's get_maintainer.pl gives them; each clean with its own
#   base's checkpatch.pl --strict, the history its git tree (GIT_DIR),
#   nothing ignored but, on the backports, GIT_COMMIT_ID (stable's "commit
#   SHA upstream." is not checkpatch's style for a commit quoted in a
#   message);
# - each applies in turn to its base's files with `git apply --check` and
#   `patch --dry-run -p1` (no fuzz), and a static check of the result finds
#   none of the defects. 7.3's series applies so to Linux 7.2's files too
#   (the Knights Corner card port's base; tools/knc/linux-src.sh --series
#   7.2's tree). 7.3's patched files compile without a warning (W=1) in
#   7.3's prepared tree, as objects of a directory of their own (nothing
#   is written in the tree);
# - --7.3-only, the debug kernel's way (tools/knc/debug-kernel.sh applies
#   7.3's knc then x86 series), makes 7.3's the same.
# With LINUX_GIT set (a clone of torvalds/linux with the tag v7.3), 7.3's
# series is made with it too, its Fixes: ids ancestors of v7.3 there and
# each patch clean with checkpatch looking them up there; without, that
# case is not run (no clone is at hand in CI: the small history above
# checks the same computation).
# Prints TAP.
set -uo pipefail
cd "$(dirname "$0")/../.." || exit 1

log=$(mktemp)
. tests/host/tap.sh
TARBALL_61=${KNC_LINUX_TARBALL:-/usr/src/linux-source-6.1.tar.xz}
TARBALL_612=${KNC_LINUX_TARBALL_612:-/usr/src/linux-source-6.12.tar.xz}
B=build/linux-fixes
SERIES=$B/series
FILES=(arch/x86/events/intel/knc.c arch/x86/events/core.c kernel/events/core.c)
BASES=(7.3 6.12 6.1)
# a real Linux history, if named; the runs below name their own
REAL_GIT=${LINUX_GIT:-}
unset LINUX_GIT
LG=$PWD/$B/linux.git

# extract VERSION DIR: the files the series touches, in DIR (cached: a
# stamp names the source), from 7.3's and 7.2's prepared trees, or 6.12's
# and 6.1's tarballs
extract() {
	local stamp tarball=$TARBALL_61 tree=
	case $1 in
	6.12) tarball=$TARBALL_612 ;;
	7.3) tarball=$TREE_73 tree=$TREE_73 ;;
	7.2) tarball=$TREE_72 tree=$TREE_72 ;;
	esac
	stamp=$(stat -c '%n %s %Y' "$tarball")
	[ "$(cat "$2.stamp" 2>/dev/null)" = "$stamp" ] && return 0
	rm -rf "$2" && mkdir -p "$2" || return 1
	if [ -n "$tree" ]; then
		for f in "${FILES[@]}"; do
			mkdir -p "$2/${f%/*}" && cp "$tree/$f" "$2/$f" || return 1
		done
	else
		tar xf "$(tools/knc/plain-tar "$tarball")" -C "$2" --strip-components=1 --occurrence=1 "${FILES[@]/#/linux-source-$1/}" ||
			return 1
	fi
	echo "$stamp" >"$2.stamp"
}


series_test_ident
echo "TAP version 13"
# Without a git identity no series is made, and the error says what to set.
! GIT_CONFIG_VALUE_0='' GIT_CONFIG_VALUE_1='' tools/knc/linux-fixes.sh "$(mktemp -d)/series" >"$log" 2>&1 &&
	grep -q "no git identity to sign the patches off with; set yours: git config" "$log"
result $? "without user.name and user.email linux-fixes.sh fails and says to set them" "$log"
TREE_73=$(tools/knc/linux-src.sh 2>"$log")
result $? "tools/knc/linux-src.sh prepares Linux 7.3 ($(tail -n 1 "$log"))" "$log"
TREE_72=$(tools/knc/linux-src.sh --series 7.2 2>"$log")
result $? "tools/knc/linux-src.sh --series 7.2 prepares the card port's Linux 7.2 ($(tail -n 1 "$log"))" "$log"
export KNC_LINUX_TREE_73=$TREE_73

# history DIR: a Linux git history of the series' files (above); RDPMC_C
# and KNC_C the commits that added the defects.
hg() { git -C "$LG" "$@"; }
hc() { hg add -A && hg commit -q -m "$1"; }
history() {
	local d=$LG v f
	rm -rf "$d" && git init -q "$d" &&
		mkdir -p "$d/kernel/events" "$d/arch/x86/kernel/cpu" &&
		cp "$B/linux-6.1/kernel/events/core.c" "$d/kernel/events/" &&
		grep -v perf_rdpmc_allowed "$B/linux-6.1/arch/x86/events/core.c" >"$d/arch/x86/kernel/cpu/perf_event.c" &&
		hc "perf: The events core and the x86 PMU core" &&
		cp "$B/linux-6.1/arch/x86/events/core.c" "$d/arch/x86/kernel/cpu/perf_event.c" &&
		hc "perf/x86: Only allow rdpmc if a perf_event is mapped" && RDPMC_C=$(hg rev-parse HEAD) &&
		cp "$B/linux-6.1/arch/x86/events/intel/knc.c" "$d/arch/x86/kernel/cpu/perf_event_knc.c" &&
		hc "perf/x86: Add support for the Knights Corner PMU" && KNC_C=$(hg rev-parse HEAD) &&
		mkdir -p "$d/arch/x86/events/intel" &&
		hg mv arch/x86/kernel/cpu/perf_event.c arch/x86/events/core.c &&
		hg mv arch/x86/kernel/cpu/perf_event_knc.c arch/x86/events/intel/knc.c &&
		hc "perf/x86: Move perf_event.c to arch/x86/events/" && hg tag v6.1 || return 1
	for v in 6.12 7.3; do
		for f in "${FILES[@]}"; do
			cp "$B/linux-$v/$f" "$d/$f" || return 1
		done
		hc "Linux $v" && hg tag "v$v" || return 1
	done
}
: >"$log"
for v in "${BASES[@]}"; do
	extract "$v" "$B/linux-$v" >>"$log" 2>&1 || echo "extracting $v failed" >>"$log"
done
[ ! -s "$log" ] && history >>"$log" 2>&1
result $? "a Linux history of the files: the commits that add the defects, v6.1, v6.12, v7.3" "$log"

# Without LINUX_GIT: 7.3's series, neither Fixes: nor Cc: stable, and the
# notes of the fixes for stable and stderr say why.
nogit=$B/series-nogit
tools/knc/linux-fixes.sh "$nogit" >"$log" 2>&1 &&
	grep -q "no LINUX_GIT (a Linux git history): no Fixes: tags, so no Cc: stable either, and no backports" "$log" &&
	[ "$(cd "$nogit" && echo *)" = 7.3 ] && series_made "$nogit/7.3/knc" 4 &&
	! grep -E '^(Fixes: |Cc: stable)' "$nogit"/7.3/*/*.patch >>"$log" &&
	[ "$(grep -l 'No Fixes: tag and no Cc: stable: made without a Linux git history' "$nogit"/7.3/*/*.patch | wc -l)" -eq 4 ]
result $? "without LINUX_GIT: 7.3's series alone, no Fixes: and no Cc: stable, and the notes say so" "$log"
rm -rf "$nogit"

# Before the fixes are upstream: 7.3's series, no backports.
pre=$B/series-pre
LINUX_GIT=$LG tools/knc/linux-fixes.sh "$pre" >"$log" 2>&1 &&
	grep -q "not upstream in $LG (HEAD): 0001-evtsel1 0003-lvtpc 0005-userpage-order 0006-rdpmc-redirect; no backports" "$log" &&
	[ "$(cd "$pre" && echo *)" = 7.3 ]
result $? "LINUX_GIT without the fixes upstream: 7.3's series alone, and stderr says why" "$log"
# Upstream: 7.3's patches, as git am applies them on v7.3.
hg am -q "$PWD/$pre"/7.3/knc/000[1-9]-*.patch "$PWD/$pre"/7.3/x86/000[1-9]-*.patch >"$log" 2>&1
result $? "7.3's series applies with git am to the history's v7.3 (upstream now)" "$log"
rm -rf "$pre"
# A history whose v6.1 lacks the commit that added a defect is refused.
badgit=$B/linux-bad.git
rm -rf "$badgit"
cp -a "$LG" "$badgit" && git -C "$badgit" tag -f v6.1 "$RDPMC_C" >/dev/null &&
	! LINUX_GIT=$PWD/$badgit tools/knc/linux-fixes.sh "$B/series-bad" >"$log" 2>&1 &&
	grep -q "$KNC_C, which added '.*', is not an ancestor of v6.1" "$log"
result $? "a LINUX_GIT whose v6.1 lacks the commit that added a defect: refused" "$log"
rm -rf "$badgit" "$B/series-bad"

LINUX_GIT=$LG tools/knc/linux-fixes.sh >"$log" 2>&1
result $? "tools/knc/linux-fixes.sh makes the series, with the backports (LINUX_GIT the history)" "$log"

# knc_patches BASE, x86_patch BASE: the patches of BASE's two series
knc_patches() { ls "$SERIES/$1"/knc/000[1-9]-*.patch 2>/dev/null; }
x86_patch() { ls "$SERIES/$1"/x86/000[1-9]-*.patch 2>/dev/null; }

# tags PATCH BASE STABLE FIXES LINK [GIT]: PATCH's tags are right for
# BASE: one block, From: and Signed-off-by: the sender; Cc: stable if
# STABLE is 1, none otherwise; Fixes: FIXES's commit (none if FIXES is
# -), an ancestor of vBASE in GIT (default: the history); a Link: pinned
# to a commit if LINK is 1; a backport (BASE not 7.3) "commit SHA
# upstream." first, SHA GIT's commit of its subject. Prints what is wrong.
tags() {
	local p=$1 v=$2 stable=$3 fixes=$4 link=$5 g=${6:-$LG} m=$log.msg f sha
	grep -qxF "$signoff" "$p" || echo "no '$signoff'"
	grep -qxF "$from" "$p" || echo "no '$from'"
	git mailinfo "$m" /dev/null <"$p" >"$log.info" || echo "git mailinfo failed"
	git interpret-trailers --parse <"$m" >"$log.parsed"
	grep -E '^(Fixes|Link|Cc|Signed-off-by|Reported-by|Closes|Suggested-by|Tested-by|Reviewed-by|Acked-by): ' "$m" |
		diff - "$log.parsed" >/dev/null ||
		echo "git interpret-trailers --parse reads only: $(tr '\n' '|' <"$log.parsed")"
	if [ "$stable" = 1 ]; then
		grep -qx 'Cc: stable@vger.kernel.org' "$m" || echo "no Cc: stable"
	else
		! grep -q '^Cc: stable' "$m" || echo "Cc: stable on a patch not for stable"
	fi
	f=$(sed -n 's/^Fixes: \([0-9a-f]\{12\}\) (".*")$/\1/p' "$m")
	if [ "$fixes" = - ]; then
		! grep -q '^Fixes:' "$m" || echo "a Fixes: tag where none is due"
	elif [ "$(grep -c '^Fixes: ' "$m")" != 1 ] || [ -z "$f" ]; then
		echo "not one Fixes: <12 hex> (\"subject\") tag"
	else
		[ "$f" = "${fixes:0:12}" ] || echo "Fixes: $f, not ${fixes:0:12}, the commit that added the defect"
		git -C "$g" merge-base --is-ancestor "$f" "v$v" || echo "Fixes: $f is not an ancestor of v$v"
		grep -qxF "Fixes: $f (\"$(git -C "$g" log -1 --format=%s "$f")\")" "$m" || echo "Fixes: not its commit's subject"
	fi
	if [ "$link" = 1 ]; then
		grep -qE '^Link: https://github.com/[^/]+/[^/]+/blob/[0-9a-f]{40}/' "$m" || echo "no Link: pinned to a commit"
	else
		! grep -q '^Link:' "$m" || echo "a Link: where none is due"
	fi
	if [ "$v" != 7.3 ]; then
		sha=$(sed -n '1s/^commit \([0-9a-f]\{40\}\) upstream\.$/\1/p' "$m")
		if [ -z "$sha" ]; then
			echo "the body does not start with 'commit SHA upstream.'"
		elif [ "$(git -C "$g" log -1 --format=%s "$sha" 2>&1)" != "$(sed -n 's/^Subject: //p' "$log.info")" ]; then
			echo "commit $sha upstream: not the history's commit of this subject"
		fi
	fi
}

signoff=$(series_signoff) from=$(series_from)
for v in "${BASES[@]}"; do
	if [ "$v" = 7.3 ]; then
		series_made "$SERIES/$v/knc" 4 && series_made "$SERIES/$v/x86" 2
		result $? "$v: the knc.c series (four patches) and the RDPMC series (two), each with a filled-in cover letter"
		# each patch's STABLE FIXES LINK
		want=("1 $KNC_C 1" "0 $KNC_C 0" "1 $KNC_C 0" "0 - 0" "1 $RDPMC_C 0" "1 $RDPMC_C 0")
		# patch 2 says why it is not for stable
		sed -n '/^---$/,/^diff /p' "$(knc_patches 7.3 | sed -n 2p)" | grep 'not marked for stable' >/dev/null
		result $? "$v: patch 2's notes say why it is not for stable"
	else
		series_made "$SERIES/$v/knc" 2 && series_made "$SERIES/$v/x86" 2 &&
			[ "$(for p in "$SERIES/$v"/knc/000[1-9]-*.patch; do
				git mailinfo /dev/null /dev/null <"$p" | sed -n 's/^Subject: //p'
			done | tr '\n' '|')" = \
				"perf/x86/knc: Write counter 1's event select to its own MSR|perf/x86/knc: Unmask the LVT performance entry in the PMI handler|" ]
		result $? "$v: the backports, the fixes for stable only (knc.c's 1 and 3, the RDPMC series), with cover letters"
		want=("1 $KNC_C 1" "1 $KNC_C 0" "1 $RDPMC_C 0" "1 $RDPMC_C 0")
	fi
	i=0
	for p in $(knc_patches "$v") $(x86_patch "$v"); do
		read -r st fx ln <<<"${want[$i]:-x x x}"
		tags "$p" "$v" "$st" "$fx" "$ln" >"$log"
		[ ! -s "$log" ]
		result $? "$v tags: ${p#"$SERIES/"}" "$log"
		i=$((i + 1))
	done
done
rm -f "$log.msg" "$log.info" "$log.parsed"

# With a real Linux history (LINUX_GIT): the Fixes: ids are its commits,
# ancestors of v7.3, and checkpatch finds them there.
if [ -n "$REAL_GIT" ]; then
	real=$B/series-real
	(
		LINUX_GIT=$REAL_GIT tools/knc/linux-fixes.sh --7.3-only "$real" &&
			for p in "$real"/7.3/*/000[1-9]-*.patch; do
				f=$(sed -n 's/^Fixes: \([0-9a-f]\{12\}\) .*/\1/p' "$p")
				if [ -n "$f" ] && ! git -C "$REAL_GIT" merge-base --is-ancestor "$f" v7.3; then
					echo "${p#"$real/"}: Fixes: $f is not an ancestor of v7.3"
					false
				fi &&
					GIT_DIR=$(git -C "$REAL_GIT" rev-parse --absolute-git-dir) \
						"$TREE_73/scripts/checkpatch.pl" --no-tree --strict -q "$p" || exit 1
			done
	) >"$log" 2>&1
	result $? "LINUX_GIT=$REAL_GIT: 7.3's Fixes: ancestors of v7.3, each patch clean with 7.3's checkpatch there" "$log"
	rm -rf "$real"
fi

# 7.3's To: and Cc: are get_maintainer.pl's, maintainers and the rest.
# recipients PATCH: its To: and Cc: addresses, one a line, "to"/"cc" first
recipients() {
	python3 - "$1" <<'PY'
import email.utils
import sys
from email.parser import HeaderParser
h = HeaderParser().parse(open(sys.argv[1]))
for k in ('to', 'cc'):
    for _, a in email.utils.getaddresses(h.get_all(k, [])):
        print(k, a)
PY
}
# wanted PATCH...: get_maintainer.pl's maintainers as "to", the others as "cc"
wanted() {
	local role
	for role in to cc; do
		(
			cd "$TREE_73" || exit 1
			opts=(--nor --nol)
			[ $role = to ] || opts=(--nom)
			perl scripts/get_maintainer.pl --no-git --no-git-fallback --no-rolestats "${opts[@]}" "$@"
		) | sed "s/.*<\(.*\)>/\1/; s/^/$role /"
	done
}
for s in knc x86; do
	if [ $s = knc ]; then mapfile -t ps < <(knc_patches 7.3); else mapfile -t ps < <(x86_patch 7.3); fi
	wanted "${ps[@]/#/$PWD/}" 2>&1 | sort >"$log.want"
	: >"$log"
	for p in "${ps[@]}" "$SERIES/7.3/$s/0000-cover-letter.patch"; do
		[ -f "$p" ] || continue
		recipients "$p" | sort | diff "$log.want" - >>"$log" || echo "in ${p#"$SERIES/"}" >>"$log"
	done
	grep -qx "to peterz@infradead.org" "$log.want" && grep -qx "cc linux-perf-users@vger.kernel.org" "$log.want" ||
		echo "get_maintainer.pl did not name perf's maintainer and list: $(cat "$log.want")" >>"$log"
	[ ! -s "$log" ]
	result $? "7.3 $s: To: and Cc: as 7.3's get_maintainer.pl gives them" "$log"
done
rm -f "$log.want"

# The debug kernel's (tools/knc/debug-kernel.sh): --7.3-only makes 7.3's
# two series alone, the same as the whole run's but for the commits'
# hashes and dates.
only=$B/series-7.3-only
LINUX_GIT=$LG tools/knc/linux-fixes.sh --7.3-only "$only" >"$log" 2>&1 &&
	[ "$(cd "$only" && echo *)" = 7.3 ] &&
	diff -r -I '^From [0-9a-f]\{40\} ' -I '^Date: ' "$SERIES/7.3" "$only/7.3" >>"$log"
result $? "linux-fixes.sh --7.3-only: 7.3's series alone, the whole run's" "$log"
rm -rf "$only"

# checkpatch.pl VERSION: that base's own checkpatch.pl (6.1's and 6.12's
# from their tarballs, cached)
checkpatch() {
	local d=$B/checkpatch-$1 tarball=$TARBALL_61
	if [ "$1" = 7.3 ]; then
		echo "$TREE_73/scripts/checkpatch.pl"
		return
	fi
	[ "$1" = 6.1 ] || tarball=$TARBALL_612
	if [ ! -x "$d/scripts/checkpatch.pl" ]; then
		mkdir -p "$d"
		tar xf "$(tools/knc/plain-tar "$tarball")" -C "$d" --strip-components=1 --occurrence=1 \
			"linux-source-$1/scripts/checkpatch.pl" "linux-source-$1/scripts/spelling.txt" \
			"linux-source-$1/scripts/const_structs.checkpatch"
	fi
	echo "$d/scripts/checkpatch.pl"
}
# The history is the git tree checkpatch looks the Fixes: commits up in.
# A backport's "commit SHA upstream." is stable's form, not checkpatch's
# style for a commit quoted in a message (GIT_COMMIT_ID).
for v in "${BASES[@]}"; do
	cp=$(checkpatch "$v")
	ign=()
	[ "$v" = 7.3 ] || ign=(--ignore GIT_COMMIT_ID)
	for p in $(knc_patches "$v") $(x86_patch "$v"); do
		GIT_DIR=$LG/.git "$cp" --no-tree --strict -q "${ign[@]}" "$p" >"$log" 2>&1
		result $? "$v's checkpatch --strict: ${p#"$SERIES/"}" "$log"
	done
done

# defects_gone VERSION DIR: the patched files in DIR have none
# of the defects; prints what it finds otherwise.
defects_gone() {
	python3 - "$@" <<'PY'
import re
import sys
v, d = sys.argv[1:]
knc = open(d + '/arch/x86/events/intel/knc.c').read()
core = open(d + '/arch/x86/events/core.c').read()

def body(src, name):
    m = re.search(r'^\S[^\n]*\b' + name + r'\(.*?^}', src, re.S | re.M)
    return m.group(0) if m else ''

bad = []
evcore = open(d + '/kernel/events/core.c').read()
upstream = v in ('7.3', '7.2')
# 1: each counter's own event select: hwc->config_base, upstream through
# the x86 core's helpers (patch 4), in the backports written by the driver
if 'config_base + hwc->idx' in knc:
    bad.append('knc.c: an event select written to config_base + idx')
if not upstream:
    if knc.count('wrmsrl_safe(hwc->config_base, val);') != 2:
        bad.append('knc.c: not two event select writes to hwc->config_base')
elif '.disable\t\t= x86_pmu_disable_event,' not in knc or \
        '__x86_pmu_enable_event(&event->hw, ARCH_PERFMON_EVENTSEL_ENABLE);' \
        not in body(knc, 'knc_pmu_enable_event'):
    bad.append("knc.c: the event selects not written through the x86 core's helpers")
irq = body(knc, 'knc_pmu_handle_irq')
# 2 (upstream only): no exit that enables the counters without looking at
# cpuc->enabled
if upstream and (not re.search(r'if \(!status\)\n\t+goto done;', irq)
                 or irq.count('knc_pmu_enable_all(') != 1
                 or not re.search(r'if \(cpuc->enabled\)\n\t+knc_pmu_enable_all\(0\);', irq)):
    bad.append('knc_pmu_handle_irq(): an exit enables the counters while the PMU is disabled')
# 3: the LVT entry unmasked at the exit, before the counters are enabled
tail = irq[irq.find('\ndone:'):]
if '\ndone:' not in irq or not (0 <= tail.find('apic_write(APIC_LVTPC, APIC_DM_NMI);')
                                 < tail.find('knc_pmu_enable_all(0);')):
    bad.append('knc_pmu_handle_irq(): no LVTPC unmask at done: before the counters restart')
# 4: a counter only on the page of an event that is mapped
read = 'refcount_read' if upstream else 'atomic_read'
if read + '(&event->mmap_count)' not in body(core, 'x86_pmu_event_idx'):
    bad.append('x86_pmu_event_idx(): a counter offered whether or not the event is mapped')
# 5: a new buffer's page written once its mapping is counted
if upstream:
    rb = body(evcore, 'perf_mmap_rb')
    ok = 0 <= rb.find('refcount_set(&event->mmap_count, 1);') < rb.find('perf_event_init_userpage(event);')
else:
    ok = re.search(r'atomic_inc\(&event->mmap_count\);\n(?:\t+ ?/?\*[^\n]*\n)*'
                   r'\t+if \(rb && !vma->vm_pgoff\)\n\t+perf_event_update_userpage\(event\);',
                   body(evcore, 'perf_mmap'))
if not ok:
    bad.append('kernel/events/core.c: a new buffer\'s page written before its mapping is counted')
print('\n'.join(bad))
sys.exit(1 if bad else 0)
PY
}

# check VERSION [BASE]: each patch of BASE's series (VERSION's unless
# given) applies in turn to VERSION's files, both ways; then the defects
# are gone and both ways agree.
check() {
	local v=$1 s=${2:-$1} src=$B/linux-$1 g=$B/apply-$1/git q=$B/apply-$1/patch p ok st what=the
	[ "$s" = "$v" ] || what="$s's"
	rm -rf "$B/apply-$v"
	extract "$v" "$src" >"$log" 2>&1 &&
		mkdir -p "$g" "$q" && cp -a "$src/." "$g/" && cp -a "$src/." "$q/" &&
		git init -q "$g"	# or git apply would take build/ for a subdirectory of ours
	result $? "the files the series touch, from Linux $v's source" "$log"
	ok=0
	for p in $(knc_patches "$s") $(x86_patch "$s"); do
		st=0
		{
			git -C "$g" apply --check "$PWD/$p" && git -C "$g" apply "$PWD/$p" &&
				patch -d "$q" -p1 --dry-run --fuzz=0 <"$p" &&
				patch -d "$q" -p1 -s --fuzz=0 --no-backup-if-mismatch <"$p"
		} >"$log" 2>&1 || st=1 ok=1
		result $st "applies to $v (git apply --check, patch --dry-run -p1): ${p#"$SERIES/"}" "$log"
	done
	if [ $ok -eq 0 ]; then
		diff -r -x .git "$g" "$q" >"$log" && defects_gone "$s" "$q" >>"$log" 2>&1
	else
		echo "a patch did not apply" >"$log"
		false
	fi
	result $? "Linux $v with $what series: the defects are gone (static check)" "$log"
}
for v in "${BASES[@]}"; do
	check "$v"
done
# The card port's kernel is mainline 7.2 and its patches, which touch
# neither file.
check 7.2 7.3

# 7.3's patched files, compiled W=1 in 7.3's tree: as obj-y objects of an
# external directory (M=, built as single targets, without -DMODULE), with
# the headers of arch/x86/events/ and kernel/events/ beside them.
obj=$B/objects-7.3
rm -rf "$obj"
mkdir -p "$obj/intel" "$obj/events"
cp "$TREE_73"/arch/x86/events/*.h "$obj/"
cp "$TREE_73"/kernel/events/*.h "$obj/events/"
cp "$B/apply-7.3/patch/arch/x86/events/core.c" "$obj/"
cp "$B/apply-7.3/patch/arch/x86/events/intel/knc.c" "$obj/intel/"
cp "$B/apply-7.3/patch/kernel/events/core.c" "$obj/events/"
echo 'obj-y := intel/knc.o core.o events/core.o' >"$obj/Kbuild"
make -C "$TREE_73" M="$PWD/$obj" W=1 intel/knc.o core.o events/core.o >"$log" 2>&1
st=$?
grep -E -i "warning|error" "$log" >"$log.w"
[ $st -eq 0 ] && [ ! -s "$log.w" ] && [ -f "$obj/intel/knc.o" ] && [ -f "$obj/core.o" ] && [ -f "$obj/events/core.o" ]
result $? "Linux 7.3 with the series: knc.o and both core.o compile warning-free (W=1)" "$log"
rm -f "$log" "$log.w"

echo "1..$n"
exit $bad
