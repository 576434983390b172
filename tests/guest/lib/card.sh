# SPDX-License-Identifier: GPL-2.0
# The card's programs (tools/knc/card/, make card) on the QEMU model, the
# cases both of its PMUs share: knc_pmu.ko's knc PMU (model.sh) and Linux's
# cpu PMU (linux-knc.sh). knc-stat counts the loop exactly, follows 128
# threads, and says when counts are estimates. Each suite adds CARD_CASES
# to its own, and checks knc-check's verdicts itself (card_check).
# Sourced after lib.sh.
# shellcheck shell=bash

# shellcheck disable=SC2034 # the suites that source this file use it
CARD_CASES=()
# knc-record's: where the PMU samples (Linux's intel/knc.c with make
# linux-fixes' patch 3; without it one sample, then none: knc-check's
# sampling check shows that)
CARD_RECORD_CASES=()
KNC_STAT=build/card/knc-stat
KNC_CHECK=build/card/knc-check
# 128 threads of 100000 iterations each (tests/guest/progs/threads.S)
THREADS=build/tests/threads
THREADS_INSNS=25602312

# card_pmu: the PMU knc-stat is to use, as its header names it
card_pmu() {
	if [ -e /sys/bus/event_source/devices/knc ]; then
		echo "knc PMU: knc_pmu.ko"
	else
		echo "cpu PMU: Linux's intel/knc.c"
	fi
}

# card_stat OUT KNC-STAT-ARGS...: knc-stat -x';' -o OUT, OUT gets its CSV lines
card_stat() {
	local out=$1
	shift
	"$KNC_STAT" -x';' -o "$out" "$@" || fail "knc-stat failed ($?): $(cat "$out")"
	cat "$out"
}

# card_value OUT EVENT: the value knc-stat's CSV gave EVENT, and whether
# it is exact ("2000004 exact")
card_value() {
	awk -F';' -v e="$2" '$3 == e { print $1, $6 }' "$1"
}

t_card_stat_loop() {
	local out
	out=$(mktemp)
	"$KNC_STAT" -e instructions:u -- "$LOOP" >"$out" 2>&1 || fail "knc-stat failed: $(cat "$out")"
	cat "$out"
	grep -qF "($(card_pmu)):" "$out" || fail "knc-stat did not use the $(card_pmu)"
	grep -E -q '^ +2,000,004 +instructions:u$' "$out" || fail "not the loop's 2,000,004"
	grep -q "Exact: the event was counted all the time" "$out" || fail "not said to be exact"
	card_stat "$out" -e INSTRUCTIONS_EXECUTED:u -- "$LOOP"
	expect_eq "INSTRUCTIONS_EXECUTED:u" "$LOOP_INSNS exact" "$(card_value "$out" INSTRUCTIONS_EXECUTED:u)"
}
case_add_to CARD_CASES "knc-stat counts the loop's user instructions exactly, on the PMU in use" t_card_stat_loop user

# The public report's 114-thread run that counted 861,817 instructions,
# one of its two mechanisms (Documentation/knc-testbed.rst, "The public
# report's symptoms"): a tool that leaves attr.inherit unset counts the
# thread it opened its event on, none of the threads that thread starts
# (perf_event_init_task() copies only inherit events at clone()). perf
# stat --no-inherit is such a tool: of the 128 threads it gets the main
# thread's 1,544 instructions (5, then 12 a clone, then 3). knc-stat sets
# inherit and gets them all.
t_card_stat_threads() {
	local out ev=instructions:u
	out=$(mktemp)
	card_stat "$out" -e instructions:u -- "$THREADS"
	expect_eq "instructions:u over 128 threads" "$THREADS_INSNS exact" "$(card_value "$out" instructions:u)"
	[ ! -e /sys/bus/event_source/devices/knc ] || ev=knc/instructions_executed/u
	perf stat --no-inherit -x';' -o "$out" -e "$ev" -- "$THREADS" || fail "perf stat failed: $(cat "$out")"
	cat "$out"
	expect_eq "perf stat --no-inherit: the main thread's instructions alone" $((5 + 128 * 12 + 3)) \
		"$(awk -F';' -v e="$ev" '$3 == e { print $1 }' "$out")"
}
case_add_to CARD_CASES "knc-stat follows 128 threads: their instructions exactly (without inherit: the main thread's)" \
	t_card_stat_threads user

# The rotation turns at the PMU's mux interval (4 ms at HZ=250) while the
# task runs: the loop's 2,000,004 instructions can end before the first
# turn, so the workload here runs 50 ms of CPU time, a dozen turns.
t_card_stat_estimates() {
	local out busy=(build/tests/busy 0.05)
	out=$(mktemp)
	card_stat "$out" -e instructions:u,cycles:u,branches:u -- "${busy[@]}"
	[ "$(awk -F';' '$6 == "estimate" && $5 < 100 { n++ } END { print n + 0 }' "$out")" -ge 2 ] ||
		fail "three events on two counters are not estimates, counted part of the time"
	"$KNC_STAT" -e instructions:u,cycles:u,branches:u -- "${busy[@]}" >"$out" 2>&1
	cat "$out"
	grep -E -q "Estimates: 3 PMU events (share the 2 counters|take turns on counter 0);" "$out" ||
		fail "not said to be estimates"
	grep -E -q '\(estimate: counted [0-9]+\.[0-9]{2}% of the time, [0-9.]+ of [0-9.]+ s\)$' "$out" ||
		fail "no estimate line with the share of the time counted"
}
case_add_to CARD_CASES "knc-stat: three events on two counters are rotated, shown as estimates" t_card_stat_estimates user

# The titles of knc-check's checks, as it prints them after the verdict
CARD_CHECKS=("counter 0 counts" "counter 1 counts" "two events together" "sampling:"
	"RDPMC: offered" "RDPMC: not offered" "multiplexing:" "an inherited count")

# card_check: run knc-check --exact (the model's counts are exact): its
# exit status in REPLY, its output shown and kept for card_verdict; its
# CPU's GLOBAL_STATUS through /dev/cpu/N/msr, as on a card (X86_MSR=y).
# card_pmu_state is each CPU's status and LVT entry before it.
card_check() {
	local status=0
	msr_driver
	card_pmu_state=$(card_pmu_state)
	card_out=$(mktemp)
	"$KNC_CHECK" --exact >"$card_out" 2>&1 || status=$?
	cat "$card_out"
	REPLY=$status
}

# card_pmu_state: "CPU STATUS MASKED" for each vCPU, from the model
card_pmu_state() {
	local line w i st lvt
	"$MODEL" regs | while IFS= read -r line; do
		[[ $line == "cpu "*": ctr0 "* ]] || continue
		read -r -a w <<<"$line"
		for ((i = 0; i < ${#w[@]} - 1; i++)); do
			case ${w[i]} in
			status) st=${w[i + 1]} ;;
			lvtpc) lvt=${w[i + 1]} ;;
			esac
		done
		echo "${w[1]%:} $((st)) $((lvt >> 16 & 1))"
	done
}

# card_left_as_found: knc-check left the PMU as it found it, without
# anyone's cleanup: it said its CPU's GLOBAL_STATUS was 0, and no CPU has
# an overflow bit or a masked LVT performance entry it did not have before
card_left_as_found() {
	grep -E -q '^pmu: CPU [0-9]+, GLOBAL_STATUS 0x0 after the checks' "$card_out" ||
		fail "knc-check did not report GLOBAL_STATUS 0"
	echo "before knc-check (CPU, GLOBAL_STATUS, LVT masked):" "${card_pmu_state//$'\n'/; }"
	echo "after: $(card_pmu_state | paste -s -d';')"
	awk 'NR == FNR { st[$1] = $2; m[$1] = $3; next }
		($2 != 0 && $2 != st[$1]) || ($3 && !m[$1]) { print "cpu", $0, "was", st[$1], m[$1]; bad = 1 }
		END { exit bad }' <(echo "$card_pmu_state") <(card_pmu_state) ||
		fail "knc-check left an overflow bit or a masked LVT entry"
}

# card_verdict VERDICT CHECK [PATCH]: knc-check printed VERDICT for the
# check whose title starts with CHECK, and with PATCH, that a FAIL names
# that patch of make linux-fixes as its fix (a number: of the knc.c series;
# x86: the RDPMC series, a posting of its own)
card_verdict() {
	local fix="fix: patch ${3:-} of make linux-fixes"
	[ "${3:-}" != x86 ] || fix="fix: the RDPMC series of make linux-fixes"
	awk -v v="$1" -v c="$2" -v p="${3:-}" -v fix="$fix" '
		/^(PASS|FAIL|SKIP) / { cur = substr($0, 6, length(c)) == c && $1 == v; if (cur) found = 1 }
		cur && p != "" && index($0, fix) { fixed = 1 }
		END { exit !(found && (p == "" || fixed)) }' "$card_out" ||
		fail "knc-check: no $1 for '$2'${3:+ naming patch $3}"
}

# card_all_pass: knc-check passed every check, and exited 0 (REPLY)
card_all_pass() {
	local c
	for c in "${CARD_CHECKS[@]}"; do
		card_verdict PASS "$c"
	done
	expect_eq "knc-check's exit status" 0 "$REPLY"
}

# card_c1_broken: knc-stat counts on Linux's driver without patch 1 of
# make linux-fixes, where counter 1 never counts (linux-knc.sh's
# linux_fixed says whether the kernel carries the patches)
card_c1_broken() {
	[ ! -e /sys/bus/event_source/devices/knc ] && ! { declare -F linux_fixed >/dev/null && linux_fixed; }
}

# A group in braces, as perf writes it: the loop's user instructions
# exactly, beside cycles on the other counter. Where counter 1 never
# counts, no group of two PMU events can count right: knc-stat says so and
# exits 255, with no count.
t_card_stat_group() {
	local out status=0
	out=$(mktemp)
	if card_c1_broken; then
		"$KNC_STAT" -e '{instructions:u,cycles:u}' -- "$LOOP" >"$out" 2>&1 || status=$?
		cat "$out"
		expect_eq "knc-stat's exit status" 255 $status
		grep -q "^knc-stat: the group {instructions:u,cycles:u} cannot be counted right on this kernel: counter 1" \
			"$out" || fail "not said why"
		! grep -E -q 'instructions:u$|Exact' "$out" || fail "a count printed"
		return
	fi
	card_stat "$out" -e '{instructions:u,cycles:u}' -e task-clock -- "$LOOP"
	expect_eq "instructions:u in the group" "$LOOP_INSNS exact" "$(card_value "$out" instructions:u)"
	[ "$(card_value "$out" cycles:u | awk '$1 > 0 && $2 == "exact"')" ] || fail "cycles:u not counted exactly"
}
case_add_to CARD_CASES "knc-stat: {instructions:u,cycles:u}, a group in braces, counts the loop exactly (or is refused where counter 1 never counts)" \
	t_card_stat_group user

# card_cores: how many cores (package and core_id) the CPUs make
card_cores() {
	local t
	for t in /sys/devices/system/cpu/cpu[0-9]*/topology; do
		echo "$(cat "$t/physical_package_id") $(cat "$t/core_id")"
	done | sort -u | wc -l
}

# -a -A and --per-core: a line per online CPU, per core; the loop's
# instructions are on one of them.
t_card_stat_per_cpu() {
	local out cpus cores
	out=$(mktemp)
	cpus=$(grep -c '^processor' /proc/cpuinfo)
	cores=$(card_cores)
	card_stat "$out" -a -A -e instructions -- "$LOOP"
	expect_eq "-A: lines" "$cpus" "$(awk -F';' '$1 ~ /^CPU[0-9]+$/ && $4 == "instructions"' "$out" | wc -l)"
	[ "$(awk -F';' '$2 > max { max = $2 } END { print max + 0 }' "$out")" -ge "$LOOP_INSNS" ] ||
		fail "no CPU counted the loop's $LOOP_INSNS instructions"
	card_stat "$out" -a --per-core -e instructions -- "$LOOP"
	expect_eq "--per-core: lines" "$cores" "$(awk -F';' '$1 ~ /^S[0-9]+-D0-C[0-9]+$/ && $5 == "instructions"' "$out" | wc -l)"
	expect_eq "--per-core: CPUs" "$cpus" "$(awk -F';' '{ n += $2 } END { print n + 0 }' "$out")"
	"$KNC_STAT" -a -A -e instructions -- "$LOOP" >"$out" 2>&1 || fail "knc-stat -a -A failed: $(cat "$out")"
	cat "$out"
	expect_eq "-A: human lines" "$cpus" "$(grep -E -c '^CPU[0-9]+ +[0-9,]+ +instructions$' "$out")"
}
case_add_to CARD_CASES "knc-stat -a -A and --per-core: a line per CPU and per core, the loop counted" t_card_stat_per_cpu user

# --view on this driver: knc_pmu.ko groups its events in pairs; Linux's
# knc.c without patch 1 has each alone on counter 0 (knc-stat finds that
# out); either way the card's row counts a long loop's 10^8 instructions
# (an estimate: within half of it, from a sixth of the time or less), and
# has an IPC (the model counts no L2 or VPU events here).
t_card_stat_view() {
	local out ins cores
	out=$(mktemp)
	cores=$(card_cores)
	"$KNC_STAT" --view -x, -I 100000 -o "$out" -- build/tests/longloop || fail "knc-stat --view failed"
	cat "$out"
	expect_eq "lines: the cores' and the card's" $((cores + 1)) "$(wc -l <"$out")"
	ins=$(awk -F, '$2 == "card" { print $5 }' "$out")
	{ [ "${ins:-0}" -ge 50000000 ] && [ "$ins" -le 150000000 ]; } ||
		fail "the card's instructions $ins, the loop's alone 100000004"
	awk -F, '$2 == "card" && ($6 == "" || $11 != "estimate") { exit 1 }' "$out" || fail "no IPC, or exact"
	"$KNC_STAT" --view -b -I 100000 -o "$out" -- "$LOOP" || fail "knc-stat --view -b failed"
	cat "$out"
	grep -E -q "^# [0-9.]+ s: $(nproc) CPUs, (cpu|knc) PMU" "$out" || fail "no header"
}
case_add_to CARD_CASES "knc-stat --view: a row per core and the card's, on this driver" t_card_stat_view user

# knc-record (issue 61): its perf.data and perf record's of the same
# workload (two hot functions, twohot), the same event and period, read
# by perf report: the same top symbols in the same order, the sample
# counts within 1%; perf script reads it without a word on stderr. The
# perf is Debian 12's own 6.1 (tools/knc/perf-6.1: unpacked in the host's
# cache by install-deps, over 9p here), what a card owner's Debian 12 host
# runs, recording and reading, and the guest's perf (the host's
# /usr/bin/perf) where that is another version (bookworm-backports' 6.12);
# each case names the version.
KNC_RECORD=build/card/knc-record
TWOHOT=build/tests/twohot
CARD_PERF61=$(tools/knc/perf-6.1 2>/dev/null) || CARD_PERF61=
# card_perf_version PERF: its version ("6.1.192"), or "(none)"
card_perf_version() {
	local v
	v=$("$1" --version 2>/dev/null) || v=
	echo "${v#perf version }" | grep . || echo "(none)"
}
CARD_PERF61_V=$(card_perf_version "${CARD_PERF61:-none}")

# card_perf61: Debian's perf 6.1 is there, or fail
card_perf61() {
	[ -x "$CARD_PERF61" ] || fail "no Debian perf 6.1 in the host's cache (tools/knc/install-deps: tools/knc/perf-6.1 --fetch)"
	"$CARD_PERF61" --version
}

# card_record_top PERF FILE: PERF report's top two symbols and their
# samples into FILE.top ("hot_a 612 hot_b 204"), the report shown; perf
# report's stderr must be empty
card_record_top() {
	local err
	err=$(mktemp)
	"$1" report -i "$2" --stdio -n --sort symbol >"$2.report" 2>"$err" || fail "perf report failed: $(cat "$err")"
	sed -n '/^# Samples/p;/%/p' "$2.report" | head -n 8
	[ ! -s "$err" ] || fail "perf report -i $2 warned: $(cat "$err")"
	awk '$3 == "[.]" || $3 == "[k]" { printf "%s %s ", $4, $2; if (++n == 2) exit }' "$2.report" >"$2.top"
}

# card_record_vs PERF: knc-record's file against PERF record's of the same
# workload, both read by PERF
card_record_vs() {
	local P=$1 dir ev=instructions:u pev=instructions:u mine theirs err m t
	dir=$(mktemp -d)
	[ ! -e /sys/bus/event_source/devices/knc ] || pev=knc/instructions_executed/u
	"$KNC_RECORD" -e $ev -c 20011 -o "$dir/knc.data" -- "$TWOHOT" >"$dir/log" 2>&1 ||
		fail "knc-record failed: $(cat "$dir/log")"
	cat "$dir/log"
	grep -E -q '^\[ knc-record: wrote [0-9]+ bytes to .*: [1-9][0-9]* samples \]$' "$dir/log" || fail "no samples"
	! grep -q 'lost\|throttled' "$dir/log" || fail "samples lost or throttled"
	"$P" record -q -e $pev -c 20011 -o "$dir/perf.data" -- "$TWOHOT" || fail "perf record failed"
	card_record_top "$P" "$dir/knc.data"
	card_record_top "$P" "$dir/perf.data"
	mine=$(cat "$dir/knc.data.top")
	theirs=$(cat "$dir/perf.data.top")
	echo "perf $(card_perf_version "$P") report, knc-record's file: $mine"
	echo "perf $(card_perf_version "$P") report, its perf record's: $theirs"
	read -r -a m <<<"$mine"
	read -r -a t <<<"$theirs"
	expect_eq "the top symbols, in order" "hot_a hot_b" "${m[0]} ${m[2]}"
	expect_eq "perf record's top symbols" "hot_a hot_b" "${t[0]} ${t[2]}"
	awk -v a="${m[1]}" -v b="${t[1]}" -v c="${m[3]}" -v d="${t[3]}" \
		'function off(x, y) { return (x > y ? x - y : y - x) * 100 > (x > y ? x : y) }
		END { exit off(a, b) || off(c, d) || a < 100 }' </dev/null ||
		fail "the sample counts differ by more than 1%: ${m[1]}/${m[3]} against ${t[1]}/${t[3]}"
	err=$(mktemp)
	"$P" script -i "$dir/knc.data" >"$dir/script" 2>"$err" || fail "perf script failed: $(cat "$err")"
	[ ! -s "$err" ] || fail "perf script warned: $(cat "$err")"
	head -n 3 "$dir/script"
	[ "$(grep -c 'hot_[ab]' "$dir/script")" -ge 100 ] || fail "perf script shows few samples of hot_a, hot_b"
}

t_card_record_vs_perf61() {
	card_perf61
	card_record_vs "$CARD_PERF61"
}
case_add_to CARD_RECORD_CASES "knc-record: Debian's perf $CARD_PERF61_V reads its file as its own perf record's of the same run: hot_a, hot_b, samples within 1%; perf script too" \
	t_card_record_vs_perf61 user

t_card_record_vs_perf() {
	card_record_vs perf
}
if [ "$(card_perf_version perf)" != "$CARD_PERF61_V" ]; then
	case_add_to CARD_RECORD_CASES "knc-record: the guest's perf $(card_perf_version perf) reads its file as its own perf record's of the same run: hot_a, hot_b, samples within 1%; perf script too" \
		t_card_record_vs_perf user
fi

# -g: the chains name the callers, as the frame pointers give them
t_card_record_callchain() {
	local dir err
	card_perf61
	dir=$(mktemp -d)
	err=$(mktemp)
	"$KNC_RECORD" -g -e instructions:u -c 20011 -o "$dir/knc.data" -- "$TWOHOT" || fail "knc-record -g failed"
	"$CARD_PERF61" report -i "$dir/knc.data" --stdio --no-children -G -S hot_a,hot_b >"$dir/report" 2>"$err" ||
		fail "perf report failed: $(cat "$err")"
	grep -v '^$' "$dir/report" | grep -A8 '%'
	[ ! -s "$err" ] || fail "perf report warned: $(cat "$err")"
	awk '/\[\.\] hot_a$/ { s = "a" } /\[\.\] hot_b$/ { s = "b" }
		s && /^ +(\|? *)?main$/ { m[s] = 1 } s && /^ +caller_[ab]$/ { c[s] = $1 }
		END { exit !(m["a"] && m["b"] && c["a"] == "caller_a" && c["b"] == "caller_b") }' "$dir/report" ||
		fail "the chains do not name main and caller_a, caller_b"
}
case_add_to CARD_RECORD_CASES "knc-record -g: perf $CARD_PERF61_V's call chains name the callers (main, caller_a, caller_b)" \
	t_card_record_callchain user

# -a: every CPU while twohot runs; its two functions on top
t_card_record_all() {
	local dir top
	card_perf61
	dir=$(mktemp -d)
	"$KNC_RECORD" -a -e instructions -c 20011 -o "$dir/knc.data" -- "$TWOHOT" >"$dir/log" 2>&1 ||
		fail "knc-record -a failed: $(cat "$dir/log")"
	cat "$dir/log"
	card_record_top "$CARD_PERF61" "$dir/knc.data"
	top=$(cat "$dir/knc.data.top")
	read -r -a top <<<"$top"
	expect_eq "the top symbols of every CPU" "hot_a hot_b" "${top[0]} ${top[2]}"
}
case_add_to CARD_RECORD_CASES "knc-record -a: every CPU while twohot runs, hot_a and hot_b on top (perf $CARD_PERF61_V)" \
	t_card_record_all user

# --symfs: the card's files copied to a directory of the host, CARD_ROOT,
# each at its path on the card; perf report --symfs=CARD_ROOT finds the
# program there (its build id the file's). Here the program runs from a
# directory of its own and is moved under ROOT after the recording; perf's
# build-id cache is an empty directory (--buildid-dir), so that perf
# record's copies of twohot (~/.debug, the same build id) do not stand in
# for it: without --symfs no symbol of it is found.
t_card_record_symfs() {
	local dir root err top
	card_perf61
	dir=$(mktemp -d)
	root=$dir/card-root
	err=$(mktemp)
	mkdir -p "$dir/bin" "$dir/buildid"
	cp "$TWOHOT" "$dir/bin/twohot"
	"$KNC_RECORD" -e instructions:u -c 20011 -o "$dir/card.data" -- "$dir/bin/twohot" >"$dir/log" 2>&1 ||
		fail "knc-record failed: $(cat "$dir/log")"
	cat "$dir/log"
	mkdir -p "$root$dir/bin"
	mv "$dir/bin/twohot" "$root$dir/bin/twohot"
	"$CARD_PERF61" --buildid-dir "$dir/buildid" report -i "$dir/card.data" --symfs="$root" \
		--stdio -n --sort dso,symbol >"$dir/report" 2>"$err" || fail "perf report --symfs failed: $(cat "$err")"
	echo "perf report --symfs=$root:"
	sed -n '/^# Samples/p;/%/p' "$dir/report" | head -n 4
	[ ! -s "$err" ] || fail "perf report --symfs warned: $(cat "$err")"
	top=$(awk '$4 == "[.]" { printf "%s %s ", $3, $5; if (++n == 2) exit }' "$dir/report")
	expect_eq "the top two (dso symbol), with --symfs" "twohot hot_a twohot hot_b " "$top"
	"$CARD_PERF61" --buildid-dir "$dir/buildid" report -i "$dir/card.data" \
		--stdio -n --sort dso,symbol >"$dir/report" 2>&1 || fail "perf report failed: $(cat "$dir/report")"
	echo "without --symfs:"
	sed -n '/%/p' "$dir/report" | head -n 2
	! grep -q 'hot_[ab]' "$dir/report" || fail "without --symfs hot_a or hot_b is found all the same"
	"$CARD_PERF61" --buildid-dir "$dir/buildid" annotate -i "$dir/card.data" --symfs="$root" \
		--stdio -s hot_a >"$dir/annotate" 2>"$err" || fail "perf annotate --symfs failed: $(cat "$err")"
	grep -v '^ *$' "$dir/annotate" | head -n 12
	[ ! -s "$err" ] || fail "perf annotate --symfs warned: $(cat "$err")"
	grep -q '<hot_a>:' "$dir/annotate" || fail "perf annotate --symfs shows no hot_a"
}
case_add_to CARD_RECORD_CASES "knc-record: perf $CARD_PERF61_V report --symfs=CARD_ROOT finds the program moved there after the recording, hot_a on top (without --symfs no symbol); perf annotate --symfs" \
	t_card_record_symfs user
