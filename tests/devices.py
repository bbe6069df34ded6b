"""A reader at the far end of a real serial port, for the hardware tests: a pseudo-terminal
that pyserial opens while the test writes the reader's bytes, RDM6300 frames, a simulated
PN532 module speaking its real frames, the reader's callbacks recorded, and the ``rfid``
command run as a subprocess."""

from __future__ import annotations

import contextlib
import functools
import os
import select
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from hardware.rfid import CONNECTED, DISCONNECTED, STOPPED, Dropped, RfidReader

ROOT = Path(__file__).resolve().parent.parent
WAIT = 5.0
# A command asked to stop (Ctrl-C) stops its reader (up to 5 s) and its port thread
# (2 s) before it exits: on a loaded machine that took more than 10 s once.
EXIT_WAIT = 30.0


def frame(tag: str, checksum: str | None = None) -> bytes:
    """An RDM6300 frame: STX, 10 hex characters, their XOR in 2 hex characters, ETX."""
    xor = functools.reduce(lambda a, b: a ^ b, bytes.fromhex(tag))
    return b"\x02" + tag.encode() + (checksum or f"{xor:02X}").encode() + b"\x03"


class Pty:
    """A pseudo-terminal: pyserial opens :attr:`path`, the test writes to the master."""

    def __init__(self) -> None:
        self.master, self.slave = os.openpty()
        self.path = os.ttyname(self.slave)
        self.open = True

    def write(self, data: bytes) -> None:
        os.write(self.master, data)

    def unplug(self) -> None:
        if self.open:
            self.open = False
            os.close(self.master)
            os.close(self.slave)


class Recorder:
    """The reader's callbacks, kept in order, with waits that end as soon as they can."""

    def __init__(self) -> None:
        self.events: list[tuple[str, Any]] = []
        self.changed = threading.Condition()

    def add(self, kind: str, value: Any) -> None:
        with self.changed:
            self.events.append((kind, value))
            self.changed.notify_all()

    def on_tag(self, tag: str) -> None:
        self.add("tag", tag)

    def on_status(self, state: str, detail: str) -> None:
        self.add(state, detail)

    def on_dropped(self, item: Dropped) -> None:
        self.add("dropped", item)

    def of(self, kind: str) -> list[Any]:
        with self.changed:
            return [v for k, v in self.events if k == kind]

    @property
    def tags(self) -> list[str]:
        return self.of("tag")

    @property
    def states(self) -> list[str]:
        with self.changed:
            return [k for k, _v in self.events if k in (CONNECTED, DISCONNECTED, STOPPED)]

    def wait(self, predicate: Callable[[], bool], what: str) -> None:
        with self.changed:
            if not self.changed.wait_for(predicate, timeout=WAIT):
                pytest.fail(f"timed out waiting for {what}; events: {self.events}")

    def wait_count(self, kind: str, n: int) -> None:
        self.wait(lambda: len([1 for k, _v in self.events if k == kind]) >= n, f"{n} x {kind}")


class Output:
    """A subprocess's output, read line by line with a deadline."""

    def __init__(self, proc: subprocess.Popen[bytes]) -> None:
        assert proc.stdout is not None
        self.proc = proc
        self.fd = proc.stdout.fileno()
        self.text = ""
        self.seen = 0

    def until(self, needle: str) -> str:
        """Read until ``needle`` appears (after what earlier calls found); the text up to it."""
        deadline = time.monotonic() + WAIT * 2
        while needle not in self.text[self.seen :]:
            left = deadline - time.monotonic()
            ready, _w, _x = select.select([self.fd], [], [], max(left, 0))
            if not ready:
                pytest.fail(f"no {needle!r} in the output:\n{self.text}")
            chunk = os.read(self.fd, 4096)
            if not chunk:
                pytest.fail(f"the command ended before {needle!r}:\n{self.text}")
            self.text += chunk.decode()
        end = self.text.index(needle, self.seen) + len(needle)
        found, self.seen = self.text[:end], end
        return found

    def both(self, first: str, second: str) -> None:
        """Read until both appear, in either order: a reader's thread prints "connected"
        while the command prints its first question, and either may come first."""
        start = self.seen
        self.until(first)
        after = self.seen
        if second not in self.text[start:]:
            self.until(second)
        self.seen = max(after, self.seen)

    def rest(self) -> str:
        """Everything the command printed, once it has ended."""
        self.proc.wait(timeout=EXIT_WAIT)
        while chunk := os.read(self.fd, 4096):
            self.text += chunk.decode()
        for pipe in (self.proc.stdin, self.proc.stdout):
            if pipe is not None:
                pipe.close()
        return self.text


def rfid_command(
    data: Path, *args: str, language: str = "en"
) -> tuple[subprocess.Popen[bytes], Output]:
    """``splendor-companion rfid ARGS`` started on the data folder ``data``, in English
    unless ``language`` says otherwise."""
    env = {**os.environ, "SPLENDOR_DATA_DIR": str(data), "SPLENDOR_LANG": language}
    proc = subprocess.Popen(
        [sys.executable, "-m", "splendor_companion", "rfid", *args],
        cwd=ROOT,
        env=env,
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
    )
    return proc, Output(proc)


@contextlib.contextmanager
def rfid_running(
    data: Path, *args: str, language: str = "en"
) -> Iterator[tuple[subprocess.Popen[bytes], Output]]:
    """``rfid ARGS`` running for the block (:func:`rfid_command`); afterwards it is
    killed if it still runs, and all it printed is in ``out.text``."""
    proc, out = rfid_command(data, *args, language=language)
    try:
        yield proc, out
    finally:
        proc.kill()
        out.rest()


def ctrl_c(proc: subprocess.Popen[bytes]) -> None:
    """Ctrl-C: the command stops its reader and exits with status 0."""
    proc.send_signal(signal.SIGINT)
    assert proc.wait(timeout=EXIT_WAIT) == 0


# ------------------------------------------------------------------ a simulated PN532


def checksum(data: bytes) -> int:
    return (0x100 - sum(data) % 256) % 256


def module_frame(data: bytes) -> bytes:
    """A frame as the module sends it: preamble, start code, LEN, LCS, TFI D5, data, DCS."""
    body = b"\xd5" + data
    return (
        b"\x00\x00\xff"
        + bytes([len(body), checksum(bytes([len(body)]))])
        + body
        + bytes([checksum(body)])
        + b"\x00"
    )


class PN532Chip:
    """The module's side of the wire, bytes in and bytes out (UM0701-02, section 6.2): it
    ACKs and answers each well-formed command from the host, asleep until woken (0x55
    0x55 before a frame), answering tag reads only once configured, and sends its last
    answer again when the host asks with a NACK. ``corrupt`` answers to come have a bad
    checksum, as a disturbed line gives them; ``lose`` answers to come are lost whole."""

    ACK = b"\x00\x00\xff\x00\xff\x00"
    NACK = b"\x00\x00\xff\xff\x00\x00"

    def __init__(self) -> None:
        self.tag: str | None = None
        self.commands: list[int] = []
        self.bad: list[bytes] = []
        self.nacks = 0
        self.corrupt = 0
        self.lose = 0
        self.awake = False
        self.configured = False
        self.buffer = b""
        self.last = b""

    def receive(self, data: bytes) -> bytes:
        """What the module sends back for the host's ``data``."""
        self.buffer += data
        out = b""
        while True:
            start = self.buffer.find(b"\x00\x00\xff")
            if start < 0 or len(self.buffer) < start + 5:
                return out
            if b"\x55\x55" in self.buffer[:start]:
                self.awake = True
            if self.buffer[start : start + 6] == self.NACK:
                self.buffer = self.buffer[start + 6 :]
                self.nacks += 1
                if self.last:
                    out += self._send(self.last)
                continue
            length, lcs = self.buffer[start + 3], self.buffer[start + 4]
            end = start + 5 + length + 2
            if len(self.buffer) < end:
                return out
            body = self.buffer[start + 5 : start + 5 + length]
            dcs = self.buffer[start + 5 + length]
            whole, self.buffer = self.buffer[start:end], self.buffer[end:]
            if (length + lcs) % 256 or (sum(body) + dcs) % 256 or body[:1] != b"\xd4":
                self.bad.append(whole)
                continue
            if self.awake:
                answer = self._answer(body[1], body[2:])
                if answer is not None:
                    self.last = answer
                    out += self.ACK + self._send(answer)

    def _send(self, answer: bytes) -> bytes:
        if self.lose:
            self.lose -= 1
            return b""
        sent = module_frame(answer)
        if self.corrupt and sent:
            self.corrupt -= 1
            sent = sent[:-2] + bytes([sent[-2] ^ 0x5A]) + sent[-1:]  # the DCS
        return sent

    def _answer(self, command: int, data: bytes) -> bytes | None:
        self.commands.append(command)
        if command == 0x02:
            return b"\x03\x32\x01\x06\x07"  # PN532, firmware 1.6
        if command == 0x14:
            self.configured = data[:1] == b"\x01"
            return b"\x15"
        if command == 0x32:
            return b"\x33"
        if command == 0x4A and self.configured and self.tag:
            uid = bytes.fromhex(self.tag)
            return b"\x4b\x01\x01\x00\x44\x00" + bytes([len(uid)]) + uid
        if command == 0x4A:
            return b"\x4b\x00"
        return None


class PN532Module(PN532Chip):
    """A :class:`PN532Chip` on the far end of a pseudo-terminal, answering as it hears."""

    def __init__(self, pty: Pty) -> None:
        super().__init__()
        self.pty = pty
        self.running = True
        self.thread = threading.Thread(target=self._run, name="pn532-module", daemon=True)
        self.thread.start()

    def _run(self) -> None:
        while self.running and self.pty.open:
            try:
                ready, _w, _x = select.select([self.pty.master], [], [], 0.02)
                data = os.read(self.pty.master, 1024) if ready else b""
                out = self.receive(data)
                if out:
                    self.pty.write(out)
            except (OSError, ValueError):
                return

    def stop(self) -> None:
        self.running = False
        self.thread.join(WAIT)


def until(condition: Callable[[], bool], what: str) -> None:
    """Poll what the simulated module saw (it has no event to wait on)."""
    deadline = time.monotonic() + WAIT
    while not condition():
        assert time.monotonic() < deadline, f"timed out waiting for {what}"
        time.sleep(0.01)


def started(readers: list[RfidReader], port: str, kind: str, **kw: Any) -> Recorder:
    """A reader of ``kind`` on ``port`` started (and kept in ``readers``, the fixture that
    stops them), its callbacks recorded; it looks for a missing port every 0.05 s."""
    rec = Recorder()
    kw.setdefault("retry", 0.05)
    reader = RfidReader(
        port,
        kind,
        on_tag=rec.on_tag,
        on_status=rec.on_status,
        on_dropped=rec.on_dropped,
        **kw,
    )
    readers.append(reader)
    reader.start()
    return rec
