#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""The admin guide's error messages are the ones the tools print.

Documentation/admin-guide/perf/knc.rst, "Errors and what to do", quotes
what a user sees: each term is ``COMMAND``: ``MESSAGE`` [/ ``MESSAGE``]
[(perf V: ``MESSAGE`` [/ ``MESSAGE``])...]. Each quoted message is
checked against the program that prints it, as shipped:

* perf: the strings of perf 6.12 (Debian's linux-perf from
  bookworm-backports, /usr/bin/perf) and of perf 7.3 (make perf:
  build/perf/perf), and the string literals of perf 6.1's source (Debian
  12's own linux-perf: linux-source-6.1's tools/perf); a message given for
  perf V alone is checked there, and the one beside it for the other
  versions only;
* insmod, rmmod: the strings of kmod (/usr/bin/kmod);
* dmesg: the kernel's source: the debug kernel's tree (Linux 7.3, make
  debug-kernel), or else linux-source-6.1's tarball.

A message that is an errno's text is the C library's (strerror). Any other
is split into its literal parts at "...", at the placeholders A, B and N,
at the names the programs fill in (knc, knc_sim, knc_pmu), and at an errno
and its text ("22 (Invalid argument)": the C
library's strerror for that number); each literal part must be in the
program. Prints TAP.
"""
import errno
import os
import re
import subprocess
import sys
import tarfile

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..")
GUIDE = os.path.join(ROOT, "Documentation/admin-guide/perf/knc.rst")
PERF = {"6.12": "/usr/bin/perf", "7.3": os.path.join(ROOT, "build/perf/perf")}
# perf 6.1 by its source, in the tarball
PERF_SOURCE = "6.1"
VERSIONS = ["6.1", "6.12", "7.3"]
KMOD = "/usr/bin/kmod"
TARBALL = "/usr/src/linux-source-6.1.tar.xz"
TREE = os.path.join(ROOT, "build/debug/linux")
KERNEL_FILE = "kernel/events/core.c"

n = 0
bad = 0


def result(ok, text, diag=""):
    global n, bad
    n += 1
    bad += not ok
    print(f"{'ok' if ok else 'not ok'} {n} - {text}")
    for line in diag.splitlines():
        print(f"# {line}")


def strings(path):
    out = subprocess.run(["strings", "-n", "6", path], capture_output=True,
                         text=True, check=True).stdout
    return out


def c_strings(text):
    """The string literals of C source text, adjacent ones joined, a line each"""
    out, last_end, cur = [], None, ""
    for m in re.finditer(r'"((?:[^"\\\n]|\\.)*)"', text):
        if last_end is not None and text[last_end:m.start()].strip() == "":
            cur += m.group(1)
        else:
            out.append(cur)
            cur = m.group(1)
        last_end = m.end()
    out.append(cur)
    return "\n".join(out)


def tarball_sources():
    """The string literals of the tarball's KERNEL_FILE and of its perf's
    sources (tools/perf), from its plain copy (tools/knc/plain-tar)"""
    plain = subprocess.run([os.path.join(ROOT, "tools/knc/plain-tar"), TARBALL],
                           capture_output=True, text=True, check=True).stdout.strip()
    kernel, perf = None, []
    with tarfile.open(plain) as tf:
        for m in tf:
            name = m.name.split("/", 1)[-1]
            if not m.isfile() or not (name == KERNEL_FILE or name.startswith("tools/perf/")
                                      and name.endswith((".c", ".h", ".y", ".l"))):
                continue
            text = c_strings(tf.extractfile(m).read().decode("utf-8", "replace"))
            if name == KERNEL_FILE:
                kernel = text
            else:
                perf.append(text)
    if kernel is None or not perf:
        raise FileNotFoundError(f"{KERNEL_FILE} or tools/perf in {TARBALL}")
    return kernel, "\n".join(perf)


def kernel_source(from_tarball):
    """(where, string literals) of KERNEL_FILE: the debug kernel's tree's,
    or else the tarball's"""
    if os.path.exists(os.path.join(TREE, KERNEL_FILE)):
        with open(os.path.join(TREE, KERNEL_FILE), encoding="utf-8") as f:
            return "the debug kernel's " + KERNEL_FILE, c_strings(f.read())
    return "Linux 6.1's " + KERNEL_FILE, from_tarball


def parts(msg):
    """The literal parts of msg, and its errno texts [(number, text)]"""
    errs = [(int(num), text) for num, text in re.findall(r"\b(\d+) \(([A-Z][a-z ]+)\)", msg)]
    msg = re.sub(r"\b\d+ \([A-Z][a-z ]+\)", "\0", msg)
    # the PMU's and the modules' names: programs print them with %s
    msg = re.sub(r"\.\.\.|\b[ABN]\b|\bknc(_sim|_pmu)?\b", "\0", msg)
    return [p.strip() for p in msg.split("\0") if len(p.strip()) >= 4], errs


def terms():
    """(command, [(message, perf versions)]) of the guide's error list"""
    text = open(GUIDE, encoding="utf-8").read()
    # the section's text, up to the next heading (a line underlined)
    section = text.split("Errors and what to do\n", 1)[1].split("\n", 1)[1]
    section = re.split(r"\n[^\n]+\n[-=~]{3,}\n", section, maxsplit=1)[0]
    for line in section.splitlines():
        m = re.match(r"^(?:``([^`]+)``(?: \([^)]*\))?|(dmesg)): (``.*)$", line)
        if not m:
            continue
        cmd, rest = (m.group(1) or m.group(2)).split()[0], m.group(3)
        # (perf V: ``MESSAGE`` [/ ``MESSAGE``...])
        note = r"\(perf (\d+\.\d+): ((?:``.+?``|[^`()])*)\)"
        notes = [(v, q) for v, text in re.findall(note, rest) for q in re.findall(r"``(.+?)``", text)]
        rest = re.sub(note + r"|\(or ``[^`]+``\)", "", rest)
        noted = {v for v, _ in notes}
        msgs = [(q, [v for v in VERSIONS if v not in noted]) for q in re.findall(r"``(.+?)``", rest)
                if not re.fullmatch(r"E[A-Z]+", q)]
        msgs += [(q, [v]) for v, q in notes]
        yield cmd, msgs


def main():
    print("TAP version 13")
    texts = {}
    for v, path in PERF.items():
        if os.path.exists(path):
            texts["perf " + v] = strings(path)
    if os.path.exists(KMOD):
        texts["kmod"] = strings(KMOD)
    kernel = None
    if os.path.exists(TARBALL):
        kernel, texts["perf " + PERF_SOURCE] = tarball_sources()
    kernel_where = "the kernel's " + KERNEL_FILE
    if kernel is not None or os.path.exists(os.path.join(TREE, KERNEL_FILE)):
        kernel_where, texts[kernel_where] = kernel_source(kernel)
    found = list(terms())
    result(len(found) >= 8, f"the guide's error list is read ({len(found)} terms)")
    for cmd, msgs in found:
        for msg, versions in msgs:
            if cmd == "perf":
                where = ["perf " + v for v in versions]
            elif cmd in ("insmod", "rmmod", "modprobe"):
                where = ["kmod"]
            elif cmd == "dmesg":
                where = [kernel_where]
            else:
                where = []
            if msg in {os.strerror(e) for e in errno.errorcode}:
                result(True, f"{cmd}: '{msg}' is an errno's text (strerror)")
                continue
            lits, errs = parts(msg)
            diag = []
            for num, text in errs:
                if os.strerror(num) != text:
                    diag.append(f"errno {num} is '{os.strerror(num)}', not '{text}'")
            if not where:
                diag.append(f"no program known for '{cmd}'")
            for w in where:
                if w not in texts:
                    diag.append(f"{w} is missing (make perf; apt-get install linux-perf kmod linux-source-6.1)")
                    continue
                for lit in lits:
                    if lit not in texts[w]:
                        diag.append(f"{w} does not have '{lit}'")
            result(not diag, f"{cmd}: '{msg}' is what {' and '.join(where) or '?'} print(s)",
                   "\n".join(diag))
    print(f"1..{n}")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
