# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
# tools/knc/vm/result.sh, sourced by tools/knc/knc-vm: the verdict on a
# run, from the markers of tools/knc/vm/init.sh on the serial console and
# the kernel log, as knc-vm's exit status.

show_tail() {
	msg "last lines of the serial console (full log: build/vm/last-serial.log):"
	sed "/$M-DMESG-BEGIN/,\$d" "$clean" | tail -n 40 | sed 's/^/  | /' >&2
	if ((have_dmesg)); then
		msg "last kernel messages (full log: build/vm/last-dmesg.txt):"
		tail -n 15 "$DMESG" | sed 's/^/  | /' >&2
	fi
	if [[ -s $RUNDIR/qemu.out ]]; then
		msg "QEMU said:"
		sed 's/^/  | /' "$RUNDIR/qemu.out" >&2
	fi
}

report_dmesg() {
	if ((dmesg_bad)); then
		msg "the guest kernel log shows problems (line numbers of build/vm/last-dmesg.txt):"
		printf '%s\n' "$bad" | sed 's/^/  | /' >&2
	fi
}

# judge_run: keeps the logs in build/vm/, reports and exits with the
# run's status (see knc-vm --help).
judge_run() {
	clean=$RUNDIR/serial.txt
	DMESG=$RUNDIR/dmesg.txt
	tr -d '\r' <"$SERIAL" >"$clean"
	have_dmesg=0
	grep -a -q "$M-DMESG-END" "$clean" && have_dmesg=1
	if ((have_dmesg)); then
		sed -n "/$M-DMESG-BEGIN/,/$M-DMESG-END/{/$M-DMESG-/d;p}" "$clean" >"$DMESG"
	else
		# No kernel log (crash, hang): the console is the best there is.
		cp -f "$clean" "$DMESG"
	fi
	# Another run may write them too: read this run's own copies.
	cp -f "$clean" "$VMDIR/last-serial.log"
	cp -f "$DMESG" "$VMDIR/last-dmesg.txt"

	dmesg_bad=0
	if ! bad=$(scan_dmesg "$DMESG" "$ignore_dmesg"); then
		dmesg_bad=1
	fi

	if ((timed_out)); then
		msg "error: the guest did not finish within $timeout s; killed it"
		show_tail
		report_dmesg
		exit "$E_TIMEOUT"
	fi
	if fail_line=$(grep -a -o -m 1 "$M-FAIL: .*" "$clean"); then
		msg "error: guest setup failed: ${fail_line#"$M-FAIL: "}"
		show_tail
		exit "$E_SETUP"
	fi
	if insmod_rc=$(grep -a -o -m 1 "$M-INSMOD-FAILED=[0-9]*" "$clean"); then
		msg "error: $load_desc failed in the guest (status ${insmod_rc#*=})"
		msg "last kernel messages:"
		tail -n 20 "$DMESG" | sed 's/^/  | /' >&2
		exit "$E_SETUP"
	fi
	if ! exit_line=$(grep -a -o "$M-EXIT=[0-9]*" "$clean" | tail -n 1); then
		msg "error: the guest never reported CMD's exit status (boot failure, crash or hang; QEMU exit status $qemu_rc)"
		show_tail
		report_dmesg
		exit "$E_SETUP"
	fi
	cmd_rc=${exit_line#"$M-EXIT="}
	((have_dmesg)) || msg "warning: the guest's kernel log was not collected completely"
	if ((dmesg_bad)); then
		report_dmesg
		msg "CMD exited with status $cmd_rc; failing with $E_DMESG because of the kernel log"
		exit "$E_DMESG"
	fi
	((verbose)) && msg "guest finished in ${elapsed}s, CMD exit status $cmd_rc"
	exit "$cmd_rc"
}
