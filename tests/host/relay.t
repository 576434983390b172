#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Host test (TAP version 13) of tools/knc/knc-vm-relay, without QEMU.

The test plays both of the relay's peers: QEMU's QMP socket (a fake server
that sends its greeting, answers qmp_capabilities and human-monitor-command,
and puts async events and split writes in the way) and the unix socket behind
the guest's /dev/ttyS1, on which it sends "TAG COMMAND" lines the way qmon
does, in pieces and several at once. The sockets appear only after the relay
started, as when knc-vm starts it beside QEMU.
"""

import json
import os
import socket
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
RELAY = ROOT / "tools" / "knc" / "knc-vm-relay"
TIMEOUT = 10

# HMP command line -> the fake QEMU's answer
ANSWERS = {
    "info status": {"return": "VM status: running\r\n"},
    "info two": {"return": "line one\r\nline two"},
    "info nothing": {"return": ""},
    "knc-pmu-inject 9 0x10cb 1 user 1": {
        "return": "Error: CPU 9 has no KNC PMU (knc-pmu=on)\r\n"},
    "nosuchcmd": {"return": "unknown command: 'nosuchcmd'\r\n"},
    "info status extra": {"return": "Try \"help info\" for more information\r\n"},
    "qmp-error": {"error": {"class": "GenericError", "desc": "it broke"}},
}


class FakeQMP(threading.Thread):
    """QEMU's QMP side: records the commands it was given."""

    def __init__(self, path):
        super().__init__(daemon=True)
        self.path = path
        self.commands = []
        self.listener = None
        self.conn = None

    def listen(self):
        self.listener = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        self.listener.bind(self.path)
        self.listener.listen(1)
        self.start()

    def send(self, obj, split=False):
        data = json.dumps(obj).encode() + b"\r\n"
        if split:       # a reply in three writes
            for part in (data[:5], data[5:-3], data[-3:]):
                self.conn.sendall(part)
                time.sleep(0.02)
        else:
            self.conn.sendall(data)

    def run(self):
        self.conn, _ = self.listener.accept()
        self.send({"QMP": {"version": {}, "capabilities": ["oob"]}})
        buf = b""
        while True:
            data = self.conn.recv(4096)
            if not data:
                return
            buf += data
            while b"\n" in buf:
                line, buf = buf.split(b"\n", 1)
                msg = json.loads(line)
                self.commands.append(msg)
                if msg["execute"] == "qmp_capabilities":
                    self.send({"return": {}})
                    continue
                cmd = msg["arguments"]["command-line"]
                # an async event before the answer, as QEMU may send
                self.send({"event": "RTC_CHANGE", "data": {"offset": 0},
                           "timestamp": {"seconds": 0, "microseconds": 0}})
                self.send(ANSWERS.get(cmd, {"return": "?\r\n"}), split=True)

    def close(self):
        for s in (self.conn, self.listener):
            if s:
                s.close()


class Guest:
    """The guest's end of the serial port, as qmon uses it."""

    def __init__(self, listener):
        listener.settimeout(TIMEOUT)
        self.sock, _ = listener.accept()
        self.sock.settimeout(TIMEOUT)
        self.buf = b""

    def send(self, data, pieces=1):
        step = max(1, len(data) // pieces)
        for i in range(0, len(data), step):
            self.sock.sendall(data[i:i + step])
            time.sleep(0.02)

    def answer(self, tag):
        """The output lines before "TAG END STATUS", and STATUS."""
        lines = []
        while True:
            while b"\n" not in self.buf:
                data = self.sock.recv(4096)
                if not data:
                    raise EOFError(f"the relay closed the port before {tag} END")
                self.buf += data
            line, self.buf = self.buf.split(b"\n", 1)
            line = line.decode()
            if line.startswith(f"{tag} END "):
                return lines, int(line.split()[2])
            lines.append(line)


def main() -> int:
    results = []

    def check(title, problems):
        results.append((title, problems))

    tmp = tempfile.mkdtemp(prefix="relay-t.")
    serial_path, qmp_path = os.path.join(tmp, "serial"), os.path.join(tmp, "qmp")
    relay = subprocess.Popen([sys.executable, str(RELAY), serial_path, qmp_path],
                             stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    qmp = FakeQMP(qmp_path)
    try:
        # QEMU creates its sockets a moment after the relay started
        time.sleep(0.3)
        serial = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        serial.bind(serial_path)
        serial.listen(1)
        qmp.listen()
        guest = Guest(serial)

        guest.send(b"t1 info status\n", pieces=4)
        out, status = guest.answer("t1")
        problems = []
        if not qmp.commands or qmp.commands[0] != {"execute": "qmp_capabilities"}:
            problems.append(f"first QMP command: {qmp.commands[:1]}")
        if (out, status) != (["VM status: running"], 0):
            problems.append(f"got {out} status {status}")
        check("handshake, then an HMP command sent in pieces: output, END 0",
              problems)

        want = {"execute": "human-monitor-command",
                "arguments": {"command-line": "info status"}}
        check("the command goes to QMP as human-monitor-command",
              [] if want in qmp.commands else [f"QMP got {qmp.commands}"])

        # two requests in one write, a \r\n line end, an unterminated answer
        guest.send(b"t2 info two\r\nt3 info nothing\n")
        out2, st2 = guest.answer("t2")
        out3, st3 = guest.answer("t3")
        problems = []
        if (out2, st2) != (["line one", "line two"], 0):
            problems.append(f"t2: {out2} status {st2}")
        if (out3, st3) != ([], 0):
            problems.append(f"t3: {out3} status {st3}")
        check("two requests in one write; multi-line and empty answers",
              problems)

        for tag, cmd, title in (
                ("t4", "knc-pmu-inject 9 0x10cb 1 user 1",
                 "an \"Error: ...\" line gives END 1"),
                ("t5", "nosuchcmd", "an unknown command gives END 1"),
                ("t6", "info status extra", "an HMP usage error gives END 1"),
                ("t7", "qmp-error", "a QMP error gives an Error line and END 1")):
            guest.send(f"{tag} {cmd}\n".encode())
            out, status = guest.answer(tag)
            problems = [] if status == 1 and out else [f"got {out} status {status}"]
            if tag == "t7" and out != ["Error: it broke"]:
                problems.append(f"output {out}")
            check(title, problems)

        # the guest's tty may add a NUL or a blank line; they are skipped
        guest.send(b"\x00\n\nt8 info status\n")
        out, status = guest.answer("t8")
        check("blank lines are skipped",
              [] if (out, status) == (["VM status: running"], 0)
              else [f"got {out} status {status}"])

        # QEMU goes away: the relay ends by itself
        guest.sock.close()
        serial.close()
        qmp.close()
        try:
            rc = relay.wait(timeout=TIMEOUT)
            output = relay.stdout.read().decode()
            check("exits with status 0, silently, when QEMU goes away",
                  [] if rc == 0 and not output
                  else [f"status {rc}"] + output.splitlines())
        except subprocess.TimeoutExpired:
            check("exits with status 0, silently, when QEMU goes away",
                  [f"still running after {TIMEOUT} s"])
    except (OSError, EOFError, ValueError) as e:
        check("the relay answers at all", [f"{type(e).__name__}: {e}"])
    finally:
        if relay.poll() is None:
            relay.kill()
            relay.wait()
        qmp.close()
        for name in ("serial", "qmp"):
            try:
                os.unlink(os.path.join(tmp, name))
            except FileNotFoundError:
                pass
        os.rmdir(tmp)

    print("TAP version 13")
    print(f"1..{len(results)}")
    failed = 0
    for number, (title, problems) in enumerate(results, 1):
        print(f"{'not ok' if problems else 'ok'} {number} - {title}")
        for problem in problems:
            print(f"# {problem}")
        failed += bool(problems)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
