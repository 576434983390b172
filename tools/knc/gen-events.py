#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Generate knc PMU artefacts from the perf pmu-events JSON.

The JSON files in tools/perf/pmu-events/knc/ (perf 6.1 pmu-events format)
are the single source of the Knights Corner event list.  This script
validates them and derives from them:

  --table OUT      the kernel module's event table, its generic names and
                   the PERF_TYPE_HW_CACHE map of hw-cache/hw-cache.json, as
                   C arrays,
  --doc OUT        Documentation/knc-events.rst,
  --expect-sysfs   the exact contents of each sysfs alias file,
  --perf-events DIR  perf's vendor events for KNC in the layout of Linux
                   6.12's tools/perf/pmu-events/arch/x86/ (DIR is the
                   model directory, knightscorner/): the core PMU's events
                   and metrics, as tools/knc/perf-events-series.sh puts
                   them in its series,
  --perf-mapfile CSV  add the KNC row to that tree's arch/x86/mapfile.csv,
  --card-header OUT  the event list of the card's programs (tools/knc/card/:
                   knc-stat, knc-check) as a C header: every table event and
                   generic alias, with the PERF_TYPE_HARDWARE id of the
                   generic names,
  --check          validation only.

Python 3 standard library only.  tests/host/json.t imports this file and
runs each entry of CHECKS as a TAP case.
"""

import argparse
import json
import math
import re
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Dict, List, Optional, Tuple

REPO_ROOT = Path(__file__).resolve().parents[2]
DEFAULT_EVENTS_DIR = REPO_ROOT / "tools" / "perf" / "pmu-events" / "knc"
DOC_PATH = "Documentation/knc-events.rst"

# jevents.py takes the topic from the file name, and treats every file whose
# name ends in "metrics.json" as metrics (get_topic()).
ALIAS_FILE = "generic.json"
METRICS_SUFFIX = "metrics.json"

# Table 1-6 of the KNC PMU specification (327357-001) lists 59 events.
NUM_TABLE_EVENTS = 59

# Event codes the upstream driver (arch/x86/events/intel/knc.c,
# knc_event_constraints) restricts to counter 0, whatever the umask.
COUNTER0_ONLY = frozenset({
    0xc3, 0xc4, 0xc8, 0xc9, 0xca, 0xcb, 0xcc, 0xce, 0xcf, 0xd7, 0xe3,
    0xe6, 0xe7, 0xf1, 0xf2, 0xf6, 0xf7, 0xfc, 0xfd, 0xfe, 0xff,
})
COUNTER0_SENTENCE = "Counter 0 only."
# JSON "Counter" value -> counter bit mask for the module's table.
COUNTER_MASKS = {"0": 0x1, "0,1": 0x3}

# The upstream driver's generic event map (knc_perfmon_event_map):
# generic alias name -> (event code, umask).
UPSTREAM_GENERIC = {
    "cycles": (0x2a, 0x00),
    "instructions": (0x16, 0x00),
    "cache-references": (0x28, 0x00),
    "cache-misses": (0x29, 0x00),
    "branches": (0x12, 0x00),
    "branch-misses": (0x2b, 0x00),
}

# PERF_TYPE_HARDWARE ids of the upstream generic names: UPSTREAM_GENERIC
# is in the order of the uapi's enum perf_hw_id (a stable ABI).
PERF_HW_IDS = {name: i for i, name in enumerate(UPSTREAM_GENERIC)}

# The PERF_TYPE_HW_CACHE map, in a subdirectory so that neither jevents.py
# nor the table loader takes it for events.  perf's names for the cache ids,
# ops and results (tools/perf/util/evsel.c), in the uapi's id order.
HW_CACHE_FILE = Path("hw-cache") / "hw-cache.json"
HW_CACHE_NAMES = ("L1-dcache", "L1-icache", "LLC", "dTLB", "iTLB", "branch",
                  "node")
HW_CACHE_OPS = (("loads", "load-misses"), ("stores", "store-misses"),
                ("prefetches", "prefetch-misses"))
# The upstream driver's map (knc_hw_cache_event_ids): perf event name ->
# (event code, umask), or None where it says the combination is invalid
# (-1, EINVAL).  Combinations it leaves 0 are not supported (ENOENT).
UPSTREAM_HW_CACHE = {
    "L1-dcache-loads": (0x00, 0x00), "L1-dcache-load-misses": (0x03, 0x00),
    "L1-dcache-stores": (0x01, 0x00), "L1-dcache-store-misses": (0x04, 0x00),
    "L1-dcache-prefetches": (0x11, 0x00),
    "L1-dcache-prefetch-misses": (0x1c, 0x00),
    "L1-icache-loads": (0x0c, 0x00), "L1-icache-load-misses": (0x0e, 0x00),
    "L1-icache-stores": None, "L1-icache-store-misses": None,
    "LLC-load-misses": (0xcb, 0x10), "LLC-stores": (0xcc, 0x10),
    "LLC-prefetches": (0xfc, 0x10), "LLC-prefetch-misses": (0xfe, 0x10),
    "dTLB-loads": (0x00, 0x00), "dTLB-load-misses": (0x02, 0x00),
    "dTLB-stores": (0x01, 0x00), "dTLB-store-misses": (0x02, 0x00),
    "iTLB-loads": (0x0c, 0x00), "iTLB-load-misses": (0x0d, 0x00),
    "iTLB-stores": None, "iTLB-store-misses": None,
    "iTLB-prefetches": None, "iTLB-prefetch-misses": None,
    "branch-loads": (0x12, 0x00), "branch-load-misses": (0x2b, 0x00),
    "branch-stores": None, "branch-store-misses": None,
    "branch-prefetches": None, "branch-prefetch-misses": None,
}

# Fields of an event / metric.  jevents.py silently ignores keys it does not
# know, so a misspelt key ("Umask") would quietly lose information: only
# these are accepted.
EVENT_FIELDS = ("EventCode", "UMask", "EventName", "BriefDescription",
                "PublicDescription", "Counter", "SampleAfterValue", "Unit")
METRIC_REQUIRED = ("MetricName", "MetricExpr", "MetricGroup",
                   "BriefDescription")
METRIC_OPTIONAL = ("PublicDescription", "ScaleUnit", "MetricConstraint")

# MetricConstraint: how perf (7.3's util/metricgroup.c,
# metric__group_events()) opens a metric's events. By default it opens them
# as one weak group ("{a,b}:W"), which the PMU schedules all at once or not
# at all. NO_GROUP_EVENTS: never as a group; NO_GROUP_EVENTS_NMI: not as a
# group while /proc/sys/kernel/nmi_watchdog is 1 (with a warning), as a
# group otherwise. KNC has two general counters per thread and no fixed
# one, and the NMI watchdog's cycles event, pinned, holds one of them:
#   - a metric of one event needs no constraint;
#   - two events fit on the two counters (at most one of them counter-0
#     only), but not beside the watchdog: a group of them would never be
#     scheduled there and the metric would get no value. NO_GROUP_EVENTS_NMI
#     keeps them a group, counted at the same time, when the watchdog is off
#     and lets them take turns on the counter it leaves when it is on;
#   - more than two events, or two counter-0-only ones, never fit at once:
#     NO_GROUP_EVENTS.
# The events are the formula's table events, as the series has them on
# Linux's core PMU. On knc_pmu.ko's PMU perf 7.3 opens BRANCHES twice, as
# its legacy "branches" and as knc's, so there the branch metric has three
# events (tests/guest/progs/metrics.py, which takes that into account).
NUM_COUNTERS = 2
METRIC_CONSTRAINTS = ("NO_GROUP_EVENTS", "NO_GROUP_EVENTS_NMI")

UNIT = "knc"
U32_MAX = 2**32 - 1          # the module prints periods with %u

TABLE_NAME_RE = re.compile(r"[A-Z][A-Z0-9_]*\Z")
ALIAS_NAME_RE = re.compile(r"[a-z][a-z0-9]*(-[a-z0-9]+)*\Z")
BYTE_RE = re.compile(r"0x[0-9a-f]{2}\Z")
PERIOD_RE = re.compile(r"[1-9][0-9]*\Z")
METRIC_NAME_RE = re.compile(r"knc_[a-z0-9_]+\Z")
METRIC_GROUP_RE = re.compile(r"[A-Za-z0-9_]+(;[A-Za-z0-9_]+)*\Z")
# perf_pmu__convert_scale(): strtod() prefix, the rest is the unit.
SCALE_UNIT_RE = re.compile(r"([0-9]+\.?[0-9]*(e-?[0-9]+)?)([A-Za-z%/_]+)\Z")


# ---------------------------------------------------------------- loading

@dataclass
class Entry:
    """One JSON object, as read, with where it came from."""
    file: str
    index: int
    data: dict

    def where(self) -> str:
        name = self.data.get("EventName") or self.data.get("MetricName")
        label = f" {name}" if isinstance(name, str) else ""
        return f"{self.file}[{self.index}]{label}"

    def get(self, key: str) -> Optional[str]:
        """The field if it is a string, else None (reported elsewhere)."""
        value = self.data.get(key)
        return value if isinstance(value, str) else None


@dataclass
class Catalog:
    events_dir: Path
    load_errors: List[str]
    table: List[Entry]
    aliases: List[Entry]
    metrics: List[Entry]
    hw_cache: List[Entry]


def topic_of(file_name: str) -> str:
    """The topic jevents.py gives a file (get_topic())."""
    if file_name.endswith(METRICS_SUFFIX):
        return "metrics"
    return file_name[:-len(".json")].replace("-", " ")


def load_catalog(events_dir: Path) -> Catalog:
    """Read every *.json file of events_dir; never raises on bad content."""
    cat = Catalog(Path(events_dir), [], [], [], [], [])
    files = sorted(Path(events_dir).glob("*.json"))
    if not files:
        cat.load_errors.append(f"{events_dir}: no *.json files")
    for path in files:
        try:
            with open(path, encoding="utf-8") as f:
                content = json.load(f)
        except (OSError, ValueError) as err:
            cat.load_errors.append(f"{path.name}: {err}")
            continue
        if not isinstance(content, list):
            cat.load_errors.append(f"{path.name}: top level is not a list "
                                   "(perf 6.1 jevents expects one)")
            continue
        if path.name.endswith(METRICS_SUFFIX):
            bucket = cat.metrics
        elif path.name == ALIAS_FILE:
            bucket = cat.aliases
        else:
            bucket = cat.table
        for index, item in enumerate(content):
            if isinstance(item, dict):
                bucket.append(Entry(path.name, index, item))
            else:
                cat.load_errors.append(f"{path.name}[{index}]: not an object")
    path = Path(events_dir) / HW_CACHE_FILE
    try:
        with open(path, encoding="utf-8") as f:
            content = json.load(f)
    except (OSError, ValueError) as err:
        cat.load_errors.append(f"{HW_CACHE_FILE}: {err}")
        return cat
    if not isinstance(content, list):
        cat.load_errors.append(f"{HW_CACHE_FILE}: top level is not a list")
        return cat
    for index, item in enumerate(content):
        if isinstance(item, dict):
            cat.hw_cache.append(Entry(str(HW_CACHE_FILE), index, item))
        else:
            cat.load_errors.append(f"{HW_CACHE_FILE}[{index}]: not an object")
    return cat


def hw_cache_ids(name: str) -> Optional[Tuple[int, int, int]]:
    """perf's (cache, op, result) ids of a hw-cache event name, or None."""
    for c, cache in enumerate(HW_CACHE_NAMES):
        for o, results in enumerate(HW_CACHE_OPS):
            for r, suffix in enumerate(results):
                if name == f"{cache}-{suffix}":
                    return c, o, r
    return None


def parse_byte(text: Optional[str]) -> Optional[int]:
    """Value of a "0xNN" field, or None when it is malformed."""
    return int(text, 16) if text and BYTE_RE.match(text) else None


def event_key(entry: Entry) -> Optional[Tuple[int, int]]:
    """(umask, event code) of an entry, or None if either is malformed."""
    code = parse_byte(entry.get("EventCode"))
    umask = parse_byte(entry.get("UMask"))
    return None if code is None or umask is None else (umask, code)


# ----------------------------------------------------- metric expressions
#
# A small parser and evaluator for the perf 6.1 metric expression language
# (tools/perf/util/expr.l and expr.y): numbers, event names, #literals,
# | ^ & < > + - * / %, unary minus, parentheses, min(), max(), d_ratio(),
# source_count() and "a if cond else b".

class ExprError(Exception):
    pass


# Token rules in expr.l order; as in flex the longest match wins and ties go
# to the earlier rule (so "max" is a keyword but "max2" a symbol).
_TOKEN_RULES = [
    ("D_RATIO", re.compile(r"d_ratio")),
    ("MAX", re.compile(r"max")),
    ("MIN", re.compile(r"min")),
    ("IF", re.compile(r"if")),
    ("ELSE", re.compile(r"else")),
    ("SOURCE_COUNT", re.compile(r"source_count")),
    ("LITERAL", re.compile(r"#[0-9a-zA-Z_.\-]+")),
    ("NUMBER", re.compile(r"([0-9]+\.?[0-9]*|[0-9]*\.?[0-9]+)(e-?[0-9]+)?")),
    ("ID", re.compile(r"(\\[-,=]|[0-9a-zA-Z_.:@?])+")),
    ("OP", re.compile(r"[|^&<>\-+*/%(),]")),
]
# Binary operators by precedence (expr.y %left lines), all left-associative.
_BINARY_PRECEDENCE = {"|": 1, "^": 2, "&": 3, "<": 4, ">": 4,
                      "+": 5, "-": 5, "*": 6, "/": 6, "%": 6}

# Values for the #literals of expr__get_literal(), as on a 61-core KNC.
SAMPLE_LITERALS = {"#smt_on": 1.0, "#num_cpus": 244.0, "#num_cores": 61.0,
                   "#num_dies": 1.0, "#num_packages": 1.0,
                   "#core_wide": 0.0, "#system_tsc_freq": 1.1e9}


def tokenize(text: str) -> List[Tuple[str, str]]:
    tokens, pos = [], 0
    while pos < len(text):
        if text[pos].isspace():
            pos += 1
            continue
        best = None
        for kind, rule in _TOKEN_RULES:
            m = rule.match(text, pos)
            if m and m.end() > pos and (best is None or m.end() > best[1]):
                best = (kind, m.end())
        if best is None:
            # expr.l silently drops such characters; be stricter here.
            raise ExprError(f"unexpected character {text[pos]!r} at {pos}")
        kind, end = best
        value = text[pos:end]
        tokens.append((value if kind == "OP" else kind, value))
        pos = end
    return tokens


class _Parser:
    """Recursive descent over the tokens; builds a tuple AST."""

    def __init__(self, text: str):
        self.tokens = tokenize(text)
        self.pos = 0

    def peek(self) -> Optional[str]:
        if self.pos < len(self.tokens):
            return self.tokens[self.pos][0]
        return None

    def take(self, kind: Optional[str] = None) -> str:
        if self.pos >= len(self.tokens):
            raise ExprError("unexpected end of expression"
                            + (f", expected {kind!r}" if kind else ""))
        tok_kind, value = self.tokens[self.pos]
        if kind is not None and tok_kind != kind:
            raise ExprError(f"expected {kind!r}, found {value!r}")
        self.pos += 1
        return value

    def parse(self):
        tree = self.if_expr()
        if self.peek() is not None:
            raise ExprError(f"unexpected {self.tokens[self.pos][1]!r}")
        return tree

    def if_expr(self):
        value = self.expr(1)
        if self.peek() == "IF":
            self.take()
            cond = self.expr(1)
            self.take("ELSE")
            return ("if", value, cond, self.if_expr())
        return value

    def expr(self, min_prec: int):
        left = self.unary()
        while self.peek() in _BINARY_PRECEDENCE and \
                _BINARY_PRECEDENCE[self.peek()] >= min_prec:
            op = self.take()
            left = ("bin", op, left, self.expr(_BINARY_PRECEDENCE[op] + 1))
        return left

    def unary(self):
        if self.peek() == "-":
            self.take()
            return ("neg", self.unary())
        return self.primary()

    def primary(self):
        kind = self.peek()
        if kind == "NUMBER":
            return ("num", float(self.take()))
        if kind == "LITERAL":
            return ("lit", self.take())
        if kind == "ID":
            return ("id", self.take())
        if kind == "(":
            self.take()
            inner = self.if_expr()
            self.take(")")
            return inner
        if kind in ("MIN", "MAX", "D_RATIO"):
            self.take()
            self.take("(")
            a = self.expr(1)
            self.take(",")
            b = self.expr(1)
            self.take(")")
            return ("call", kind, a, b)
        if kind == "SOURCE_COUNT":
            self.take()
            self.take("(")
            name = self.take("ID")
            self.take(")")
            return ("source_count", name)
        found = self.tokens[self.pos][1] if kind else "end of expression"
        raise ExprError(f"unexpected {found!r}")


def parse_expr(text: str):
    """AST of a perf metric expression; raises ExprError."""
    return _Parser(text).parse()


def expr_ids(tree) -> List[str]:
    """Event names an AST refers to, sorted and without duplicates."""
    found = set()

    def walk(node):
        if node[0] in ("id", "source_count"):
            found.add(node[1])
        for child in node[1:]:
            if isinstance(child, tuple):
                walk(child)
    walk(tree)
    return sorted(found)


def eval_expr(tree, values: Dict[str, float]) -> float:
    """Evaluate an AST as perf does; raises ExprError (e.g. x / 0)."""
    kind = tree[0]
    if kind == "num":
        return tree[1]
    if kind == "lit":
        if tree[1] not in SAMPLE_LITERALS:
            raise ExprError(f"unknown literal {tree[1]}")
        return SAMPLE_LITERALS[tree[1]]
    if kind == "id":
        if tree[1] not in values:
            raise ExprError(f"no value for {tree[1]}")
        return values[tree[1]]
    if kind == "source_count":
        return 1.0
    if kind == "neg":
        return -eval_expr(tree[1], values)
    if kind == "if":
        cond = eval_expr(tree[2], values)
        return eval_expr(tree[1] if cond != 0 else tree[3], values)
    a, b = eval_expr(tree[2], values), eval_expr(tree[3], values)
    op = tree[1]
    if op == "D_RATIO":
        return 0.0 if b == 0 else a / b
    if op == "MIN":
        return min(a, b)
    if op == "MAX":
        return max(a, b)
    if op in ("/", "%") and b == 0:
        raise ExprError("division by zero")
    return {
        "+": lambda: a + b, "-": lambda: a - b, "*": lambda: a * b,
        "/": lambda: a / b, "%": lambda: float(int(a) % int(b)),
        "<": lambda: float(a < b), ">": lambda: float(a > b),
        "|": lambda: float(int(a) | int(b)),
        "&": lambda: float(int(a) & int(b)),
        "^": lambda: float(int(a) ^ int(b)),
    }[op]()


# ------------------------------------------------------------- validation
#
# Each check takes the catalog and returns a list of problems (empty: pass).
# Checks skip fields another check reports, so one mistake gives one message.

def check_load(cat: Catalog) -> List[str]:
    return list(cat.load_errors)


def check_event_fields(cat: Catalog) -> List[str]:
    problems = []
    for e in cat.table + cat.aliases:
        for key in EVENT_FIELDS:
            if key not in e.data:
                problems.append(f"{e.where()}: missing {key}")
            elif not isinstance(e.data[key], str) or not e.data[key].strip():
                problems.append(f"{e.where()}: {key} must be a non-empty "
                                "string")
        for key in sorted(set(e.data) - set(EVENT_FIELDS)):
            problems.append(f"{e.where()}: unexpected field {key}")
    return problems


def check_names(cat: Catalog) -> List[str]:
    problems, seen = [], {}
    for e, pattern in [(e, TABLE_NAME_RE) for e in cat.table] + \
                      [(e, ALIAS_NAME_RE) for e in cat.aliases]:
        name = e.get("EventName")
        if name is None:
            continue
        if not pattern.match(name):
            problems.append(f"{e.where()}: EventName must match "
                            f"{pattern.pattern}")
        # perf lower-cases event names, so compare without case.
        if name.lower() in seen:
            problems.append(f"{e.where()}: EventName also used by "
                            f"{seen[name.lower()].where()}")
        seen.setdefault(name.lower(), e)
    return problems


def check_codes(cat: Catalog) -> List[str]:
    return [f"{e.where()}: {key} {e.get(key)!r} is not 0x00..0xff "
            "(two lower-case hex digits)"
            for e in cat.table + cat.aliases for key in ("EventCode", "UMask")
            if e.get(key) is not None and parse_byte(e.get(key)) is None]


def check_table_size(cat: Catalog) -> List[str]:
    if len(cat.table) == NUM_TABLE_EVENTS:
        return []
    return [f"{len(cat.table)} table events, the specification lists "
            f"{NUM_TABLE_EVENTS}"]


def check_unique_encodings(cat: Catalog) -> List[str]:
    problems, seen = [], {}
    for e in cat.table:
        key = event_key(e)
        if key is None:
            continue
        if key in seen:
            problems.append(f"{e.where()}: umask 0x{key[0]:02x} event "
                            f"0x{key[1]:02x} also used by {seen[key].where()}")
        seen.setdefault(key, e)
    return problems


def check_counters(cat: Catalog) -> List[str]:
    problems = []
    for e in cat.table + cat.aliases:
        code, counter = parse_byte(e.get("EventCode")), e.get("Counter")
        if code is None or counter is None:
            continue
        want = "0" if code in COUNTER0_ONLY else "0,1"
        if counter != want:
            problems.append(f"{e.where()}: Counter is {counter!r}, event "
                            f"0x{code:02x} needs {want!r}")
        desc = e.get("PublicDescription") or ""
        if (want == "0") != desc.endswith(COUNTER0_SENTENCE):
            problems.append(f"{e.where()}: PublicDescription must "
                            f"{'' if want == '0' else 'not '}end with "
                            f"{COUNTER0_SENTENCE!r}")
    return problems


def check_periods(cat: Catalog) -> List[str]:
    problems = []
    for e in cat.table + cat.aliases:
        value = e.get("SampleAfterValue")
        if value is not None and (not PERIOD_RE.match(value)
                                  or int(value) > U32_MAX):
            problems.append(f"{e.where()}: SampleAfterValue {value!r} is not "
                            f"a positive integer up to {U32_MAX}")
    return problems


def is_prime(n: int) -> bool:
    return n > 1 and all(n % d for d in range(2, math.isqrt(n) + 1))


def round_below(n: int) -> int:
    """n with all but its leading digit zeroed (20011 -> 20000)."""
    scale = 10 ** (len(str(n)) - 1)
    return n // scale * scale


# The default sampling periods are this project's, not Intel's (its
# perfmon data has no Knights Corner): each is the first prime above a
# round number of one significant digit, as the periods of Intel's other
# models are (2000003, 200003, 100003, 20011, 2003; 10007 and 20000003
# follow the same rule), so that samples do not fall into step with a loop
# whose length is a round number. The round number follows how often the
# event can occur, estimated from what it counts, not measured on a KNC:
# 2000003 for events that can occur every cycle or instruction, 200003 and
# 100003 for memory accesses and L1 misses, 20011 and 10007 for rarer
# events such as L2 hits and misses, page walks, mispredictions and
# snoops, 2003 for the rarest (long page walks, code misses served by
# another L2 or memory), 20000003 for VPU_ELEMENTS_ACTIVE (up to 16 a VPU
# instruction).
def check_period_rule(cat: Catalog) -> List[str]:
    problems = []
    for e in cat.table + cat.aliases:
        value = e.get("SampleAfterValue")
        if value is None or not PERIOD_RE.match(value):
            continue
        n = int(value)
        base = round_below(n)
        if not is_prime(n) or any(is_prime(k) for k in range(base + 1, n)):
            problems.append(f"{e.where()}: SampleAfterValue {n} is not the "
                            f"first prime above a round number")
    return problems


def check_unit(cat: Catalog) -> List[str]:
    return [f"{e.where()}: Unit is {e.get('Unit')!r}, not {UNIT!r}"
            for e in cat.table + cat.aliases
            if e.get("Unit") is not None and e.get("Unit") != UNIT]


def check_aliases(cat: Catalog) -> List[str]:
    problems = []
    by_key = {}
    for e in cat.table:
        by_key.setdefault(event_key(e), []).append(e)
    # A generic name that is already a table event name ("branches" is
    # BRANCHES) needs no alias: it would be a second sysfs file of the same
    # name.  check_names() rejects such a duplicate; here the table event
    # must carry the upstream encoding.
    by_name = {(e.get("EventName") or "").lower(): e for e in cat.table}
    names = [e.get("EventName") for e in cat.aliases]
    for name in sorted(set(UPSTREAM_GENERIC) - set(names)):
        code, umask = UPSTREAM_GENERIC[name]
        if name not in by_name:
            problems.append(f"{ALIAS_FILE}: missing generic alias {name}")
        elif event_key(by_name[name]) not in (None, (umask, code)):
            problems.append(f"{by_name[name].where()}: upstream maps {name} "
                            f"to event 0x{code:02x} umask 0x{umask:02x}")
    for e in cat.aliases:
        name = e.get("EventName")
        if name not in UPSTREAM_GENERIC:
            problems.append(f"{e.where()}: not in the upstream generic map "
                            f"({', '.join(UPSTREAM_GENERIC)})")
            continue
        key = event_key(e)
        code, umask = UPSTREAM_GENERIC[name]
        if key is None:
            continue
        if key != (umask, code):
            problems.append(f"{e.where()}: upstream maps {name} to event "
                            f"0x{code:02x} umask 0x{umask:02x}")
            continue
        targets = by_key.get(key, [])
        if len(targets) != 1:
            problems.append(f"{e.where()}: {len(targets)} table events have "
                            "its encoding, need exactly 1")
            continue
        target = targets[0]
        for field in ("Counter", "SampleAfterValue"):
            if e.get(field) != target.get(field):
                problems.append(f"{e.where()}: {field} {e.get(field)!r} "
                                f"differs from {target.where()} "
                                f"({target.get(field)!r})")
        for field in ("BriefDescription", "PublicDescription"):
            if target.get("EventName") not in (e.get(field) or ""):
                problems.append(f"{e.where()}: {field} must name the aliased "
                                f"event {target.get('EventName')}")
    return problems


def check_metric_fields(cat: Catalog) -> List[str]:
    problems, seen = [], set()
    for m in cat.metrics:
        for key in METRIC_REQUIRED:
            if key not in m.data:
                problems.append(f"{m.where()}: missing {key}")
        for key, value in m.data.items():
            if key not in METRIC_REQUIRED + METRIC_OPTIONAL:
                problems.append(f"{m.where()}: unexpected field {key}")
            elif not isinstance(value, str) or not value.strip():
                problems.append(f"{m.where()}: {key} must be a non-empty "
                                "string")
        name = m.get("MetricName")
        if name is not None:
            if not METRIC_NAME_RE.match(name):
                problems.append(f"{m.where()}: MetricName must match "
                                f"{METRIC_NAME_RE.pattern}")
            if name in seen:
                problems.append(f"{m.where()}: MetricName used twice")
            seen.add(name)
        group = m.get("MetricGroup")
        if group is not None and not METRIC_GROUP_RE.match(group):
            problems.append(f"{m.where()}: MetricGroup {group!r} must be "
                            "';'-separated words")
        scale = m.get("ScaleUnit")
        if scale is not None:
            match = SCALE_UNIT_RE.match(scale)
            if not match or float(match.group(1)) <= 0:
                problems.append(f"{m.where()}: ScaleUnit {scale!r} is not a "
                                "positive number followed by a unit")
    return problems


def _metric_trees(cat: Catalog):
    """(metric, AST or None, parse error or None) for each metric."""
    for m in cat.metrics:
        text = m.get("MetricExpr")
        if text is None:
            continue
        try:
            yield m, parse_expr(text), None
        except ExprError as err:
            yield m, None, str(err)


def check_metric_syntax(cat: Catalog) -> List[str]:
    return [f"{m.where()}: MetricExpr does not parse: {err}"
            for m, _, err in _metric_trees(cat) if err]


def check_metric_events(cat: Catalog) -> List[str]:
    known = {e.get("EventName") for e in cat.table}
    problems = []
    for m, tree, _ in _metric_trees(cat):
        if tree is None:
            continue
        ids = expr_ids(tree)
        if not ids:
            problems.append(f"{m.where()}: MetricExpr uses no event")
        for name in ids:
            if name not in known:
                problems.append(f"{m.where()}: {name} is not a table "
                                "EventName")
    return problems


def sample_values(cat: Catalog) -> Dict[str, float]:
    """Distinct positive stand-in counts for every table event."""
    return {e.get("EventName"): float(1000 + 37 * i)
            for i, e in enumerate(cat.table)}


def needed_constraint(cat: Catalog, names: List[str]) -> Optional[str]:
    """The MetricConstraint a metric of the table events names needs on
    KNC's counters (see METRIC_CONSTRAINTS)."""
    counters = {e.get("EventName"): e.get("Counter") for e in cat.table}
    counter0 = sum(counters.get(n) == "0" for n in names)
    if len(names) > NUM_COUNTERS or counter0 > 1:
        return "NO_GROUP_EVENTS"
    return "NO_GROUP_EVENTS_NMI" if len(names) > 1 else None


def check_metric_constraints(cat: Catalog) -> List[str]:
    known = {e.get("EventName") for e in cat.table}
    problems = []
    for m, tree, _ in _metric_trees(cat):
        if tree is None or any(i not in known for i in expr_ids(tree)):
            continue
        got = m.get("MetricConstraint")
        want = needed_constraint(cat, expr_ids(tree))
        if got is not None and got not in METRIC_CONSTRAINTS:
            problems.append(f"{m.where()}: MetricConstraint {got!r} is not "
                            f"one of {', '.join(METRIC_CONSTRAINTS)}")
        elif got != want:
            problems.append(f"{m.where()}: MetricConstraint is {got!r}, its "
                            f"{len(expr_ids(tree))} event(s) on "
                            f"{NUM_COUNTERS} counters need {want!r}")
    return problems


def check_metric_values(cat: Catalog) -> List[str]:
    values, problems = sample_values(cat), []
    for m, tree, _ in _metric_trees(cat):
        if tree is None or any(i not in values for i in expr_ids(tree)):
            continue
        try:
            result = eval_expr(tree, values)
        except ExprError as err:
            problems.append(f"{m.where()}: does not evaluate: {err}")
            continue
        if not math.isfinite(result):
            problems.append(f"{m.where()}: evaluates to {result}")
    return problems


# (TAP case name, check).  validate() runs them all.
def check_hw_cache(cat: Catalog) -> List[str]:
    problems, seen = [], set()
    names = {e.get("EventName"): event_key(e) for e in cat.table}
    for e in cat.hw_cache:
        perf_name = e.get("PerfEvent")
        if sorted(e.data) not in (["EventName", "PerfEvent"],
                                  ["Invalid", "PerfEvent"]):
            problems.append(f"{e.where()}: wants PerfEvent and one of "
                            "EventName, Invalid")
            continue
        if perf_name in seen:
            problems.append(f"{e.where()}: {perf_name} listed twice")
        seen.add(perf_name)
        if hw_cache_ids(perf_name) is None:
            problems.append(f"{e.where()}: {perf_name!r} is not a perf "
                            "hw-cache event name")
            continue
        key = names.get(e.get("EventName")) if "EventName" in e.data else None
        if "EventName" in e.data and key is None:
            problems.append(f"{e.where()}: {e.get('EventName')} is not a "
                            "table event")
        want = UPSTREAM_HW_CACHE.get(perf_name, "absent")
        got = None if "Invalid" in e.data else (key[1], key[0]) if key else key
        if key is not None or "Invalid" in e.data:
            if want == "absent" or want != got:
                problems.append(f"{e.where()}: {perf_name} differs from the "
                                "upstream driver's map")
    for perf_name in UPSTREAM_HW_CACHE:
        if perf_name not in seen:
            problems.append(f"{HW_CACHE_FILE}: missing {perf_name} (upstream "
                            "driver's map)")
    return problems


CHECKS = [
    ("JSON files load as lists of objects", check_load),
    ("events have exactly the expected fields", check_event_fields),
    ("event names are well formed and unique", check_names),
    ("EventCode and UMask are bytes", check_codes),
    (f"the table has {NUM_TABLE_EVENTS} events", check_table_size),
    ("table (EventCode, UMask) pairs are unique", check_unique_encodings),
    ("Counter matches the counter-0-only list", check_counters),
    ("SampleAfterValue is a positive integer", check_periods),
    ("SampleAfterValue is the first prime above a round number",
     check_period_rule),
    (f"Unit is {UNIT}", check_unit),
    ("generic aliases follow the upstream map and match a table event",
     check_aliases),
    ("metrics have the expected fields", check_metric_fields),
    ("metric expressions parse", check_metric_syntax),
    ("metric expressions use table events only", check_metric_events),
    ("metric expressions evaluate to finite numbers", check_metric_values),
    ("MetricConstraint is what the metric's events need on two counters",
     check_metric_constraints),
    ("the hw-cache map names table events, as the upstream driver's",
     check_hw_cache),
]


def validate(cat: Catalog) -> List[str]:
    return [f"{title}: {p}" for title, check in CHECKS for p in check(cat)]


# -------------------------------------------------------------- rendering
#
# Rendering assumes validate() found no problem.

@dataclass(frozen=True)
class Event:
    name: str                # EventName as in the JSON
    code: int
    umask: int
    counter: str             # JSON "Counter"
    period: int
    topic: str
    file: str
    description: str         # PublicDescription
    target: Optional["Event"] = None   # the table event a generic alias names

    @property
    def sysfs(self) -> str:
        """Name of the sysfs alias file (perf lower-cases event names)."""
        return self.name.lower()

    @property
    def ident(self) -> str:
        return self.sysfs.replace("-", "_")

    @property
    def cntmask(self) -> int:
        return COUNTER_MASKS[self.counter]

    def sysfs_value(self) -> str:
        # Same format as the module: "event=0x%02x,umask=0x%02x,period=%u".
        return (f"event=0x{self.code:02x},umask=0x{self.umask:02x},"
                f"period={self.period}")


def _event(entry: Entry, target: Optional[Event] = None) -> Event:
    return Event(name=entry.get("EventName"),
                 code=parse_byte(entry.get("EventCode")),
                 umask=parse_byte(entry.get("UMask")),
                 counter=entry.get("Counter"),
                 period=int(entry.get("SampleAfterValue")),
                 topic=topic_of(entry.file), file=entry.file,
                 description=entry.get("PublicDescription"), target=target)


def table_events(cat: Catalog) -> List[Event]:
    """Table events in (umask, event code) order."""
    return sorted((_event(e) for e in cat.table),
                  key=lambda ev: (ev.umask, ev.code))


def alias_events(cat: Catalog) -> List[Event]:
    """Generic aliases in file order, each linked to its table event."""
    by_key = {(ev.umask, ev.code): ev for ev in table_events(cat)}
    return [_event(e, by_key[event_key(e)]) for e in cat.aliases]


def generic_table_events(cat: Catalog) -> List[Tuple[str, Event]]:
    """Upstream generic names that are table event names ("branches")."""
    by_name = {ev.sysfs: ev for ev in table_events(cat)}
    return [(name, by_name[name]) for name in UPSTREAM_GENERIC
            if name in by_name]


def source_label(cat: Catalog) -> str:
    """The events directory as written into generated files."""
    path = cat.events_dir.resolve()
    try:
        return path.relative_to(REPO_ROOT).as_posix()
    except ValueError:
        return path.as_posix()


def render_table(cat: Catalog) -> str:
    """knc_events.tbl: the module's tables as C definitions, which
    knc_logic.c includes once (and knc_model_test.c, the model's checks);
    knc_logic.h declares them."""
    events = table_events(cat)
    index = {ev.ident: i for i, ev in enumerate(events)}

    def desc(ev: Event, name: str) -> str:
        """ev's struct knc_event_desc initializer, under name."""
        return (f"\t{{ \"{name}\", 0x{ev.code:02x}, 0x{ev.umask:02x}, "
                f"0x{ev.cntmask:x}, {ev.period} }},")

    lines = [
        "/* SPDX-License-Identifier: GPL-2.0 */",
        "/*",
        f" * Generated by tools/knc/gen-events.py from {source_label(cat)};",
        " * do not edit. The definitions of what knc_logic.h declares.",
        " */",
        "",
        "/* { name, event, umask, cntmask (bit N: counter N), period } */",
        "const struct knc_event_desc knc_events[] = {",
    ]
    lines += [desc(ev, ev.ident) for ev in events]
    lines += [
        "};",
        "",
        "const unsigned int knc_num_events = ARRAY_SIZE(knc_events);",
        "",
        "/* perf's generic names for table events, as sysfs aliases */",
        "const struct knc_event_desc knc_aliases[] = {",
    ]
    lines += [desc(ev, ev.sysfs) + f"\t/* {ev.target.ident} */"
              for ev in alias_events(cat)]
    lines += [
        "};",
        "",
        "const unsigned int knc_num_aliases = ARRAY_SIZE(knc_aliases);",
        "",
        "/* PERF_TYPE_HARDWARE ids: knc_events[] index + 1; 0: KNC has no such event */",
        "const u8 knc_generic_map[KNC_GENERIC_IDS] = {",
    ]
    generic = [(ev.sysfs, ev.target) for ev in alias_events(cat)]
    generic += generic_table_events(cat)
    lines += [f"\t[{PERF_HW_IDS[name]}] = {index[target.ident] + 1},"
              f"\t/* {name}: {target.ident} */"
              for name, target in sorted(generic,
                                         key=lambda g: PERF_HW_IDS[g[0]])]
    lines += [
        "};",
        "",
        "/*",
        " * PERF_TYPE_HW_CACHE [cache][op][result]: knc_events[] index + 1; 0: KNC",
        " * cannot count it; -1: makes no sense",
        " */",
        "const s8 knc_hw_cache_map[KNC_HW_CACHE_IDS][KNC_HW_CACHE_OPS][KNC_HW_CACHE_RESULTS] = {",
    ]
    for e in sorted(cat.hw_cache,
                    key=lambda e: hw_cache_ids(e.get("PerfEvent"))):
        ids = "".join(f"[{i}]" for i in hw_cache_ids(e.get("PerfEvent")))
        name = e.get("PerfEvent")
        if "Invalid" in e.data:
            lines.append(f"\t{ids} = -1,\t/* {name} */")
        else:
            target = e.get("EventName").lower().replace("-", "_")
            lines.append(f"\t{ids} = {index[target] + 1},\t/* {name}: {target} */")
    lines.append("};")
    return "\n".join(lines) + "\n"


CARD_HEADER_PATH = "tools/knc/card/knc_events.h"


def render_card_header(cat: Catalog) -> str:
    """The header of tools/knc/card/: the table events, then the generic
    aliases, each with its PERF_TYPE_HARDWARE id (-1: none). It is kept in
    the tree: a card has no Python to generate it (tests/host/json.t checks
    it is current)."""
    generic = dict(generic_table_events(cat))
    rows = [(ev, PERF_HW_IDS[ev.sysfs] if ev.sysfs in generic else -1)
            for ev in table_events(cat)]
    rows += [(ev, PERF_HW_IDS[ev.sysfs]) for ev in alias_events(cat)]
    lines = [
        "/* SPDX-License-Identifier: GPL-2.0 */",
        "/*",
        f" * Generated by tools/knc/gen-events.py from {source_label(cat)};",
        f" * do not edit: python3 tools/knc/gen-events.py --card-header {CARD_HEADER_PATH}",
        " */",
        "#ifndef KNC_CARD_EVENTS_H",
        "#define KNC_CARD_EVENTS_H",
        "",
        "/*",
        " * { name, event, umask, counters (bit N: counter N),",
        " *   PERF_TYPE_HARDWARE id or -1 }",
        " */",
        "static const struct card_event card_events[] = {",
    ]
    lines += [f'\t{{ "{ev.sysfs}", 0x{ev.code:02x}, 0x{ev.umask:02x}, '
              f"0x{ev.cntmask:x}, {hw} }}," for ev, hw in rows]
    lines += [
        "};",
        "",
        "#define CARD_NUM_EVENTS (sizeof(card_events) / sizeof(card_events[0]))",
        "",
        "#endif",
    ]
    return "\n".join(lines) + "\n"


def render_sysfs(cat: Catalog) -> str:
    return "".join(f"{ev.sysfs}\t{ev.sysfs_value()}\n"
                   for ev in table_events(cat) + alias_events(cat))


def _rst_text(text: str) -> str:
    """Escape reStructuredText inline markup characters in plain text."""
    text = re.sub(r"([\\*`|])", r"\\\1", text)
    return re.sub(r"(\w)_(?=\W|$)", r"\1\\_", text)


def _topic_title(topic: str) -> str:
    """Section title: "vpu" -> "VPU", "virtual memory" -> "Virtual memory"."""
    return topic.upper() if len(topic) <= 3 else topic.capitalize()


def _rst_heading(title: str, char: str, overline: bool = False) -> List[str]:
    rule = char * len(title)
    return ([rule] if overline else []) + [title, rule, ""]


def _rst_table(widths: List[int], header: List[str],
               rows: List[List[str]]) -> List[str]:
    lines = [".. list-table::", "   :header-rows: 1",
             "   :widths: " + " ".join(map(str, widths)), ""]
    for row in [header] + rows:
        lines += [f"   {'*' if i == 0 else ' '} - {cell}"
                  for i, cell in enumerate(row)]
    return lines + [""]


def render_doc(cat: Catalog) -> str:
    src = source_label(cat)
    regen = f"python3 tools/knc/gen-events.py --doc {DOC_PATH}"
    events = table_events(cat)
    aliases = alias_events(cat)
    lines = [
        ".. SPDX-License-Identifier: GPL-2.0",
        "",
        f".. Generated by tools/knc/gen-events.py from {src}; do not edit.",
        "",
    ]
    lines += _rst_heading("Intel Xeon Phi (Knights Corner) PMU events", "=",
                          overline=True)
    lines += [
        "This page is generated by ``tools/knc/gen-events.py`` from the perf "
        f"pmu-events JSON files in ``{src}/``. Do not edit it: change the "
        "JSON and regenerate it with::",
        "",
        f"    {regen}",
        "",
        f"The {len(events)} events are those of table 1-6 of Intel's *Intel "
        "Xeon Phi Coprocessor (Knights Corner) Performance Monitoring Unit* "
        "(document 327357-001). The ``knc`` PMU module exports each one as "
        "a sysfs alias in ``/sys/bus/event_source/devices/knc/events/`` "
        "under its lower-case name, which perf accepts in any case, for "
        "example ``perf stat -e knc/l2_read_miss/``.",
        "",
        "*Code* and *UMask* are the event select and unit mask fields of "
        "IA32_PerfEvtSelX. *Period* is the default sampling period the "
        "alias carries (``perf record`` without ``-c`` or ``-F``): this "
        "project's choice, as Intel publishes no event data for Knights "
        "Corner. Each is the first prime above a round number, as the "
        "periods of Intel's other models are (2000003, 200003, 100003, "
        "20011, 2003), so that samples do not fall into step with a loop "
        "whose length is a round number; the round number follows how "
        "often the event can occur, estimated from what it counts, not "
        "measured on a KNC: 2000003 for events that can occur every "
        "cycle or instruction, 200003 and 100003 for memory accesses and "
        "L1 misses, 20011 and 10007 for rarer events such as L2 hits and "
        "misses, page walks, mispredictions and snoops, 2003 for the "
        "rarest (long page walks, code misses served by another L2 or "
        "memory), "
        "20000003 for ``VPU_ELEMENTS_ACTIVE`` (up to 16 a VPU "
        "instruction). *Counters* lists the counters that can count the "
        "event: an event with ``0`` counts on counter 0 only, so two such "
        "events are never scheduled together and perf multiplexes them.",
        "",
    ]
    topics: Dict[str, List[Event]] = {}
    for ev in events:
        topics.setdefault(ev.file, []).append(ev)
    sections = [(f, topics[f]) for f in sorted(topics)]
    if aliases:
        sections.append((aliases[0].file, aliases))
    for file, evs in sections:
        lines += _rst_heading(_topic_title(evs[0].topic), "=")
        count = f"{len(evs)} event{'s' if len(evs) != 1 else ''}"
        if evs[0].target:
            lines += [f"``{file}``, {count}: the generic events of the "
                      "upstream Linux driver, each an alias of a table "
                      "event."]
            lines += [f"``{name}`` needs no alias: it is the table event "
                      f"``{ev.name}``, which has the upstream encoding."
                      for name, ev in generic_table_events(cat)]
            lines += [""]
        else:
            lines += [f"``{file}``, {count}.", ""]
        lines += _rst_table(
            [26, 6, 6, 8, 9, 45],
            ["Event", "Code", "UMask", "Counters", "Period", "Description"],
            [[f"``{ev.name}``", f"0x{ev.code:02x}", f"0x{ev.umask:02x}",
              ev.counter, str(ev.period), _rst_text(ev.description)]
             for ev in evs])
    lines += _rst_heading("Metrics", "=")
    lines += [
        f"``{cat.metrics[0].file if cat.metrics else 'metrics.json'}``: "
        "derived metrics, for ``perf stat -M <name>``. A formula names "
        "table events; perf divides by zero as an error and prints no "
        "value then. *Unit* is the perf ScaleUnit (scale factor and unit); "
        "a metric without one prints as a plain number.",
        "",
        "*Grouping* is the perf MetricConstraint: how perf opens the "
        "metric's events. By default perf opens them as one group, "
        "scheduled all at once or not at all. The NMI watchdog's cycles "
        "event holds one of the two counters while "
        "``/proc/sys/kernel/nmi_watchdog`` is 1, so a group of two events "
        "would never count beside it: ``NO_GROUP_EVENTS_NMI`` opens them "
        "as a group with the watchdog off (counted at the same time) and "
        "each on its own with it on (perf warns \"Not grouping metric\" "
        "and the events take turns on the free counter: estimates). "
        "``NO_GROUP_EVENTS`` never groups them: more than two events, or "
        "two counter-0-only ones, never fit on the counters at once and "
        "always take turns. The check ``MetricConstraint is what the "
        "metric's events need on two counters`` of ``gen-events.py`` "
        "derives the constraint from the formula's events and their "
        "*Counters*.",
        "",
    ]
    lines += _rst_table(
        [20, 11, 28, 9, 12, 22],
        ["Metric", "Groups", "Formula", "Unit", "Grouping", "Description"],
        [[f"``{m.get('MetricName')}``",
          _rst_text(m.get("MetricGroup").replace(";", ", ")),
          f"``{m.get('MetricExpr')}``",
          f"``{m.get('ScaleUnit')}``" if m.get("ScaleUnit") else "none",
          f"``{m.get('MetricConstraint')}``"
          if m.get("MetricConstraint") else "group",
          _rst_text(m.get("PublicDescription") or m.get("BriefDescription"))]
         for m in cat.metrics])
    lines += _rst_heading("Generic hardware cache events", "=")
    lines += [
        f"``{HW_CACHE_FILE.as_posix()}``: the upstream driver's map of "
        "perf's ``PERF_TYPE_HW_CACHE`` events (``perf stat -e "
        "L1-dcache-load-misses``), which knc takes when no x86 core PMU "
        "exists. *Invalid* combinations give ``EINVAL``; the others, not "
        "listed, ``ENOENT`` (``<not supported>``).",
        "",
    ]
    lines += _rst_table(
        [28, 50],
        ["perf event", "Table event"],
        [[f"``{e.get('PerfEvent')}``",
          f"invalid: {e.get('Invalid')}" if "Invalid" in e.data
          else f"``{e.get('EventName')}``"]
         for e in sorted(cat.hw_cache,
                         key=lambda e: hw_cache_ids(e.get("PerfEvent")))])
    return "\n".join(lines).rstrip("\n") + "\n"


# ------------------------------------------------ perf's vendor events
#
# The same events and metrics as perf's own tables for KNC, laid out as
# Linux 6.12's tools/perf/pmu-events/arch/x86/<model>/ are (Intel's
# converter, create_perf_json.py): one file per topic, events sorted by
# name, keys in alphabetical order, EventCode as "0xXX", UMask as "0xN"
# and left out when 0, PublicDescription left out when it only repeats
# BriefDescription, a counter.json, and the metrics in <model>-metrics.json.
# They are for the core PMU, "cpu" on a KNC (arch/x86/events/intel/knc.c):
# no Unit, jevents.py's default_core. The generic aliases are not among
# them: that PMU has those names already, as sysfs events and as perf's
# legacy hardware events. Nor is an event whose name is one of those
# legacy events' (BRANCHES: "branches", event 0x12 on Linux's driver as
# on the card): perf has them for every core PMU
# (pmu-events/arch/common/common/legacy-hardware.json in 7.3), and a
# model's event of the same name makes perf 7.3's perf list count it twice
# and crash. A metric's BRANCHES is perf's "branches" then.
# jevents.py takes any *metrics.json for metrics.

PERF_MODEL = "knightscorner"
PERF_METRICS_FILE = "knc-metrics.json"
PERF_COUNTER_FILE = "counter.json"
# perf's x86 get_cpuid_str() is "GenuineIntel-<family>-<MODEL>-<STEPPING>"
# (family in decimal, model and stepping in hex); the row, a regular
# expression, leaves the stepping out.
PERF_MAPFILE_ROW = f"GenuineIntel-11-1,v1,{PERF_MODEL},core"
# perf's legacy hardware event names (the common table of every core PMU).
PERF_LEGACY_NAMES = frozenset({
    "cpu-cycles", "cycles", "instructions", "cache-references",
    "cache-misses", "branches", "branch-instructions", "branch-misses",
    "bus-cycles", "stalled-cycles-frontend", "idle-cycles-frontend",
    "stalled-cycles-backend", "idle-cycles-backend", "ref-cycles",
})


def _perf_json(items: List[dict]) -> str:
    return json.dumps(items, indent=4, ensure_ascii=False) + "\n"


def _perf_event(e: Entry) -> dict:
    code, umask = parse_byte(e.get("EventCode")), parse_byte(e.get("UMask"))
    out = {key: e.get(key) for key in EVENT_FIELDS
           if key not in ("Unit", "EventCode", "UMask")}
    out["EventCode"] = f"0x{code:02X}"
    if umask:
        out["UMask"] = f"0x{umask:x}"
    if out["PublicDescription"] == out["BriefDescription"]:
        del out["PublicDescription"]
    return dict(sorted(out.items()))


def render_perf_events(cat: Catalog) -> Dict[str, str]:
    """File name -> contents of perf's model directory."""
    files: Dict[str, List[dict]] = {}
    for e in sorted(cat.table, key=lambda e: e.get("EventName")):
        if e.get("EventName").lower() not in PERF_LEGACY_NAMES:
            files.setdefault(e.file, []).append(_perf_event(e))
    out = {name: _perf_json(events) for name, events in files.items()}
    counters = {c for e in cat.table for c in e.get("Counter").split(",")}
    out[PERF_COUNTER_FILE] = _perf_json([{
        "Unit": "core", "CountersNumFixed": "0",
        "CountersNumGeneric": str(len(counters))}])
    out[PERF_METRICS_FILE] = _perf_json(
        [dict(sorted(m.data.items()))
         for m in sorted(cat.metrics, key=lambda m: m.get("MetricName"))])
    return out


def write_perf_events(cat: Catalog, model_dir: str) -> None:
    """Write the model directory, in place of any JSON already there."""
    path = Path(model_dir)
    path.mkdir(parents=True, exist_ok=True)
    for old in path.glob("*.json"):
        old.unlink()
    for name, text in render_perf_events(cat).items():
        write_output(str(path / name), text)


def add_perf_mapfile_row(csv_path: str) -> None:
    """Insert PERF_MAPFILE_ROW among the GenuineIntel rows, which are in
    the order of their model directory's name."""
    with open(csv_path, encoding="utf-8") as f:
        rows = f.read().splitlines()
    if PERF_MAPFILE_ROW in rows:
        return
    at = next((i for i, row in enumerate(rows)
               if row.startswith("GenuineIntel-")
               and row.split(",")[2] > PERF_MODEL), None)
    if at is None:
        at = max(i for i, row in enumerate(rows)
                 if row.startswith("GenuineIntel-")) + 1
    rows.insert(at, PERF_MAPFILE_ROW)
    write_output(csv_path, "\n".join(rows) + "\n")


# ------------------------------------------------------------------- main

def write_output(path: str, text: str) -> None:
    if path == "-":
        sys.stdout.write(text)
        return
    with open(path, "w", encoding="utf-8", newline="\n") as f:
        f.write(text)


def main(argv: Optional[List[str]] = None) -> int:
    ap = argparse.ArgumentParser(
        description="Validate the knc pmu-events JSON and generate the "
        "module's event table, its documentation and the expected sysfs "
        "aliases from it. Outputs are written only if validation passes; "
        "OUT may be '-' for standard output.")
    ap.add_argument("--events-dir", type=Path, default=DEFAULT_EVENTS_DIR,
                    metavar="DIR", help="directory of the JSON files "
                    "(default: %(default)s)")
    ap.add_argument("--check", action="store_true",
                    help="validate the JSON; exit 1 with one line per problem")
    ap.add_argument("--table", metavar="OUT",
                    help="write the module's event table, generic names and cache map (C arrays)")
    ap.add_argument("--doc", metavar="OUT",
                    help=f"write the reStructuredText event list ({DOC_PATH})")
    ap.add_argument("--expect-sysfs", action="store_true",
                    help="print 'name<TAB>event=0x..,umask=0x..,period=N' "
                    "for every sysfs alias file the module must provide")
    ap.add_argument("--perf-events", metavar="DIR",
                    help="write perf's vendor events for KNC (Linux 6.12 "
                    "layout, core PMU) into the model directory DIR, "
                    f"tools/perf/pmu-events/arch/x86/{PERF_MODEL} of a "
                    "perf tree")
    ap.add_argument("--perf-mapfile", metavar="CSV",
                    help="add the KNC row to a perf tree's "
                    "arch/x86/mapfile.csv, in place")
    ap.add_argument("--card-header", metavar="OUT",
                    help="write the event list of the card's programs "
                    f"({CARD_HEADER_PATH})")
    ap.add_argument("--list-table", action="store_true",
                    help="print the sysfs names of the table events (not "
                    "the generic aliases), one per line")
    ap.add_argument("--list-counters", action="store_true",
                    help="print 'name<TAB>counters' for the table events: "
                    "their sysfs names and the JSON Counter ('0' or '0,1')")
    args = ap.parse_args(argv)
    if not (args.check or args.table or args.doc or args.expect_sysfs or
            args.perf_events or args.perf_mapfile or args.list_table or
            args.list_counters or args.card_header):
        ap.error("nothing to do: give --check, --table, --doc, "
                 "--expect-sysfs, --perf-events, --perf-mapfile, "
                 "--card-header, --list-table or --list-counters")

    cat = load_catalog(args.events_dir)
    problems = validate(cat)
    for problem in problems:
        print(f"gen-events: error: {problem}", file=sys.stderr)
    if problems:
        print(f"gen-events: {len(problems)} problem(s) in {args.events_dir}",
              file=sys.stderr)
        return 1
    if args.check:
        print(f"gen-events: {source_label(cat)}: {len(cat.table)} table "
              f"events, {len(cat.aliases)} generic aliases, "
              f"{len(cat.metrics)} metrics: OK", file=sys.stderr)
    if args.table:
        write_output(args.table, render_table(cat))
    if args.doc:
        write_output(args.doc, render_doc(cat))
    if args.expect_sysfs:
        sys.stdout.write(render_sysfs(cat))
    if args.perf_events:
        write_perf_events(cat, args.perf_events)
    if args.perf_mapfile:
        add_perf_mapfile_row(args.perf_mapfile)
    if args.card_header:
        write_output(args.card_header, render_card_header(cat))
    if args.list_table:
        sys.stdout.write("".join(f"{ev.sysfs}\n" for ev in table_events(cat)))
    if args.list_counters:
        sys.stdout.write("".join(f"{ev.sysfs}\t{ev.counter}\n"
                                 for ev in table_events(cat)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
