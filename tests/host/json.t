#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Host test (TAP version 13) of the knc pmu-events JSON.

Runs every validation check of tools/knc/gen-events.py as a named TAP case,
then checks the generator's outputs, that --check rejects a broken copy of
the JSON, that Documentation/knc-events.rst and the generated headers are
current, and that the QEMU model's table of defined encodings
(tools/knc/qemu) is the JSON's.
"""

import difflib
import importlib.util
import json
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

sys.dont_write_bytecode = True   # keep __pycache__ out of tools/knc

ROOT = Path(__file__).resolve().parents[2]
GEN_PATH = ROOT / "tools" / "knc" / "gen-events.py"
_spec = importlib.util.spec_from_file_location("gen_events", GEN_PATH)
gen = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(gen)

TABLE_PATH = "arch/x86/events/knc/knc_events.tbl"
catalog = gen.load_catalog(gen.DEFAULT_EVENTS_DIR)
catalog_ok = not gen.validate(catalog)
INVALID = ["the JSON has problems (see the failures above); not rendered"]

SYSFS_LINE_RE = re.compile(r"[a-z][a-z0-9_-]*\tevent=0x[0-9a-f]{2},"
                           r"umask=0x[0-9a-f]{2},period=[1-9][0-9]*\Z")


def check_outputs():
    """The table and the sysfs list agree with the JSON and are stable."""
    if not catalog_ok:
        return INVALID
    problems = []
    table = gen.render_table(catalog)
    if table != gen.render_table(catalog):
        problems.append("--table output is not deterministic")
    def entries(array):
        m = re.search(r"^const struct knc_event_desc " + array +
                      r"\[\] = \{\n(.*?)^\};", table, re.S | re.M)
        return len(m.group(1).splitlines()) if m else 0
    n_events, n_aliases = entries("knc_events"), entries("knc_aliases")
    if (n_events, n_aliases) != (len(catalog.table), len(catalog.aliases)):
        problems.append(f"--table has {n_events} knc_events[] and "
                        f"{n_aliases} knc_aliases[] entries, expected "
                        f"{len(catalog.table)} and {len(catalog.aliases)}")
    if not table.startswith("/* SPDX-License-Identifier: GPL-2.0 */\n"):
        problems.append("--table output lacks the SPDX line")
    lines = gen.render_sysfs(catalog).splitlines()
    if len(lines) != len(catalog.table) + len(catalog.aliases):
        problems.append(f"--expect-sysfs prints {len(lines)} lines")
    problems += [f"--expect-sysfs line {line!r} is malformed"
                 for line in lines if not SYSFS_LINE_RE.match(line)]
    names = [line.split("\t")[0] for line in lines]
    if len(set(names)) != len(names):
        problems.append("--expect-sysfs repeats a name")
    return problems


def check_rejects_broken_copy():
    """--check fails, naming the event, on a copy with a wrong Counter."""
    with tempfile.TemporaryDirectory(prefix="knc-json-") as tmp:
        for path in gen.DEFAULT_EVENTS_DIR.glob("*.json"):
            shutil.copy(path, tmp)
        broken = Path(tmp) / "cache.json"
        events = json.loads(broken.read_text())
        for event in events:
            if event.get("EventName") == "L2_READ_MISS":
                event["Counter"] = "0,1"
        broken.write_text(json.dumps(events))
        run = subprocess.run([sys.executable, str(GEN_PATH), "--check",
                              "--events-dir", tmp],
                             capture_output=True, text=True)
    if run.returncode == 1 and "L2_READ_MISS" in run.stderr:
        return []
    return [f"exit status {run.returncode}, stderr:"] + run.stderr.splitlines()


def check_generated(path, option, render):
    """The committed file at path equals what gen-events.py renders now."""
    if not catalog_ok:
        return INVALID
    regen = f"regenerate it with: python3 tools/knc/gen-events.py {option} {path}"
    if not (ROOT / path).exists():
        return [f"{path} is missing; {regen}"]
    have = (ROOT / path).read_text(encoding="utf-8")
    want = render(catalog)
    if have == want:
        return []
    diff = list(difflib.unified_diff(have.splitlines(), want.splitlines(),
                                     path, "generated", lineterm=""))
    return [f"{path} is stale; {regen}"] + diff[:20] + \
        (["..."] if len(diff) > 20 else [])


def check_doc():
    """The committed documentation equals what --doc generates now."""
    return check_generated(gen.DOC_PATH, "--doc", gen.render_doc)


def check_table():
    """The module's committed table, which Kbuild builds from, is current."""
    return check_generated(TABLE_PATH, "--table", gen.render_table)


def check_card_header():
    """The card programs' committed event header is current."""
    return check_generated(gen.CARD_HEADER_PATH, "--card-header",
                           gen.render_card_header)


def check_model_table():
    """The QEMU model's table of defined encodings (tools/knc/qemu) is the
    JSON's: each event's encoding and counters, in the same order."""
    if not catalog_ok:
        return INVALID
    want = ["{ 0x%04x, %d },   /* %s */" % (ev.umask << 8 | ev.code,
                                            1 if ev.counter == "0" else 3,
                                            ev.sysfs)
            for ev in gen.table_events(catalog)]
    row = re.compile(r"^\+    (\{ 0x[0-9a-f]{4}, [0-9] \},   /\* \S+ \*/)$")
    have = [m.group(1) for patch in sorted((ROOT / "tools/knc/qemu").glob("*.patch"))
            for m in map(row.match, patch.read_text().splitlines()) if m]
    if have == want:
        return []
    return ["tools/knc/qemu's knc_events[] differs from the JSON"] + \
        list(difflib.unified_diff(have, want, "patches", "JSON", lineterm=""))[:20]


def main() -> int:
    cases = [(title, lambda check=check: check(catalog))
             for title, check in gen.CHECKS]
    cases += [
        ("--table and --expect-sysfs outputs are consistent", check_outputs),
        ("--check rejects a broken copy of the JSON",
         check_rejects_broken_copy),
        (f"{gen.DOC_PATH} is up to date", check_doc),
        (f"{TABLE_PATH} is up to date (make gen)", check_table),
        (f"{gen.CARD_HEADER_PATH} is up to date (make gen)",
         check_card_header),
        ("the QEMU model's table of defined encodings is the JSON's",
         check_model_table),
    ]
    print("TAP version 13")
    print(f"1..{len(cases)}")
    failed = 0
    for number, (title, run) in enumerate(cases, 1):
        problems = run()
        print(f"{'not ok' if problems else 'ok'} {number} - {title}")
        for problem in problems:
            print(f"# {problem}")
        failed += bool(problems)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
