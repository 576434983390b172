# SPDX-License-Identifier: GPL-2.0
# The cases in a kernel log's KUnit KTAP, a line "ok|not_ok SUITE.CASE"
# each: "# Subtest: SUITE", then "    ok N CASE" lines, indented once.
# Read by tests/host/intree.t and tests/guest/kunit.sh.
/^ *# Subtest: / { suite = $NF; next }
/^    (not )?ok [0-9]+ / && suite != "" {
	ok = ($1 == "ok"); sub(/^ *(not )?ok [0-9]+ (- )?/, "")
	print (ok ? "ok" : "not_ok"), suite "." $1
}
