#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Host test (TAP version 13) of the card's programs, knc-stat, knc-check
# and knc-record (tools/knc/card/): make card builds them static and
# freestanding with nothing a Knights Corner core lacks, which
# tools/knc/card/knc-isa audits and an objdump grep of this test's own
# checks again; the audit is shown failing on one instruction of each
# class and passing what a KNC core has; the CMOV rewrite computes what
# CMOV does; gcc and clang, at their default -march and at x86-64-v3, build
# them; kernel style; and what they do without a KNC PMU, natively and
# under qemu-user with the card's CPUID (no CMOV, SSE, MMX, CLFLUSH, CX16,
# POPCNT, SYSENTER, MONITOR), where perf_event_open() is ENOSYS. On the
# model: tests/guest/linux-knc.sh and model.sh.
set -uo pipefail
cd "$(dirname "$0")/../.." || exit 1

. tests/host/tap.sh

B=build/card
ISA=tools/knc/card/knc-isa
log=$(mktemp)
tmp=$(mktemp -d)
trap 'rm -rf "$log" "$tmp"' EXIT
# A CPU with the card's CPUID, as qemu-user enforces it: CMOV, SSE and MMX
# fault there (PAUSE, fences and multi-byte NOPs it does not catch: the
# audit does).
QEMU=(qemu-x86_64 -cpu "qemu64,-cmov,-clflush,-mmx,-sse,-sse2,-sse3,-ssse3,-cx16,-popcnt,-sep,-monitor")
# What a KNC core does not have, as objdump names it, independently of
# knc-isa's table: vector and MMX registers (AVX-512's masks too), VEX
# instructions, and the instructions of Intel 327364's appendix B.
VEC_REGS='%([xyz]mm[0-9]+|mm[0-7]|k[0-7])\b'
ABSENT='^ *[0-9a-f]+:[[:space:]]+((rep[a-z]* |lock |data16 |cs |ds )*)(f?cmov[a-z]*|f?u?comip?|cmpxchg16b|pause|[lms]fence|prefetch[a-z0-9]*|clflush(opt)?|rdtscp|popcnt|lzcnt|tzcnt|movbe|andn|bextr|bls[a-z]+|bzhi|mulx|pdep|pext|rorx|sarx|shlx|shrx|xsave[a-z0-9]*|xrstor[a-z0-9]*|xgetbv|monitor|mwait|sysenter|sysexit|in|out|ins[bwl]|outs[bwl]|emms|nop[wlq]|endbr64|v[a-z0-9]+)([[:space:]]|$)'

# no_absent BINARY: nothing of VEC_REGS or ABSENT in its disassembly
no_absent() {
	objdump -d --no-show-raw-insn "$1" >"$tmp/dis" 2>"$log" || return 1
	[ "$(grep -c . "$tmp/dis")" -gt 100 ] || { echo "no disassembly of $1" >"$log"; return 1; }
	! grep -E -e "$VEC_REGS" -e "$ABSENT" "$tmp/dis" >"$log"
}

echo "TAP version 13"

make -s card >"$log" 2>&1
result $? "make card builds knc-stat, knc-check and knc-record, and its audit passes them" "$log"

for p in knc-stat knc-check knc-record; do
	{ file "$B/$p" && readelf -l "$B/$p" && nm -u "$B/$p"; } >"$log" 2>&1
	grep -q "statically linked" "$log" && ! grep -q INTERP "$log" && [ -z "$(nm -u "$B/$p")" ]
	result $? "$p is static, with no dynamic loader and no undefined symbol" "$log"
	no_absent "$B/$p"
	result $? "$p: objdump finds nothing a KNC core lacks (CMOV, SSE, MMX, AVX, fences, PAUSE, multi-byte NOPs, ...)" "$log"
done

# MPSS's card kernel runs EM_K1OM programs only: the K1OM copies differ
# from the programs in e_machine alone (bytes 19 and 20, 1-based).
for p in knc-stat knc-check knc-record; do
	{ readelf -h "$B/k1om/$p" && cmp -l "$B/$p" "$B/k1om/$p"; } >"$log" 2>&1
	grep -q 'Machine: *Intel K1OM$' "$log" &&
		[ "$(cmp -l "$B/$p" "$B/k1om/$p" | awk '{ print $1 }' | paste -s -d,)" = 19 ]
	result $? "$p's K1OM copy: e_machine EM_K1OM (181), every other byte the same" "$log"
done

# The audit against one instruction of each class a KNC core lacks, each
# in a function of its own: every function named, nothing else.
want=$(grep -c '^F(' tests/host/card/absent.S)
gcc -c -o "$tmp/absent.o" tests/host/card/absent.S 2>"$log" &&
	! python3 $ISA audit "$tmp/absent.o" 2>"$tmp/audit" &&
	got=$(grep -c ': f_[a-z0-9_]*+0x0: ' "$tmp/audit") &&
	{ cat "$tmp/audit"; echo "want $want, got $got"
	  sed -n 's/^F(\(f_[a-z0-9_]*\)).*/\1/p' tests/host/card/absent.S | while read -r f; do
		grep -q ": $f+0x0: " "$tmp/audit" || echo "not named: $f"; done; } >"$log" &&
	[ "$want" -eq "$got" ] && ! grep -q "not named" "$log"
result $? "knc-isa audit fails on each class a KNC core lacks ($want), naming the function and the instruction" "$log"
gcc -c -o "$tmp/present.o" tests/host/card/present.S 2>"$log" &&
	python3 $ISA audit "$tmp/present.o" >>"$log" 2>&1
result $? "knc-isa audit passes what a KNC core has (x87, CMPXCHG8B, RDPMC, SAHF, 1-byte NOPs, ...)" "$log"
# and this test's own grep agrees with it
objdump -d --no-show-raw-insn "$tmp/absent.o" >"$tmp/dis" &&
	[ "$(grep -E -c -e "$VEC_REGS" -e "$ABSENT" "$tmp/dis")" -eq "$want" ]
result $? "the objdump grep finds each of them too" "$tmp/dis"

# The CMOV rewrite: every condition and operand size, compiled as a
# compiler does (with CMOV) and as make card does (rewritten): the same
# results, the rewritten build on a CPU without CMOV.
for cc in gcc clang-19; do
	command -v $cc >/dev/null || { result 1 "$cc: selects rewritten compute what CMOV does (no $cc: make deps)"; continue; }
	flags=(-O2 -ffreestanding -fno-builtin -fno-stack-protector -fno-pie -march=x86-64 -mno-sse -mno-mmx)
	{ $cc "${flags[@]}" -nostdlib -static -o "$tmp/sel" tests/host/card/selects.c &&
		$cc "${flags[@]}" -S -o "$tmp/sel.s" tests/host/card/selects.c &&
		python3 $ISA rewrite "$tmp/sel.s" "$tmp/sel.r.s" && $cc -c -o "$tmp/sel.o" "$tmp/sel.r.s" &&
		$cc -nostdlib -static -o "$tmp/sel.r" "$tmp/sel.o" &&
		cmovs=$(objdump -d "$tmp/sel" | grep -c cmov) && echo "cmov: $cmovs as compiled" &&
		[ "$cmovs" -ge 30 ] && ! objdump -d "$tmp/sel.r" | grep cmov &&
		"$tmp/sel" >"$tmp/want" && "${QEMU[@]}" "$tmp/sel.r" >"$tmp/got" &&
		[ -s "$tmp/want" ] && cmp "$tmp/want" "$tmp/got"; } >"$log" 2>&1
	result $? "$cc: selects rewritten without CMOV compute what CMOV does, on a CPU without CMOV" "$log"
done

# Other compilers and baselines: CC passes through; make card pins the
# baseline after CC's own -march.
for cc in clang-19 "gcc -march=x86-64-v3" "clang-19 -march=x86-64-v3" clang; do
	out=$tmp/cc-${cc//[ =]/_}
	make -s -C tools/knc/card CC="$cc" OUT="$out" >"$log" 2>&1 && [ ! -s "$log" ] &&
		no_absent "$out/knc-stat" && no_absent "$out/knc-check" && no_absent "$out/knc-record" &&
		"${QEMU[@]}" "$out/knc-stat" -h >/dev/null 2>>"$log" && "${QEMU[@]}" "$out/knc-check" -h >/dev/null 2>>"$log" &&
		"${QEMU[@]}" "$out/knc-record" -h >/dev/null 2>>"$log"
	result $? "CC=\"$cc\" builds them warning-free, nothing a KNC core lacks, all run on the card's CPUID" "$log"
done

# Kernel style, but for what only the kernel has (ARRAY_SIZE, __noreturn)
# or holds for kernel code only (volatile, ENOSYS).
CP=build/card/checkpatch	# its own copy: style.t may be extracting its own meanwhile
if [ ! -x $CP/scripts/checkpatch.pl ]; then
	mkdir -p $CP
	tar -xf "$(tools/knc/plain-tar "$(ls /usr/src/linux-source-6.1.tar.* | head -n 1)")" -C $CP --strip-components=1 \
		linux-source-6.1/scripts/checkpatch.pl linux-source-6.1/scripts/spelling.txt \
		linux-source-6.1/scripts/const_structs.checkpatch
fi
for f in tools/knc/card/*.[chS] tests/host/card/*.[cS] tests/guest/progs/threads.S tests/guest/progs/twohot.c; do
	# selects.c's macros define its functions, one per condition and size
	more=
	[ "$f" != tests/host/card/selects.c ] || more=,COMPLEX_MACRO,MACRO_WITH_FLOW_CONTROL
	$CP/scripts/checkpatch.pl --no-tree --show-types --terse -f "$f" \
		--ignore ARRAY_SIZE,PREFER_DEFINED_ATTRIBUTE_MACRO,VOLATILE,ENOSYS,SPLIT_STRING,EMBEDDED_FILENAME,LINE_SPACING$more \
		>"$log" 2>&1
	result $? "checkpatch $f" "$log"
done

# knc-check names the patches of make linux-fixes by their subjects.
ok=0
for m in tools/knc/linux-fixes/000[1-9]-*.msg; do
	s=$(head -n 1 "$m")
	grep -qF "\"$s\"" tools/knc/card/knc-check.c || { echo "not in knc-check.c: $s"; ok=1; }
done >"$log"
result $ok "knc-check quotes the subjects of make linux-fixes' patches" "$log"

# Without a KNC PMU (this host): what needs none.
"$B/knc-stat" -e intructions,task-clock -- true >"$log" 2>&1
status=$?
[ $status -eq 255 ] && grep -q "unknown event 'intructions'" "$log" &&
	grep -q "nearest names: instructions$" "$log"
result $? "knc-stat: an unknown name fails (255) with the nearest names" "$log"

"$B/knc-stat" -e L2_READ_MIS -- true >"$log" 2>&1
grep -q "nearest names: l2_read_miss$" "$log"
result $? "knc-stat: the nearest of a KNC name, in any case" "$log"

"$B/knc-stat" -e task-clock,page-faults -- sh -c 'echo out; exit 3' >"$log" 2>&1
status=$?
[ $status -eq 3 ] && grep -q '^out$' "$log" && grep -E -q '^ +[0-9,]+ +task-clock$' "$log" &&
	grep -E -q '^ +[0-9,]+ +page-faults$' "$log" && grep -q 'seconds time elapsed' "$log"
result $? "knc-stat runs CMD, prints its counts and exits with its status" "$log"

"$B/knc-stat" -x';' -e task-clock,page-faults -- true >"$log" 2>&1
awk -F';' 'NF != 6 || $1 !~ /^[0-9]+$/ || $2 != "" || $5 != "100.00" || $6 != "exact" { exit 1 }
	END { exit NR != 2 }' "$log"
result $? "knc-stat -x';': one CSV line of 6 fields per event" "$log"

"$B/knc-stat" -e task-clock -- sh -c 'kill -TERM $$' >"$log" 2>&1
[ $? -eq 143 ] && grep -q task-clock "$log"
result $? "knc-stat: CMD killed by SIGTERM: counts printed, exit 143" "$log"

"$B/knc-stat" -e task-clock -- ./no-such-program >"$log" 2>&1
[ $? -eq 127 ] && grep -q "cannot run ./no-such-program: ENOENT" "$log"
result $? "knc-stat: a CMD that does not exist: 127 and why" "$log"

"$B/knc-stat" -e cycles -- true >"$log" 2>&1
[ $? -eq 255 ] && grep -q "cycles: no PMU" "$log"
result $? "knc-stat: a PMU event without a PMU fails and says so" "$log"

# EACCES: perf_event_paranoid's value and what to set, as a user without
# privileges counting every CPU
read -r paranoid </proc/sys/kernel/perf_event_paranoid
if [ "$(id -u)" -eq 0 ] && [ "$paranoid" -gt 0 ]; then
	setpriv --reuid=65534 --regid=65534 --clear-groups -- "$B/knc-stat" -a -e task-clock -- true >"$log" 2>&1
	[ $? -eq 255 ] && grep -q "task-clock: perf_event_open failed: EACCES" "$log" &&
		grep -q "perf_event_paranoid is $paranoid\." "$log" &&
		grep -q "echo 0 > /proc/sys/kernel/perf_event_paranoid" "$log"
	result $? "knc-stat -a without privileges: EACCES, perf_event_paranoid and what to set" "$log"
else
	skip "knc-stat -a without privileges: EACCES" "not root, or perf_event_paranoid is $paranoid"
fi

"$B/knc-check" >"$log" 2>&1
[ $? -eq 2 ] && grep -q "cannot run: no Knights Corner PMU" "$log"
result $? "knc-check without a Knights Corner PMU: cannot run (exit 2)" "$log"

# Under qemu-user with the card's CPUID, every path that needs no KNC PMU,
# each to its own exit (a SIGILL would be 132): options, bad input,
# formatting, and perf_event_open() answered ENOSYS, where CMD still runs
# (perf stat's <not supported>) and its status is knc-stat's.
# qstat STATUS PATTERN TITLE ARGS...: knc-stat ARGS under qemu-user exits
# STATUS and prints PATTERN (grep -E) on stdout or stderr
qstat() {
	local status=$1 pattern=$2 title=$3 got
	shift 3
	"${QEMU[@]}" "$B/knc-stat" "$@" >"$log" 2>&1
	got=$?
	echo "exit status $got" >>"$log"
	[ $got -eq "$status" ] && grep -E -q -e "$pattern" "$log"
	result $? "card CPUID: knc-stat $title: exit $status" "$log"
}
qstat 0 '^usage: knc-stat ' "-h: the usage" -h
qstat 0 '^  l2_read_miss +event=0xcb,umask=0x10  \(counter 0 only\)$' "-l: the events" -l
qstat 255 '^knc-stat: unknown option --bogus$' "an unknown option" --bogus
qstat 255 '^usage: knc-stat ' "no CMD: the usage" -e task-clock
qstat 255 '^  nearest names: instructions$' "an unknown event: the nearest names" -e intructions -- true
qstat 255 '^knc-stat: -p wants a process id$' "-p not a number" -p x
qstat 255 '^knc-stat: -a and -p exclude each other$' "-a with -p" -a -p 1 -- true
qstat 255 "^knc-stat: --view counts the Knights Corner PMU's events: no knc PMU, and (no cpu PMU|the cpu PMU is not a Knights Corner's)$" \
	"--view without a KNC PMU" --view
qstat 255 '^knc-stat: --view counts its own events on every CPU: not with -e$' "--view with -e" --view -e cycles
qstat 255 "^knc-stat: -b is --view's, without -x$" "-b without --view" -b -a
qstat 255 "^knc-stat: -b is --view's, without -x$" "-b with -x" --view -b -x,
qstat 255 "^knc-stat: -n counts -I's intervals: give -I$" "-n without -I" -n 2 -- true
qstat 255 "^knc-stat: -n '0': the intervals want a number, 1 or more$" "-n 0" -I 100 -n 0 -- true
qstat 255 "^knc-stat: 'event': no knc or cpu PMU in /sys/bus/event_source/devices/ to take format terms$" \
	"format terms without a PMU" -e event=0x16,umask=0 -- true
qstat 255 '^knc-stat: 0x10cb: no PMU: neither' "a raw code (0x10cb) without a PMU" -e 0x10cb -- true
qstat 255 '^knc-stat: r10cb: no PMU: neither' "perf's raw code (r10cb) without a PMU" -e r10cb -- true
qstat 255 '^knc-stat: -o /nonexistent/x: ENOENT$' "-o into no directory" -o /nonexistent/x -e task-clock -- true
qstat 255 "^knc-stat: 'cycles:x': bad modifier$" "a bad modifier" -e cycles:x -- true
qstat 255 "^knc-stat: 'knc/event=0x16': no closing '/'$" "a PMU's terms without their closing /" -e knc/event=0x16 -- true
qstat 255 "^knc-stat: 'knc/event=0x16/': no knc PMU: neither knc_pmu.ko's knc PMU nor a cpu PMU in " \
	"a PMU's terms without that PMU" -e knc/event=0x16/ -- true
qstat 255 "^knc-stat: bad value in 'event=zz'$" "a term's bad value" -e event=zz -- true
qstat 255 "^knc-stat: event too long in 'x{90}'$" "an event name too long" -e "$(printf 'x%.0s' {1..90})" -- true
qstat 255 '^knc-stat: at most 16 events$' "17 events" -e "$(printf 'task-clock,%.0s' {1..16})task-clock" -- true
qstat 3 '^ +<not supported> +page-faults$' "ENOSYS: CMD runs, <not supported>, its status" \
	-e task-clock -e page-faults -- sh -c 'echo out; exit 3'
grep -q '^out$' "$log" && grep -q '^knc-stat: perf_event_open: ENOSYS: this kernel has no perf events' "$log" &&
	grep -E -q '^ +<not supported> +task-clock$' "$log" &&
	grep -q '^ Not counted: this kernel has no perf_event_open() (ENOSYS)\.$' "$log"
result $? "card CPUID: knc-stat under ENOSYS: CMD's output, both events <not supported>, why" "$log"
qstat 127 '^knc-stat: cannot run ./no-such-program: ENOENT$' "a CMD that does not exist" -e task-clock -- ./no-such-program
qstat 143 'task-clock' "CMD killed by SIGTERM" -e task-clock -- sh -c 'kill -TERM $$'
"${QEMU[@]}" "$B/knc-stat" -x';' -o "$tmp/csv" -e task-clock -- true >"$log" 2>&1 &&
	[ "$(cat "$tmp/csv")" = "<not supported>;;task-clock;0;0.00;not supported" ]
result $? "card CPUID: knc-stat -x';' -o FILE under ENOSYS: the CSV line in FILE" "$tmp/csv"
"${QEMU[@]}" "$B/knc-check" -h >"$log" 2>&1 && grep -q '^usage: knc-check' "$log"
result $? "card CPUID: knc-check -h: the usage, exit 0" "$log"
"${QEMU[@]}" "$B/knc-check" --bogus >"$log" 2>&1
[ $? -eq 2 ] && grep -q '^usage: knc-check' "$log"
result $? "card CPUID: knc-check with an argument: the usage, exit 2" "$log"
"${QEMU[@]}" "$B/knc-check" >"$log" 2>&1
[ $? -eq 2 ] && grep -qx "kernel: $(uname -r)" "$log" && grep -q '^cpu: family [0-9]* model [0-9]* (not a Knights Corner)$' "$log" &&
	grep -q "cannot run: no Knights Corner PMU" "$log"
result $? "card CPUID: knc-check: the kernel release, the CPU, cannot run (exit 2)" "$log"


# perf stat's habits (issue 58): {a,b} groups, -I, -r, -a without CMD
# (until SIGINT), -A and --per-core, with software events (this host has
# no PMU for knc-stat; -a needs root or perf_event_paranoid <= 0).
"$B/knc-stat" -e '{task-clock,context-switches},cpu-clock' -- sleep 0.05 >"$log" 2>&1 &&
	grep -E -q '^ +[0-9,]+ +task-clock$' "$log" && grep -E -q '^ +[0-9,]+ +context-switches$' "$log" &&
	grep -E -q '^ +[0-9,]+ +cpu-clock$' "$log"
result $? "knc-stat -e '{task-clock,context-switches},cpu-clock': a group in braces and one alone, counted" "$log"
"$B/knc-stat" -x';' -e '{task-clock,context-switches}' -e '{cpu-clock}' -- true >"$log" 2>&1 &&
	awk -F';' 'NF != 6 || $1 !~ /^[0-9]+$/ || $6 != "exact" { exit 1 } END { exit NR != 3 }' "$log" &&
	[ "$(cut -d';' -f3 "$log" | paste -s -d,)" = task-clock,context-switches,cpu-clock ]
result $? "knc-stat -x';' with groups in braces over two -e: a CSV line per event, in order" "$log"

"$B/knc-stat" -I 100 -e task-clock,context-switches -- sleep 0.35 >"$log" 2>&1 &&
	[ "$(grep -E -c '^ +[0-9]+\.[0-9]{9} +[0-9,]+ +task-clock$' "$log")" -ge 3 ] &&
	[ "$(grep -E -c '^ +[0-9]+\.[0-9]{9} +[0-9,]+ +context-switches$' "$log")" -ge 3 ] &&
	grep -q '^# *time  *counts  *event$' "$log" && ! grep -q 'seconds time elapsed' "$log"
result $? "knc-stat -I 100 over sleep 0.35: interval lines (time, count, event), no totals" "$log"
"$B/knc-stat" -x';' -I 100 -e task-clock -- sleep 0.35 >"$log" 2>&1 &&
	awk -F';' 'NF != 7 || $1 !~ /^[0-9]+\.[0-9]+$/ || $2 !~ /^[0-9]+$/ || $4 != "task-clock" ||
		$1 <= last { exit 1 } { last = $1 } END { exit NR < 3 }' "$log"
result $? "knc-stat -x';' -I 100: CSV lines after their time, the times rising" "$log"

"$B/knc-stat" -r 3 -e task-clock,page-faults -- sh -c 'exit 5' >"$log" 2>&1
[ $? -eq 5 ] && grep -q "^ Performance counter stats for 'sh -c exit 5' (no PMU, 3 runs):$" "$log" &&
	grep -E -q '^ +[0-9,]+ +task-clock +\( \+- [0-9]+\.[0-9]{2}% \)$' "$log" &&
	grep -E -q '^ +[0-9,]+ +page-faults +\( \+- [0-9]+\.[0-9]{2}% \)$' "$log" &&
	grep -E -q '^ +[0-9]+\.[0-9]{9} seconds time elapsed  \( \+- [0-9]+\.[0-9]{2}% \)$' "$log"
result $? "knc-stat -r 3: the means and their spread ( +- x.xx% ), CMD's exit status" "$log"
"$B/knc-stat" -x';' -r 3 -e task-clock -- true >"$log" 2>&1 &&
	awk -F';' 'NF != 7 || $1 !~ /^[0-9]+$/ || $3 != "task-clock" || $4 !~ /^[0-9]+\.[0-9][0-9]%$/ { exit 1 }
		END { exit NR != 1 }' "$log"
result $? "knc-stat -x';' -r 3: the spread after the event" "$log"

# online_cpus: the online CPUs, one a line
online_cpus() {
	local r
	tr ',' '\n' </sys/devices/system/cpu/online | while IFS=- read -r a b; do
		for ((r = a; r <= ${b:-$a}; r++)); do echo "$r"; done
	done
}
ncpus=$(online_cpus | wc -l)
ncores=$(online_cpus | while read -r c; do
	t=/sys/devices/system/cpu/cpu$c/topology
	echo "S$(cat $t/physical_package_id)-D0-C$(cat $t/core_id)"
done | sort -u | tee "$tmp/cores" | wc -l)

# sigint_stat ARGS...: knc-stat ARGS in the background, SIGINT after 0.3 s;
# its exit status
sigint_stat() {
	local pid status=0
	"$B/knc-stat" "$@" >"$log" 2>&1 &
	pid=$!
	sleep 0.3
	kill -INT $pid
	wait $pid || status=$?
	echo "exit status $status" >>"$log"
	return $status
}
sigint_stat -a -e task-clock,context-switches &&
	grep -q "^ Performance counter stats for 'system wide' (no PMU):$" "$log" &&
	grep -E -q '^ +[1-9][0-9,]+ +task-clock$' "$log" && grep -E -q '^ +[0-9,]+ +context-switches$' "$log"
result $? "knc-stat -a without CMD: counts every CPU until SIGINT, then prints them, exit 0" "$log"
sigint_stat -x';' -a -I 100 -e task-clock && grep -v '^exit status' "$log" >"$tmp/csv" &&
	awk -F';' 'NF != 7 || $1 !~ /^[0-9]+\.[0-9]+$/ || $2 !~ /^[1-9][0-9]*$/ { exit 1 } END { exit NR < 2 }' "$tmp/csv"
result $? "knc-stat -x';' -a -I 100 without CMD: intervals until SIGINT, exit 0" "$log"

"$B/knc-stat" -a -A -e task-clock -- sleep 0.05 >"$log" 2>&1 &&
	[ "$(grep -E -c '^CPU[0-9]+ +[0-9,]+ +task-clock$' "$log")" -eq "$ncpus" ]
result $? "knc-stat -a -A: a line per online CPU ($ncpus)" "$log"
"$B/knc-stat" -x';' -a -A -e task-clock,context-switches -- sleep 0.05 >"$log" 2>&1 &&
	[ "$(awk -F';' 'NF == 7 && $1 ~ /^CPU[0-9]+$/ && $4 == "task-clock" { print substr($1, 4) }' "$log" |
		paste -s -d' ')" = "$(online_cpus | paste -s -d' ')" ] &&
	[ "$(grep -c ';context-switches;' "$log")" -eq "$ncpus" ]
result $? "knc-stat -x';' -a -A: the CPU first, every online CPU's line for each event" "$log"
"$B/knc-stat" -a --per-core -e task-clock -- sleep 0.05 >"$log" 2>&1 &&
	[ "$(grep -E -c '^S[0-9]+-D0-C[0-9]+ +[0-9]+ +[0-9,]+ +task-clock$' "$log")" -eq "$ncores" ]
result $? "knc-stat -a --per-core: a line per core ($ncores)" "$log"
"$B/knc-stat" -x';' -a --per-core -e task-clock -- sleep 0.05 >"$log" 2>&1 &&
	[ "$(cut -d';' -f1 "$log" | sort | paste -s -d' ')" = "$(sort "$tmp/cores" | paste -s -d' ')" ] &&
	[ "$(awk -F';' 'NF == 8 && $2 ~ /^[1-9][0-9]*$/ && $5 == "task-clock" { n += $2 } END { print n }' "$log")" -eq "$ncpus" ]
result $? "knc-stat -x';' -a --per-core: the core and its CPUs first, the CPUs add up to $ncpus" "$log"
"$B/knc-stat" -x';' -a -A -I 100 -e task-clock -- sleep 0.25 >"$log" 2>&1 &&
	[ "$(awk -F';' 'NF == 8 && $1 ~ /^[0-9]+\.[0-9]+$/ && $2 ~ /^CPU[0-9]+$/' "$log" | wc -l)" -ge $((2 * ncpus)) ]
result $? "knc-stat -x';' -a -A -I 100: the time, then the CPU" "$log"

# the new options' errors, natively and under qemu-user (card CPUID)
stat_errors=(
	"^knc-stat: -I '5': the interval wants milliseconds, 10 or more$|-I 5|-I 5 -e task-clock -- true"
	"^knc-stat: -I 'x': the interval wants milliseconds, 10 or more$|-I x|-I x -e task-clock -- true"
	"^knc-stat: -r '0': the runs want a number from 1 to 1000$|-r 0|-r 0 -- true"
	"^knc-stat: -r 'x': the runs want a number from 1 to 1000$|-r x|-rx -- true"
	"^knc-stat: -e '\{task-clock,cpu-clock': unbalanced braces \(a '\{' without its '\}'\)$|{ unclosed|-e {task-clock,cpu-clock -- true"
	"^knc-stat: -e 'task-clock\}': unbalanced braces \(a '\}' without its '\{'\)$|} unopened|-e task-clock} -- true"
	"^knc-stat: -e '\{task-clock,\{cpu-clock\}\}': unbalanced braces \(a group in a group\)$|nested groups|-e {task-clock,{cpu-clock}} -- true"
	"^knc-stat: -e '\{\}': an empty event or group$|an empty group|-e {} -- true"
	"^knc-stat: -e '\{task-clock\}:u': a group's modifier \('\}:u'\) is not supported|a group's modifier|-e {task-clock}:u -- true"
	"^knc-stat: the group \{cycles,instructions,branches\} has 3 PMU events: it cannot count|a group too big|-e {cycles,instructions,branches} -- true"
	"^knc-stat: -A and --per-core exclude each other$|-A with --per-core|-a -A --per-core -e task-clock -- true"
	"^knc-stat: -A counts CPU by CPU: with -a$|-A without -a|-A -e task-clock -- true"
	"^knc-stat: --per-core counts CPU by CPU: with -a$|--per-core without -a|--per-core -e task-clock -- true"
	"^knc-stat: -r repeats CMD: give one$|-r without CMD|-a -r 2 -e task-clock"
	"^knc-stat: -r and -I exclude each other$|-r with -I|-r 2 -I 100 -e task-clock -- true"
	"^knc-stat: -r prints the means of the sums: not with --per-core$|-r with --per-core|-a --per-core -r 2 -e task-clock -- true"
)
for e in "${stat_errors[@]}"; do
	IFS='|' read -r pattern title args <<<"$e"
	read -r -a argv <<<"$args"
	"$B/knc-stat" "${argv[@]}" >"$log" 2>&1
	status=$?
	echo "exit status $status" >>"$log"
	[ $status -eq 255 ] && grep -E -q -e "$pattern" "$log"
	result $? "knc-stat $title: its error, exit 255" "$log"
done
for e in "${stat_errors[@]}"; do
	IFS='|' read -r pattern title args <<<"$e"
	read -r -a argv <<<"$args"
	qstat 255 "$pattern" "$title" "${argv[@]}"
done
# under ENOSYS: the intervals and the runs, <not supported>
qstat 0 '^ +[0-9]+\.[0-9]{9} +<not supported> +task-clock$' "-I 100 under ENOSYS: intervals of <not supported>" \
	-I 100 -e task-clock -- sleep 0.25
qstat 6 '^ +<not supported> +task-clock$' "-r 2 under ENOSYS: <not supported>, the last run's status" \
	-r 2 -e task-clock -- sh -c 'exit 6'

# knc-record (issue 61): its perf.data, read on this host with a software
# event (this host has no PMU for it); on the model the same with the PMU
# against perf record (tests/guest/lib/card.sh). The files are recorded
# once, then read by Debian 12's own perf 6.1 (tools/knc/perf-6.1, which
# install-deps unpacks: with bookworm-backports enabled the installed
# linux-perf is 6.12), by the installed perf where it is another version,
# and by make perf's 7.3; each case names the version that read the file.
KR=$B/knc-record
make -s -C tests/guest/progs OUT="$tmp" "$tmp/twohot" >"$log" 2>&1
result $? "knc-record's workload, twohot, builds" "$log"
"$KR" -e cpu-clock -c 100000 -o "$tmp/kr.data" -- "$tmp/twohot" 20000000 >"$log" 2>&1 &&
	grep -E -q "^\[ knc-record: wrote [0-9]+ bytes to $tmp/kr.data: [1-9][0-9]* samples \]$" "$log"
result $? "knc-record -e cpu-clock -- twohot: says how many samples it wrote" "$log"
"$KR" -g -e cpu-clock -c 100000 -o "$tmp/krg.data" -- "$tmp/twohot" 20000000 >"$log" 2>&1
result $? "knc-record -g -e cpu-clock -- twohot" "$log"
# -p: a running process, from now until it exits; hot_a must still be
# running when knc-record attaches, 0.2 s later (50000000 iterations of
# hot_b ran both in 0.25 s on an idle host)
"$tmp/twohot" 400000000 &
tp=$!
sleep 0.2
"$KR" -p $tp -e cpu-clock -c 100000 -o "$tmp/kp.data" >"$log" 2>&1
status=$?
wait $tp
[ $status -eq 0 ]
result $? "knc-record -p: a running process until it exits, exit 0" "$log"
sleep 5 &
tp=$!
"$KR" -p $tp -e task-clock -o "$tmp/kpi.data" >"$log" 2>&1 &
kp=$!
sleep 0.3
kill -INT $kp
wait $kp
status=$?
kill $tp
[ $status -eq 0 ]
result $? "knc-record -p: until SIGINT, exit 0" "$log"
# -a: every CPU while CMD runs (every process's maps synthesized), and until SIGINT
"$KR" -a -e cpu-clock -c 100000 -o "$tmp/ka.data" -- "$tmp/twohot" 20000000 >"$log" 2>&1
result $? "knc-record -a -- twohot: every CPU while twohot runs" "$log"
"$KR" -a -e cpu-clock -o "$tmp/kai.data" >"$log" 2>&1 &
kp=$!
sleep 0.3
kill -INT $kp
wait $kp
result $? "knc-record -a without CMD: until SIGINT, exit 0" "$log"

# read_quiet PERF ARGS...: PERF ARGS' output into $tmp/report, with nothing
# on stderr ($tmp/err); both appended to the log
read_quiet() {
	"$@" >"$tmp/report" 2>"$tmp/err"
	local status=$?
	cat "$tmp/report" "$tmp/err" >>"$log"
	[ $status -eq 0 ] && [ ! -s "$tmp/err" ]
}

P61=$(tools/knc/perf-6.1 2>"$log")
[ -x "$P61" ] && "$P61" --version >>"$log" && "$P61" --version | grep '^perf version 6\.1\.' >/dev/null
result $? "Debian's perf 6.1, which reads knc-record's files here: ${P61:-none} (tools/knc/perf-6.1)" "$log"
PERFS=()
[ ! -x "$P61" ] || PERFS+=("$P61")
if command -v perf >/dev/null && [ "$(perf --version)" != "$("$P61" --version 2>/dev/null)" ]; then
	PERFS+=(perf)
fi
for P in "${PERFS[@]}"; do
	v="perf $("$P" --version | cut -d' ' -f3)"
	: >"$log"
	read_quiet "$P" report -i "$tmp/kr.data" --stdio --sort symbol &&
		[ "$(grep -E -o '\[\.\] hot_[ab]' "$tmp/report" | paste -s -d,)" = "[.] hot_a,[.] hot_b" ] &&
		grep -q "^# Samples: .* of event 'cpu-clock'$" "$tmp/report"
	result $? "$v reads knc-record -e cpu-clock's file without a warning: hot_a then hot_b" "$log"
	: >"$log"
	read_quiet "$P" script -i "$tmp/kr.data" &&
		[ "$(grep -c ' cpu-clock: .* hot_[ab]+' "$tmp/report")" -gt 100 ]
	result $? "$v script reads it without a warning" "$log"
	"$P" report -i "$tmp/kr.data" --header-only >"$log" 2>&1 &&
		grep -q '^# perf version : knc-record$' "$log" && grep -q "^# cmdline : $KR -e cpu-clock " "$log" &&
		grep -q '^# event : name = cpu-clock, .*sample_type = IP|TID|TIME|PERIOD, ' "$log" &&
		grep -q "^# os release : $(uname -r)$" "$log" && grep -q '^# nrcpus online : ' "$log"
	result $? "$v: the header's features (perf report --header-only)" "$log"
	"$P" buildid-list -i "$tmp/kr.data" >"$log" 2>&1 &&
		grep -qx "$(readelf -n "$tmp/twohot" | sed -n 's/^ *Build ID: //p') $tmp/twohot" "$log" &&
		grep -E -q '^[0-9a-f]{40} \[kernel\.kallsyms\]$' "$log"
	result $? "$v: the build ids of the kernel and of the program it ran (perf buildid-list)" "$log"
	: >"$log"
	read_quiet "$P" report -i "$tmp/krg.data" --stdio --no-children -G -S hot_a,hot_b &&
		awk '/\[\.\] hot_a$/ { s = "a" } /\[\.\] hot_b$/ { s = "b" }
			s && /^ +(\|? *)?main$/ { m[s] = 1 } s && /^ +caller_[ab]$/ { c[s] = $1 }
			END { exit !(m["a"] && m["b"] && c["a"] == "caller_a" && c["b"] == "caller_b") }' "$tmp/report"
	result $? "$v: knc-record -g's call chains name the callers (main, caller_a, caller_b)" "$log"
	: >"$log"
	read_quiet "$P" annotate -i "$tmp/krg.data" --stdio -s hot_a && grep -q '<hot_a>:' "$tmp/report"
	result $? "$v annotates hot_a without a warning" "$log"
	: >"$log"
	read_quiet "$P" report -i "$tmp/kp.data" --stdio --sort comm,symbol &&
		[ "$(grep -E -o 'twohot +\[\.\] hot_[ab]' "$tmp/report" | wc -l)" -eq 2 ] &&
		"$P" buildid-list -i "$tmp/kp.data" | grep " $tmp/twohot$" >/dev/null
	result $? "$v: knc-record -p's file: the running process's hot_a and hot_b, its name, its build id (its maps synthesized)" "$log"
	"$P" report -i "$tmp/kpi.data" --stdio >"$log" 2>&1
	result $? "$v: knc-record -p's file of a sleeping process, ended by SIGINT, read" "$log"
	: >"$log"
	read_quiet "$P" report -i "$tmp/ka.data" --stdio --sort comm,symbol &&
		[ "$(grep -E -o 'twohot +\[\.\] hot_[ab]' "$tmp/report" | wc -l)" -eq 2 ] &&
		read_quiet "$P" script -i "$tmp/ka.data"
	result $? "$v: knc-record -a's file: twohot's hot_a and hot_b among the rest, read and scripted without a warning" "$log"
	: >"$log"
	read_quiet "$P" report -i "$tmp/kai.data" --stdio --sort comm
	result $? "$v: knc-record -a's file without CMD, ended by SIGINT, read" "$log"
done
[ ${#PERFS[@]} -gt 0 ] || skip "knc-record's perf.data read by perf" "no perf on this host"
# and make perf's perf 7.3 (PERF73), report, script and annotate
P73=${PERF73:-build/perf/perf}
if [ -x "$P73" ]; then
	: >"$log"
	read_quiet "$P73" report -i "$tmp/krg.data" --stdio --sort symbol && grep -q 'caller_a' "$tmp/report" &&
		read_quiet "$P73" script -i "$tmp/krg.data" &&
		read_quiet "$P73" annotate -i "$tmp/krg.data" --stdio -s hot_a && grep -q '<hot_a>:' "$tmp/report"
	result $? "knc-record -g: perf $("$P73" --version | cut -d' ' -f3) reports, scripts and annotates it without a warning" \
		"$log"
else
	skip "knc-record's file read by perf 7.3" "no $P73 (make perf)"
fi
"$KR" -e task-clock -o "$tmp/kr.data" -- sh -c 'kill -TERM $$' >"$log" 2>&1
[ $? -eq 143 ] && [ -s "$tmp/kr.data" ]
result $? "knc-record: CMD killed by SIGTERM: the file written, exit 143" "$log"
rm -f "$tmp/kr.data"
"$KR" -e task-clock -o "$tmp/kr.data" -- ./no-such-program >"$log" 2>&1
[ $? -eq 127 ] && grep -q "^knc-record: cannot run ./no-such-program: ENOENT$" "$log" && [ ! -e "$tmp/kr.data" ]
result $? "knc-record: a CMD that does not exist: 127 and why, no file" "$log"

# qrec STATUS PATTERN TITLE ARGS...: knc-record ARGS under qemu-user (the
# card's CPUID) exits STATUS and prints PATTERN (grep -E)
qrec() {
	local status=$1 pattern=$2 title=$3 got
	shift 3
	(cd "$tmp" && "${QEMU[@]}" "$OLDPWD/$KR" "$@") >"$log" 2>&1
	got=$?
	echo "exit status $got" >>"$log"
	[ $got -eq "$status" ] && grep -E -q -e "$pattern" "$log"
	result $? "card CPUID: knc-record $title: exit $status" "$log"
}
qrec 0 '^usage: knc-record ' "-h: the usage" -h
qrec 255 '^usage: knc-record ' "no CMD: the usage"
qrec 255 '^knc-record: unknown option --bogus$' "an unknown option" --bogus
qrec 255 '^knc-record: -c and -F exclude each other$' "-c with -F" -c 5 -F 5 -- true
qrec 255 "^knc-record: -c 'x': a number above 0$" "-c not a number" -c x -- true
qrec 255 "^knc-record: -m '3': a power of two up to 4096$" "-m not a power of two" -m 3 -- true
qrec 255 "^knc-record: -e 'cycles,instructions': one event$" "two events" -e cycles,instructions -- true
qrec 255 '^knc-record: -o /nonexistent/x: ENOENT$' "-o into no directory" -o /nonexistent/x -e task-clock -- true
qrec 255 '^knc-record: -p and CMD exclude each other$' "-p with CMD" -p 1 -- true
qrec 255 '^knc-record: -a and -p exclude each other$' "-a with -p" -a -p 1
qrec 255 "^knc-record: -p 'x': a number above 0$" "-p not a number" -p x
qrec 255 '^knc-record: -p 999999: no such process \(/proc/999999/task: ENOENT\)$' "-p no such process" \
	-e task-clock -p 999999
qrec 255 '^knc-record: task-clock on CPU [0-9]+: perf_event_open failed: ENOSYS$' \
	"ENOSYS: why, no file" -e task-clock -o enosys.data -- true
[ ! -e "$tmp/enosys.data" ]
result $? "card CPUID: knc-record under ENOSYS leaves no file" "$log"

echo "1..$n"
exit $bad
