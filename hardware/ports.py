"""Which serial port is which on a Raspberry Pi, and what else may hold it.

- The UART on GPIO 14 (TX) and 15 (RX) is ``/dev/serial0`` on a Pi 3 or 4, but on a Pi 5
  ``/dev/serial0`` is the 3-pin debug connector (``ttyAMA10``) and the GPIO UART is
  ``/dev/ttyAMA0``: :func:`gpio_uart` gives the right one for the board.
- A serial console (``console=serial0,115200`` in ``cmdline.txt``) on the reader's port
  takes bytes from it and changes its speed: :func:`console_on` finds it.

>>> gpio_uart("Raspberry Pi 5 Model B Rev 1.0"), gpio_uart("Raspberry Pi 4 Model B Rev 1.4")
('/dev/ttyAMA0', '/dev/serial0')
>>> consoles("coherent_pool=1M console=serial0,115200 console=tty1 root=PARTUUID=1-02")
['serial0', 'tty1']
"""

from __future__ import annotations

import os
from pathlib import Path

MODEL_FILE = Path("/proc/device-tree/model")
BY_ID = Path("/dev/input/by-id")
CMDLINE = Path("/proc/cmdline")
UART_PINS = (14, 15)
"""BCM numbers of the UART's TX and RX pins."""


def pi_model(model_file: Path = MODEL_FILE) -> str:
    """The board's model (``Raspberry Pi 5 Model B Rev 1.0``), or ``""`` off a Pi."""
    try:
        return model_file.read_text(errors="replace").rstrip("\x00\n")
    except OSError:
        return ""


def is_pi5(model: str) -> bool:
    return model.startswith("Raspberry Pi 5") or model.startswith("Raspberry Pi Compute Module 5")


def gpio_uart(model: str | None = None) -> str:
    """The serial port of GPIO 14/15 on this board (``model`` read when not given)."""
    model = pi_model() if model is None else model
    return "/dev/ttyAMA0" if is_pi5(model) else "/dev/serial0"


def consoles(cmdline: str) -> list[str]:
    """The devices of the ``console=`` entries of a kernel command line."""
    found = []
    for word in cmdline.split():
        if word.startswith("console="):
            device = word[len("console=") :].split(",", 1)[0]
            if device:
                found.append(device)
    return found


def _device(name: str, dev: Path) -> str:
    path = name if name.startswith("/") else str(dev / name)
    return os.path.realpath(path)


def console_on(port: str, cmdline: Path = CMDLINE, dev: Path = Path("/dev")) -> str | None:
    """The console that holds ``port`` (its name in the command line), or ``None``."""
    try:
        text = cmdline.read_text(errors="replace")
    except OSError:
        return None
    target = _device(port, dev)
    for name in consoles(text):
        if name.startswith("tty") and name[3:].isdigit():
            continue  # a screen console (tty1), not a serial port
        if _device(name, dev) == target or name == Path(port).name:
            return name
    return None


def on_gpio_uart(port: str, model: str | None = None) -> bool:
    """Whether ``port`` is the UART of GPIO 14 and 15 (so those pins are the reader's).

    >>> on_gpio_uart("/dev/ttyUSB0", ""), on_gpio_uart("/dev/serial0", "Raspberry Pi 4")
    (False, True)
    >>> on_gpio_uart("/dev/serial0", "Raspberry Pi 5 Model B")
    False
    """
    model = pi_model() if model is None else model
    name = Path(port).name
    real = Path(os.path.realpath(port)).name
    if is_pi5(model):
        return "ttyAMA0" in (name, real)
    return bool({name, real} & {"serial0", "ttyAMA0", "ttyS0"})


def input_path(port: str, by_id: Path = BY_ID) -> str:
    """A keyboard reader's port: a by-id name as a path, a path as it is.

    >>> input_path("usb-reader-event-kbd"), input_path("/dev/input/event3")
    ('/dev/input/by-id/usb-reader-event-kbd', '/dev/input/event3')
    """
    return port if "/" in port else str(by_id / port)


def keyboard_devices(by_id: Path = BY_ID) -> list[str]:
    """The keyboards plugged in, by their by-id paths (a keyboard reader is one of them)."""
    try:
        return sorted(str(p) for p in by_id.iterdir() if p.name.endswith("-event-kbd"))
    except OSError:
        return []
