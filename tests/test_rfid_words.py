"""``rfid monitor`` says what it does with a port it cannot read, in the reader's language."""

from __future__ import annotations

import os
import select
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

pytest.importorskip("serial")

import serial

from companion import i18n
from hardware.exc import DeviceCode, serial_error
from hardware.rfid import DEFAULT_BAUD

ROOT = Path(__file__).resolve().parent.parent
PATIENCE = 20.0  # seconds before a test gives up waiting for a line (never asserted)


def _open_error(port: str) -> BaseException:
    """The real error pyserial raises for ``port``, opened as the reader opens it."""
    try:
        serial.serial_for_url(port, baudrate=DEFAULT_BAUD, timeout=None, exclusive=True).close()
    except (OSError, ValueError) as err:
        return err
    raise AssertionError(f"{port} opened")


def test_a_file_that_is_not_a_serial_port_is_named_so(tmp_path: Path) -> None:
    err = serial_error("/dev/null", _open_error("/dev/null"))
    assert err.code is DeviceCode.NOT_SERIAL
    assert "/dev/null is not a serial port" in err.message
    assert "ioctl" not in err.message
    i18n.set_language("it")
    assert "non è una porta seriale" in serial_error("/dev/null", _open_error("/dev/null")).message


def _until(proc: subprocess.Popen[bytes], text: str) -> str:
    assert proc.stdout is not None
    fd = proc.stdout.fileno()
    seen = ""
    deadline = time.monotonic() + PATIENCE
    while text not in seen and time.monotonic() < deadline:
        ready, _w, _x = select.select([fd], [], [], 0.5)
        if ready:
            chunk = os.read(fd, 4096)
            if not chunk:
                break
            seen += chunk.decode()
    return seen


@pytest.mark.parametrize(
    ("language", "retry"), [("en", "Trying again every 2 s"), ("sv", "Försöker igen")]
)
def test_monitor_of_a_missing_port_says_it_tries_again(
    tmp_path: Path, language: str, retry: str
) -> None:
    missing = str(tmp_path / "ttyUSB9")
    proc = subprocess.Popen(
        [sys.executable, "-m", "splendor_companion", "rfid", "monitor", "--port", missing],
        cwd=ROOT,
        env={**os.environ, "SPLENDOR_DATA_DIR": str(tmp_path), "SPLENDOR_LANG": language},
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
    )
    try:
        text = _until(proc, retry)
        proc.send_signal(signal.SIGINT)
        assert proc.wait(timeout=PATIENCE) == 0
    finally:
        proc.kill()
        if proc.stdout is not None:
            proc.stdout.close()
    assert retry in text, text
    assert missing in text
