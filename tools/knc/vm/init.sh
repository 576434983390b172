#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# knc-vm guest init (PID 1), tools/knc/vm/init.sh, run by busybox sh.
# Markers carry a per-run nonce so that CMD's output cannot fake them.
/bin/busybox --install -s /bin
export PATH=/bin
mount -t proc proc /proc
mount -t sysfs sysfs /sys
mount -t devtmpfs devtmpfs /dev
exec </dev/null >/dev/console 2>&1

run='' nonce='' repo='' gcov=''
# shellcheck disable=SC2013
for arg in $(cat /proc/cmdline); do
	case $arg in
	knc_vm_run=*) run=${arg#*=} ;;
	knc_vm_repo=*) repo=${arg#*=} ;;
	knc_vm_nonce=*) nonce=${arg#*=} ;;
	knc_vm_gcov=1) gcov=/knc-gcov ;;
	esac
done
M=KNC-VM-$nonce

finish() {
	echo "$M-DMESG-BEGIN"
	dmesg -s 4194304
	echo "$M-DMESG-END"
	# A kernel without ACPI cannot power off and would halt: it
	# restarts, and QEMU, which runs with -no-reboot, exits.
	if [ -d /sys/firmware/acpi ]; then
		poweroff -f
		echo o >/proc/sysrq-trigger
	else
		reboot -f
		echo b >/proc/sysrq-trigger
	fi
	sleep 60
}
fail() {
	echo "$M-FAIL: $*"
	finish
}

while read -r m; do
	insmod "/lib/modules/$m" || fail "insmod $m failed"
done </lib/modules/load-order

mkdir -p /lower /rw /newroot
tries=0
until mount -t 9p -o trans=virtio,version=9p2000.L,msize=512000,cache=loose,ro hostroot /lower; do
	tries=$((tries + 1))
	[ "$tries" -lt 20 ] || fail "cannot mount the host root over virtio-9p"
	sleep 0.2
done
mount -t tmpfs -o mode=0755 knc-vm-rw /rw || fail "cannot mount the overlay's tmpfs"
mkdir -p /rw/upper /rw/work
mount -t overlay -o lowerdir=/lower,upperdir=/rw/upper,workdir=/rw/work knc-vm-root /newroot ||
	fail "cannot mount the overlay root"

R=/newroot
# A repository under /tmp, /run or /scratch would be hidden by the guest's
# own mounts there: keep its overlay view aside and put it back after them.
case $repo in
/tmp/* | /run/* | /scratch/*)
	mkdir -p /keep && mount --bind "$R$repo" /keep ||
		fail "cannot keep $repo visible in the guest" ;;
*) repo='' ;;
esac
# shellcheck disable=SC2015
mount -t proc proc $R/proc &&
	mount -t sysfs sysfs $R/sys &&
	mount -t devtmpfs devtmpfs $R/dev &&
	mkdir -p $R/dev/pts $R/dev/shm &&
	ln -sf /proc/self/fd $R/dev/fd &&
	ln -sf /proc/self/fd/0 $R/dev/stdin &&
	ln -sf /proc/self/fd/1 $R/dev/stdout &&
	ln -sf /proc/self/fd/2 $R/dev/stderr &&
	mount -t devpts -o gid=5,mode=0620,ptmxmode=0666 devpts $R/dev/pts &&
	mount -t tmpfs -o mode=1777 shm $R/dev/shm &&
	mount -t debugfs debugfs $R/sys/kernel/debug &&
	mount -t tmpfs -o mode=1777 tmpfs $R/tmp &&
	mount -t tmpfs -o mode=0755 tmpfs $R/run &&
	mkdir -p $R/scratch &&
	mount -t tmpfs -o mode=1777 scratch $R/scratch ||
	fail "cannot mount the guest's pseudo file systems"
mount -t tracefs tracefs $R/sys/kernel/tracing 2>/dev/null
# The kernel's modules (a Debian kernel's): their tree's shape from the
# initramfs (initramfs.sh's modules_view) in place of the tree, which stays
# in the overlay under /run/knc-vm/modules for the view's symlinks.
kmods=$R/lib/modules/$(uname -r)
if [ -d /modview ] && [ -d "$kmods" ]; then
	mkdir -p $R/run/knc-vm/modules &&
		mount --bind "$kmods" $R/run/knc-vm/modules &&
		mount --bind /modview "$kmods" ||
		fail "cannot put the view of ${kmods#"$R"} in its place"
fi
if [ -n "$repo" ]; then
	mkdir -p "$R$repo" && mount --move /keep "$R$repo" ||
		fail "cannot put $repo back in the guest"
fi

[ -f "$R$run/cmd.sh" ] || fail "run directory $run not visible in the guest"

# knc-vm --gcov: the host's directory for the modules' profiles
if [ -n "$gcov" ]; then
	mkdir -p "$R$gcov" &&
		mount -t 9p -o trans=virtio,version=9p2000.L,msize=512000 kncgcov "$R$gcov" ||
		fail "cannot mount knc-vm --gcov's directory"
fi
# gcov_copy: every module's profile (a .gcda under debugfs, whose size
# reads 0, so cat rather than cp) into $gcov/suite/, paths kept
gcov_copy() {
	(cd "$R/sys/kernel/debug/gcov" 2>/dev/null && find . -name '*.gcda') |
		while read -r f; do
			mkdir -p "$R$gcov/suite/${f%/*}" &&
				cat "$R/sys/kernel/debug/gcov/$f" >"$R$gcov/suite/$f" ||
				echo "$M-GCOV-FAILED: $f"
		done
}

ENV="PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin
HOME=/tmp TERM=dumb LANG=C.UTF-8 PAGER=cat USER=root LOGNAME=root SHELL=/bin/bash
KNC_VM=1 KNC_VM_SCRATCH=/scratch${gcov:+ KNC_VM_GCOV=$gcov}"

echo "$M-BEGIN"
if [ -f "$R$run/insmod.sh" ]; then
	# shellcheck disable=SC2086
	chroot $R /usr/bin/env -i $ENV /bin/bash "$run/insmod.sh"
	rc=$?
	if [ "$rc" != 0 ]; then
		echo "$M-INSMOD-FAILED=$rc"
		finish
	fi
fi

# shellcheck disable=SC2086
chroot $R /usr/bin/env -i $ENV /bin/bash "$run/cmd.sh"
rc=$?
[ -z "$gcov" ] || gcov_copy
echo "$M-EXIT=$rc"
finish
