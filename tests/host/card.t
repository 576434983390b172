#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Host test (TAP version 13) of the card's programs, knc-stat and
# knc-check (tools/knc/card/): make card builds them static and
# freestanding, and their disassembly has no SSE, SSE2, AVX or MMX
# instruction, which a Knights Corner core would fault on (the check is
# shown to catch one); clang builds them too; kernel style; and what they
# do without a KNC PMU: knc-stat runs a command with software events
# (exit status, CSV, a signal, the nearest names of an unknown event),
# knc-check says it cannot run. On the model: tests/guest/linux-knc.sh
# and model.sh.
set -uo pipefail
cd "$(dirname "$0")/../.." || exit 1

. tests/host/tap.sh

B=build/card
log=$(mktemp)
tmp=$(mktemp -d)
trap 'rm -rf "$log" "$tmp"' EXIT
# What a KNC core does not have: vector and MMX registers (AVX-512's mask
# registers too), and the SSE/SSE2 instructions that name none of them.
VEC_REGS='%([xyz]mm[0-9]+|mm[0-7]|k[0-7])\b'
VEC_INSNS='^ *[0-9a-f]+:[[:space:]]+(emms|femms|ldmxcsr|stmxcsr|vldmxcsr|vstmxcsr|vzeroupper|vzeroall|movnti[lq]?|maskmovq|lfence|mfence|sfence|prefetchnta|prefetcht[012]|clflush|fxsave|fxrstor|fxsave64|fxrstor64)\b'

# no_vector BINARY: nothing of VEC_REGS or VEC_INSNS in its disassembly
no_vector() {
	objdump -d --no-show-raw-insn "$1" >"$tmp/dis" 2>"$log" || return 1
	[ "$(grep -c . "$tmp/dis")" -gt 100 ] || { echo "no disassembly of $1" >"$log"; return 1; }
	! grep -E -e "$VEC_REGS" -e "$VEC_INSNS" "$tmp/dis" >"$log"
}

echo "TAP version 13"

make -s card >"$log" 2>&1
result $? "make card builds knc-stat and knc-check" "$log"

for p in knc-stat knc-check; do
	{ file "$B/$p" && readelf -l "$B/$p" && nm -u "$B/$p"; } >"$log" 2>&1
	grep -q "statically linked" "$log" && ! grep -q INTERP "$log" && [ -z "$(nm -u "$B/$p")" ]
	result $? "$p is static, with no dynamic loader and no undefined symbol" "$log"
	no_vector "$B/$p"
	result $? "$p: no SSE, SSE2, AVX or MMX register or instruction in its disassembly" "$log"
done

# The check itself: a floating-point function (SSE2, x86-64's baseline)
# and a fence, which it must find.
printf 'double f(double a, double b) { __builtin_ia32_mfence(); return a * b + 1.0; }\n' >"$tmp/fp.c"
if gcc -O2 -c -o "$tmp/fp.o" "$tmp/fp.c" 2>"$log"; then
	! no_vector "$tmp/fp.o"
	result $? "the disassembly check finds SSE2 code and mfence" "$log"
else
	result 1 "the disassembly check finds SSE2 code and mfence (gcc failed)" "$log"
fi

if command -v clang >/dev/null; then
	make -s -C tools/knc/card CC=clang OUT="$tmp/clang" >"$log" 2>&1 &&
		no_vector "$tmp/clang/knc-stat" && no_vector "$tmp/clang/knc-check"
	result $? "clang builds them warning-free, without SSE, AVX or MMX code" "$log"
else
	skip "clang builds them" "clang is not installed"
fi

# Kernel style, but for what only the kernel has (ARRAY_SIZE, __noreturn)
# or holds for kernel code only (volatile, ENOSYS).
CP=build/card/checkpatch	# its own copy: style.t may be extracting its own meanwhile
if [ ! -x $CP/scripts/checkpatch.pl ]; then
	mkdir -p $CP
	tar -xf "$(tools/knc/plain-tar "$(ls /usr/src/linux-source-6.1.tar.* | head -n 1)")" -C $CP --strip-components=1 \
		linux-source-6.1/scripts/checkpatch.pl linux-source-6.1/scripts/spelling.txt \
		linux-source-6.1/scripts/const_structs.checkpatch
fi
for f in tools/knc/card/*.[chS] tests/guest/progs/threads.S; do
	$CP/scripts/checkpatch.pl --no-tree --show-types --terse -f "$f" \
		--ignore ARRAY_SIZE,PREFER_DEFINED_ATTRIBUTE_MACRO,VOLATILE,ENOSYS,SPLIT_STRING,EMBEDDED_FILENAME,LINE_SPACING \
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

echo "1..$n"
exit $bad
