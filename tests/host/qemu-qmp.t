#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Host test (TAP version 13) of the QEMU model's QMP commands.

The model's monitor commands are QMP commands, unstable and x- named as
QEMU's test and debugging commands are (x-knc-pmu-inject,
x-knc-pmu-set-real, x-query-knc-pmu), HMP's calling them. This
drives build/qemu's QEMU as a test harness would, without a guest kernel:
one core of two threads with knc-pmu=on runs SeaBIOS (ring 0) for a moment
and stops; then injections queue (none arrives: the vCPUs stay stopped),
the errors of each command are checked, HMP's forms are checked against
QMP's answers, and migration is refused by the model's blocker. A machine
without the model has no PMU to show, and a CPU whose CPUID is not a
Knights Corner's (GenuineIntel, family 11, model 1) is refused the model.
"""

import importlib.machinery
import importlib.util
import json
import os
import subprocess
import sys
import tempfile
import time

QEMU = "build/qemu/qemu-system-x86_64"
n = 0


def result(ok, name, detail=""):
    global n
    n += 1
    print(("ok" if ok else "not ok") + " %d - %s" % (n, name))
    if not ok and detail:
        for line in str(detail).splitlines():
            print("# " + line)


# The relay's QMP client (tools/knc/knc-vm-relay), which knc-vm's guests
# already drive the model through.
_relay = importlib.util.module_from_spec(importlib.util.spec_from_loader(
    "knc_vm_relay", importlib.machinery.SourceFileLoader(
        "knc_vm_relay", "tools/knc/knc-vm-relay")))
_relay.__loader__.exec_module(_relay)


class QMP(_relay.QMP):
    def __init__(self, path):
        super().__init__(_relay.connect(path, time.monotonic() + 60))

    def hmp(self, line):
        return self.call("human-monitor-command",
                         **{"command-line": line}).get("return", "")


def start(tmp, cpu):
    sock = os.path.join(tmp, "qmp-%d.sock" % n)
    proc = subprocess.Popen(
        [QEMU, "-S", "-nodefaults", "-display", "none", "-net", "none",
         "-L", "/usr/share/seabios", "-L", "/usr/share/qemu",
         "-accel", "tcg", "-cpu", cpu, "-smp", "2,threads=2", "-m", "64",
         "-qmp", "unix:%s,server=on,wait=off" % sock],
        stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    return proc, QMP(sock)


def error_of(reply):
    return reply.get("error", {}).get("desc", "") if "error" in reply else None


def model_cases(q):
    # SeaBIOS runs in ring 0 for a moment
    q.call("cont")
    time.sleep(0.5)
    q.call("stop")
    info = q.call("x-query-knc-pmu").get("return")
    result(isinstance(info, list) and [p["cpu-index"] for p in info] == [0, 1],
           "x-query-knc-pmu lists both vCPUs", info)
    if not isinstance(info, list) or len(info) != 2:
        return
    p0, p1 = info
    result(p0["siblings"] == [1] and p1["siblings"] == [0],
           "each vCPU's sibling is the other thread of the core", info)
    result(all(p["counters"] == [0, 0] and p["event-selects"] == [0, 0] and
               p["global-status"] == 0 and p["global-ctrl"] == 0 and
               len(p["rdmsr"]) == 16 and len(p["wrmsr"]) == 16 and
               p["real"] and p["pending"] == 0 and p["pmis"] == 0
               for p in info),
           "the registers are at reset, nothing pending, real execution on",
           info)
    result(p0["kernel-instructions"] > 0 and p0["user-instructions"] == 0,
           "SeaBIOS's instructions counted in ring 0 only", p0)

    r = q.call("x-knc-pmu-inject", **{"cpu-index": 0, "event": 0xcb,
                                      "count": 1000})
    r2 = q.call("x-knc-pmu-inject", **{"cpu-index": 0, "event": 0x03,
                                       "count": 12, "ring": "kernel",
                                       "per-cycle": 3})
    info = q.call("x-query-knc-pmu")["return"]
    result(r.get("return") == {} and r2.get("return") == {} and
           info[0]["pending"] == 2 and info[1]["pending"] == 0,
           "x-knc-pmu-inject queues on the vCPU named, not on its sibling",
           [r, r2, info])

    for args, want in (
            ({"cpu-index": 7, "event": 1, "count": 1}, "no CPU 7"),
            ({"cpu-index": 0, "event": 1, "count": 0},
             "count must be positive"),
            ({"cpu-index": 0, "event": 1, "count": 1, "per-cycle": 0},
             "per-cycle must be"),
            ({"cpu-index": 0, "event": 0x10000, "count": 1}, "event"),
            ({"cpu-index": 0, "event": 1, "count": 1, "ring": "sideways"},
             "sideways")):
        e = error_of(q.call("x-knc-pmu-inject", **args))
        result(e is not None and want in e,
               "x-knc-pmu-inject %s fails: %s" % (json.dumps(args), want), e)

    replies = [q.call("x-knc-pmu-inject", **{"cpu-index": 0, "event": 0xcb,
                                             "count": 1}) for _ in range(6)]
    e = error_of(q.call("x-knc-pmu-inject", **{"cpu-index": 0, "event": 0xcb,
                                               "count": 1}))
    result(all(r.get("return") == {} for r in replies) and e is not None and
           "8 injections pending" in e,
           "a ninth injection waiting is refused", [replies, e])

    out = q.hmp("info knc-pmu")
    info = q.call("x-query-knc-pmu")["return"]
    want = ["cpu %d: ctr0 0x0 ctr1 0x0 evtsel0 0x0 evtsel1 0x0 spflt 0x0 "
            "status 0x0 ctrl 0x0 lvtpc 0x%x" % (p["cpu-index"], p["lvtpc"])
            for p in info]
    want += ["cpu %d: insn kernel %d user 0 unhalted_ns kernel %d user 0 "
             "pending %d siblings %d" % (p["cpu-index"],
                                         p["kernel-instructions"],
                                         p["kernel-unhalted-ns"],
                                         p["pending"], p["siblings"][0])
             for p in info]
    lines = out.replace("\r\n", "\n").splitlines()
    result(all(w in lines for w in want) and
           sum(l.startswith("cpu 0: access rdPerfCntr0 0 ") for l in lines) == 1,
           "HMP's info knc-pmu shows what x-query-knc-pmu returns",
           "\n".join(["want:"] + want + ["have:"] + lines))

    out = q.hmp("knc-pmu-inject 0 203 10 sideways")
    result(out.startswith("Error: mode must be user, kernel or any"),
           "HMP's knc-pmu-inject reports a bad ring as an error", out)
    out = q.hmp("knc-pmu-inject 1 203 10 kernel 2")
    pend = q.call("x-query-knc-pmu")["return"][1]["pending"]
    result(out == "" and pend == 1, "HMP's knc-pmu-inject queues through QMP",
           "%r, pending %d" % (out, pend))

    r = q.call("x-knc-pmu-set-real", enable=False)
    off = [p["real"] for p in q.call("x-query-knc-pmu")["return"]]
    hmp_off = q.hmp("info knc-pmu").count(" real off")
    q.hmp("knc-pmu-real on")
    on = [p["real"] for p in q.call("x-query-knc-pmu")["return"]]
    result(r.get("return") == {} and off == [False, False] and
           hmp_off == 2 and on == [True, True],
           "x-knc-pmu-set-real turns real execution off and HMP's on, on every vCPU",
           [r, off, hmp_off, on])

    e = error_of(q.call("migrate", uri="exec:cat >/dev/null"))
    result(e is not None and "KNC PMU model" in e,
           "migration is refused: the model's blocker says why", e)


def schema_cases(q):
    schema = q.call("query-qmp-schema").get("return", [])
    cmds = {e["name"]: e.get("features", []) for e in schema
            if e.get("meta-type") == "command"}
    names = ("x-knc-pmu-inject", "x-knc-pmu-set-real", "x-query-knc-pmu")
    result(all("unstable" in cmds.get(c, []) for c in names) and
           not any(c[2:] in cmds for c in names),
           "the test-only commands are x- named and carry feature unstable",
           {c: cmds.get(c) for c in names})


def refused(cpu, want):
    """QEMU refuses to start with -cpu CPU, saying WANT"""
    proc = subprocess.Popen(
        [QEMU, "-S", "-nodefaults", "-display", "none", "-net", "none",
         "-L", "/usr/share/seabios", "-L", "/usr/share/qemu",
         "-accel", "tcg", "-cpu", cpu, "-m", "64"],
        stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    try:
        err = proc.communicate(timeout=30)[1].decode(errors="replace")
    except subprocess.TimeoutExpired:
        proc.kill()
        err = "QEMU started (-S) instead: " + \
            proc.communicate()[1].decode(errors="replace")
    result(proc.returncode not in (0, None) and want in err,
           "-cpu %s is refused: %s" % (cpu, want), err)


def plain_cases(q):
    info = q.call("x-query-knc-pmu")
    e = error_of(q.call("x-knc-pmu-set-real", enable=False))
    e2 = error_of(q.call("x-knc-pmu-inject", **{"cpu-index": 0, "event": 1,
                                                "count": 1}))
    result(info.get("return") == [] and e is not None and
           "no CPU has a KNC PMU" in e and e2 is not None and
           "has no KNC PMU" in e2,
           "without knc-pmu=on: no PMU listed, set-real and inject fail",
           [info, e, e2])


def main():
    print("TAP version 13")
    if not os.access(QEMU, os.X_OK):
        result(False, "the model's QEMU is built", "%s is missing (make qemu)"
               % QEMU)
        print("1..%d" % n)
        return 1
    with tempfile.TemporaryDirectory() as tmp:
        knc = "max,vendor=GenuineIntel,family=11,model=1,stepping=0"
        for cpu in ("max,knc-pmu=on", "max,vendor=GenuineIntel,knc-pmu=on",
                    "max,vendor=GenuineIntel,family=6,model=87,knc-pmu=on",
                    "max,vendor=AuthenticAMD,family=11,model=1,knc-pmu=on"):
            refused(cpu, "knc-pmu=on needs a Knights Corner CPU")
        for cpu, cases in ((knc + ",knc-pmu=on", model_cases),
                           (knc + ",knc-pmu=on", schema_cases),
                           ("max,vendor=GenuineIntel", plain_cases)):
            proc, q = start(tmp, cpu)
            try:
                cases(q)
            finally:
                q.call("quit")
                try:
                    proc.wait(timeout=30)
                except subprocess.TimeoutExpired:
                    proc.kill()
                    proc.wait()
            err = proc.stderr.read().decode(errors="replace")
            result(proc.returncode == 0,
                   "QEMU (-cpu %s) quits cleanly" % cpu, err)
    print("1..%d" % n)
    return 0


if __name__ == "__main__":
    sys.exit(main())
