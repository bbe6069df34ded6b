"""A real ``splendor-companion serve`` process on 127.0.0.1, and raw HTTP requests to it
(a socket, so that a test says exactly what an attacker would send: any ``Host``, an
over-long line, a half request)."""

from __future__ import annotations

import os
import resource
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

WAIT = 20.0  # the most a test waits for the server: a failure, not a measure


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@dataclass
class Served:
    port: int
    process: subprocess.Popen[bytes]

    @property
    def host(self) -> str:
        return f"127.0.0.1:{self.port}"

    def connect(self) -> socket.socket:
        return socket.create_connection(("127.0.0.1", self.port), timeout=WAIT)

    def raw(self, data: bytes) -> bytes:
        """Send ``data`` as it is; everything the server answers before it closes (the
        request should say ``Connection: close``)."""
        with self.connect() as s:
            s.sendall(data)
            chunks = []
            while True:
                chunk = s.recv(65536)
                if not chunk:
                    break
                chunks.append(chunk)
        return b"".join(chunks)

    def get(self, path: str, host: str | None = None, extra: str = "") -> Answer:
        head = f"GET {path} HTTP/1.1\r\nHost: {self.host if host is None else host}\r\n"
        return Answer.of(self.raw((head + extra + "Connection: close\r\n\r\n").encode()))


@dataclass
class Answer:
    status: int
    headers: dict[str, str]
    body: bytes

    @classmethod
    def of(cls, data: bytes) -> Answer:
        head, _sep, body = data.partition(b"\r\n\r\n")
        lines = head.decode("latin-1").split("\r\n")
        status = int(lines[0].split()[1])
        headers = {}
        for line in lines[1:]:
            key, _colon, value = line.partition(":")
            headers[key.strip().lower()] = value.strip()
        if headers.get("transfer-encoding") == "chunked":
            body = _unchunk(body)
        return cls(status, headers, body)


def _unchunk(data: bytes) -> bytes:
    out = []
    while data:
        size_text, _sep, rest = data.partition(b"\r\n")
        size = int(size_text.split(b";")[0], 16)
        if size == 0:
            break
        out.append(rest[:size])
        data = rest[size + 2 :]
    return b"".join(out)


@contextmanager
def serving(data: Path, *options: str, files: tuple[int, int] | None = None) -> Iterator[Served]:
    """``serve`` on ``data``'s journal, on 127.0.0.1 and a free port, until the block ends
    (then SIGTERM). Its standard error is in ``data/serve.err`` only while it runs.
    ``files``: the most files it may open (its soft and hard limits), as a system may set."""
    port = free_port()

    def limited() -> None:
        if files is not None:
            resource.setrlimit(resource.RLIMIT_NOFILE, files)

    err = data.parent / f"serve-{port}.err"
    with err.open("wb") as sink:
        process = subprocess.Popen(
            [
                *(sys.executable, "-m", "splendor_companion", "serve"),
                *("--host", "127.0.0.1", "--port", str(port), "--data-dir", str(data)),
                *options,
            ],
            stdout=subprocess.DEVNULL,
            stderr=sink,
            env={**os.environ, "SPLENDOR_LANG": "en"},
            preexec_fn=limited,
        )
    served = Served(port, process)
    try:
        deadline = time.monotonic() + WAIT
        while True:
            try:
                with served.connect():
                    break
            except OSError:
                assert process.poll() is None, err.read_text()
                assert time.monotonic() < deadline, "serve did not start"
                time.sleep(0.1)
        yield served
    finally:
        process.terminate()
        try:
            process.wait(10)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait(10)


def stderr_of(data: Path, served: Served) -> str:
    return (data.parent / f"serve-{served.port}.err").read_text()
