#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# The documentation builds with Debian's Sphinx without a warning (-W), as
# TAP; its bad-input and conformance tables are current, and the
# conformance rules' provenances and cases are sound; every module
# parameter has modinfo text and is in the admin guide's page.
set -uo pipefail
cd "$(dirname "$0")/../.." || exit 1

log=$(mktemp)
. tests/host/tap.sh

echo "TAP version 13"
out=build/docs
rm -rf "$out"
if command -v sphinx-build >/dev/null; then
	sphinx-build -W -q -b html Documentation "$out" >"$log" 2>&1
	result $? "Documentation builds with sphinx-build -W ($(sphinx-build --version 2>&1))" "$log"
else
	echo "sphinx-build is not installed (make deps)" >"$log"
	result 1 "Documentation builds with sphinx-build -W" "$log"
fi

# generated_block NAME FILE: what Documentation/FILE holds between its
# ".. NAME-begin" and ".. NAME-end" markers, without the markers and the
# blank lines beside them
generated_block() {
	sed -n "/^\.\. $1-begin/,/^\.\. $1-end/p" "Documentation/$2" |
		sed '1,2d;$d' | sed '$d'
}

# The bad-input table is the one the guest suites run: bad_attr_table
# MAKE builds badattr with MAKE, then compares.
bad_attr_table() {
	"$1" -s build/tests/badattr >"$log" 2>&1 &&
		build/tests/badattr --rst >"$log.want" 2>"$log" &&
		generated_block bad-attr-table knc-pmu.rst >"$log.have" &&
		diff -u "$log.have" "$log.want" >"$log"
}
bad_attr_table make
result $? "Documentation's bad-input table is badattr --rst's" "$log"
# ... and a make that fails fails it.
printf '#!/bin/sh\necho "make: *** broken. Stop."\nexit 2\n' >"$log.make"
chmod +x "$log.make"
! bad_attr_table "$log.make" && grep -q "broken. Stop." "$log"
result $? "the bad-input table's case fails when make fails (a make that exits 2)" "$log"

# The model's conformance table is the one knc_model_test.ko runs.
tools/knc/conformance-table >"$log.want" 2>"$log" &&
	generated_block conformance-table knc-testbed.rst >"$log.have" &&
	diff -u "$log.have" "$log.want" >"$log"
result $? "Documentation's conformance table is tools/knc/conformance-table's" "$log"

# Its rows against their sources: each provenance has an accepted form
# and cites a section of 1.4 (and a table of that section); each check,
# suite case and host test named exists, and its suite runs it; the rows of
# events that move only by injection name the JSON's events but the two
# that move by themselves. Each check must also fail on a copy of the
# rules with one such fault.
rules=tests/guest/kmod/knc_model_test.c
declare -A says=(
	[provenance]="every rule's provenance is a 327357-001 section, inferred: or other:"
	[cases]="every rule's check, suite case or host test exists and runs"
	[injected]="the rows of injection-only events name the JSON's events"
)
declare -A breaks=(
	[provenance]='s/"327357-001 1.4.3.5: normal access RO; /"1.4.3.5 (RO); /'
	[cases]='s/"model.sh t_spflt_region")/"model.sh t_no_such_case")/'
	[injected]='s/ l1_data_pf1, branches, / l1_data_pf1, /'
)
for what in provenance cases injected; do
	tools/knc/conformance-table --check $what >"$log" 2>&1
	result $? "conformance table: ${says[$what]}" "$log"
	sed "${breaks[$what]}" $rules >"$log.broken"
	! cmp -s $rules "$log.broken" &&
		! tools/knc/conformance-table --check $what "$log.broken" >"$log" 2>&1
	result $? "conformance table: --check $what finds the fault in a broken copy" "$log"
done
sed 's/"327357-001 1.4.3.7, table 1-10: a 32-bit/"327357-001 1.4.3.7, table 1-5: a 32-bit/' \
	$rules >"$log.broken"
! tools/knc/conformance-table --check provenance "$log.broken" >"$log" 2>&1 &&
	grep -q "table 1-5 is not in section 1.4.3.7" "$log"
result $? "conformance table: a table cited must be one of its section's" "$log"

# The modules as make builds them.
for ko in arch/x86/events/knc/knc_pmu.ko arch/x86/events/knc/knc_sim.ko; do
	if [ ! -f "$ko" ]; then
		echo "$ko is not built (make)" >"$log"
		result 1 "modinfo of $ko" "$log"
		continue
	fi
	modinfo "$ko" >"$log" 2>&1
	grep -q "^description: .\{20,\}" "$log"
	result $? "$(basename "$ko") has a description" "$log"
	# Each "parm:" line is "name:text (type)"; text must say something.
	! grep "^parm:" "$log" | grep -v -E "^parm: +[a-z_]+:.{20,} \([a-z]+\)$" >"$log.bad"
	result $? "every parameter of $(basename "$ko") has modinfo text" "$log.bad"
	# ... and is in the admin guide's list, with its type.
	: >"$log.bad"
	sed -n -E 's/^parm: +([a-z_]+):.* \(([a-z]+)\)$/``\1`` (\2, default/p' "$log" |
		while read -r want; do
			grep -q -F "$want" Documentation/admin-guide/perf/knc.rst ||
				echo "not in Documentation/admin-guide/perf/knc.rst: $want" >>"$log.bad"
		done
	[ ! -s "$log.bad" ]
	result $? "every parameter of $(basename "$ko") is in the admin guide's list" "$log.bad"
done
rm -f "$log" "$log.bad" "$log.want" "$log.have" "$log.broken" "$log.make"

echo "1..$n"
exit $bad
