# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
# tools/knc/vm/dmesg.sh, sourced by tools/knc/knc-vm: the kernel log
# lines that fail a run, and scan_dmesg, which finds them in the guest's
# log after a run and in a file with --check-dmesg.

# Kernel log lines that make a run fail (extended regexps, matched anywhere).
DMESG_BAD_PATTERNS=(
	'WARNING:'
	'BUG:'
	'kernel BUG at'
	'Oops'
	'general protection fault'
	'Kernel panic'
	'Unable to handle kernel'
	'circular locking dependency'
	'inconsistent lock state'
	'possible recursive locking'
	'possible irq lock inversion'
	'lock held when returning to user space'
	'bad unlock balance'
	'held lock freed'
	'suspicious RCU usage'
	'lockdep is turned off'
	'DEBUG_LOCKS_WARN_ON'
	'possible deadlock'
	'Possible unsafe locking scenario'
	'UBSAN:'
	'KASAN:'
	'KFENCE:'
	'list_(add|del) corruption'
	'unchecked MSR access error'
	'NMI received for unknown reason'
	'Dazed and confused'
	'rcu_(sched|preempt) (self-)?detected stall'
	'blocked for more than [0-9]+ seconds'
	'hard LOCKUP'
	'unreferenced object 0x'
	# knc-vm's guests keep the TSC (tsc=reliable, tsc_early_khz without
	# ACPI): without it the clock ticks in jiffies and perf's times go wrong
	'Marking TSC unstable'
)

# scan_dmesg FILE [IGNORE_ERE]: print the lines of FILE that look like a
# kernel problem; return 0 when there are none, 1 otherwise.
scan_dmesg() {
	local file=$1 ignore=${2:-} re hits
	re=$(IFS='|'; printf '%s' "${DMESG_BAD_PATTERNS[*]}")
	hits=$(tr -d '\r' <"$file" | grep -a -n -E -e "$re" || true)
	if [[ -n $ignore && -n $hits ]]; then
		hits=$(printf '%s\n' "$hits" | grep -a -v -E -e "$ignore" || true)
	fi
	[[ -z $hits ]] && return 0
	printf '%s\n' "$hits"
	return 1
}
