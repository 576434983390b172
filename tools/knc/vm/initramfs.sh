# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
# tools/knc/vm/initramfs.sh, sourced by tools/knc/knc-vm: the guest's
# initramfs (a static busybox, tools/knc/vm/init.sh as /init, and the
# modules of GUEST_MODULES), built once and cached under build/vm/.

# Modules the guest needs to mount the host root over virtio-9p and to build
# an overlay on it.  Their dependencies are added from modules.dep; anything
# built into the chosen kernel is skipped.
GUEST_MODULES=(virtio_pci 9pnet_virtio 9p overlay)

# find_busybox: sets BUSYBOX to a static busybox.
find_busybox() {
	local b file_info
	BUSYBOX=
	for b in /bin/busybox /usr/bin/busybox; do
		if [[ -x $b ]] && file_info=$(LC_ALL=C ldd "$b" 2>&1 || true) &&
			[[ $file_info == *"not a dynamic executable"* || $file_info == *"statically linked"* ]]; then
			BUSYBOX=$b
			break
		fi
	done
	[[ -n $BUSYBOX ]] || die "a static busybox is needed (apt-get install busybox-static)"
}

# Module files (deps first) needed in the initramfs, one path a line.
initramfs_modules() {
	local m line
	local -A seen=()
	[[ -z $ktree ]] || return 0	# built in
	for m in "${GUEST_MODULES[@]}"; do
		modprobe -S "$kver" --show-depends "$m" ||
			die "modprobe cannot resolve module $m for $kver"
	done | while read -r line; do
		case $line in
		builtin\ *) ;;
		insmod\ *)
			line=${line#insmod }
			line=${line%% *}
			if [[ -z ${seen[$line]:-} ]]; then
				seen[$line]=1
				printf '%s\n' "$line"
			fi
			;;
		*) die "unexpected modprobe output: $line" ;;
		esac
	done
}

# modules_view DIR: /lib/modules/$kver's shape in DIR, for init.sh to put
# in its place: the directories, the symlinks as they are, and for every
# file a symlink to it under /run/knc-vm/modules, where init.sh binds the
# tree itself. perf record, report and script read every directory of the
# tree at each start, and over 9p, which caches no directory's entries,
# Debian's (some 5000 files) took seconds of a guest's time each time.
modules_view() {
	python3 - "/lib/modules/$kver" "$1" /run/knc-vm/modules <<-'PY'
	import os
	import sys
	src, dst, target = sys.argv[1:]
	for root, dirs, files in os.walk(src):
	    rel = os.path.relpath(root, src)
	    out = os.path.normpath(os.path.join(dst, rel))
	    os.makedirs(out, exist_ok=True)
	    for name in dirs + files:
	        path = os.path.join(root, name)
	        if os.path.islink(path):
	            os.symlink(os.readlink(path), os.path.join(out, name))
	        elif name in files:
	            os.symlink(os.path.normpath(os.path.join(target, rel, name)), os.path.join(out, name))
	PY
}

build_initramfs() {
	local out=$1 stage mods m base
	mods=$2
	stage=$(mktemp -d "$VMDIR/initramfs.XXXXXX")
	mkdir -p "$stage"/{bin,dev,proc,sys,lib/modules}
	cp "$BUSYBOX" "$stage/bin/busybox"
	ln -s busybox "$stage/bin/sh"
	# The guest's /init: it runs as PID 1 under busybox sh.
	cp "$VMLIB/init.sh" "$stage/init"
	chmod 755 "$stage/init"
	: >"$stage/lib/modules/load-order"
	while read -r m; do
		[[ -n $m ]] || continue
		base=$(basename "$m")
		case $m in
		*.ko) cp "$m" "$stage/lib/modules/$base" ;;
		*.ko.xz) base=${base%.xz}; xz -dc "$m" >"$stage/lib/modules/$base" ;;
		*.ko.zst) base=${base%.zst}; zstd -qdc "$m" >"$stage/lib/modules/$base" ;;
		*.ko.gz) base=${base%.gz}; gzip -dc "$m" >"$stage/lib/modules/$base" ;;
		*) die "unknown module file type: $m" ;;
		esac
		printf '%s\n' "$base" >>"$stage/lib/modules/load-order"
	done <<<"$mods"
	[[ ! -d /lib/modules/$kver/kernel ]] || modules_view "$stage/modview"
	(cd "$stage" && find . -mindepth 1 | LC_ALL=C sort | cpio --quiet -o -H newc -R 0:0) >"$out.tmp.$$"
	mv -f "$out.tmp.$$" "$out"
	rm -rf "$stage"
}

# make_initramfs: sets INITRD to the initramfs for kver, built unless the
# cache has it.
make_initramfs() {
	mkdir -p "$VMDIR"
	mods=$(initramfs_modules)
	[[ -n $mods || -n $ktree ]] || die "no guest modules found for $kver"
	key=$( {
		printf '%s\n' "$kver"
		sha256sum "$SCRIPT" "$VMLIB"/*.sh "$BUSYBOX"
		# the tree modules_view mirrors
		find "/lib/modules/$kver" -printf '%P %y %l\n' 2>/dev/null
		# shellcheck disable=SC2086
		[[ -z $mods ]] || sha256sum $mods
	} | sha256sum | cut -c1-16)
	INITRD=$VMDIR/initramfs-$kver-$key.cpio
	if [[ ! -s $INITRD ]]; then
		# Drop stale images (not recent ones: another run may be about to use one).
		find "$VMDIR" -maxdepth 1 -name "initramfs-$kver-*" -mmin +60 -delete
		((verbose)) && msg "building $INITRD"
		build_initramfs "$INITRD" "$mods"
		printf '%s\n' "$mods" >"${INITRD%.cpio}.modules"
	fi
}
