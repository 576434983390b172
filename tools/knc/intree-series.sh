#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# The in-tree version of knc-pmu, as a git format-patch series against
# Linux 6.1 (Debian's linux-source-6.1): the driver with Kconfig, Makefile
# and MAINTAINERS entries, replacing arch/x86/events/intel/knc.c (built in,
# it calls perf_event_overflow() directly), the perf JSON tables, and the
# driver's KUnit tests.
#
#   tools/knc/intree-series.sh [OUT]    (default: build/intree/series)
#
# The series is made in a scratch git repository holding only the files it
# touches, taken from /usr/src/linux-source-6.1.tar.xz (KNC_LINUX_TARBALL);
# it applies to the whole tree with `git am` or `patch -p1`
# (tools/knc/series-lib.sh). The commit messages and the cover letter are
# tools/knc/intree/*.
set -euo pipefail

REPO=$(cd "$(dirname "$0")/../.." && pwd)
. "$REPO/tools/knc/series-lib.sh"
TARBALL=${KNC_LINUX_TARBALL:-/usr/src/linux-source-6.1.tar.xz}
TOP=linux-source-6.1
MSG=$REPO/tools/knc/intree
WORK=$REPO/build/intree/repo
OUT=${1:-$REPO/build/intree/series}
BASE_FILES=(MAINTAINERS Documentation/admin-guide/perf/index.rst arch/x86/events/Kconfig arch/x86/events/Makefile
	arch/x86/events/intel/Makefile arch/x86/events/intel/core.c
	arch/x86/events/intel/knc.c arch/x86/events/perf_event.h
	tools/perf/pmu-events/jevents.py tools/perf/pmu-events/arch/x86/mapfile.csv)

die() { echo "intree-series: $*" >&2; exit 1; }
[ -f "$TARBALL" ] || die "$TARBALL not found (apt-get install linux-source-6.1)"

rm -rf "$OUT"
mkdir -p "$OUT"
series_init "$WORK" "$TARBALL" "$TOP" \
	"Linux 6.1 (Debian's linux-source-6.1): the files the series touches" "${BASE_FILES[@]}"
commit() { series_commit "$MSG/$1"; }

# intree_makefile [without-kunit]: the module Makefile in the tree, its
# header speaking of the in-tree build, without the out-of-tree block (and
# without the KUnit objects).
intree_makefile() {
	python3 - "$REPO/arch/x86/events/knc/Makefile" "${1:-}" \
		>arch/x86/events/knc/Makefile <<'PY'
import re
import sys
mk = open(sys.argv[1]).read()
if sys.argv[2] == 'without-kunit':
    mk = re.sub(r'\n# KUnit .*?\nendif\n', '\n', mk, flags=re.S)
    assert '_test.o' not in mk and 'KUNIT' not in mk
mk, n = re.subn(r'\n# Out of the tree only: .*\Z', '', mk, flags=re.S)
assert n == 1 and 'knc_module' not in mk
mk = re.sub(r'\A(# SPDX[^\n]*\n)#.*?\n(?=obj-|ifneq|# Out of)', r'''\1#
# Knights Corner core PMU: knc_pmu (the core and the native backend, the
# KNC MSRs) and knc_sim (a simulated KNC PMU for any x86 machine).
# knc_events.tbl is generated from the JSON under
# tools/perf/pmu-events/arch/x86/knightscorner/.
''', mk, flags=re.S)
sys.stdout.write(mk)
PY
}

# 1. The driver, in place of intel/knc.c: family 11 without arch perfmon
# is knc's. Built in, it needs none of knc_module.c, and it calls perf core
# directly: its knc_perf.h is tools/knc/intree/knc_perf.h. The KUnit tests
# come in patch 3.
is_test() { case $1 in *_test.c | */knc_test.h | */.kunitconfig) return 0 ;; esac; return 1; }
mkdir -p arch/x86/events/knc
for f in $(git -C "$REPO" ls-files arch/x86/events/knc); do
	case $f in */knc_module.c) continue ;; esac
	is_test "$f" || cp "$REPO/$f" arch/x86/events/knc/
done
cp "$MSG/knc_perf.h" arch/x86/events/knc/
intree_makefile without-kunit
python3 - <<'PY'
import re
kc = open('arch/x86/events/Kconfig').read()
entry = '''config PERF_EVENTS_INTEL_KNC
	bool "Intel Knights Corner core PMU"
	depends on PERF_EVENTS && CPU_SUP_INTEL && X86_LOCAL_APIC
	default y
	help
	  The core PMU of the Intel Xeon Phi coprocessor "Knights Corner"
	  (family 11, model 1) as the "knc" PMU: two 40-bit counters per
	  hardware thread, and the events of Intel's specification as
	  sysfs aliases.

config PERF_EVENTS_INTEL_KNC_SIM
	tristate "Simulated Knights Corner core PMU"
	depends on PERF_EVENTS_INTEL_KNC && DEBUG_FS
	help
	  A register-level simulation of the Knights Corner PMU, for any x86
	  machine, driven through debugfs (knc_sim/): a tool for testing the
	  knc driver where no Knights Corner is at hand.

	  To compile it as a module, choose M here: the module will be
	  called knc_sim. If unsure, say N.

'''
kc = kc.replace('config PERF_EVENTS_AMD_POWER\n', entry + 'config PERF_EVENTS_AMD_POWER\n', 1)
open('arch/x86/events/Kconfig', 'w').write(kc)

mf = open('arch/x86/events/Makefile').read()
mf = mf.replace('obj-$(CONFIG_CPU_SUP_INTEL)\t\t+= intel/\n',
		'obj-$(CONFIG_CPU_SUP_INTEL)\t\t+= intel/\nobj-$(CONFIG_PERF_EVENTS_INTEL_KNC)\t+= knc/\n', 1)
open('arch/x86/events/Makefile', 'w').write(mf)

ma = open('MAINTAINERS').read()
name = 'INTEL KNIGHTS CORNER PMU DRIVER'
heads = [m for m in re.finditer(r'^(INTEL [^\n]*)\n(?=[A-Z]:\t)', ma, flags=re.M)]
after = next(m for m in heads if m.group(1) > name)
import subprocess
who = subprocess.run(['git', 'config', 'user.name'], capture_output=True, text=True).stdout.strip()
mail = subprocess.run(['git', 'config', 'user.email'], capture_output=True, text=True).stdout.strip()
block = f'''{name}
M:\t{who} <{mail}>
L:\tlinux-perf-users@vger.kernel.org
S:\tMaintained
F:\tarch/x86/events/knc/

'''
ma = ma[:after.start()] + block + ma[after.start():]
open('MAINTAINERS', 'w').write(ma)
PY
git rm -q arch/x86/events/intel/knc.c
sed -i 's/^obj-\$(CONFIG_CPU_SUP_INTEL)\t\t+= ds.o knc.o$/obj-$(CONFIG_CPU_SUP_INTEL)\t\t+= ds.o/' \
	arch/x86/events/intel/Makefile
python3 - <<'PY'
p = 'arch/x86/events/intel/core.c'
s = open(p).read()
old = '\t\tcase 0xb:\n\t\t\treturn knc_pmu_init();\n'
assert old in s
open(p, 'w').write(s.replace(old, '', 1))
p = 'arch/x86/events/perf_event.h'
s = open(p).read()
old = 'int knc_pmu_init(void);\n\n'
assert old in s
open(p, 'w').write(s.replace(old, '', 1))
PY
grep -q 'knc' arch/x86/events/intel/Makefile && die "intel/Makefile still builds knc.o"
# The admin guide's page, after the other core PMUs' in its index.
cp "$REPO/Documentation/admin-guide/perf/knc.rst" Documentation/admin-guide/perf/
sed -i 's/^   alibaba_pmu$/&\n   knc/' Documentation/admin-guide/perf/index.rst
grep -qx '   knc' Documentation/admin-guide/perf/index.rst || die "knc not in the admin guide's perf index"
sed -i 's|^F:\tarch/x86/events/knc/$|F:\tDocumentation/admin-guide/perf/knc.rst\n&|' MAINTAINERS
commit 0001-driver.msg

# 2. The perf JSON tables, jevents' unit for them, and their MAINTAINERS line.
mkdir -p tools/perf/pmu-events/arch/x86/knightscorner
for f in $(git -C "$REPO" ls-files tools/perf/pmu-events/knc | grep '\.json$'); do
	cp "$REPO/$f" tools/perf/pmu-events/arch/x86/knightscorner/
done
echo "GenuineIntel-11-1,v1,knightscorner,core" >>tools/perf/pmu-events/arch/x86/mapfile.csv
patch -s -p1 <"$REPO/tools/knc/patches/perf-6.1-jevents-knc-unit.patch"
sed -i 's|^F:\tarch/x86/events/knc/$|&\nF:\ttools/perf/pmu-events/arch/x86/knightscorner/|' MAINTAINERS
grep -q "knightscorner/$" MAINTAINERS || die "no MAINTAINERS line for the JSON"
commit 0002-events.msg

# 3. The KUnit tests, their Kconfig entry and .kunitconfig.
for f in $(git -C "$REPO" ls-files arch/x86/events/knc); do
	is_test "$f" && cp "$REPO/$f" arch/x86/events/knc/
done
intree_makefile
python3 - <<'PY'
kc = open('arch/x86/events/Kconfig').read()
entry = '''config PERF_EVENTS_INTEL_KNC_KUNIT_TEST
	bool "KUnit tests for the Knights Corner PMU driver" if !KUNIT_ALL_TESTS
	depends on PERF_EVENTS_INTEL_KNC && KUNIT=y
	default KUNIT_ALL_TESTS
	help
	  KUnit tests of the knc driver's event table, config validation,
	  EvtSel encoding, counter assignment and period arithmetic, and,
	  with PERF_EVENTS_INTEL_KNC_SIM built in, of the simulator's
	  register model. Run them with
	  tools/testing/kunit/kunit.py run --arch=x86_64 \\
		--kunitconfig=arch/x86/events/knc

	  If unsure, say N.

'''
anchor = 'config PERF_EVENTS_AMD_POWER\n'
assert anchor in kc
kc = kc.replace(anchor, entry + anchor, 1)
open('arch/x86/events/Kconfig', 'w').write(kc)
PY
commit 0003-kunit.msg

series_format "$OUT" "$MSG/cover-letter.txt"
ls "$OUT"
