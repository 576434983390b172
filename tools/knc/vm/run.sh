# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
# tools/knc/vm/run.sh, sourced by tools/knc/knc-vm: the run directory
# (the guest's cmd.sh and insmod.sh), QEMU and the monitor relay started
# and watched until the guest stops or the time is up, and the clean-up.

# SIGTERM, then SIGKILL after 5 s.
stop_qemu() {
	local i
	kill -TERM "$QEMU_PID" 2>/dev/null || return 0
	for ((i = 0; i < 50; i++)); do
		kill -0 "$QEMU_PID" 2>/dev/null || return 0
		sleep 0.1
	done
	kill -KILL "$QEMU_PID" 2>/dev/null || true
}
# shellcheck disable=SC2317
cleanup() {
	# Every step runs: under set -e a kill of a process that has already
	# ended would leave the trap before the run directory is removed.
	set +e
	[[ -z $SLEEP_PID ]] || kill "$SLEEP_PID" 2>/dev/null
	[[ -z $QEMU_PID ]] || stop_qemu
	# The relay and the console reader end by themselves once QEMU is gone.
	[[ -z $RELAY_PID ]] || kill "$RELAY_PID" 2>/dev/null
	[[ -z $SOCKDIR ]] || rm -rf "$SOCKDIR"
	[[ -z $STREAM_PID ]] || wait "$STREAM_PID" 2>/dev/null
	rm -rf "$RUNDIR"
}

# make_rundir CMD...: makes RUNDIR, with cmd.sh to run CMD and, unless
# --no-module, insmod.sh to load the modules first; sets the clean-up, the
# run's nonce and marker prefix M, load_desc and SERIAL, the console log.
make_rundir() {
	local margs
	RUNDIR=$(mktemp -d "$VMDIR/run.XXXXXX")
	QEMU_PID='' SLEEP_PID='' STREAM_PID='' RELAY_PID='' SOCKDIR=''
	trap cleanup EXIT
	trap 'msg "interrupted"; exit 130' INT
	trap 'msg "terminated"; exit 143' TERM HUP
	chmod 755 "$RUNDIR"
	nonce=$(od -An -N8 -tx1 /dev/urandom | tr -d ' \n')
	M=KNC-VM-$nonce

	{
		printf '# knc-vm: the command, run by bash in the guest\n'
		printf 'cd %q || exit 125\n' "$REPO"
		printf 'exec'
		printf ' %q' "$@"
		printf '\n'
	} >"$RUNDIR/cmd.sh"
	load_desc=
	if ((load_module)); then
		read -r -a margs <<<"$module_args" || true
		load_desc="insmod $(basename "$MODULE")${module_args:+ $module_args}"
		((native)) || load_desc+=", $SIM_MODULE_NAME"
		{
			printf '# knc-vm: load the modules, run by bash in the guest\n'
			printf 'if ! insmod %q' "$MODULE"
			((${#margs[@]})) && printf ' %q' "${margs[@]}"
			((native)) || printf ' || ! insmod %q' "$SIM_MODULE"
			printf '; then\n'
			printf '\techo %q >&2\n' "knc-vm: $load_desc failed"
			printf '\texit 1\nfi\n'
		} >"$RUNDIR/insmod.sh"
	fi

	SERIAL=$RUNDIR/serial.log
	: >"$SERIAL"
}

# start_guest: starts QEMU and the monitor relay.
start_guest() {
	((verbose)) && msg "running: ${qemu[*]}"
	((verbose)) || msg "booting $kver ($accel, smp $smp$( ((threads > 1)) && echo " ($threads threads per core)"), ${mem}M$( ((native)) && echo ", KNC PMU model"))$( ((load_module)) && echo ", $load_desc")"

	start=$SECONDS
	"${qemu[@]}" </dev/null >"$RUNDIR/qemu.out" 2>&1 &
	QEMU_PID=$!
	python3 "$REPO/tools/knc/knc-vm-relay" "$SOCKDIR/serial" "$SOCKDIR/qmp" \
		</dev/null >"$RUNDIR/relay.out" 2>&1 &
	RELAY_PID=$!
}

# Stream the console: CMD's output (between the markers), or everything
# with --verbose.  Runs until QEMU exits.
stream_console() {
	local line show=$verbose state=boot
	while IFS= read -r line || [[ -n $line ]]; do
		line=${line%$'\r'}
		case $state in
		boot)
			if [[ $line == *"$M-BEGIN"* ]]; then
				state=cmd
				((verbose)) && printf '%s\n' "$line"
				show=1
				continue
			fi
			;;
		cmd)
			if [[ $line == *"$M-EXIT="* || $line == *"$M-INSMOD-FAILED="* || $line == *"$M-DMESG-BEGIN"* ]]; then
				line=${line%%"$M-"*}
				[[ -n $line ]] && printf '%s\n' "$line"
				break
			fi
			;;
		esac
		((show)) && printf '%s\n' "$line"
	done
	# Let tail finish without a broken pipe.
	cat >/dev/null
}

# hang_state: where each vCPU is in a guest that did not finish, from the
# host's own QMP socket (the relay holds the guest's): every vCPU's
# registers and, on the model, its PMU, in build/vm/last-hang.txt, and
# each vCPU's RIP on stderr
hang_state() {
	local out=$VMDIR/last-hang.txt cmds=("info registers -a")
	((!native)) || cmds+=("info knc-pmu")
	python3 - "$SOCKDIR/qmp-host" "${cmds[@]}" >"$out" 2>&1 <<'PY' || true
import json, socket, sys
s = socket.socket(socket.AF_UNIX)
s.settimeout(10)
s.connect(sys.argv[1])
f = s.makefile("rw")
def call(cmd, **args):
    f.write(json.dumps({"execute": cmd, "arguments": args}) + "\n")
    f.flush()
    while True:
        r = json.loads(f.readline())
        if "return" in r or "error" in r:
            return r
f.readline()
call("qmp_capabilities")
for c in sys.argv[2:]:
    r = call("human-monitor-command", **{"command-line": c})
    print(f"(qemu) {c}")
    print(r.get("return", r))
PY
	msg "the vCPUs when the time was up (all registers: ${out#"$REPO"/}):"
	grep -E '^(CPU#|RIP=)' "$out" | sed 's/^/  | /' >&2 || true
}

# watch_guest: streams the console until QEMU stops or --timeout is up;
# sets timed_out, qemu_rc and elapsed.
watch_guest() {
	tail -n +1 -s 0.2 -f --pid="$QEMU_PID" "$SERIAL" | stream_console &
	STREAM_PID=$!

	sleep "$timeout" &
	SLEEP_PID=$!
	wait -n "$QEMU_PID" "$SLEEP_PID" || true
	timed_out=0
	if kill -0 "$QEMU_PID" 2>/dev/null; then
		timed_out=1
		hang_state
		stop_qemu
	else
		kill "$SLEEP_PID" 2>/dev/null || true
	fi
	qemu_rc=0
	wait "$QEMU_PID" || qemu_rc=$?
	QEMU_PID=
	wait "$SLEEP_PID" 2>/dev/null || true
	SLEEP_PID=''
	wait "$STREAM_PID" 2>/dev/null || true
	STREAM_PID=''
	elapsed=$((SECONDS - start))
	# The relay prints only when it fails; the guest's qmon then timed out.
	if [[ -s $RUNDIR/relay.out ]]; then
		msg "the monitor relay (tools/knc/knc-vm-relay) failed:"
		sed 's/^/  | /' "$RUNDIR/relay.out" >&2
	fi
}
