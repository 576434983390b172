#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""A perf built with the vendor events series lists the KNC events.

    tests/host/perf-events-list.py PERF

PERF is a perf 7.3 built from the series of tools/knc/perf-events-series.sh
(make perf: build/perf/perf, which has the knc tables too). It must run where
perf's CPUID is a Knights Corner's: in a guest whose CPUID says family 11
model 1 (tests/guest/linux-knc.sh), or with PERF_CPUID=GenuineIntel-11-1-0
and SYSFS_PATH at a sysfs holding a "cpu" PMU (tests/host/perf-events-series.t
makes one). The expectations are what the series carries,
tools/knc/gen-events.py's --perf-events output, never written here:

  - perf list -j lists every event on the core PMU, cpu, with its topic and its
    descriptions, and every metric under each of its groups;
  - perf list and perf list metric show every event and metric with its
    description, and every topic as a heading;
  - perf stat -M parses every metric: it fails, if at all, only when it
    opens the events.

Prints TAP; exits 1 if a case fails.
"""

import importlib.util
import json
import os
import subprocess
import sys

REPO = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
# What perf says when a metric or its events do not parse.
PARSE_ERRORS = ("Cannot find metric", "event syntax error",
                "Parse event failed", "Unknown event", "failed to parse")

spec = importlib.util.spec_from_file_location(
    "gen_events", os.path.join(REPO, "tools", "knc", "gen-events.py"))
gen = importlib.util.module_from_spec(spec)
spec.loader.exec_module(gen)

results = []


def check(ok, name, diag=""):
    results.append((bool(ok), name, "" if ok else diag))


def fixdesc(text):
    """A description as jevents.py stores it (without a final '.')."""
    for suffix in (".  ", ". ", "."):
        if text.endswith(suffix):
            return text[:-len(suffix)]
    return text


def norm(text):
    """Blanks as one space; perf list's word wrap drops one after a comma."""
    return " ".join(text.split()).replace(", ", ",")


def perf(*args):
    env = dict(os.environ, PERF_CONFIG="/dev/null", PERF_PAGER="cat",
               PAGER="cat", LC_ALL="C", COLUMNS="200")
    p = subprocess.run([sys.argv[1], *args], env=env, stdout=subprocess.PIPE,
                       stderr=subprocess.STDOUT, universal_newlines=True,
                       errors="replace", timeout=120)
    return p.returncode, p.stdout


def expected():
    """(topic, event) and metric dicts of the series' model directory."""
    files = gen.render_perf_events(gen.load_catalog(gen.DEFAULT_EVENTS_DIR))
    events, metrics = [], []
    for name, text in sorted(files.items()):
        for item in json.loads(text):
            if "MetricName" in item:
                metrics.append(item)
            elif "EventName" in item:
                events.append((gen.topic_of(name), item))
    return events, metrics


def main():
    if len(sys.argv) != 2:
        sys.exit(__doc__.strip())
    print("TAP version 13")
    events, metrics = expected()

    rc, out = perf("list", "-j")
    try:
        listed = json.loads(out) if rc == 0 else []
    except ValueError as err:
        rc, out = 1, f"{err}\n{out[-2000:]}"
    check(rc == 0 and listed, "perf list -j exits 0 and prints JSON",
          f"exit {rc}:\n{out[-2000:]}")
    # The knc PMU's events of the same names, where it is there too.
    by_event = {}
    for e in listed:
        if "EventName" in e and (e.get("Unit") == "cpu" or e["EventName"] not in by_event):
            by_event[e["EventName"]] = e
    by_metric = {}
    for m in listed:
        if "MetricName" in m:
            by_metric.setdefault(m["MetricName"], []).append(m)
    for topic, ev in events:
        got = by_event.get(ev["EventName"].lower(), {})
        want = {"Unit": "cpu", "Topic": topic,
                "BriefDescription": fixdesc(ev["BriefDescription"]),
                "PublicDescription": fixdesc(ev.get("PublicDescription",
                                                    ev["BriefDescription"]))}
        bad = {k: got.get(k) for k, v in want.items() if got.get(k) != v}
        check(got and not bad,
              f"perf list -j: {ev['EventName']} on cpu ({topic}) with its "
              "descriptions",
              f"want {want}, differs: {bad}" if got else "not listed")
    for m in metrics:
        got = by_metric.get(m["MetricName"], [])
        groups = sorted(g.get("MetricGroup") for g in got)
        ok = (groups == sorted(m["MetricGroup"].split(";")) and
              all(g.get("BriefDescription") == fixdesc(m["BriefDescription"])
                  and g.get("ScaleUnit") == m.get("ScaleUnit") for g in got))
        check(ok, f"perf list -j: metric {m['MetricName']} in "
              f"{m['MetricGroup']}",
              f"listed as {got}")

    rc, text = perf("list")
    rc_m, text_m = perf("list", "metric")
    check(rc == 0 and rc_m == 0, "perf list, perf list metric exit 0",
          f"exit {rc}, {rc_m}:\n{text[-1000:]}\n{text_m[-1000:]}")
    headings = {line.strip()[:-1] for line in text.splitlines()
                if line.endswith(":") and not line[0].isspace()}
    flat, flat_m = norm(text), norm(text_m)
    for topic in sorted({t for t, _ in events}):
        check(topic in headings, f"perf list: heading {topic}",
              f"headings: {sorted(headings)}")
    def shown(name, item, text):
        """perf list's "name [description" for item, in text."""
        return f"{name} [{norm(fixdesc(item['BriefDescription']))}" in text

    missing = [ev["EventName"] for _, ev in events
               if not shown(ev["EventName"].lower(), ev, flat)]
    check(not missing, f"perf list: the {len(events)} events, each with its "
          "description", "missing: " + ", ".join(missing))
    missing = [m["MetricName"] for m in metrics
               if not shown(m["MetricName"], m, flat_m)]
    check(not missing, f"perf list metric: the {len(metrics)} metrics, each "
          "with its description", "missing: " + ", ".join(missing))

    for m in metrics:
        rc, out = perf("stat", "-M", m["MetricName"], "--", "true")
        bad = [e for e in PARSE_ERRORS if e.lower() in out.lower()]
        check(not bad, f"perf stat -M {m['MetricName']} parses", out[-1500:])

    for i, (ok, name, diag) in enumerate(results, 1):
        print(f"{'ok' if ok else 'not ok'} {i} - {name}")
        for line in diag.splitlines() if not ok else []:
            print(f"# {line}")
    print(f"1..{len(results)}")
    return 0 if all(ok for ok, _, _ in results) else 1


if __name__ == "__main__":
    sys.exit(main())
