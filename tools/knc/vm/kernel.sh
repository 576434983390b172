# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
# tools/knc/vm/kernel.sh, sourced by tools/knc/knc-vm: which kernel the
# guest boots, and which knc modules it loads.

# The newest kernel of a series (6.1 unless --kernel names another: a full
# version, or a series such as 6.12).
newest_kernel() {
	local k v
	for k in "/boot/vmlinuz-$1".*; do
		[[ -e $k ]] || continue
		v=${k#/boot/vmlinuz-}
		[[ -d /lib/modules/$v/kernel ]] && printf '%s\n' "$v"
	done | sort -V | tail -n 1
}

# choose_kernel: the kernel of --kernel (kver: empty for the newest 6.1, a
# version, a series, or a kernel tree): sets kver to its version, ktree to
# its tree (or empty), KERNEL to its image, and MODULE and MODULE_REL to
# the knc_pmu.ko built for it unless --module named another.
choose_kernel() {
	local series m
	no_acpi=0
	# A kernel tree (--kernel DIR): its bzImage, with the guest's modules
	# built in; knc_pmu.ko is built against it in build/debug/knc.
	ktree=
	if [[ $kver == */* ]]; then
		[[ -d $kver ]] || die "kernel tree $kver not found (make debug-kernel)"
		ktree=$(realpath "$kver")
		[[ -r $ktree/include/config/kernel.release && -r $ktree/arch/x86/boot/bzImage ]] ||
			die "$kver is not a built kernel tree (no include/config/kernel.release or arch/x86/boot/bzImage)"
		kver=$(cat "$ktree/include/config/kernel.release")
		if [[ $MODULE == "$REPO/$MODULE_REL" ]]; then
			MODULE_REL=build/debug/knc/knc_pmu.ko
			MODULE=$REPO/$MODULE_REL
		fi
	elif [[ -z $kver ]]; then
		kver=$(newest_kernel 6.1)
		[[ -n $kver ]] || die "no Debian 6.1 kernel with modules found (apt-get install linux-image-amd64)"
	elif [[ ! -e /boot/vmlinuz-$kver ]] && [[ $kver =~ ^[0-9]+\.[0-9]+$ ]]; then
		series=$kver
		kver=$(newest_kernel "$series")
		[[ -n $kver ]] || die "no $series kernel with modules found in /boot (make deps)"
	fi
	# 6.12's modules are built in build/6.12/knc (make module-612).
	if [[ $kver == 6.12.* && $MODULE == "$REPO/$MODULE_REL" ]]; then
		MODULE_REL=build/6.12/knc/knc_pmu.ko
		MODULE=$REPO/$MODULE_REL
	fi
	if [[ -n $ktree ]]; then
		KERNEL=$ktree/arch/x86/boot/bzImage
		for m in CONFIG_VIRTIO_PCI CONFIG_NET_9P_VIRTIO CONFIG_9P_FS CONFIG_OVERLAY_FS; do
			grep -qx "$m=y" "$ktree/.config" || die "$ktree: $m is not built in"
		done
		if ! grep -qx CONFIG_ACPI=y "$ktree/.config"; then
			no_acpi=1
			((threads == 1)) ||
				die "$ktree has no ACPI, without which Linux sees no core's second thread: --threads $threads needs it"
		fi
	else
		KERNEL=/boot/vmlinuz-$kver
		[[ -r $KERNEL ]] || die "kernel $KERNEL not found or not readable"
		[[ -f /lib/modules/$kver/modules.dep ]] || die "/lib/modules/$kver/modules.dep not found"
	fi
}

# check_knc_modules: unless --no-module, checks that the modules to load,
# MODULE and (but with --native) SIM_MODULE, knc_sim.ko beside it, are
# where the guest sees them and built for kver.
check_knc_modules() {
	local modules m vermagic modver hint
	((load_module)) || return 0
	case $MODULE in
	"$REPO"/*) ;;	# the guest keeps the repository visible wherever it is
	/tmp/* | /run/* | /scratch/* | /dev/* | /proc/* | /sys/*)
		die "$MODULE is not visible in the guest (it mounts its own /tmp, /run, /dev, /proc, /sys); put it elsewhere, e.g. /var/tmp"
		;;
	esac
	if [[ $MODULE == "$REPO/$MODULE_REL" ]]; then
		[[ -f $MODULE ]] || die "$MODULE_REL is missing: run 'make test-modules' in $REPO first (or pass --no-module)"
	else
		[[ -f $MODULE ]] || die "module $MODULE not found"
		MODULE_REL=$MODULE
	fi
	modules=("$MODULE")
	if ((!native)); then
		SIM_MODULE=$(dirname "$MODULE")/$SIM_MODULE_NAME
		[[ -f $SIM_MODULE ]] || die "$SIM_MODULE is missing: run 'make test-modules' in $REPO first"
		modules+=("$SIM_MODULE")
	fi
	for m in "${modules[@]}"; do
		vermagic=$(modinfo -F vermagic "$m") || die "modinfo cannot read $m"
		modver=${vermagic%% *}
		if [[ $modver != "$kver" ]]; then
			hint=
			[[ -r /boot/vmlinuz-$modver ]] && hint=" (or pass --kernel $modver)"
			die "$m was built for kernel '$modver' but the guest runs '$kver': rebuild it against $kver$hint"
		fi
	done
}
