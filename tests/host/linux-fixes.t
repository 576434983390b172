#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# The fixes to Linux's own KNC driver and to the x86 core's RDPMC offer
# (tools/knc/linux-fixes.sh, `make linux-fixes`): for each base, Linux 7.3
# (upstream; tools/knc/linux-src.sh's tree), 6.12 and 6.1 (stable;
# linux-source-6.12 and linux-source-6.1), the knc.c series and the x86
# patch are made; each patch is signed off, marked for stable but patch 2,
# and has a Fixes: tag or a note saying why not; 7.3's carry To: and Cc:
# as that tree's get_maintainer.pl gives them; each is clean with its own
# base's checkpatch.pl --strict; each applies in turn to its base's files
# with `git apply --check` and `patch --dry-run -p1` (no fuzz), and a static
# check of the result finds none of the defects. 7.3's series applies so
# to Linux 7.2's files too (the Knights Corner card port's base;
# tools/knc/linux-src.sh --series 7.2's tree). 7.3's patched knc.c and
# core.c compile without a warning (W=1) in 7.3's prepared tree, as
# objects of a directory of their own (nothing is written in the tree).
# --7.3-only, the debug kernel's way (tools/knc/debug-kernel.sh applies
# 7.3's knc then x86 series), makes 7.3's the same.
# Prints TAP.
set -uo pipefail
cd "$(dirname "$0")/../.." || exit 1

log=$(mktemp)
. tests/host/tap.sh
TARBALL_61=${KNC_LINUX_TARBALL:-/usr/src/linux-source-6.1.tar.xz}
TARBALL_612=${KNC_LINUX_TARBALL_612:-/usr/src/linux-source-6.12.tar.xz}
B=build/linux-fixes
SERIES=$B/series
FILES=(arch/x86/events/intel/knc.c arch/x86/events/core.c)
BASES=(7.3 6.12 6.1)

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
KNC_LINUX_TREE_73=$TREE_73 tools/knc/linux-fixes.sh >"$log" 2>&1
result $? "tools/knc/linux-fixes.sh makes the series" "$log"

# knc_patches BASE, x86_patch BASE: the patches of BASE's two series
knc_patches() { ls "$SERIES/$1"/knc/000[1-9]-*.patch 2>/dev/null; }
x86_patch() { ls "$SERIES/$1"/x86/000[1-9]-*.patch 2>/dev/null; }

signoff=$(series_signoff) from=$(series_from)
for v in "${BASES[@]}"; do
	series_made "$SERIES/$v/knc" 3 && [ "$(x86_patch "$v" | wc -l)" -eq 1 ]
	result $? "$v: the knc.c series (three patches, a filled-in cover letter) and the x86 patch"
	# Each patch: from and signed off by the sender; for stable, but for
	# patch 2 (no reproducer), whose notes say so; a Fixes: tag or a note
	# below the --- saying why it has none.
	for p in $(knc_patches "$v") $(x86_patch "$v"); do
		{
			grep -qxF "$signoff" "$p" || echo "no '$signoff'"
			grep -qxF "$from" "$p" || echo "no '$from'"
			case $p in
			*/knc/0002-*)
				! grep -q '^Cc: stable@' "$p" || echo "Cc: stable without a reproducer"
				sed -n '/^---$/,/^diff /p' "$p" | grep -q 'not marked for stable' ||
					echo "no note why it is not for stable" ;;
			*)
				grep -qx 'Cc: stable@vger.kernel.org' "$p" || echo "no Cc: stable" ;;
			esac
			grep -qE '^Fixes: [0-9a-f]{12} \(".*"\)$' "$p" ||
				sed -n '/^---$/,/^diff /p' "$p" | grep -q 'No Fixes: tag' ||
				echo "neither a Fixes: tag nor a note why not"
		} >"$log"
		[ ! -s "$log" ]
		result $? "$v tags: ${p#"$SERIES/"}" "$log"
	done
done

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
KNC_LINUX_TREE_73=$TREE_73 tools/knc/linux-fixes.sh --7.3-only "$only" >"$log" 2>&1 &&
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
# UNKNOWN_COMMIT_ID: no Linux git history here to look a Fixes: commit up
# in. MISSING_FIXES_TAG (7.3's "has 'stable@', perhaps it also needs a
# 'Fixes:' tag?"): the commit that added the driver could not be found;
# the tags cases above require the note that says so.
for v in "${BASES[@]}"; do
	cp=$(checkpatch "$v")
	for p in $(knc_patches "$v") $(x86_patch "$v"); do
		"$cp" --no-tree --strict -q --ignore UNKNOWN_COMMIT_ID,MISSING_FIXES_TAG "$p" >"$log" 2>&1
		result $? "$v's checkpatch --strict: ${p#"$SERIES/"}" "$log"
	done
done

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

# defects_gone VERSION DIR: the patched knc.c and core.c in DIR have none
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
# 1: each counter's own event select: 6.1 writes hwc->config_base itself,
# the others through the x86 core's helpers
if 'config_base + hwc->idx' in knc:
    bad.append('knc.c: an event select written to config_base + idx')
if v == '6.1':
    if knc.count('wrmsrl_safe(hwc->config_base, val);') != 2:
        bad.append('knc.c: not two event select writes to hwc->config_base')
elif '.disable\t\t= x86_pmu_disable_event,' not in knc or \
        '__x86_pmu_enable_event(&event->hw, ARCH_PERFMON_EVENTSEL_ENABLE);' \
        not in body(knc, 'knc_pmu_enable_event'):
    bad.append("knc.c: the event selects not written through the x86 core's helpers")
irq = body(knc, 'knc_pmu_handle_irq')
# 2: no exit that enables the counters without looking at cpuc->enabled
if not re.search(r'if \(!status\)\n\t+goto done;', irq) or irq.count('knc_pmu_enable_all(') != 1 \
        or not re.search(r'if \(cpuc->enabled\)\n\t+knc_pmu_enable_all\(0\);', irq):
    bad.append('knc_pmu_handle_irq(): an exit enables the counters while the PMU is disabled')
# 3: the LVT entry unmasked at the exit, before the counters are enabled
tail = irq[irq.find('\ndone:'):]
if '\ndone:' not in irq or not (0 <= tail.find('apic_write(APIC_LVTPC, APIC_DM_NMI);')
                                 < tail.find('knc_pmu_enable_all(0);')):
    bad.append('knc_pmu_handle_irq(): no LVTPC unmask at done: before the counters restart')
# 4: a counter only on the page of an event that is mapped
read = 'refcount_read' if v == '7.3' else 'atomic_read'
if read + '(&event->mmap_count)' not in body(core, 'x86_pmu_event_idx'):
    bad.append('x86_pmu_event_idx(): a counter offered whether or not the event is mapped')
if 'perf_event_update_userpage(event);' not in body(core, 'x86_pmu_event_mapped'):
    bad.append('x86_pmu_event_mapped(): the page is not updated once the event is mapped')
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

# 7.3's patched knc.c and core.c, compiled W=1 in 7.3's tree: as obj-y
# objects of an external directory (M=, built as single targets, without
# -DMODULE), with the headers of arch/x86/events/ beside them.
obj=$B/objects-7.3
rm -rf "$obj"
mkdir -p "$obj/intel"
cp "$TREE_73"/arch/x86/events/*.h "$obj/"
cp "$B/apply-7.3/patch/arch/x86/events/core.c" "$obj/"
cp "$B/apply-7.3/patch/arch/x86/events/intel/knc.c" "$obj/intel/"
echo 'obj-y := intel/knc.o core.o' >"$obj/Kbuild"
make -C "$TREE_73" M="$PWD/$obj" W=1 intel/knc.o core.o >"$log" 2>&1
st=$?
grep -E -i "warning|error" "$log" >"$log.w"
[ $st -eq 0 ] && [ ! -s "$log.w" ] && [ -f "$obj/intel/knc.o" ] && [ -f "$obj/core.o" ]
result $? "Linux 7.3 with the series: knc.o and core.o compile warning-free (W=1)" "$log"
rm -f "$log" "$log.w"

echo "1..$n"
exit $bad
