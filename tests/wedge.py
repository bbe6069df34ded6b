"""A USB keyboard-wedge RFID reader without the hardware: the input events it sends to type
a tag, as evtest records them, played by a device that can be unplugged."""

from __future__ import annotations

import errno
import queue
from collections.abc import Sequence

from devices import Recorder, started
from evdev import InputEvent, ecodes

from hardware.rfid import CONNECTED, RfidReader


def typed(text: str, enter: bool = True, sec: int = 1700000000) -> list[InputEvent]:
    """The events a reader sends to type ``text`` (and Enter), as evtest records them:
    for each key a scan code, the key down, a report, then the same for the key up."""
    events: list[InputEvent] = []
    usec = 0
    codes = [getattr(ecodes, f"KEY_{c}") for c in text]
    if enter:
        codes.append(ecodes.KEY_ENTER)
    for code in codes:
        for value in (1, 0):
            usec += 800
            events.append(InputEvent(sec, usec, ecodes.EV_MSC, ecodes.MSC_SCAN, 0x70000 + code))
            events.append(InputEvent(sec, usec, ecodes.EV_KEY, code, value))
            events.append(InputEvent(sec, usec, ecodes.EV_SYN, ecodes.SYN_REPORT, 0))
    return events


class Recorded:
    """A plugged-in reader's device playing recorded events; unplugged, reads fail as
    the kernel's do (ENODEV)."""

    def __init__(self) -> None:
        self.queue: queue.SimpleQueue[InputEvent] = queue.SimpleQueue()
        self.gone = False
        self.closed = False

    def play(self, events: Sequence[InputEvent]) -> None:
        for event in events:
            self.queue.put(event)

    def read(self, timeout: float) -> Sequence[InputEvent]:
        if self.gone:
            raise OSError(errno.ENODEV, "No such device")
        try:
            events = [self.queue.get(timeout=timeout)]
        except queue.Empty:
            return []
        while not self.queue.empty():
            events.append(self.queue.get())
        return events

    def close(self) -> None:
        self.closed = True


class UsbPort:
    """What /dev/input/by-id holds: the reader's device while it is plugged in."""

    def __init__(self) -> None:
        self.device: Recorded | None = None
        self.opened: list[str] = []

    def __call__(self, path: str) -> Recorded:
        if self.device is None:
            raise FileNotFoundError(errno.ENOENT, "No such file or directory", path)
        self.opened.append(path)
        return self.device


BY_ID = "usb-Sycreader_RFID_Technology_Co.__Ltd_SYC_ID_IC_USB_Reader_08FF20140315-event-kbd"


def plugged_in(readers: list[RfidReader]) -> tuple[UsbPort, Recorder]:
    """A keyboard reader plugged in at :data:`BY_ID` (``usb.device`` plays its events),
    read by a reader started (kept in ``readers``) and said connected; what it heard."""
    usb = UsbPort()
    usb.device = Recorded()
    rec = started(readers, BY_ID, "keyboard", events=usb)
    rec.wait_count(CONNECTED, 1)
    return usb, rec
