"""``splendor-companion doctor``: the machine named, then its devices checked, each a line, ok
or what to do (a Pi's advice only on a Pi).

The touchscreen and the reader's port are probed here (python-evdev when it is installed,
else the kernel's own description in ``/sys/class/input``); the display, the GPIO chip and
the journal by :mod:`companion.doctor`. Exit status 0 when everything is in place, 1 when
something is to fix. Every probe takes its folders, so that tests lay out their own.
"""

from __future__ import annotations

import argparse
import os
import shutil
import stat
import subprocess
import sys
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from companion import doctor as core
from companion.i18n import _
from companion.paths import database_path

from .ports import console_on, gpio_uart, input_path, pi_model

# Linux's input-event-codes.h: the absolute axes of a touchscreen.
ABS_X, ABS_Y, ABS_MT_POSITION_X = 0x00, 0x01, 0x35
WEB_UNIT = "splendor-companion-web"


@dataclass(frozen=True)
class Touch:
    device: Path  # /dev/input/eventN
    name: str
    multitouch: bool


def _axes(text: str) -> int:
    """The kernel's bitmap of a device's axes (``capabilities/abs``: hexadecimal words, the
    highest first) as one number."""
    value = 0
    for word in text.split():
        value = (value << 64) | int(word, 16)
    return value


def _evdev_axes(device: Path) -> int | None:
    """The axes python-evdev reads from the device itself, or ``None`` (not installed, or
    the device cannot be opened)."""
    try:
        import evdev
    except ImportError:
        return None
    try:
        found = evdev.InputDevice(str(device))
    except OSError:
        return None
    try:
        axes = found.capabilities().get(evdev.ecodes.EV_ABS, [])
    finally:
        found.close()
    bits = 0
    for axis in axes:
        code = axis[0] if isinstance(axis, tuple) else axis
        bits |= 1 << int(code)
    return bits


def touch_screens(sys_input: Path, dev_input: Path) -> list[Touch]:
    """The input devices with a touchscreen's axes (x and y, or the multitouch ones)."""
    found = []
    for event in sorted(sys_input.glob("event*"), key=lambda p: (len(p.name), p.name)):
        try:
            axes = _axes((event / "device" / "capabilities" / "abs").read_text())
            name = (event / "device" / "name").read_text().strip()
        except (OSError, ValueError):
            continue
        device = dev_input / event.name
        probed = _evdev_axes(device)
        if probed is not None:
            axes = probed
        if axes >> ABS_MT_POSITION_X & 1 or (axes >> ABS_X & 1 and axes >> ABS_Y & 1):
            found.append(Touch(device, name, bool(axes >> ABS_MT_POSITION_X & 1)))
    return found


def touch(sys_input: Path, dev_input: Path, pi: bool = True) -> core.Finding:
    screens = touch_screens(sys_input, dev_input)
    if not screens and not pi:
        return core.Finding(
            True, _("touch: no touchscreen: the mouse plays the app on this machine")
        )
    if not screens:
        return core.Finding(
            False,
            _(
                "touch: no touchscreen among the input devices ({folder}): check the panel's "
                "ribbon cable (DSI) or its USB lead, then reboot"
            ).format(folder=dev_input),
        )
    readable = [s for s in screens if os.access(s.device, os.R_OK)]
    if not readable:
        return core.Finding(
            False,
            _(
                "touch: {device} ({name}) cannot be read by this user: add it to the input "
                "group (sudo usermod -aG input USER), then log in again"
            ).format(device=screens[0].device, name=screens[0].name),
        )
    first = readable[0]
    kind = _("multitouch") if first.multitouch else _("single touch")
    return core.Finding(
        True,
        _("touch: {name} ({device}), {kind}").format(
            name=first.name, device=first.device, kind=kind
        ),
    )


def reader(
    port: str,
    cmdline: Path = Path("/proc/cmdline"),
    dev: Path = Path("/dev"),
    model: str | None = None,
) -> core.Finding:
    """The reader's port (``SPLENDOR_RFID_PORT``): there, openable, and no console on it."""
    if not port or port == "none":
        return core.Finding(True, _("reader: no port set (SPLENDOR_RFID_PORT): nothing to check"))
    if port == "uart":
        port = gpio_uart(model)
    elif "/" not in port:  # a keyboard reader's /dev/input/by-id name
        port = input_path(port, dev / "input" / "by-id")
    path = Path(port)
    try:
        mode = path.stat().st_mode
    except OSError:
        return core.Finding(
            False,
            _(
                "reader: {port} is missing: plug the reader in, or enable the serial port "
                "(sudo raspi-config: Interface Options, Serial Port, hardware: Yes), then reboot"
            ).format(port=port),
        )
    if not stat.S_ISCHR(mode):
        return core.Finding(
            False,
            _(
                "reader: {port} is not a device: set the reader's port again "
                "(deploy.sh --rfid-port)"
            ).format(port=port),
        )
    if not os.access(path, os.R_OK | os.W_OK):
        return core.Finding(
            False,
            _(
                "reader: {port} cannot be opened by this user: add it to the dialout group "
                "(input for a USB keyboard reader), then log in again"
            ).format(port=port),
        )
    console = console_on(port, cmdline, dev)
    if console:
        return core.Finding(
            False,
            _(
                "reader: {port} is the kernel's console ({console}), which takes its bytes: "
                "sudo raspi-config: Interface Options, Serial Port, login shell: No, "
                "hardware: Yes; then reboot"
            ).format(port=port, console=console),
        )
    return core.Finding(True, _("reader: {port}").format(port=port))


def web_state(systemctl: str | None = None) -> str | None:
    """``systemctl is-active`` of the web page's service; ``None`` without systemd or when
    the service is not installed."""
    systemctl = systemctl or shutil.which("systemctl")
    if not systemctl:
        return None
    try:
        loaded = subprocess.run(
            [systemctl, "show", "-p", "LoadState", "--value", WEB_UNIT],
            capture_output=True,
            text=True,
            timeout=10,
            check=False,
        ).stdout.strip()
        if loaded != "loaded":
            return None
        return (
            subprocess.run(
                [systemctl, "is-active", WEB_UNIT],
                capture_output=True,
                text=True,
                timeout=10,
                check=False,
            ).stdout.strip()
            or "unknown"
        )
    except (OSError, subprocess.SubprocessError):
        return None


def findings(
    environ: Mapping[str, str],
    database: Path,
    root: Path = Path("/"),
    web: Callable[[], str | None] = web_state,
) -> list[core.Finding]:
    """Every check, on the system under ``root`` (``/``; a test's folder in tests)."""
    settings = core.kiosk_settings(root / "etc/default/splendor-companion")
    port = core.setting("SPLENDOR_RFID_PORT", environ, settings)
    model = pi_model(root / "proc/device-tree/model")
    pi = model.startswith("Raspberry Pi")
    return [
        core.machine(model if pi else "", root / "etc/os-release"),
        core.display(root / "dev", environ, settings, pi),
        touch(root / "sys/class/input", root / "dev/input", pi),
        reader(port, root / "proc/cmdline", root / "dev", model),
        core.gpio(root / "dev", pi),
        core.journal(database),
        core.web(web()),
    ]


def register(sub: Any, command: Callable[[Any, str, str], argparse.ArgumentParser]) -> None:
    """Add ``doctor`` to the program's commands (``splendor_companion.program`` asks)."""
    p = command(
        sub,
        "doctor",
        _("check the display, touchscreen, reader, GPIO, journal and web page of this machine"),
    )
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    lines, code = core.report(findings(os.environ, database_path(getattr(args, "data_dir", None))))
    for text in lines:
        print(text)
    sys.stdout.flush()
    return code
