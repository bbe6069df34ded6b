"""The PN532 (13.56 MHz: NTAG213 stickers, MIFARE cards) on a serial port (its HSU mode).

A pyserial :class:`~serial.threaded.Protocol` for :class:`~serial.threaded.ReaderThread`
that talks the PN532's frames (NXP user manual UM0701-02, section 6.2):

    00 00 FF LEN LCS TFI DATA... DCS 00

``LEN`` counts TFI and data, ``LCS`` makes ``LEN + LCS`` zero (mod 256), ``TFI`` is
``D4`` from the host and ``D5`` from the module, ``DCS`` makes ``TFI + DATA + DCS`` zero.
The module acknowledges each command with the ACK frame ``00 00 FF 00 FF 00`` before it
answers. The sequence:

1. wake the module from its power-down (``55 55`` and zeros), then GetFirmwareVersion
   (``02``): the answer says a PN532 is there;
2. SAMConfiguration (``14``, normal mode);
3. RFConfiguration (``32``) MaxRetries: give up on an empty field after 2 tries, so that
   a poll returns at once when no tag is there;
4. InListPassiveTarget (``4A``, 1 target, 106 kbps type A) again and again: an answer with
   a target carries its UID (NFCID1), the tag read.

A frame that arrives broken (its checksum, ``DCS``, is wrong: a disturbed line) is dropped
and reported, and the module is asked for it again with the NACK frame ``00 00 FF FF 00
00`` (section 6.2.1.4: the module then sends its last answer again). A frame whose header
is broken (``LEN + LCS`` not zero) is dropped as well, and the search for the next frame
goes on from the byte after its start code: a frame hidden in bytes taken for another is
still found.

A command without an answer within :attr:`PN532Protocol.TIMEOUT` seconds is sent again,
as long as the module was heard since it was woken: noise may cost an answer, and the
module is not said gone for it. After :data:`MISSES` time-outs in a row (or the first,
if nothing whole ever came from it) the module is said silent (reset, replugged,
unpowered, miswired), and everything starts again at 1. :meth:`PN532Protocol.tick`
drives the polling and the time-outs; the reader's supervisor calls it a few times a
second.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable

from serial.threaded import Protocol

from companion.i18n import _

from .dropped import Dropped, DropSink, LostSink, Reporter, TagSink
from .uid import UID_BYTES

HOST, MODULE = 0xD4, 0xD5
ACK = b"\x00\x00\xff\x00\xff\x00"
NACK = b"\x00\x00\xff\xff\x00\x00"
ERROR = b"\x7f"
"""The TFI of an error frame (``00 00 FF 01 FF 7F 81 00``): the module found a command bad."""
WAKE = b"\x55\x55" + bytes(14)
GET_FIRMWARE, SAM_CONFIGURATION, RF_CONFIGURATION, IN_LIST_PASSIVE_TARGET = 0x02, 0x14, 0x32, 0x4A
COMMANDS = {
    GET_FIRMWARE: b"",
    SAM_CONFIGURATION: b"\x01\x14\x01",  # normal mode, time-out 1 s, use the IRQ pin
    RF_CONFIGURATION: b"\x05\xff\x01\x02",  # MaxRetries: ATR, PSL, passive activation
    IN_LIST_PASSIVE_TARGET: b"\x01\x00",  # one target, 106 kbps type A
}
NEXT = {GET_FIRMWARE: SAM_CONFIGURATION, SAM_CONFIGURATION: RF_CONFIGURATION}
MAX_BUFFER = 512
NACKS = 2
"""Broken answers asked again (NACK) for one command, before its time-out takes over."""
MISSES = 3
"""Time-outs in a row, of a module that was heard, before it is said silent."""


def frame(data: bytes, tfi: int = HOST) -> bytes:
    """A normal information frame carrying ``data``.

    >>> frame(bytes([0x02])).hex(" ")
    '00 00 ff 02 fe d4 02 2a 00'
    """
    body = bytes([tfi]) + data
    length = len(body)
    return (
        b"\x00\x00\xff"
        + bytes([length, (-length) & 0xFF])
        + body
        + bytes([(-sum(body)) & 0xFF, 0x00])
    )


class Frames:
    """Bytes in, frames out: ``"ack"``, ``"frame"`` and its body (TFI and data), or a
    broken one (``"checksum"``: the whole frame, its DCS wrong; ``"length"``: the header,
    ``LEN + LCS`` not zero).

    >>> f = Frames()
    >>> f.feed(ACK + frame(b"\\x03\\x32\\x01\\x06\\x07", MODULE))
    [('ack', b''), ('frame', b'\\xd5\\x032\\x01\\x06\\x07')]
    >>> f.feed(b"\\x00\\x00\\xff\\x02\\xfe\\xd5\\x4b\\x00\\x00")  # DCS is wrong
    [('checksum', b'\\x00\\x00\\xff\\x02\\xfe\\xd5K\\x00')]

    A broken frame gives up its start code only: a frame among its bytes is found.

    >>> [kind for kind, _ in Frames().feed(b"\\x00\\xff\\x09\\xf7\\x42" + frame(b"\\x4b", MODULE))]
    ['checksum', 'frame']

    So does one that only looks whole: a module's frame is the module's (TFI ``D5``, or
    ``7F``: an error frame).

    >>> [kind for kind, _ in Frames().feed(b"\\x00\\xff\\x09\\xf7\\x01" + frame(b"\\x4b", MODULE))]
    ['frame']
    """

    def __init__(self) -> None:
        self.buffer = bytearray()

    def feed(self, data: bytes) -> list[tuple[str, bytes]]:
        self.buffer.extend(data)
        out: list[tuple[str, bytes]] = []
        while True:
            start = self.buffer.find(b"\x00\xff")
            if start < 0:
                # keep a last 00: it may be the start code's first half
                del self.buffer[: max(0, len(self.buffer) - 1)]
                return out
            del self.buffer[:start]
            if len(self.buffer) < 4:
                return out
            length, lcs = self.buffer[2], self.buffer[3]
            if length == 0 and lcs == 0xFF:
                out.append(("ack", b""))
                del self.buffer[:4]
                continue
            if (length + lcs) & 0xFF:
                out.append(("length", b"\x00" + bytes(self.buffer[:4])))
                del self.buffer[:2]
                continue
            if len(self.buffer) < 5 + length:
                if len(self.buffer) > MAX_BUFFER:
                    del self.buffer[:2]
                    continue
                return out
            body = bytes(self.buffer[4 : 4 + length])
            dcs = self.buffer[4 + length]
            if (sum(body) + dcs) & 0xFF:
                # noise that looked like a header may have taken a real frame in: look
                # for it from the byte after this start code
                out.append(("checksum", b"\x00" + bytes(self.buffer[: 5 + length])))
                del self.buffer[:2]
            elif body[:1] in (bytes([MODULE]), ERROR):
                out.append(("frame", body))
                del self.buffer[: 5 + length]
            else:  # both checksums right by chance, in noise: not the module's frame
                del self.buffer[:2]

    def flush(self) -> list[tuple[str, bytes]]:
        """Give up the frames being waited for (the answer is late: they were noise, their
        ``LEN`` made up): ``("length", header)`` for each, and the frames found in the bytes
        they had taken."""
        out: list[tuple[str, bytes]] = []
        while len(self.buffer) >= 4 and self.buffer[:2] == b"\x00\xff":
            out.append(("length", b"\x00" + bytes(self.buffer[:4])))
            rest = bytes(self.buffer[2:])
            self.buffer.clear()
            out.extend(self.feed(rest))
        return out


def dropped(kind: str, data: bytes) -> Dropped:
    """The :class:`~hardware.dropped.Dropped` of a broken frame (``Frames``' ``checksum``
    or ``length``): either way a checksum that does not match, said with both values."""
    if kind == "length":  # 00 00 FF LEN LCS
        got, expected = data[4], (-data[3]) & 0xFF
    else:  # 00 00 FF LEN LCS body DCS
        got, expected = data[-1], (-sum(data[5:-1])) & 0xFF
    return Dropped.of("checksum", data, got=f"{got:02X}", expected=f"{expected:02X}")


def uid_of(answer: bytes) -> str | None:
    """The UID in an InListPassiveTarget answer (after its ``4B``), or ``None`` (no tag,
    or one whose claimed size is no UID's: :func:`uid_size_error` says which).

    >>> uid_of(bytes.fromhex("01 01 0044 00 07 046b8a882c5e80"))
    '046B8A882C5E80'
    """
    if len(answer) < 6 or answer[0] < 1:
        return None
    size = answer[5]
    uid = answer[6 : 6 + size]
    return uid.hex().upper() if size in UID_BYTES and len(uid) == size else None


def uid_size_error(answer: bytes) -> Dropped | None:
    """A reading error for an answer naming a tag whose UID is not 4, 7 or 10 bytes
    (a 200-byte one is no tag of ISO 14443, whatever the module says).

    >>> uid_size_error(bytes.fromhex("01 01 0044 00 c8 04")).reason
    'uid-size'
    """
    if len(answer) < 6 or answer[0] < 1 or answer[5] in UID_BYTES:
        return None
    return Dropped.of("uid-size", answer[:16], size=str(answer[5]))


class PN532Protocol(Reporter, Protocol):
    """The host's side of the PN532's serial protocol (see the module)."""

    TIMEOUT = 1.0
    POLL = 0.1
    """Seconds between two polls when no tag is there."""

    def __init__(
        self,
        on_tag: TagSink,
        on_dropped: DropSink,
        on_lost: LostSink,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        super().__init__(on_tag, on_dropped, on_lost)
        self.clock = clock
        self.frames = Frames()
        self.transport: object = None
        self.pending: int | None = None
        self.sent_at = 0.0
        self.poll_at: float | None = None
        self.firmware = ""
        self.ready = False
        self.silent = False
        self.heard = False
        """Something whole came from the module (an ACK, a frame) since it was woken."""
        self.misses = 0
        """Time-outs in a row since the module was last heard."""
        self.nacks = 0
        """NACKs sent for the pending command."""
        self._changes: list[tuple[bool, str]] = []
        self._lock = threading.Lock()

    # ---------------------------------------------------------------- sending

    def _send(self, command: int, wake: bool = False) -> None:
        self.pending = command
        self.sent_at = self.clock()
        self.nacks = 0
        data = frame(bytes([command]) + COMMANDS[command])
        self.transport.write((WAKE if wake else b"") + data)  # type: ignore[attr-defined]

    def connection_made(self, transport: object) -> None:
        self.transport = transport
        with self._lock:
            self._send(GET_FIRMWARE, wake=True)

    # -------------------------------------------------------------- receiving

    def data_received(self, data: bytes) -> None:
        with self._lock:
            self._received(self.frames.feed(data))

    def _received(self, pieces: list[tuple[str, bytes]]) -> None:
        for kind, body in pieces:
            if kind in ("ack", "frame"):
                self.heard = True
                self.misses = 0
                if kind == "frame":
                    self._answer(body)
                continue
            self.on_dropped(dropped(kind, body))
            if kind == "checksum" and self.pending is not None and self.nacks < NACKS:
                # maybe the answer, spoilt on the way: the module sends it again
                self.nacks += 1
                self.transport.write(NACK)  # type: ignore[attr-defined]

    def _answer(self, body: bytes) -> None:
        if body[:1] != bytes([MODULE]) or len(body) < 2 or self.pending is None:
            return  # an error frame (7F) or an answer to nothing: the time-out starts again
        command = body[1] - 1
        if command != self.pending:
            return
        data = body[2:]
        self.pending = None
        if self.silent or not self.ready:
            self.silent = False
        if command == GET_FIRMWARE:
            self.firmware = f"{data[1]}.{data[2]}" if len(data) >= 3 else "?"
        if command in NEXT:
            self._send(NEXT[command])
        elif command == RF_CONFIGURATION:
            self.ready = True
            self._changes.append((True, self.firmware))
            self.poll_at = self.clock()  # polled once the reader is said connected
        elif command == IN_LIST_PASSIVE_TARGET:
            uid = uid_of(data)
            if uid is not None:
                self.on_tag(uid)
                self._send(IN_LIST_PASSIVE_TARGET)
            else:
                wrong = uid_size_error(data)
                if wrong is not None:
                    self.on_dropped(wrong)
                self.poll_at = self.clock() + self.POLL

    # ----------------------------------------------------------------- timing

    def tick(self) -> tuple[bool, str] | None:
        """Send what is due; a change of the module's answering, if any: ``(True,
        firmware)`` when it answers again, ``(False, "")`` when it stopped answering."""
        with self._lock:
            if self._changes:  # said before anything that follows it
                return self._changes.pop(0)
            now = self.clock()
            if self.pending is not None and now - self.sent_at > self.TIMEOUT:
                self._late()
            elif self.pending is None and self.poll_at is not None and now >= self.poll_at:
                self.poll_at = None
                self._send(IN_LIST_PASSIVE_TARGET)
            return self._changes.pop(0) if self._changes else None

    def _late(self) -> None:
        """The pending command had no answer in time: look in what came, ask again, or
        say the module silent and wake it."""
        sent_at = self.sent_at
        self._received(self.frames.flush())  # the answer, behind a made-up header
        if self.pending is None or self.sent_at != sent_at:
            return  # it was there: what is due next is done
        if self.heard and self.misses < MISSES - 1:
            self.misses += 1
            self._send(self.pending, wake=not self.ready)
            return
        if not self.silent:
            self.silent = True
            self.ready = False
            self.heard = False
            self._changes.append((False, ""))
        self._send(GET_FIRMWARE, wake=True)

    def connection_lost(self, exc: BaseException | None) -> None:
        self.transport = None
        self.on_lost(exc)


def silent_message(port: str) -> str:
    return _(
        "the PN532 on {port} does not answer: check its wiring (its TX to the Pi's RX, "
        "RX to TX), that its switches select UART (HSU), and the speed (115200 baud)"
    ).format(port=port)
