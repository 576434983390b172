#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# The fixes to Linux's own KNC driver (tools/knc/linux-fixes.sh, `make
# linux-fixes`): the series is made; each patch is signed off, Cc stable
# and names what it fixes or says why not; checkpatch --strict finds
# nothing in it; each patch applies in turn to the files of Linux 6.1
# (linux-source-6.1) and of 6.12 (linux-source-6.12), both with
# `git apply --check` and with `patch --dry-run -p1` (no fuzz); and the
# patched files no longer have the defects (a static check of each). The
# 6.12 cases skip if linux-source-6.12 is not installed. Building the
# patched objects is left out: it takes about a minute from the tarball
# (Documentation/knc-pmu.rst, "Linux's own driver on the model").
# Prints TAP.
set -uo pipefail
cd "$(dirname "$0")/../.." || exit 1

log=$(mktemp)
. tests/host/tap.sh
TARBALL=${KNC_LINUX_TARBALL:-/usr/src/linux-source-6.1.tar.xz}
TARBALL_612=${KNC_LINUX_TARBALL_612:-/usr/src/linux-source-6.12.tar.xz}
B=build/linux-fixes
SERIES=$B/series
CHECKPATCH=$B/checkpatch/scripts/checkpatch.pl
FILES=(arch/x86/events/intel/knc.c arch/x86/events/core.c)

echo "TAP version 13"
tools/knc/linux-fixes.sh >"$log" 2>&1
result $? "tools/knc/linux-fixes.sh makes the series" "$log"
series_made "$SERIES" 4
result $? "four patches and a filled-in cover letter"

# Each patch: signed off by the repo's git user, for stable, and either a
# Fixes: tag or a note below the --- saying why it has none.
signoff=$(series_signoff)
for p in "${patches[@]}"; do
	{
		grep -qxF "$signoff" "$p" || echo "no '$signoff'"
		grep -qx 'Cc: stable@vger.kernel.org' "$p" || echo "no Cc: stable"
		grep -qE '^Fixes: [0-9a-f]{12} \(".*"\)$' "$p" ||
			sed -n '/^---$/,/^diff /p' "$p" | grep -q 'No Fixes: tag' ||
			echo "neither a Fixes: tag nor a note why not"
	} >"$log"
	[ ! -s "$log" ]
	result $? "tags: $(basename "$p")" "$log"
done

# checkpatch from the 6.1 tarball. UNKNOWN_COMMIT_ID: there is no Linux
# git history here to look a Fixes: commit up in.
if [ ! -x "$CHECKPATCH" ]; then
	mkdir -p "$B/checkpatch"
	tar xf "$TARBALL" -C "$B/checkpatch" --strip-components=1 --occurrence=1 \
		linux-source-6.1/scripts/checkpatch.pl linux-source-6.1/scripts/spelling.txt \
		linux-source-6.1/scripts/const_structs.checkpatch
fi
for p in "${patches[@]}"; do
	"$CHECKPATCH" --no-tree --strict -q --ignore UNKNOWN_COMMIT_ID "$p" >"$log" 2>&1
	result $? "checkpatch --strict: $(basename "$p")" "$log"
done

# extract TARBALL TOP DIR: the files the series touches, in DIR (cached:
# a stamp names the tarball's size and time).
extract() {
	local stamp
	stamp=$(stat -c '%n %s %Y' "$1")
	[ "$(cat "$3.stamp" 2>/dev/null)" = "$stamp" ] && return 0
	rm -rf "$3" && mkdir -p "$3" &&
		tar xf "$1" -C "$3" --strip-components=1 --occurrence=1 "${FILES[@]/#/$2/}" &&
		echo "$stamp" >"$3.stamp"
}

# defects_gone DIR: the patched knc.c and core.c in DIR have none of the
# defects; prints what it finds otherwise.
defects_gone() {
	python3 - "$1" <<'PY'
import re
import sys
d = sys.argv[1]
knc = open(d + '/arch/x86/events/intel/knc.c').read()
core = open(d + '/arch/x86/events/core.c').read()

def body(src, name):
    m = re.search(r'^\S[^\n]*\b' + name + r'\(.*?^}', src, re.S | re.M)
    return m.group(0) if m else ''

bad = []
# 1: each counter's own event select
if 'config_base + hwc->idx' in knc or knc.count('wrmsrl_safe(hwc->config_base, val);') != 2:
    bad.append('knc.c: an event select written elsewhere than hwc->config_base')
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
if 'atomic_read(&event->mmap_count)' not in body(core, 'x86_pmu_event_idx'):
    bad.append('x86_pmu_event_idx(): a counter offered whether or not the event is mapped')
if 'perf_event_update_userpage(event);' not in body(core, 'x86_pmu_event_mapped'):
    bad.append('x86_pmu_event_mapped(): the page is not updated once the event is mapped')
print('\n'.join(bad))
sys.exit(1 if bad else 0)
PY
}

# check VERSION TARBALL: each patch applies in turn to VERSION's files,
# both ways; then the defects are gone and both ways agree.
check() {
	local v=$1 tarball=$2 src=$B/linux-$1 g=$B/apply-$1/git q=$B/apply-$1/patch p ok st
	rm -rf "$B/apply-$v"
	extract "$tarball" "linux-source-$v" "$src" >"$log" 2>&1 &&
		mkdir -p "$g" "$q" && cp -a "$src/." "$g/" && cp -a "$src/." "$q/" &&
		git init -q "$g"	# or git apply would take build/ for a subdirectory of ours
	result $? "the files the series touches, from $(basename "$tarball")" "$log"
	ok=0
	for p in "${patches[@]}"; do
		st=0
		{
			git -C "$g" apply --check "$PWD/$p" && git -C "$g" apply "$PWD/$p" &&
				patch -d "$q" -p1 --dry-run --fuzz=0 <"$p" &&
				patch -d "$q" -p1 -s --fuzz=0 --no-backup-if-mismatch <"$p"
		} >"$log" 2>&1 || st=1 ok=1
		result $st "applies to $v (git apply --check, patch --dry-run -p1): $(basename "$p")" "$log"
	done
	if [ $ok -eq 0 ]; then
		diff -r -x .git "$g" "$q" >"$log" && defects_gone "$q" >>"$log" 2>&1
		result $? "Linux $v with the series: the defects are gone (static check)" "$log"
	else
		echo "a patch did not apply" >"$log"
		result 1 "Linux $v with the series: the defects are gone (static check)" "$log"
	fi
}

check 6.1 "$TARBALL"
if [ -f "$TARBALL_612" ]; then
	check 6.12 "$TARBALL_612"
else
	why="$TARBALL_612 not installed (tools/knc/install-deps installs linux-source-6.12)"
	skip "the files the series touches, from $(basename "$TARBALL_612")" "$why"
	for p in "${patches[@]}"; do
		skip "applies to 6.12 (git apply --check, patch --dry-run -p1): $(basename "$p")" "$why"
	done
	skip "Linux 6.12 with the series: the defects are gone (static check)" "$why"
fi
rm -f "$log"

echo "1..$n"
exit $bad
