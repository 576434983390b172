# SPDX-License-Identifier: GPL-2.0
# The devices of make qemu's build (tools/knc/build-qemu.sh), in place of
# QEMU's default selection: configure --without-default-devices
# --with-devices-x86_64=knc, with this file as the source tree's
# configs/devices/x86_64-softmmu/knc.mak. Kconfig adds what these select.
#
# The pc machine (i440fx) and what it makes by default: the HPET, the
# floppy controller, vmport and its mouse, and without -nodefaults (the
# series' TCG test, tests/host/qemu-tcg.t, as QEMU's check-tcg boots it)
# the parallel port and the standard VGA.
CONFIG_I440FX=y
CONFIG_HPET=y
CONFIG_FDC_ISA=y
CONFIG_VMPORT=y
CONFIG_VMMOUSE=y
CONFIG_PARALLEL=y
CONFIG_VGA_PCI=y
# knc-vm's root file system: -virtfs, a virtio-9p-pci device.
CONFIG_VIRTIO_PCI=y
CONFIG_VIRTIO_9P=y
# isa-debugcon and isa-debug-exit: the TCG test's console and exit, and the
# boot ROMs' of tests/host/rom.sh.
CONFIG_ISA_DEBUG=y
