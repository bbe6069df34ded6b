"""``rfid monitor`` says what it does with a port it cannot read, in the reader's language."""

from __future__ import annotations

from pathlib import Path

import pytest

pytest.importorskip("serial")

import serial
from devices import ctrl_c, rfid_running

from companion import i18n
from hardware.exc import DeviceCode, serial_error
from hardware.rfid import DEFAULT_BAUD


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


@pytest.mark.parametrize(
    ("language", "retry"), [("en", "Trying again every 2 s"), ("sv", "Försöker igen")]
)
def test_monitor_of_a_missing_port_says_it_tries_again(
    tmp_path: Path, language: str, retry: str
) -> None:
    missing = str(tmp_path / "ttyUSB9")
    with rfid_running(tmp_path, "monitor", "--port", missing, language=language) as (proc, out):
        out.until(retry)
        ctrl_c(proc)
    assert missing in out.text
