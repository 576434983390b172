# SPDX-License-Identifier: GPL-2.0
# Boot ROMs of their own on the QEMU KNC PMU model, no kernel (sourced by
# tests/host/reset.t and rings.t). Each ROM (tests/host/NAME/NAME-rom.S)
# is 64 KiB of real-mode code from the reset vector, linked at 0xf0000,
# that prints lines on the debug console (port 0xe9) and ends QEMU through
# isa-debug-exit (exit code 1 for its 0).
# shellcheck shell=bash

ROM_QEMU=build/qemu/qemu-system-x86_64
ROM_CPU=max,vendor=GenuineIntel,family=11,model=1,stepping=0,knc-pmu=on

# rom_run NAME [QEMU-ARG...]: assemble and boot NAME's ROM; its console in
# build/NAME/console, the log of what failed in build/NAME/log. Returns
# QEMU's exit status, or 2 when the ROM does not assemble.
rom_run() {
	local name=$1 d=build/$1
	shift
	mkdir -p "$d"
	rm -f "$d/console"
	as --32 -I tests/host -o "$d/rom.o" "tests/host/$name/$name-rom.S" >"$d/log" 2>&1 &&
		ld -m elf_i386 -Ttext=0xf0000 -e 0 --oformat binary -o "$d/rom.bin" \
			"$d/rom.o" >>"$d/log" 2>&1 || return 2
	timeout 120 "$ROM_QEMU" -M pc -accel tcg -cpu "$ROM_CPU" -bios "$d/rom.bin" \
		-nodefaults -display none -serial none -monitor none \
		-debugcon "file:$d/console" -device isa-debug-exit,iobase=0xf4,iosize=4 \
		"$@" >>"$d/log" 2>&1
}
