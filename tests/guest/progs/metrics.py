#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Check every KNC metric against the live knc PMU (run in the guest).

For each metric of tools/perf/pmu-events/knc/metrics.json: inject known
counts of each event it uses, run `perf stat -M <metric>` (the perf built by
`make perf`, with PERF_CPUID set to KNC) and compare the value perf prints
with the metric's expression evaluated on the injected counts (by
gen-events.py's own parser). A metric whose events fit on the two counters
at once must match to perf's printed precision. One whose events perf must
multiplex (more than two events, or two counter-0-only ones) is injected in
small steps over many rotations (1 ms each): its counts are estimates,
scaled by the time each event ran, and a host's pause inside an event's
turn skews its estimate, so the expression is evaluated on the counts perf
printed (to perf's printed precision) and each count must come within half
of what was injected (an unscaled count, a quarter of it or less, does not).
perf 7.3 opens an event whose name is also one of its legacy hardware
events (BRANCHES: "branches") twice, as that event and as knc's: two
events on the counters, each printed, the metric computed on the first.

Prints one line per metric, exits 1 if any is off.
"""
import importlib.util
import os
import subprocess
import sys

# The tree's top, three levels up from tests/guest/progs/.
REPO = os.path.abspath(
    os.path.join(os.path.dirname(__file__), "..", "..", ".."))
PERF = os.path.join(REPO, "build", "perf", "perf")
INJECT = "/sys/kernel/debug/knc_sim/inject"
MUX = "/sys/bus/event_source/devices/knc/perf_event_mux_interval_ms"

spec = importlib.util.spec_from_file_location(
    "gen_events", os.path.join(REPO, "tools", "knc", "gen-events.py"))
gen = importlib.util.module_from_spec(spec)
spec.loader.exec_module(gen)


def perf_stat(metric, script):
    env = dict(os.environ, PERF_CPUID="GenuineIntel-11-1-0", LC_ALL="C")
    p = subprocess.run([PERF, "stat", "-x", ";", "-M", metric, "--",
                        "sh", "-c", script], env=env, stdout=subprocess.PIPE,
                       stderr=subprocess.STDOUT, universal_newlines=True)
    for line in p.stdout.splitlines():
        f = line.split(";")
        if len(f) > 6 and f[6].split()[-1:] == [metric] and f[5]:
            return f[5], p.stdout
    return None, p.stdout


def printed_counts(out, table, names):
    """The counts perf printed for the events of names, by name, each a list
    in the order printed."""
    got = {}
    for line in out.splitlines():
        f = line.split(";")
        if len(f) < 3 or not f[0].replace(".", "", 1).isdigit():
            continue
        ev = f[2].lower()
        ev = ev[len("knc/"):] if ev.startswith("knc/") else ev
        ev = ev.split("/")[0].split(":")[0]
        for n in names:
            if ev in (n.lower(), table[n].sysfs.lower()):
                got.setdefault(n, []).append(float(f[0]))
    return got


def main():
    cat = gen.load_catalog(gen.DEFAULT_EVENTS_DIR)
    table = {ev.name: ev for ev in gen.table_events(cat)}
    bad = 0
    with open("/sys/kernel/debug/knc_sim/clock_hz", "w") as f:
        f.write("0\n")	# cycles by injection only
    with open(MUX) as f:
        mux = f.read().strip()
    with open(MUX, "w") as f:
        f.write("1\n")
    try:
        for m in cat.metrics:
            name, expr = m.get("MetricName"), m.get("MetricExpr")
            tree = gen.parse_expr(expr)
            names = sorted(set(gen.expr_ids(tree)))
            counts = {n: 500 * (i + 2) + 37 * i for i, n in enumerate(names)}
            c0 = sum(table[n].cntmask == 1 for n in names)
            opened = len(names) + sum(table[n].sysfs.lower() in gen.PERF_LEGACY_NAMES
                                      for n in names)
            exact = opened <= 2 and c0 <= 1
            steps = 1 if exact else 4000
            lines = " ".join(f"echo '{table[n].sysfs} {counts[n]}' > {INJECT};"
                             for n in names)
            script = lines if exact else f"i=0; while [ $i -lt {steps} ]; do {lines} i=$((i+1)); done"
            scale = float((m.get("ScaleUnit") or "1").rstrip("abcdefghijklmnopqrstuvwxyz_/%"))
            want = gen.eval_expr(tree, {n: float(c) for n, c in counts.items()}) * scale
            got, out = perf_stat(name, script)
            if got is None:
                ok, why = False, "perf printed no value"
            else:
                decimals = len(got.split(".")[1]) if "." in got else 0
                tol = 0.5 * 10 ** -decimals + 1e-9
                if exact:
                    ok = abs(float(got) - want) <= tol
                    why = f"printed {got}, expected {want:.4f} (exact)"
                else:
                    printed = printed_counts(out, table, names)
                    total = {n: counts[n] * steps for n in names}
                    far = [n for n in names
                           if not printed.get(n) or any(abs(c - total[n]) > total[n] / 2
                                                        for c in printed[n])]
                    seen = {n: c[0] for n, c in printed.items()}
                    calc = (gen.eval_expr(tree, seen) * scale
                            if not far else float("nan"))
                    ok = not far and abs(float(got) - calc) <= tol + abs(calc) * 1e-5
                    why = (f"printed {got}, {calc:.4f} from its printed counts"
                           f" (multiplexed; injected: {want:.4f})"
                           + (f"; counts off by over half: {far}" if far else ""))
            print(f"{'ok' if ok else 'FAIL'} {name}: {expr}: {why}")
            if not ok:
                bad += 1
                print(out)
    finally:
        with open(MUX, "w") as f:
            f.write(mux + "\n")
        with open("/sys/kernel/debug/knc_sim/clock_hz", "w") as f:
            f.write("1100000000\n")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
