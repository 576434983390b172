# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
# tools/knc/vm/qemu.sh, sourced by tools/knc/knc-vm: QEMU's command line.

# choose_qemu: sets QEMU, the emulator (with --native the KNC PMU model's,
# on TCG, with the KNC CPU).
choose_qemu() {
	QEMU="qemu-system-x86_64"
	if ((native)); then
		[[ -x $NATIVE_QEMU ]] ||
			die "$NATIVE_QEMU is missing: run 'make qemu' (QEMU with the KNC PMU model)"
		QEMU=$NATIVE_QEMU
		[[ $accel == kvm ]] && die "--native needs TCG (the KNC PMU model is TCG's)"
		accel=tcg
		cpu=${cpu:-$NATIVE_CPU}
	fi
}

# host_tsc_khz: the host's TSC rate in kHz, from its BogoMIPS (x86
# Linux's delay loop runs on the TSC: BogoMIPS = 2 * the TSC's MHz)
host_tsc_khz() {
	local khz
	khz=$(awk -F': *' '/^bogomips/ { printf "%d", $2 * 500; exit }' /proc/cpuinfo)
	[[ -n $khz ]] || die "no bogomips in the host's /proc/cpuinfo: its TSC rate is unknown"
	echo "$khz"
}

# qemu_command: sets accel, cmdline (the kernel's) and qemu, QEMU's
# command line for the run directory RUNDIR, and makes SOCKDIR, the
# directory of the monitor channel's sockets.
qemu_command() {
	# Linux patches its text (static keys, static calls, kprobes) with an
	# int3 while other CPUs run; under QEMU 7.2's multi-threaded TCG another
	# vCPU can then run a stale translation of the int3: 6.12 dies with
	# "Oops: int3", 6.1 loops on it for ever (tests/guest/progs/textpoke.c;
	# seen without any module). One TCG thread for all vCPUs does not race,
	# nor does the model's QEMU (10.0 and 11.1), which runs 6.1
	# multi-threaded (6.12 stays on one thread there: not tried).
	if [[ -z $tcg_thread ]]; then
		tcg_thread=single
		((native)) && [[ $kver == 6.1.* ]] && tcg_thread=multi
	fi
	if [[ $accel == auto ]]; then
		accel=tcg
		if [[ -r /dev/kvm && -w /dev/kvm ]] && grep -qwE 'vmx|svm' /proc/cpuinfo; then
			accel=kvm
		fi
	fi
	# shellcheck disable=SC2054
	if [[ $accel == kvm ]]; then
		accel_args=(-accel kvm -cpu "${cpu:-host}")
	else
		# Linux reads an Intel CPU's threads from CPUID leaf 0xb; the AMD
		# look of TCG's max would show each thread as a core.
		((threads > 1)) && cpu=${cpu:-max,vendor=GenuineIntel}
		accel_args=(-accel "tcg,thread=$tcg_thread" -cpu "${cpu:-max}")
	fi

	# tsc=reliable: TCG derives every vCPU's TSC from one host clock, but its
	# scheduling jitter fails the guest's TSC sync check; with the TSC marked
	# unstable, sched_clock stalls within a tick and perf's sample timestamps
	# (and its frequency-mode period estimate) go wrong.
	cmdline="console=ttyS0,115200 loglevel=$( ((verbose)) && echo 7 || echo 4) panic=-1 tsc=reliable rdinit=/init"
	cmdline+=" knc_vm_run=$RUNDIR knc_vm_repo=$REPO knc_vm_nonce=$nonce"
	# The kernel log the run is judged by is read at its end (dmesg -s 4M):
	# a ring of 4 MB keeps the whole of it where the debug kernel's 128 KB
	# wrapped within ten minutes of fuzzing, and lost the boot's part.
	cmdline+=" log_buf_len=4M"
	# The IO-APIC timer check wants five timer ticks before the TSC moves
	# 4*10^10/HZ cycles; a vCPU whose QEMU starves on a loaded host got
	# fewer, and the kernel panicked ("IO-APIC + timer doesn't work").
	# Guests on KVM skip the check too.
	cmdline+=" no_timer_check"
	# TCG executes nothing speculatively, so a TCG guest has no CPU
	# vulnerability to mitigate; its kernel believes the vCPU affected
	# only because QEMU's CPU models report no ARCH_CAPABILITIES. Debian's
	# kernels then switch page tables at every kernel entry and exit (PTI),
	# each switch a flush of TCG's TLB: 30 runs of perf stat in a 6.12
	# guest took 34 s with them, 20 s without. With KVM the guest's CPU is
	# the host's: its defaults.
	[[ $accel == kvm ]] || cmdline+=" mitigations=off"
	# The NMI watchdog would hold a counter the module needs.
	((native && load_module)) && cmdline+=" nmi_watchdog=0"
	# A kernel tree (the debug kernel): its ACPI with KASAN spent 5 to 26 s
	# of boot in QEMU's \_SB.PCI0._PRT, whose AML loop ACPICA aborts
	# after 30 s (AE_AML_LOOP_TIMEOUT), as it did on a loaded host, and the
	# guest hung. The PCI IRQs of its virtio device come from the BIOS's
	# routing table instead.
	if [[ -n $ktree ]]; then
		((no_acpi)) || cmdline+=" acpi=noirq"
		((kmemleak)) || cmdline+=" kmemleak=off"
	fi
	# Without ACPI Linux finds the CPUs in SeaBIOS's
	# MP table, which lists the first CPU of each package: a socket each.
	local topology=threads=$threads
	((!no_acpi)) || topology=sockets=$smp,cores=1,threads=1
	# Nor has it a PM timer or an HPET to calibrate the TSC against, and
	# the PIT's calibration fails under TCG: the TSC would be marked
	# unstable and the clock tick in jiffies (a loop's time_running read
	# 0). TCG's TSC is the host's; the host's x86 Linux states its rate
	# as BogoMIPS, twice the TSC's MHz.
	((!no_acpi)) || cmdline+=" tsc_early_khz=$(host_tsc_khz)"
	[[ -z $append ]] || cmdline+=" $append"
	[[ -z $gcov ]] || cmdline+=" knc_vm_gcov=1"
	# The monitor channel: the guest's ttyS1 <-> knc-vm-relay <-> QMP.  Unix
	# socket paths are short-lived and must be short (108 bytes).
	SOCKDIR=$(mktemp -d /tmp/knc-vm.XXXXXX)
	# shellcheck disable=SC2054
	qemu=("$QEMU" "${accel_args[@]}"
		-smp "$smp,$topology" -m "$mem"
		-nodefaults -no-user-config -display none -no-reboot
		-monitor none -serial "file:$SERIAL"
		-chardev "socket,id=kncmon,path=$SOCKDIR/serial,server=on,wait=off"
		-serial chardev:kncmon
		-qmp "unix:$SOCKDIR/qmp,server=on,wait=off"
		-qmp "unix:$SOCKDIR/qmp-host,server=on,wait=off"
		-kernel "$KERNEL" -initrd "$INITRD" -append "$cmdline"
		-virtfs local,path=/,mount_tag=hostroot,security_model=none,readonly=on,multidevs=remap)
	# --gcov: the one directory the guest writes to on the host
	if [[ -n $gcov ]]; then
		qemu+=(-virtfs "local,path=$gcov,mount_tag=kncgcov,security_model=none")
	fi
	# Debian's firmware, for a QEMU built from source
	if ((native)); then
		qemu+=(-L /usr/share/seabios -L /usr/share/qemu)
	fi
}
