# SPDX-License-Identifier: GPL-2.0
#
# knc-pmu: the Knights Corner core PMU for perf, as a loadable module.
#
#   make            build knc_pmu.ko (against KDIR) and the test helpers
#   make check      install what is missing, build, run every test (TAP)
#   make demo       boot guests and show perf on the simulated KNC PMU and
#                   on the QEMU KNC PMU model
#   make perf       build perf 6.1 with the KNC event tables (build/perf/perf)
#   make qemu       build QEMU with the KNC PMU model (build/qemu/; cached
#                   by content hash under /var/cache/knc-pmu)
#   make deps       install the Debian packages the above need
#   make clean

# The newest installed kernel headers, unless KDIR is given.
KDIR ?= $(shell ls -d /lib/modules/*/build 2>/dev/null | sort -V | tail -n 1)
PYTHON ?= python3
KNC := arch/x86/events/knc
TBL := $(KNC)/knc_events.tbl
EVENTS_JSON := $(wildcard tools/perf/pmu-events/knc/*.json tools/perf/pmu-events/knc/hw-cache/*.json)
CFLAGS_TOOLS := -O2 -g -Wall -Wextra -Werror

.PHONY: all module gen tools check test demo bench perf qemu deps clean

all: module tools

gen: $(TBL)

$(TBL): $(EVENTS_JSON) tools/knc/gen-events.py
	$(PYTHON) tools/knc/gen-events.py --table $@

module: $(TBL)
	@test -n "$(KDIR)" || { echo "no kernel headers in /lib/modules/*/build: run 'make deps' or set KDIR" >&2; exit 1; }
	$(MAKE) -C $(KDIR) M=$(CURDIR)/$(KNC) W=1 modules

tools: build/tests/evopen build/tests/busy build/tests/ovfsig build/tests/rdpmc \
	build/tests/ctxmix build/tests/qmon build/tests/loop build/tests/pmuops

build/tests/%: tests/guest/%.c
	@mkdir -p $(@D)
	$(CC) $(CFLAGS_TOOLS) -o $@ $<

# No libc, no startup code: its user-mode instruction count is exact.
build/tests/%: tests/guest/%.S
	@mkdir -p $(@D)
	$(CC) -nostdlib -static -o $@ $<

deps:
	tools/knc/install-deps

# Each step is its own make, so that KDIR is read after deps installed it.
check: deps
	$(MAKE) all
	$(MAKE) perf
	$(MAKE) qemu
	tests/run

test:
	tests/run

demo: deps
	$(MAKE) all
	$(MAKE) perf
	$(MAKE) qemu
	tools/knc/knc-vm -- tools/knc/demo
	tools/knc/knc-vm --native -- tools/knc/demo-native

# The hot paths' register accesses and overheads, as one table
# (Documentation/knc-pmu.rst, "Benchmarks").
bench: deps
	$(MAKE) all
	$(MAKE) qemu
	tools/knc/bench

perf:
	tools/knc/build-perf.sh

qemu:
	tools/knc/build-qemu.sh

clean:
	-test -z "$(KDIR)" || $(MAKE) -C $(KDIR) M=$(CURDIR)/$(KNC) clean
	rm -rf build $(TBL)
