#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""perf stat -M of every KNC metric beside the NMI watchdog (run in a guest
of the QEMU KNC PMU model, Linux's own driver as the cpu PMU).

The watchdog's cycles event holds one of the two counters, so a metric's
events, opened without a group as their MetricConstraint has it
(NO_GROUP_EVENTS_NMI with the watchdog on, NO_GROUP_EVENTS), take turns on
the other: perf estimates each count from the time it ran. For each metric
of tools/perf/pmu-events/knc/metrics.json, `perf stat -M METRIC` (PERF,
perf 7.3 built by `make perf` with the vendor events series) runs a
workload that injects each of the metric's events the model does not
count for real (all but INSTRUCTIONS_EXECUTED and CPU_CLK_UNHALTED) in
ROUNDS rounds of build/tests/qmon injections. An injection is counted
only if its event has the counter then; with k events taking turns on one
counter it misses with a chance of (1 - 1/k) per round, so a metric's
rounds make the chance that an event never counts 1e-4 or less.

Each metric must print a value above 0, from counts above 0,
and perf must say for each NO_GROUP_EVENTS_NMI metric that it does not
group its events. Prints one line per metric; exits 1 if any fails.

  watchdog-metrics.py PERF
"""
import importlib.util
import math
import os
import subprocess
import sys

REPO = os.path.abspath(
    os.path.join(os.path.dirname(__file__), "..", "..", ".."))
QMON = os.path.join(REPO, "build", "tests", "qmon")
# The events the model counts from execution (tools/knc/qemu).
REAL = {"INSTRUCTIONS_EXECUTED", "CPU_CLK_UNHALTED"}
COUNT = 10000000	# events of each injection: ratios to real counts well above 0
MISS = 1e-4		# the chance that an event never counts, at most

spec = importlib.util.spec_from_file_location(
    "gen_events", os.path.join(REPO, "tools", "knc", "gen-events.py"))
gen = importlib.util.module_from_spec(spec)
spec.loader.exec_module(gen)


def rounds(names, injected):
    """Rounds of injections for a metric of these events beside the
    watchdog: its k events take turns on the one counter the watchdog
    leaves them (counter-0-only events move the watchdog's event to
    counter 1: x86_schedule_events() places the most constrained events
    first). Events counted for real need no luck: a few rounds to run."""
    k = len(names)
    if k < 2 or not injected:
        return 4
    return math.ceil(math.log(MISS) / math.log(1 - 1 / k))


def event_name(field):
    """A table event's name as perf -x prints it ("cpu/x/", "x:u")."""
    name = field.lower()
    name = name[len("cpu/"):] if name.startswith("cpu/") else name
    return name.split("/")[0].split(":")[0]


def perf_stat(perf, metric, script):
    env = dict(os.environ, LC_ALL="C")
    env.pop("PERF_CPUID", None)
    p = subprocess.run([perf, "stat", "-x", ";", "-M", metric, "--",
                        "sh", "-c", script], env=env, stdout=subprocess.PIPE,
                       stderr=subprocess.STDOUT, universal_newlines=True)
    value = None
    counts = {}
    for line in p.stdout.splitlines():
        f = line.split(";")
        if len(f) > 6 and f[6].split()[-1:] == [metric] and f[5]:
            value = f[5]
        if len(f) > 2:
            try:
                counts[event_name(f[2])] = float(f[0])
            except ValueError:		# <not counted>, <not supported>
                counts[event_name(f[2])] = None
    return p.returncode, value, counts, p.stdout


def main():
    perf = sys.argv[1]
    cat = gen.load_catalog(gen.DEFAULT_EVENTS_DIR)
    table = {ev.name: ev for ev in gen.table_events(cat)}
    with open("/proc/sys/kernel/nmi_watchdog") as f:
        if f.read().strip() != "1":
            print("the NMI watchdog is off")
            return 1
    bad = 0
    for m in cat.metrics:
        name, tree = m.get("MetricName"), gen.parse_expr(m.get("MetricExpr"))
        names = gen.expr_ids(tree)
        injected = [n for n in names if n not in REAL]
        n = rounds(names, injected)
        inject = " ".join(
            f"{QMON} inject {table[e].umask << 8 | table[e].code} {COUNT};"
            for e in injected) or f"{QMON} hmp 'info status' >/dev/null;"
        script = (f"i=0; while [ $i -lt {n} ]; do {inject} i=$((i+1)); done")
        rc, value, counts, out = perf_stat(perf, name, script)
        # BRANCHES is perf's legacy "branches" on the cpu PMU
        zero = [e for e in names
                if not (counts.get(e.lower()) or counts.get(table[e].sysfs))]
        why = []
        if rc != 0:
            why.append(f"perf stat exit {rc}")
        try:
            ok_value = value is not None and math.isfinite(float(value)) \
                and float(value) > 0
        except ValueError:
            ok_value = False
        if not ok_value:
            why.append(f"value {value!r}")
        if zero:
            why.append(f"not counted or 0: {', '.join(zero)}")
        nmi = m.get("MetricConstraint") == "NO_GROUP_EVENTS_NMI"
        if nmi and f"Not grouping metric {name}'s events" not in out:
            why.append("perf did not say it does not group the events")
        print(f"{'FAIL' if why else 'ok'} {name} "
              f"({m.get('MetricConstraint')}, {len(names)} events, "
              f"{len(injected)} injected in {n} rounds): {value} "
              + "; ".join(why))
        if why:
            bad += 1
            print(out)
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
