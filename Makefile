# SPDX-License-Identifier: GPL-2.0
#
# knc-pmu: the Knights Corner core PMU for perf, as a loadable module.
#
#   make            build knc_pmu.ko and knc_sim.ko for the running kernel
#                   (/lib/modules/$(uname -r)/build, its headers), or for
#                   KDIR=<a configured, prepared kernel tree>; Linux 6.1 up
#                   to 7.3, x86_64
#   make install    install them (modules_install: /lib/modules/<release>/
#                   updates, under INSTALL_MOD_PATH or DESTDIR if given) and
#                   run depmod
#   make test-modules  the test bed's builds: knc_pmu.ko and knc_sim.ko
#                   against KDIR_61, Debian 12's 6.1 (make module-6.1, in the
#                   tree), and against KDIR_612, bookworm-backports' 6.12
#                   (make module-612, in build/6.12/knc/), the test helpers
#                   (knc_model_test.ko in build/6.1/kmod and build/6.12/kmod)
#                   the guest programs (make tools) and the card's (make card)
#   make module-7.3 both modules and knc_model_test.ko compiled against
#                   Linux 7.3 (build/7.3/; tools/knc/linux-src.sh fetches
#                   and prepares its tree, cached under /var/cache/knc-pmu)
#   make module-7.2 both modules for a Knights Corner card's kernel: compiled
#                   with clang (LLVM=-19) against Linux 7.2 as the card port
#                   configures it (build/7.2/knc/; tools/knc/linux-src.sh
#                   --series 7.2); for the card's own tree: make KDIR=<it>
#                   LLVM=1
#   make gen        regenerate the module's event table (and the card
#                   programs' event header) from the JSON
#   make card       knc-stat and knc-check for a Knights Corner card
#                   (tools/knc/card/: no libc, no SSE; build/card/)
#   make check      install what is missing, build, run every test (TAP)
#   make demo       boot guests and show perf on the simulated KNC PMU and
#                   on the QEMU KNC PMU model
#   make perf       build perf 7.3 with perf's vendor events for KNC (the
#                   series below) and the knc tables (build/perf/perf;
#                   cached by content hash under /var/cache/knc-pmu)
#   make qemu       build Debian's QEMU 11.1 (sid's) with the KNC PMU
#                   model (tools/knc/qemu/; build/qemu/; cached by content
#                   hash under /var/cache/knc-pmu)
#   make libpfm4    libpfm4 4.13 (Debian's) with tools/knc/libpfm4/*.patch:
#                   PAPI opens KNC events on knc_pmu.ko when it is loaded
#                   (build/libpfm4/libpfm.so.4, for LD_LIBRARY_PATH)
#   make libpfm4-patch  that patch as you post it, From: and Signed-off-by:
#                   you (git config user.name and user.email), in
#                   build/libpfm4/patches/ (the stored one has a stand-in)
#   make deps       install the Debian packages the above need
#   make dkms-src   stage dkms.conf and the module sources as
#                   $(DESTDIR)/usr/src/knc-pmu-VERSION, for dkms add
#   make deb        the Debian package knc-pmu-dkms (debian/, dh-dkms):
#                   build/deb/knc-pmu-dkms_VERSION_all.deb and its source
#   make check-deb  the package checked (lintian), then installed, used and
#                   purged in a 6.1 and a 6.12 guest (TAP; DKMS compiles
#                   under TCG there: not part of make check)
#   make intree     the in-tree version: a git format-patch series against
#                   Linux 7.3 in build/intree/series/ (tests/host/intree.t
#                   builds the 7.3 debug kernel with it and runs its KUnit
#                   suites)
#   make perf-events-series  perf's vendor events for KNC (the "cpu" PMU of
#                   intel/knc.c): a git format-patch series against Linux
#                   7.3 in build/perf-events/series/ (tests/host/perf-events-series.t)
#   make linux-fixes  fixes to Linux's own KNC driver (intel/knc.c) and, in a
#                   series of its own, to the RDPMC offer of perf's core and
#                   the x86 core: git format-patch series against Linux 7.3
#                   for upstream, in build/linux-fixes/series/7.3/; with
#                   LINUX_GIT=/path/to/linux.git (a torvalds/linux clone)
#                   their Fixes: and Cc: stable tags, and, once the fixes
#                   are upstream there, the backports for 6.12 and 6.1 in
#                   stable's form (series/6.12/, series/6.1/); without it
#                   neither (tools/knc/linux-fixes.sh --help;
#                   tests/host/linux-fixes.t)
#   make qemu-series  the QEMU KNC PMU series (tools/knc/qemu/) as you mail
#                   it, with its cover letter, in build/qemu-series/
#                   (tests/host/qemu-series.t); make qemu builds the stored
#                   patches, whose stand-in identity this replaces
#                   These four series are From: and Signed-off-by: you:
#                   git config user.name and user.email (set them first)
#   make debug-kernel  Linux 7.3 with the upstream series of make
#                   linux-fixes, KASAN, lockdep, UBSAN, kmemleak, fault
#                   injection, KUnit, gcov and the lockup detectors
#                   (build/debug/linux; cached by content hash under
#                   /var/cache/knc-pmu)
#   make module-debug  knc_pmu.ko and knc_sim.ko (build/debug/knc), the
#                   KUnit suites as knc_kunit.ko (build/debug/kunit),
#                   knc_model_test.ko (build/debug/kmod) and a DKMS install
#                   (build/debug/dkms) for it
#   make check-debug   the KUnit suites, the guest suite, the native
#                   suite and Linux's patched driver on the QEMU model, on
#                   the debug kernel, with stress, fuzzing and fault
#                   injection (TAP; make check runs them but stress and
#                   fuzzing, which it runs on 6.12)
#   make coverage   the debug kernel's suites with their cases' line
#                   coverage of the knc modules (gcov): which lines each
#                   suite and case executes under KASAN, lockdep and
#                   UBSAN, and the cases no other case could stand in for
#                   (build/coverage/table.txt; make check prints the
#                   suites' table, and at its end the lines executed of
#                   those instrumented, against tests/coverage-floor)
#   make perf-test  stock `perf test` in the guest without and with knc
#                   (about an hour under TCG: not part of make check)
#   make clean

# make builds for the running kernel, unless given KDIR (or KVER).
KVER ?= $(shell uname -r)
KDIR ?= /lib/modules/$(KVER)/build
INSTALL_MOD_PATH ?= $(DESTDIR)
# The test bed's kernels: the newest installed 6.1 and 6.12 headers, unless
# given.
KDIR_61 ?= $(shell ls -d /lib/modules/6.1.*/build 2>/dev/null | sort -V | tail -n 1)
KDIR_612 ?= $(shell ls -d /lib/modules/6.12.*/build 2>/dev/null | sort -V | tail -n 1)
# Kbuild builds in the source directory: the 6.12 modules get a copy.
B612 := build/6.12/knc
BDBG := build/debug/knc
BKUNIT := build/debug/kunit
KNC_SRCS = $(filter-out %.mod.c,$(wildcard $(KNC)/*.[ch])) $(TBL) $(KNC)/Makefile
# knc_model_test.ko (tests/guest/model.sh), built for each kernel in
# build/<kernel>/kmod
KMOD_SRCS = tests/guest/kmod/knc_model_test.c tests/guest/kmod/knc_model_test.h tests/guest/kmod/Kbuild $(KNC)/knc_logic.h \
	$(KNC)/knc_compat.h $(TBL)
PYTHON ?= python3
KNC := arch/x86/events/knc
TBL := $(KNC)/knc_events.tbl

.PHONY: modules install test-modules module-6.1 module-7.3 module-7.2 all module-612 gen tools card check test demo bench perf qemu libpfm4 libpfm4-patch deps clean dkms-src \
	intree perf-events-series linux-fixes qemu-series perf-test fuzz debug-kernel module-debug dkms-debug check-debug \
	coverage deb check-deb

# The supported kernels: knc_pmu.ko's modinfo, dkms.conf and
# tests/host/kver.t say the same.
KNC_KERNELS := Linux 6.1 up to 7.3, x86_64

modules:
	@test -f $(KDIR)/Makefile || { \
		echo "No kernel to build for: $(KDIR) is missing."; \
		echo "Install the running kernel's headers (Debian: apt-get install linux-headers-$(KVER)),"; \
		echo "or name a configured kernel tree (make modules_prepare in it): make KDIR=/path/to/linux."; \
		echo "knc-pmu supports $(KNC_KERNELS). The test bed's builds: make test-modules."; \
		exit 1; } >&2
	$(MAKE) -C $(KDIR) M=$(CURDIR)/$(KNC) modules

all: modules

# The release the modules are for: their vermagic's (Debian's headers'
# include/config/kernel.release is the upstream version).
install: modules
	$(MAKE) -C $(KDIR) M=$(CURDIR)/$(KNC) INSTALL_MOD_PATH=$(INSTALL_MOD_PATH) INSTALL_MOD_DIR=updates \
		modules_install
	depmod $(if $(INSTALL_MOD_PATH),-b $(INSTALL_MOD_PATH)) \
		$$(sed -n 's/^#define UTS_RELEASE "\(.*\)"$$/\1/p' $(KDIR)/include/generated/utsrelease.h)

test-modules: module-6.1 module-612 tools card

# The module's event table is generated from the JSON and kept in the tree,
# so that Kbuild alone builds the modules (DKMS, an in-tree build); run
# `make gen` after changing the JSON (tests/host/json.t checks it is current).
gen:
	$(PYTHON) tools/knc/gen-events.py --table $(TBL) --card-header tools/knc/card/knc_events.h

module-6.1:
	@test -n "$(KDIR_61)" || { echo "no 6.1 kernel headers in /lib/modules/6.1.*/build: run 'make deps' or set KDIR_61" >&2; exit 1; }
	$(MAKE) -C $(KDIR_61) M=$(CURDIR)/$(KNC) W=1 modules
	$(call kbuild_copy,$(KMOD_SRCS),$(KDIR_61),build/6.1/kmod)

module-612:
	@test -n "$(KDIR_612)" || { echo "no 6.12 kernel headers in /lib/modules/6.12.*/build: run 'make deps' or set KDIR_612" >&2; exit 1; }
	$(call kbuild_copy,$(KNC_SRCS),$(KDIR_612),$(B612))
	$(call kbuild_copy,$(KMOD_SRCS),$(KDIR_612),build/6.12/kmod)

# A compile test: the tree has no Module.symvers (it is not built), so
# modpost reports every kernel symbol undefined, as warnings.
module-7.3:
	tools/knc/linux-src.sh >/dev/null
	$(call kbuild_copy,$(KNC_SRCS),build/7.3/linux,build/7.3/knc,KBUILD_MODPOST_WARN=1)
	$(call kbuild_copy,$(KMOD_SRCS),build/7.3/linux,build/7.3/kmod,KBUILD_MODPOST_WARN=1)

# The card's kernel (tools/knc/linux-src-card.config) is built by clang,
# and so must its modules be; a compile test too.
module-7.2:
	tools/knc/linux-src.sh --series 7.2 >/dev/null
	$(call kbuild_copy,$(KNC_SRCS),build/7.2/linux,build/7.2/knc,KBUILD_MODPOST_WARN=1 LLVM=-19)

# kbuild_copy SRCS KDIR DIR [VAR=VALUE]: Kbuild builds in the source
# directory, so copy SRCS to DIR and build the modules there against KDIR
define kbuild_copy
	@mkdir -p $(3)
	cp -p $(1) $(3)/
	$(MAKE) -C $(2) M=$(CURDIR)/$(3) W=1 $(4) modules
endef

# The series a build makes and applies, and never sends (the debug
# kernel's fixes, perf's vendor events), are signed off by this stand-in,
# whoever builds: its address cannot be mailed. make linux-fixes, intree,
# perf-events-series and qemu-series sign off with the git identity of
# whoever runs them, and fail without one (tools/knc/series-lib.sh,
# series_ident).
BUILD_IDENT := GIT_CONFIG_COUNT=2 GIT_CONFIG_KEY_0=user.name \
	GIT_CONFIG_VALUE_0='knc-pmu build' GIT_CONFIG_KEY_1=user.email \
	GIT_CONFIG_VALUE_1=build@knc-pmu.invalid

debug-kernel:
	$(BUILD_IDENT) tools/knc/debug-kernel.sh

# tools/knc/debug/kunit/Kbuild makes knc_kunit.ko of a copy of the sources.
# DKMS builds and installs the modules for the debug kernel too, in a
# scratch tree as tests/host/dkms.t does (build/debug/dkms/root), for
# simulator.sh's modprobe case there.
#
# The debug kernel's knc modules are built with gcov (the kernel has
# CONFIG_GCOV_KERNEL), so that tools/knc/coverage can tell which of their
# lines the debug suites execute (knc-vm --gcov).
module-debug: debug-kernel
	$(call kbuild_copy,$(KNC_SRCS),build/debug/linux,$(BDBG),GCOV_PROFILE=y)
	$(call kbuild_copy,$(KNC_SRCS) tools/knc/debug/kunit/*,build/debug/linux,$(BKUNIT),GCOV_PROFILE=y)
	$(call kbuild_copy,$(KMOD_SRCS),build/debug/linux,build/debug/kmod)
	$(MAKE) dkms-debug

DDKMS := $(CURDIR)/build/debug/dkms
DKMS_TREE := --sourcetree $(DDKMS)/usr/src --dkmstree $(DDKMS)/dkms --installtree $(DDKMS)/installed
dkms-debug:
	@rm -rf $(DDKMS) && mkdir -p $(DDKMS)/dkms
	$(MAKE) -s dkms-src DESTDIR=$(DDKMS)
	@kver=$$(cat build/debug/linux/include/config/kernel.release) && \
	mkdir -p $(DDKMS)/installed/$$kver $(DDKMS)/root/lib/modules/$$kver && \
	dkms add -m knc-pmu -v $(DKMS_VERSION) $(DKMS_TREE) >/dev/null && \
	dkms install -m knc-pmu -v $(DKMS_VERSION) -k $$kver --kernelsourcedir $(CURDIR)/build/debug/linux \
		--no-depmod $(DKMS_TREE) >$(DDKMS)/install.log 2>&1 && \
	cp -a $(DDKMS)/installed/$$kver/updates $(DDKMS)/root/lib/modules/$$kver/ || \
	{ cat $(DDKMS)/install.log; exit 1; }

# DKMS builds with Kbuild alone from a flat copy of the module's sources.
DKMS_VERSION := $(shell sed -n 's/^PACKAGE_VERSION="\(.*\)"/\1/p' dkms.conf)
DKMS_SRC := $(DESTDIR)/usr/src/knc-pmu-$(DKMS_VERSION)

dkms-src:
	@mkdir -p $(DKMS_SRC)
	cp dkms.conf $(KNC_SRCS) $(DKMS_SRC)/

# The Debian package knc-pmu-dkms (debian/), built in a copy of the files
# git tracks; tests/host/deb.t checks it.
DEB_SRC := build/deb/knc-pmu-$(DKMS_VERSION)
deb:
	@rm -rf build/deb && mkdir -p $(DEB_SRC)
	git ls-files -z | xargs -0 cp --parents -t $(DEB_SRC)
	cd $(DEB_SRC) && dpkg-buildpackage -us -uc >../build.log 2>&1 || { tail -n 30 ../build.log; exit 1; }
	@ls build/deb/*.deb

# The programs the guest suites run (tests/guest/progs/Makefile), in
# build/tests/; make build/tests/PROG builds one.
tools:
	$(MAKE) -C tests/guest/progs OUT=$(CURDIR)/build/tests

build/tests/%: FORCE
	$(MAKE) -C tests/guest/progs OUT=$(CURDIR)/build/tests $(CURDIR)/$@

# knc-stat and knc-check, static and freestanding for a card's cores (no
# SSE, SSE2, MMX): tools/knc/card/Makefile; tests/host/card.t checks the
# disassembly. Their runtime is the kernel's nolibc: NOLIBC=DIR (a Linux
# tree's tools/include/nolibc), else Linux 7.3's, which build/card/nolibc
# holds, taken from the source tarball (tools/knc/linux-src.sh --tarball,
# through tools/knc/plain-tar's copy) when missing or the tarball changed.
CARD_NOLIBC := $(CURDIR)/build/card/nolibc
card:
ifeq ($(NOLIBC),)
	@tarball=$$(tools/knc/linux-src.sh --tarball) && \
	stamp=$$(stat -L -c '%n %s %Y' "$$tarball") && \
	if [ ! -f $(CARD_NOLIBC)/nolibc.h ] || [ "$$(cat $(CARD_NOLIBC)/.tarball 2>/dev/null)" != "$$stamp" ]; then \
		echo "  NOLIBC  $(CARD_NOLIBC) (from $$tarball)"; \
		rm -rf $(CARD_NOLIBC).tmp && mkdir -p $(CARD_NOLIBC).tmp && \
		tar -xf "$$(tools/knc/plain-tar "$$tarball")" -C $(CARD_NOLIBC).tmp \
			--strip-components=4 --wildcards '*/tools/include/nolibc/*' && \
		echo "$$stamp" >$(CARD_NOLIBC).tmp/.tarball && \
		rm -rf $(CARD_NOLIBC) && mv $(CARD_NOLIBC).tmp $(CARD_NOLIBC); \
	fi
endif
	$(MAKE) -C tools/knc/card OUT=$(CURDIR)/build/card NOLIBC=$(or $(NOLIBC),$(CARD_NOLIBC))

FORCE:

deps:
	tools/knc/install-deps

# What the debug kernel's build needs first, so that it starts at once;
# tests/run --build then makes deps, test-modules, perf, qemu and libpfm4
# beside it, each its own make (KDIR_61 and KDIR_612 are read after deps
# installed them), and prints each
# step's wall time and each suite's.
check:
	tools/knc/install-deps --kernel
	tests/run --build

test:
	tests/run

DEBUG_SUITES := debug-kunit debug debug-model debug-linux-knc debug-stress \
	debug-fuzz debug-fuzz-model debug-fault debug-fault-model

check-debug:
	tools/knc/install-deps --kernel
	tests/run --build $(DEBUG_SUITES)

coverage:
	tools/knc/install-deps --kernel
	KNC_GCOV_CASES=1 tests/run --build $(DEBUG_SUITES) coverage

demo: deps
	$(MAKE) test-modules
	$(MAKE) perf
	$(MAKE) qemu
	tools/knc/knc-vm -- tools/knc/demo
	tools/knc/knc-vm --native -- tools/knc/demo-native

# The hot paths' register accesses and overheads, as one table
# (Documentation/knc-testbed.rst, "Benchmarks").
bench: deps
	$(MAKE) test-modules
	$(MAKE) qemu
	tools/knc/bench

perf:
	$(BUILD_IDENT) tools/knc/build-perf.sh

qemu:
	tools/knc/build-qemu.sh

libpfm4:
	tools/knc/build-libpfm4.sh

libpfm4-patch:
	tools/knc/libpfm4-patch.sh

intree:
	tools/knc/intree-series.sh

perf-events-series:
	tools/knc/perf-events-series.sh

linux-fixes:
	tools/knc/linux-fixes.sh

qemu-series:
	tools/knc/qemu-series.sh

perf-test: deps
	$(MAKE) test-modules
	tests/run perf-test

# DKMS compiles both modules under TCG in each guest (minutes of CPU per
# kernel): not part of make check.
check-deb: deps
	$(MAKE) test-modules
	tests/run host/deb.t deb-6.1 deb-6.12

# The fuzzer on the simulator and the model, on 6.1, 6.12 and the debug
# kernel, for minutes,
# with a random seed (KNC_FUZZ_SECONDS, default 300 per run; KNC_FUZZ_SEED).
fuzz: deps
	$(MAKE) test-modules
	$(MAKE) qemu
	KNC_FUZZ_BASELINES=1 KNC_FUZZ_SECONDS=$${KNC_FUZZ_SECONDS:-300} KNC_FUZZ_SEED=$${KNC_FUZZ_SEED:-$$(od -An -N2 -tu2 /dev/urandom | tr -d " ")} \
		tests/run fuzz

clean:
	-for k in $(KDIR) $(KDIR_61); do test ! -f $$k/Makefile || { $(MAKE) -C $$k M=$(CURDIR)/$(KNC) clean; break; }; done
	rm -rf build
