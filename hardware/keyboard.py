"""USB "keyboard wedge" RFID readers: they type the tag's number and Enter, as a keyboard.

Most cheap USB readers are of this kind. Read as a keyboard, their digits would land in
whatever has the focus; here the reader's input device is opened with python-evdev and
*grabbed*, so that its key presses reach this module only (never the app, nor a console).

The device is named by its stable link under ``/dev/input/by-id/`` (the ``event`` number
changes at each plug), like ``usb-Sycreader_..._USB_Reader_08FF20140315-event-kbd``, or
the whole path. :func:`hardware.ports.keyboard_devices` lists the candidates.

The events come from an :class:`EventSource`: :class:`EvdevSource` for a real device,
or any object with the same two methods (the tests play recorded events through one).
"""

from __future__ import annotations

import contextlib
import errno
import select
from collections.abc import Callable, Sequence
from typing import Protocol

from evdev import InputEvent, ecodes

from companion.i18n import _

from .exc import DeviceCode, SerialPortError
from .uid import LONGEST, run

# Which key types which character. Readers type decimal (most 125 kHz ones: "0004346362")
# or hex (the forms of hardware.uid); letters other than A-F make the line "not a tag".
_KEYS: dict[int, str] = {}
for _digit in "0123456789":
    _KEYS[getattr(ecodes, f"KEY_{_digit}")] = _digit
    _KEYS[getattr(ecodes, f"KEY_KP{_digit}")] = _digit
for _letter in "ABCDEFGHIJKLMNOPQRSTUVWXYZ":
    _KEYS[getattr(ecodes, f"KEY_{_letter}")] = _letter
_ENTER = {ecodes.KEY_ENTER, ecodes.KEY_KPENTER}
_KEY_DOWN = 1  # 0 is up, 2 autorepeat


class EventSource(Protocol):
    """Where a reader's input events come from."""

    def read(self, timeout: float) -> Sequence[InputEvent]:
        """The events that arrived within ``timeout`` seconds (maybe none); ``OSError``
        when the device is gone (unplugged)."""
        ...

    def close(self) -> None: ...


class EvdevSource:
    """A real input device, grabbed for as long as it is open."""

    def __init__(self, path: str) -> None:
        from evdev import InputDevice

        self.device = InputDevice(path)
        try:
            self.device.grab()
        except OSError:
            self.device.close()
            raise

    def read(self, timeout: float) -> Sequence[InputEvent]:
        ready, _w, _x = select.select([self.device.fd], [], [], timeout)
        if not ready:
            return []
        try:
            return list(self.device.read())
        except BlockingIOError:
            return []

    def close(self) -> None:
        with contextlib.suppress(OSError):  # unplugged: nothing to give back
            self.device.ungrab()
        self.device.close()


def open_error(port: str, err: BaseException) -> SerialPortError:
    """Why the reader's input device cannot be opened, and what to do."""
    number = getattr(err, "errno", None)
    if number == errno.ENOENT:
        return SerialPortError(
            DeviceCode.NOT_FOUND,
            _(
                "{port} does not exist: is the reader plugged in? (ls /dev/input/by-id "
                "lists the keyboards)"
            ).format(port=port),
        )
    if number in (errno.EACCES, errno.EPERM):
        return SerialPortError(
            DeviceCode.PERMISSION,
            _(
                "permission denied on {port}: add the user to the input group "
                "(sudo usermod -aG input $USER), then log out and in again"
            ).format(port=port),
        )
    if number == errno.EBUSY:
        return SerialPortError(
            DeviceCode.BUSY, _("{port} is grabbed by another program").format(port=port)
        )
    return SerialPortError(
        DeviceCode.IO, _("cannot open {port}: {reason}").format(port=port, reason=err)
    )


class KeyTyping:
    """Key presses in, one tag out at each Enter (``on_tag``), or a line dropped
    (``on_bad(reason, typed)``: ``not-hex``, ``too-long``).

    A tag is what :func:`hardware.uid.run` says one is. A line longer than the longest
    (a keyboard, not a reader, behind the port; or keys held down) is dropped whole, up to
    its Enter: its tail is no tag either."""

    def __init__(self, on_tag: Callable[[str], None], on_bad: Callable[[str, str], None]) -> None:
        self.on_tag = on_tag
        self.on_bad = on_bad
        self.typed: list[str] = []
        self.other = False  # a key that types no tag character (space, a symbol)
        self.skipping = False  # the line was too long: up to its Enter

    def feed(self, events: Sequence[InputEvent]) -> None:
        for event in events:
            if event.type != ecodes.EV_KEY or event.value != _KEY_DOWN:
                continue
            if event.code in _ENTER:
                self._end()
            elif self.skipping:
                continue
            elif event.code in _KEYS:
                self.typed.append(_KEYS[event.code])
            elif event.code not in (ecodes.KEY_LEFTSHIFT, ecodes.KEY_RIGHTSHIFT):
                self.other = True
            if len(self.typed) > LONGEST:
                self.on_bad("too-long", "".join(self.typed))
                self.lost()
                self.skipping = True

    def _end(self) -> None:
        text = "".join(self.typed)
        other, skipped = self.other, self.skipping
        self.lost()
        if skipped or (not text and not other):
            return  # the end of a line already dropped, or a lone Enter
        tag = None if other else run(text)
        if tag is None:
            self.on_bad("not-hex", text)
            return
        self.on_tag(tag)

    def lost(self) -> None:
        """The device went away (or the line is dropped): what was typed is no tag."""
        self.typed.clear()
        self.other = False
        self.skipping = False
