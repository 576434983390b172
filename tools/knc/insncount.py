# SPDX-License-Identifier: GPL-2.0
# gdb -batch -x tools/knc/insncount.py, run by tools/knc/insncount: attach
# to QEMU's gdbstub, and for each FUNC@CPU[:N] of $INSN_FUNCS stop at
# FUNC's entry on that vCPU and single-step it to its return, until
# $INSN_HITS calls ran more than N instructions (default 0: any call; a
# hook every task's switch runs is short for the tasks without events).
# Writes one JSON line per call to $INSN_OUT: the function, the vCPU, the
# instructions executed (callees included) and their addresses.
# QEMU single-steps with interrupts and timers held off, so a count is
# the function's own path, not what an interrupt adds.
import json
import os

import gdb

syms = {}
with open(os.environ["INSN_SYMS"]) as f:
    for line in f:
        addr, name = line.split()[:2]
        syms.setdefault(name, int(addr, 16))
hits = int(os.environ.get("INSN_HITS", "5"))
out = open(os.environ["INSN_OUT"], "w")


def reg(name):
    return int(gdb.parse_and_eval("$" + name)) & (2**64 - 1)


gdb.execute("set pagination off")
gdb.execute("set confirm off")
gdb.execute("set architecture i386:x86-64")
gdb.execute("target remote localhost:" + os.environ["INSN_PORT"])
for spec in os.environ["INSN_FUNCS"].split(","):
    fn, cpu = spec.split("@")
    cpu, _, longer = cpu.partition(":")
    longer = int(longer or 0)
    tries = 0
    if fn not in syms:
        raise gdb.GdbError("no symbol " + fn)
    bp = gdb.Breakpoint("*%#x" % syms[fn], internal=True)
    got = 0
    while got < hits:
        gdb.execute("set scheduler-locking off")
        gdb.execute("continue", to_string=True)
        if gdb.selected_thread().num != int(cpu) + 1:
            continue
        # Step this vCPU alone until the return to the caller.
        bp.enabled = False
        gdb.execute("set scheduler-locking on")
        rsp = reg("rsp")
        ret = int.from_bytes(bytes(gdb.selected_inferior().read_memory(rsp, 8)), "little")
        pcs = [reg("rip")]
        while len(pcs) < 100000:
            gdb.execute("stepi", to_string=True)
            pc = reg("rip")
            if pc == ret and reg("rsp") == rsp + 8:
                break
            pcs.append(pc)
        bp.enabled = True
        tries += 1
        if len(pcs) <= longer:
            if tries > 50 * hits:
                raise gdb.GdbError("%s: no call longer than %d" % (spec, longer))
            continue
        out.write(json.dumps({"fn": fn, "cpu": int(cpu), "n": len(pcs), "pcs": pcs}) + "\n")
        out.flush()
        got += 1
    bp.delete()
gdb.execute("set scheduler-locking off")
gdb.execute("detach")
