"""RFID card readers: bytes or key presses in, debounced tag ids out, unplugging survived.

The kinds of reader (the ``reader`` setting) are listed in :mod:`hardware.readers`:

``rdm6300``
    The 125 kHz RDM6300 module, 9600 baud. A frame is STX (0x02), 10 hex characters (a
    version byte and the 4-byte tag id), 2 hex characters of checksum (the XOR of the 5
    data bytes) and ETX (0x03). The module repeats the frame while the tag stays on it.
``lines``
    A reader that prints one tag id per line: an Arduino with an MFRC522 or a PN532, many
    USB-serial readers. Only a whole tag id counts (:meth:`LineTags.parse`, the forms of
    :mod:`hardware.uid`): memory dumps and other chatter (the reader's speed, its own id,
    a count, its clock) are dropped; ``\\n``, ``\\r\\n`` or ``\\r`` end a line.
``pn532``
    The 13.56 MHz PN532 on its UART, 115200 baud, polled (:mod:`hardware.pn532`).
``keyboard``
    A USB reader that types the tag like a keyboard, read through python-evdev with the
    device grabbed (:mod:`hardware.keyboard`).

The serial ones are pyserial :class:`~serial.threaded.ReaderThread` protocols (a
:class:`~serial.threaded.FramedPacket`, a :class:`~serial.threaded.LineReader` and
:class:`~hardware.pn532.PN532Protocol`). A serial port that a console holds
(``console=serial0`` in ``cmdline.txt``) is not opened: the state is ``blocked``, and the
detail says how to turn the console off.

A bad frame (checksum, length, a character that is not hex, noise between frames) is
dropped, counted by reason (:attr:`RfidReader.dropped`) and reported, never raised.

**Debounce.** A tag is reported when it arrives, at once; its repeats are not, as long as
it keeps being seen: a tag is reported again only after ``away`` seconds (1.0 by default)
without a frame of it, which is what lifting the card off the reader and putting it back
looks like.

**Unplugging.** :class:`RfidReader` runs a supervisor thread that opens the port, runs the
reader thread, and when the port goes away (a USB reader unplugged) reports
``disconnected`` and tries to open it again every ``retry`` seconds, reporting
``connected`` when the reader is back. :meth:`RfidReader.stop` ends both threads.

**Threads.** ``on_tag`` and ``on_dropped`` are called on the reader thread, ``on_status``
on the supervisor thread: never on the app's. A callback must be quick and must not touch
the game (its SQLite connection belongs to the app's thread) nor Kivy widgets: the app
hops to its own thread with Kivy's clock::

    reader = RfidReader(
        "/dev/serial0",
        RDM6300,
        on_tag=lambda tag: Clock.schedule_once(lambda dt: scanner.scan(tag)),
        on_status=lambda state, detail: Clock.schedule_once(lambda dt: show(state, detail)),
    )
    reader.start()
    ...
    reader.stop()

An exception raised by a callback is logged and the reader carries on.
"""

from __future__ import annotations

import functools
import logging
import re
import threading
import time
from collections import Counter
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

import serial
from serial.threaded import FramedPacket, LineReader, Protocol, ReaderThread

from companion.i18n import _

from . import ports
from .dropped import Dropped, DropSink, LostSink, Reporter, TagSink
from .exc import lost_error, serial_error
from .pn532 import PN532Protocol, silent_message
from .ports import console_on
from .readers import INPUT, NAMES, baud_of, kind
from .uid import HEX, TAG_BYTES, UID_BYTES, clock_time, names_uid, run

if TYPE_CHECKING:
    from .keyboard import EventSource

log = logging.getLogger(__name__)

RDM6300, LINES, PN532, KEYBOARD = "rdm6300", "lines", "pn532", "keyboard"
READERS = NAMES  # the kinds, from hardware.readers
DEFAULT_BAUD = 9600
CONNECTED, DISCONNECTED, BLOCKED, STOPPED = "connected", "disconnected", "blocked", "stopped"
"""``blocked``: a serial console holds the port (it is not read until that is fixed)."""
TICK = 0.05

HEX_ONLY = re.compile(r"[0-9A-Fa-f]{2}(:[0-9A-Fa-f]{2})+")  # 04:A3:2B:1C, colons and all
SEPARATORS = re.compile(r"[\s:-]+")

TagCallback = Callable[[str], object]
StatusCallback = Callable[[str, str], object]
DroppedCallback = Callable[[Dropped], object]
LostCallback = Callable[[BaseException | None], object]


class RDM6300Frames(Reporter, FramedPacket):
    """The RDM6300's frames: STX, 10 hex characters, 2 hex characters of XOR, ETX."""

    START = b"\x02"
    STOP = b"\x03"
    FRAME = 12
    in_packet: bool
    packet: bytearray
    DATA = 10
    MAX_NOISE = 32

    def __init__(self, on_tag: TagSink, on_dropped: DropSink, on_lost: LostSink) -> None:
        super().__init__(on_tag, on_dropped, on_lost)
        self.noise = bytearray()

    def data_received(self, data: bytes) -> None:
        # FramedPacket's framing with three additions: a STX inside a frame starts a new one
        # (resync), a stray ETX is noise, and a frame that never ends is dropped instead of
        # growing without bound. Between frames, everything up to the next STX is noise,
        # taken as one run (a noisy line costs the reader's thread a search, not a step a
        # byte); a frame's own few bytes are taken one at a time.
        at, end = 0, len(data)
        while at < end:
            if not self.in_packet:
                start = data.find(self.START, at)
                if start < 0:
                    start = end
                if start > at:
                    self.handle_out_of_packet_data(data[at:start])
                if start == end:
                    return
                self._flush_noise()
                self.in_packet = True
                del self.packet[:]
                at = start + 1
                continue
            byte = data[at : at + 1]
            at += 1
            if byte == self.START:
                self._drop_packet("truncated")  # and this STX starts the next one
            elif byte == self.STOP:
                self.in_packet = False
                self.handle_packet(bytes(self.packet))
                del self.packet[:]
            else:
                self.packet.extend(byte)
                if len(self.packet) > self.FRAME:
                    self.in_packet = False  # what follows, up to the next STX, is noise
                    self._drop_packet("too-long")

    def handle_packet(self, packet: bytes) -> None:
        if len(packet) != self.FRAME:
            self.on_dropped(Dropped.of("length", packet))
            return
        text = packet.decode("latin-1")
        if not HEX.issuperset(text):
            self.on_dropped(Dropped.of("not-hex", packet))
            return
        data = bytes.fromhex(text[: self.DATA])
        expected = functools.reduce(lambda a, b: a ^ b, data)
        got = int(text[self.DATA :], 16)
        if got != expected:
            self.on_dropped(
                Dropped.of("checksum", packet, got=text[self.DATA :], expected=f"{expected:02X}")
            )
            return
        self.on_tag(text[: self.DATA].upper())

    def handle_out_of_packet_data(self, data: bytes) -> None:
        self.noise.extend(data)
        while len(self.noise) >= self.MAX_NOISE:  # said in pieces of MAX_NOISE bytes
            self.on_dropped(Dropped.of("noise", bytes(self.noise[: self.MAX_NOISE])))
            del self.noise[: self.MAX_NOISE]

    def connection_lost(self, exc: BaseException | None) -> None:
        self._flush_noise()
        super().connection_lost(None)  # resets the frame; never re-raises
        self.on_lost(exc)

    def _flush_noise(self) -> None:
        if self.noise:
            self.on_dropped(Dropped.of("noise", bytes(self.noise)))
            del self.noise[:]

    def _drop_packet(self, reason: str) -> None:
        self.on_dropped(Dropped.of(reason, self.START + bytes(self.packet)))
        del self.packet[:]


class LineTags(Reporter, LineReader):
    """One tag id per line, hex, as an Arduino sketch or a USB reader prints it."""

    TERMINATOR = b"\n"
    ENCODING = "ascii"
    UNICODE_HANDLING = "replace"
    MAX_LINE = 80

    def __init__(self, on_tag: TagSink, on_dropped: DropSink, on_lost: LostSink) -> None:
        super().__init__(on_tag, on_dropped, on_lost)
        self.skipping = False  # after a line too long: up to the next end of line

    def data_received(self, data: bytes) -> None:
        data = data.replace(b"\r", b"\n")
        if self.skipping:
            end = data.find(b"\n")
            if end < 0:
                return
            self.skipping = False
            data = data[end + 1 :]
        super().data_received(data)
        if len(self.buffer) > self.MAX_LINE:
            self.on_dropped(Dropped.of("too-long", bytes(self.buffer)))
            del self.buffer[:]
            self.skipping = True

    def handle_packet(self, packet: bytes) -> None:
        if len(packet) > self.MAX_LINE:
            self.on_dropped(Dropped.of("too-long", packet))
        elif packet.strip():
            tag = self.parse(packet.decode(self.ENCODING, self.UNICODE_HANDLING))
            if tag is None:
                self.on_dropped(Dropped.of("not-hex", packet.strip()))
            else:
                self.on_tag(tag)

    @classmethod
    def parse(cls, line: str) -> str | None:
        """The tag id of a line, in upper case; ``None`` if the line is not one whole id.

        A tag id (:mod:`hardware.uid`) is one run of 8, 10, 14 or 20 hex digits, or 4 or 7
        or 10 bytes of two digits each, separated by spaces, colons or dashes; or it
        follows a label naming it (``Card UID:``, ``UID Value:``, ``Tag ID:``), where
        bytes may also be unpadded or ``0x``-prefixed (the Adafruit PN532 sketch), and 5
        of them are a 125 kHz id. That leaves out the page lines of a memory dump (``  0
        04 6B 8A 88``: a page number, then 4 bytes), a reader's settings (``Serial
        speed: 9600``, ``Reader ID: 0106``: a label about something else, or a number
        too short) and its clock (``13:45:10:22``).

        >>> LineTags.parse("Card UID: 04 a3 2b 1c"), LineTags.parse("UID: 4 A3 2B 1C")
        ('04A32B1C', '04A32B1C')
        >>> LineTags.parse("UID Value: 0x04 0xA3 0x2B 0x1C"), LineTags.parse("  0   04 6B 8A 88")
        ('04A32B1C', None)
        >>> LineTags.parse("hello world"), LineTags.parse("Card SAK: 08")
        (None, None)
        >>> LineTags.parse("Serial speed: 9600"), LineTags.parse("13:45:10:22")
        (None, None)
        """
        text = line.strip()
        label, sep, value = text.rpartition(":")
        labelled = bool(sep) and names_uid(label)
        if sep and not labelled and (not HEX_ONLY.fullmatch(text) or clock_time(text.split(":"))):
            return None  # "PICC type: ...", "Card SAK: 08", "Reader ID: 0106", a time
        if labelled:
            text = value
        parts = [p[2:] if p[:2] in ("0x", "0X") else p for p in SEPARATORS.split(text.strip())]
        parts = [p for p in parts if p]
        if not parts or not all(HEX.issuperset(p) for p in parts):
            return None
        if len(parts) == 1:
            return run(parts[0])
        if labelled:
            if any(len(p) > 2 for p in parts) or len(parts) not in TAG_BYTES:
                return None
            return "".join(p.zfill(2) for p in parts).upper()
        if any(len(p) != 2 for p in parts) or len(parts) not in UID_BYTES:
            return None
        return "".join(parts).upper()

    def connection_lost(self, exc: BaseException | None) -> None:
        super().connection_lost(None)  # forgets the transport; never re-raises
        self.on_lost(exc)


PROTOCOLS: dict[str, type[RDM6300Frames] | type[LineTags] | type[PN532Protocol]] = {
    RDM6300: RDM6300Frames,
    LINES: LineTags,
    PN532: PN532Protocol,
}


class Debouncer:
    """Lets a tag through when it arrives, not its repeats until it was ``away`` seconds.

    >>> now = [0.0]
    >>> d = Debouncer(away=1.0, clock=lambda: now[0])
    >>> d.fresh("0A"), d.fresh("0A")
    (True, False)
    >>> now[0] = 0.9; d.fresh("0A")     # still on the reader: each frame renews it
    False
    >>> now[0] = 2.0; d.fresh("0A")     # 1.1 s without a frame: put back on the reader
    True
    """

    def __init__(self, away: float = 1.0, clock: Callable[[], float] = time.monotonic) -> None:
        self.away = away
        self.clock = clock
        self._last: dict[str, float] = {}

    def fresh(self, tag: str) -> bool:
        now = self.clock()
        last = self._last.get(tag)
        self._last[tag] = now
        if len(self._last) > 64:
            self._last = {t: s for t, s in self._last.items() if now - s < self.away}
        return last is None or now - last >= self.away


class _ReaderThread(ReaderThread):
    """pyserial's reader thread, telling the supervisor when it ends, whatever the cause."""

    def __init__(
        self,
        port: serial.SerialBase,
        protocol_factory: Callable[[], Protocol],
        done: LostCallback,
        name: str,
    ) -> None:
        super().__init__(port, protocol_factory)
        self.name = name
        self._done = done

    def run(self) -> None:
        error: BaseException | None = None
        try:
            super().run()
        except Exception as err:  # an OSError pyserial let out of its loop (in_waiting)
            error = err
        finally:
            self._done(error)


class RfidReader:
    """A reader on ``port`` (a device path or a pyserial URL), kept connected until stopped.

    ``on_tag(tag)`` gets each tag id, hex in upper case as the reader sent it, debounced;
    ``on_status(state, detail)`` each change of :attr:`state` (``connected``,
    ``disconnected``, ``stopped``) with a translated ``detail`` that says what to do;
    ``on_dropped(dropped)`` each frame thrown away (:class:`Dropped`). See the module's
    documentation for the threads these arrive on.
    """

    def __init__(
        self,
        port: str,
        reader: str = RDM6300,
        *,
        on_tag: TagCallback,
        on_status: StatusCallback | None = None,
        on_dropped: DroppedCallback | None = None,
        baudrate: int | None = None,
        away: float = 1.0,
        retry: float = 2.0,
        clock: Callable[[], float] = time.monotonic,
        cmdline: Path | None = None,
        events: Callable[[str], EventSource] | None = None,
    ) -> None:
        self.kind = kind(reader)  # ValueError naming the kinds
        self.reader = reader
        self.port = ports.input_path(port) if self.kind.port == INPUT else port
        self.baudrate = baud_of(reader, baudrate) or 0
        self.cmdline = cmdline or ports.CMDLINE  # the kernel's, where consoles are set
        self.events = events
        """Opens a keyboard reader's device (tests give recorded events)."""
        self.on_tag = on_tag
        self.on_status = on_status
        self.on_dropped = on_dropped
        self.retry = retry
        self.state = STOPPED
        self.detail = ""
        self.frames = 0
        """Valid frames received, repeats included."""
        self._debounce = Debouncer(away, clock)
        self._dropped: Counter[str] = Counter()
        self._lock = threading.Lock()
        self._stopping = threading.Event()
        self._wake = threading.Event()
        self._supervisor: threading.Thread | None = None

    # ------------------------------------------------------------------ control

    def start(self) -> RfidReader:
        """Start reading (in the background: :attr:`state` follows). Returns ``self``."""
        if self._supervisor is not None:
            raise RuntimeError("this reader was started already")
        self._supervisor = threading.Thread(
            target=self._supervise, name=f"rfid-supervisor {self.port}", daemon=True
        )
        self._supervisor.start()
        return self

    def stop(self, timeout: float = 5.0) -> None:
        """Close the port and end the threads (``stopped`` is the last status reported)."""
        self._stopping.set()
        self._wake.set()
        if self._supervisor is not None and self._supervisor is not threading.current_thread():
            self._supervisor.join(timeout)

    def __enter__(self) -> RfidReader:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()

    @property
    def dropped(self) -> dict[str, int]:
        """How many frames were dropped, by reason."""
        with self._lock:
            return dict(self._dropped)

    # ------------------------------------------------------ from the reader thread

    def _tag(self, tag: str) -> None:
        with self._lock:
            self.frames += 1
            fresh = self._debounce.fresh(tag)
        if fresh:
            self._call(self.on_tag, tag)

    def _drop(self, item: Dropped) -> None:
        with self._lock:
            self._dropped[item.reason] += 1
        log.debug("rfid %s: dropped %s", self.port, item)  # its words made if logged
        if self.on_dropped is not None:
            self._call(self.on_dropped, item)

    def _call(self, callback: Callable[..., object], *args: object) -> None:
        try:
            callback(*args)
        except Exception:
            log.exception("rfid %s: a callback failed; the reader carries on", self.port)

    # -------------------------------------------------------------- supervisor

    def _status(self, state: str, detail: str) -> None:
        if state == self.state:
            return
        self.state, self.detail = state, detail
        log.info("rfid %s: %s: %s", self.port, state, detail)
        if self.on_status is not None:
            self._call(self.on_status, state, detail)

    def _open(self) -> serial.SerialBase:
        port = serial.serial_for_url(
            self.port, baudrate=self.baudrate, timeout=None, exclusive=True, do_not_open=True
        )
        port.open()
        return port

    def _supervise(self) -> None:
        try:
            while not self._stopping.is_set():
                if self.kind.port == INPUT:
                    self._supervise_input()
                    continue
                console = console_on(self.port, self.cmdline)
                if console is not None:
                    self._status(BLOCKED, console_message(self.port, console))
                    self._stopping.wait(max(self.retry, 5.0))
                    continue
                try:
                    port = self._open()
                except (OSError, ValueError) as err:  # serial.SerialException is an OSError
                    self._status(DISCONNECTED, serial_error(self.port, err).message)
                    self._stopping.wait(self.retry)
                    continue
                error = self._read(port)
                if self._stopping.is_set():
                    break
                self._status(DISCONNECTED, lost_error(self.port, error).message)
                self._stopping.wait(self.retry)
        except Exception:  # a bug of ours: say it, and let the game go on without the reader
            log.exception("rfid %s: the supervisor failed", self.port)
        finally:
            self._status(STOPPED, _("the reader is stopped"))

    def _read(self, port: serial.SerialBase) -> BaseException | None:
        """Run a reader thread on the open ``port`` until it ends or :meth:`stop`."""
        lost: list[BaseException | None] = []
        ended = threading.Event()

        def done(error: BaseException | None) -> None:
            if error is not None:
                lost.append(error)
            ended.set()
            self._wake.set()

        def on_lost(exc: BaseException | None) -> None:
            lost.append(exc)

        factory = functools.partial(PROTOCOLS[self.reader], self._tag, self._drop, on_lost)
        thread = _ReaderThread(port, factory, done, name=f"rfid-reader {self.port}")
        self._wake.clear()
        thread.start()
        ticking = self.reader == PN532
        if not ticking:  # a PN532 is connected when it answers
            self._status(CONNECTED, self._reading())
        try:
            while not (ended.is_set() or self._stopping.is_set()):
                self._wake.wait(TICK if ticking else None)
                self._wake.clear()
                if ended.is_set() or self._stopping.is_set():
                    break  # woken to end: no poll is written to a port that is going away
                protocol = thread.protocol
                if ticking and isinstance(protocol, PN532Protocol):
                    try:
                        change = protocol.tick()
                    except OSError as err:  # the port went away as a poll was written
                        lost.append(err)
                        break
                    if change is not None and change[0]:
                        firmware = _("PN532 firmware {version}").format(version=change[1])
                        self._status(CONNECTED, f"{self._reading()}: {firmware}")
                    elif change is not None:
                        self._status(DISCONNECTED, silent_message(self.port))
        finally:
            thread.close()  # stops the thread (if still reading) and closes the port
        errors = [e for e in lost if e is not None]
        return errors[-1] if errors else None

    def _reading(self) -> str:
        if not self.baudrate:
            return _("reading {port} ({reader})").format(port=self.port, reader=self.reader)
        return _("reading {port} ({reader}, {baud} baud)").format(
            port=self.port, reader=self.reader, baud=self.baudrate
        )

    # ------------------------------------------------------- a keyboard reader

    def _supervise_input(self) -> None:
        """Open the keyboard reader's device (grabbed), read it until it goes away."""
        try:  # python-evdev (Linux): imported only for a keyboard reader
            from . import keyboard as keyboard_reader
        except ImportError as err:
            self._status(
                DISCONNECTED, _("cannot open {port}: {reason}").format(port=self.port, reason=err)
            )
            self._stopping.wait(self.retry)
            return
        try:
            source = (self.events or keyboard_reader.EvdevSource)(self.port)
        except OSError as err:
            self._status(DISCONNECTED, keyboard_reader.open_error(self.port, err).message)
            self._stopping.wait(self.retry)
            return
        typing = keyboard_reader.KeyTyping(
            self._tag, lambda reason, text: self._drop(Dropped.of("typed", text.encode()))
        )
        self._status(CONNECTED, self._reading())
        error: BaseException | None = None
        try:
            while not self._stopping.is_set():
                typing.feed(source.read(0.1))
        except OSError as err:  # unplugged: ENODEV
            error = err
            typing.lost()
        finally:
            source.close()
        if not self._stopping.is_set():
            self._status(DISCONNECTED, lost_error(self.port, error).message)
            self._stopping.wait(self.retry)


def console_message(port: str, console: str) -> str:
    """What the app and the command line say when a serial console holds the port."""
    return _(
        "a console holds this port ({port} is console={console} in cmdline.txt): turn it "
        "off with sudo raspi-config (Interface Options, Serial Port: login shell No, "
        "hardware Yes), then reboot"
    ).format(port=port, console=console)
