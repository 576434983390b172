#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Host test: the perf 7.3 built by `make perf` lists the KNC pmu-events tables.

TAP version 13.  Needs build/perf/perf (tools/knc/build-perf.sh); skipped
when it is missing.  No knc PMU exists on the host, so the test builds a
minimal fake sysfs (SYSFS_PATH) holding /bus/event_source/devices/knc with
the format attributes of the Linux knc driver, and forces the KNC CPU id
(PERF_CPUID=GenuineIntel-11-1-0).  Expectations are read from the JSON
tables (tools/perf/pmu-events/knc/*.json), never hard-coded:

  - every event is listed under its topic (the JSON file name, as jevents.py
    derives it) with its BriefDescription and "Unit: knc";
  - every topic appears as a heading;
  - every metric is listed by `perf list metric` with its BriefDescription,
    under each of its groups (or No_group) in `perf list`'s "Metric Groups",
    and every group by `perf list metricgroup`;
  - every metric expression parses: `perf stat -M <metric> -- true` reaches
    perf_event_open (which fails on the host) without a parse error.
"""

import glob
import importlib.util
import os
import re
import shutil
import subprocess
import sys
import tempfile

REPO = os.path.abspath(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))
PERF = os.path.join(REPO, "build", "perf", "perf")
JSON_DIR = os.path.join(REPO, "tools", "perf", "pmu-events", "knc")
CPUID = "GenuineIntel-11-1-0"
PMU = "knc"
# The knc driver's format attributes (arch/x86/events/intel/knc.c).
FORMATS = {
    "event": "config:0-7",
    "umask": "config:8-15",
    "edge": "config:18",
    "inv": "config:23",
    "cmask": "config:24-31",
}
# A PMU type no running kernel hands out, so every open fails with ENOENT.
FAKE_TYPE = "65000"

print("TAP version 13")
if not os.access(PERF, os.X_OK):
    print("1..0 # SKIP build/perf/perf not built (make perf)")
    sys.exit(0)

results = []


def check(ok, name, diag=None):
    results.append((bool(ok), name, diag if not ok else None))
    return ok


def norm(s):
    """Blanks as one space; perf list's word wrap (builtin-list.c) drops the
    one after a comma."""
    return " ".join(s.split()).replace(", ", ",")


def fixdesc(s):
    """What jevents.py does to a description (drops a final '.')."""
    for suffix in (".  ", ". ", "."):
        if s.endswith(suffix):
            s = s[: -len(suffix)]
    return s


# ---- expectations from the JSON ------------------------------------------

# The one reader of the tables: tools/knc/gen-events.py.
spec = importlib.util.spec_from_file_location(
    "gen_events", os.path.join(REPO, "tools", "knc", "gen-events.py"))
gen = importlib.util.module_from_spec(spec)
spec.loader.exec_module(gen)

catalog = gen.load_catalog(JSON_DIR)
load_errors = catalog.load_errors
json_files = sorted(glob.glob(os.path.join(JSON_DIR, "*.json")))
events = [dict(e.data, _topic=gen.topic_of(e.file), _file=e.file)
          for e in catalog.table + catalog.aliases]
metrics = [dict(m.data, _file=m.file) for m in catalog.metrics]

check(json_files and not load_errors and events,
      f"JSON tables load from {os.path.relpath(JSON_DIR, REPO)} "
      f"({len(json_files)} files, {len(events)} events, {len(metrics)} metrics)",
      "\n".join(load_errors) or f"no *.json files or no events in {JSON_DIR}")

not_knc = [e["EventName"] for e in events if e.get("Unit") != PMU]
check(not not_knc, f'every event has "Unit": "{PMU}"',
      "events without it (perf would not attach them to the knc PMU): " + ", ".join(not_knc))

# ---- fake sysfs and perf runs ----------------------------------------------

# KNC_PERF_LIST_REAL_SYSFS=1 (the guest suite): the live knc PMU's sysfs.
REAL_SYSFS = os.environ.get("KNC_PERF_LIST_REAL_SYSFS") == "1"


def make_fake_sysfs(root):
    pmu_dir = os.path.join(root, "bus", "event_source", "devices", PMU)
    os.makedirs(os.path.join(pmu_dir, "format"))
    with open(os.path.join(pmu_dir, "type"), "w") as f:
        f.write(FAKE_TYPE + "\n")
    for name, val in FORMATS.items():
        with open(os.path.join(pmu_dir, "format", name), "w") as f:
            f.write(val + "\n")


tmp = tempfile.mkdtemp(prefix="knc-perf-list.")
try:
    env = dict(os.environ, PERF_CPUID=CPUID,
               PERF_CONFIG="/dev/null", PERF_PAGER="cat", PAGER="cat", LC_ALL="C")
    if not REAL_SYSFS:
        make_fake_sysfs(tmp)
        env["SYSFS_PATH"] = tmp

    def perf(*args):
        p = subprocess.run([PERF, *args], env=env, cwd=tmp, stdout=subprocess.PIPE,
                           stderr=subprocess.STDOUT, universal_newlines=True,
                           errors="replace", timeout=120)
        return p.returncode, p.stdout

    rc, full = perf("list", "--deprecated")
    check(rc == 0, f"PERF_CPUID={CPUID} perf list exits 0 ({'live' if REAL_SYSFS else 'fake'} sysfs)",
          f"exit {rc}:\n{full[-2000:]}")
    rc_m, metric_out = perf("list", "metric")
    rc_g, group_out = perf("list", "metricgroup")

    def parse_list(text):
        """perf list text -> [(part, heading, name, desc)], part is 'events'
        before the 'Metric Groups:' line and 'metricgroups' after it."""
        entries, heading, part, cur = [], None, "events", None
        for line in text.splitlines():
            if not line.strip():
                continue
            if not line[0].isspace():
                cur = None
                if line.strip() == "Metric Groups:":
                    part, heading = "metricgroups", None
                else:
                    # "topic:", or "Group: [the group's description]"
                    heading = line.strip().split(": [")[0].rstrip(":")
                continue
            stripped = line.strip()
            if cur is not None and (stripped.startswith("[") or cur["_open"]):
                cur["desc"] += " " + stripped
                cur["_open"] = not stripped.endswith("]")
                continue
            cur = {"part": part, "heading": heading, "name": stripped.split()[0],
                   "desc": "", "_open": False}
            entries.append(cur)
        for e in entries:
            e["desc"] = norm(e["desc"].strip())
            if e["desc"].startswith("[") and e["desc"].endswith("]"):
                e["desc"] = e["desc"][1:-1]
        return entries

    listed = parse_list(full)
    headings = {e["heading"] for e in listed if e["part"] == "events"}

    # ---- events and topics ----------------------------------------------------
    for topic in sorted({e["_topic"] for e in events}):
        check(topic in headings, f'topic "{topic}" is a heading in perf list',
              "headings seen: " + ", ".join(sorted(h for h in headings if h)))

    by_name = {}
    for e in listed:
        if e["part"] == "events":
            by_name.setdefault(e["name"].lower(), []).append(e)
    for ev in events:
        name = ev["EventName"].lower()
        want_desc = norm(fixdesc(ev.get("BriefDescription") or ""))
        found = by_name.get(name, [])
        good = [f for f in found if f["heading"] == ev["_topic"]
                and want_desc in f["desc"] and f"Unit: {PMU}" in f["desc"]]
        check(good, f'event {ev["EventName"]} listed under "{ev["_topic"]}" with its description',
              f'expected under heading "{ev["_topic"]}" with description "{want_desc}"'
              f" and Unit: {PMU}; perf list has: "
              + ("; ".join(f'[{f["heading"]}] {f["desc"]}' for f in found) or "nothing"))

    # ---- metrics ----------------------------------------------------------------
    if metrics:
        check(rc_m == 0 and rc_g == 0, "perf list metric / perf list metricgroup exit 0",
              f"exit {rc_m} / {rc_g}:\n{metric_out[-1000:]}\n{group_out[-1000:]}")
        m_listed = {}
        for e in parse_list(metric_out):
            m_listed.setdefault(e["name"].lower(), []).append(e)
        in_groups = {}
        for e in listed:
            if e["part"] == "metricgroups":
                in_groups.setdefault(e["name"].lower(), set()).add(e["heading"])
        # "Group", or "Group [the group's description]"
        group_names = {l.strip().split(" [")[0] for l in group_out.splitlines()
                       if l.strip() and l.strip() != "Metric Groups:"}

        all_groups = set()
        for m in metrics:
            name = m["MetricName"]
            want_desc = norm(fixdesc(m.get("BriefDescription") or ""))
            found = m_listed.get(name.lower(), [])
            check(any(want_desc in f["desc"] for f in found),
                  f"metric {name} listed by perf list metric with its description",
                  f'expected "{want_desc}"; perf list metric has: '
                  + ("; ".join(f["desc"] for f in found) or "nothing"))
            groups = [g for g in (m.get("MetricGroup") or "").split(";") if g] or ["No_group"]
            all_groups.update(g for g in groups if g != "No_group")
            seen = in_groups.get(name.lower(), set())
            missing = [g for g in groups if g not in seen]
            check(not missing, f"metric {name} listed under group(s) {', '.join(groups)}",
                  f"missing under {', '.join(missing)}; seen under: "
                  + (", ".join(sorted(seen)) or "none"))

        for g in sorted(all_groups):
            check(g in group_names, f"metric group {g} listed by perf list metricgroup",
                  "perf list metricgroup has: " + ", ".join(sorted(group_names)))

        # perf stat parses the metric, resolves its events to knc aliases and
        # only then fails to open them (the fake PMU type does not exist).
        parse_errors = re.compile(r"syntax error|Cannot find metric or group|"
                                  r"Cannot find PMU|failed to parse|Failed to parse")
        for m in metrics:
            name = m["MetricName"]
            rc, out = perf("stat", "-M", name, "--", "true")
            bad = [l for l in out.splitlines() if parse_errors.search(l)]
            head = out.split("Performance counter stats")[0].rstrip()
            check(not bad, f"metric {name} expression parses (perf stat -M)",
                  f'MetricExpr "{m.get("MetricExpr")}":\n' + head[-1500:])
finally:
    shutil.rmtree(tmp, ignore_errors=True)

print(f"1..{len(results)}")
for i, (ok, name, diag) in enumerate(results, 1):
    print(f"{'ok' if ok else 'not ok'} {i} - {name}")
    if diag:
        for line in str(diag).splitlines():
            print(f"# {line}")
failed = sum(1 for ok, _, _ in results if not ok)
sys.exit(1 if failed else 0)
