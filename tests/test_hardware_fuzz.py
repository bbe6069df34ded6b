"""Noise on the wire, generated: every kind of reader reads the tags planted in it, in
order, and nothing else; nothing raises (a raise ends the reader's thread: the reader
would be said disconnected), and a PN532 is never said silent for noise.

Each reader's own protocol object is fed the bytes (the key presses) as its thread would
feed them, cut at generated places; the PN532's answers come from the simulated module of
``test_hardware_readers``, which hears the host's real commands. Hypothesis runs its
default number of examples; ``HYPOTHESIS_PROFILE=long`` (tests/conftest.py) many more.
Then a mebibyte of noise through each real reader, its thread and its port: no false card.
"""

from __future__ import annotations

import random
import re
import string
from collections.abc import Callable, Iterator, Sequence
from itertools import cycle
from typing import Any

import pytest
from devices import PN532Chip, PN532Module, Pty, frame, module_frame, started, until
from evdev import InputEvent, ecodes
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st
from wedge import plugged_in, typed

from hardware.keyboard import KeyTyping
from hardware.pn532 import PN532Protocol
from hardware.rfid import CONNECTED, STOPPED, Dropped, LineTags, RDM6300Frames, RfidReader

FUZZ = settings(deadline=None, suppress_health_check=[HealthCheck.too_slow])
NOISE = st.binary(max_size=200)
CUTS = st.lists(st.integers(min_value=1, max_value=64), min_size=1, max_size=8)
MiB = 1 << 20


def pieces(data: bytes, cuts: Sequence[int]) -> Iterator[bytes]:
    """``data`` in the pieces a serial port's reads give: sizes from ``cuts``, again and again."""
    at = 0
    for size in cycle(cuts):
        if at >= len(data):
            return
        yield data[at : at + size]
        at += size


def collapsed(tags: list[str]) -> list[str]:
    """A tag read again and again while on the reader, once (what the debounce does)."""
    return [t for i, t in enumerate(tags) if i == 0 or tags[i - 1] != t]


class Calls:
    """A protocol's callbacks, kept: tags, dropped frames, and a lost connection (never)."""

    def __init__(self) -> None:
        self.tags: list[str] = []
        self.dropped: list[Dropped] = []

    def on_lost(self, exc: BaseException | None) -> None:
        raise AssertionError(f"connection lost: {exc!r}")

    def args(self) -> tuple[Callable[[str], None], Callable[[Dropped], None], Any]:
        return self.tags.append, self.dropped.append, self.on_lost


# ------------------------------------------------------------------------------ RDM6300

EM4100 = st.binary(min_size=5, max_size=5).map(lambda b: b.hex().upper())
VALID_FRAME = re.compile(rb"\x02[0-9A-Fa-f]{12}\x03")
HEX_TEXT = st.text(alphabet="0123456789ABCDEFabcdef", max_size=16).map(str.encode)
RDM6300_NOISE = st.lists(
    NOISE
    | HEX_TEXT
    | st.sampled_from([b"\x02", b"\x03", b"\x02\x03"])
    | st.tuples(EM4100, st.integers(0, 13)).map(lambda t: frame(t[0])[: t[1]])  # cut short
    | EM4100.map(lambda tag: frame(tag, checksum="ZZ"))
    | EM4100.map(lambda tag: frame(tag)[:-1] + b"0" + frame(tag)[-1:]),  # too long
    max_size=6,
).map(b"".join)


@FUZZ
@given(
    stream=st.lists(st.tuples(RDM6300_NOISE, EM4100), max_size=6),
    tail=RDM6300_NOISE,
    cuts=CUTS,
)
def test_rdm6300_reads_the_frames_in_any_noise(
    stream: list[tuple[bytes, str]], tail: bytes, cuts: list[int]
) -> None:
    assume(not any(VALID_FRAME.search(noise) for noise, _tag in stream))
    assume(not VALID_FRAME.search(tail))
    calls = Calls()
    protocol = RDM6300Frames(*calls.args())
    data = b"".join(noise + frame(tag) for noise, tag in stream) + tail
    for piece in pieces(data, cuts):
        protocol.data_received(piece)
    assert calls.tags == [tag for _noise, tag in stream]
    # However the bytes arrive (the noise is taken in runs), the same frames are dropped
    # for the same reasons as when they come one at a time.
    one_by_one = Calls()
    single = RDM6300Frames(*one_by_one.args())
    for at in range(len(data)):
        single.data_received(data[at : at + 1])
    assert (calls.tags, calls.dropped) == (one_by_one.tags, one_by_one.dropped)


# -------------------------------------------------------------------------------- lines

UID = st.sampled_from([4, 7, 10]).flatmap(lambda n: st.binary(min_size=n, max_size=n))


def _clock(uid: bytes) -> bool:
    """Whether the colon form of ``uid`` reads as a time (chatter, by the docs' rule)."""
    parts = uid.hex(":").split(":")
    return (
        len(parts) == 4
        and all(p.isdigit() for p in parts)
        and int(parts[0]) < 24
        and int(parts[1]) < 60
        and int(parts[2]) < 60
    )


# How a reader may print a UID: every form docs/hardware.md promises.
FORMS: list[Callable[[bytes], str]] = [
    lambda u: u.hex().upper(),
    lambda u: u.hex(),
    lambda u: u.hex(" ").upper(),
    lambda u: u.hex(":").upper() if not _clock(u) else u.hex(),
    lambda u: u.hex("-"),
    lambda u: "Card UID: " + u.hex(" ").upper(),
    lambda u: "  UID Value: " + " ".join(f"0x{b:02X}" for b in u),
    lambda u: "UID: " + " ".join(f"{b:X}" for b in u),
]
LINE_ENDS = st.sampled_from([b"\n", b"\r\n", b"\r"])


@st.composite
def printed(draw: st.DrawFn) -> tuple[bytes, str]:
    """A UID as a reader prints it (a line, its end included), and the tag it is."""
    uid = draw(UID)
    form = draw(st.sampled_from(FORMS))
    return form(uid).encode() + draw(LINE_ENDS), uid.hex().upper()


def line_tags(noise: bytes) -> list[str]:
    """The tags a line reader may rightly read in ``noise``: its whole lines that are one
    (lines of up to 80 characters, as the reader keeps)."""
    lines = noise.replace(b"\r", b"\n").split(b"\n")
    return [
        tag
        for line in lines
        if len(line) <= LineTags.MAX_LINE
        and (tag := LineTags.parse(line.decode("ascii", "replace"))) is not None
    ]


# What line readers print besides tags (a reader's speed, its id, a count), and lines cut.
CHATTER_BYTES = [b"Serial speed: 9600", b"Serial: 115200", b"Tag count: 1000", b"Reader ID: 0106"]
CHATTER_BYTES += [b"13:45:10:22", b"Card SAK: 08", b"  0   04 6B 8A 88", b"x" * 100]
LINE_NOISE = st.lists(
    NOISE
    | st.text(max_size=100).map(str.encode)
    | HEX_TEXT
    | LINE_ENDS
    | st.sampled_from(CHATTER_BYTES)
    | st.tuples(printed(), st.integers(0, 30)).map(lambda t: t[0][0][: t[1]]),  # cut short
    max_size=6,
).map(b"".join)


@FUZZ
@given(stream=st.lists(st.tuples(LINE_NOISE, printed()), max_size=6), cuts=CUTS)
def test_a_line_reader_reads_the_uids_in_any_chatter(
    stream: list[tuple[bytes, tuple[bytes, str]]], cuts: list[int]
) -> None:
    """Each bit of noise ends with a line's end (a garbled line ends too; without one, the
    noise and the next line are one line, and no tag)."""
    assume(not any(line_tags(noise) for noise, _line in stream))
    calls = Calls()
    protocol = LineTags(*calls.args())
    data = b"".join(noise + b"\n" + line for noise, (line, _tag) in stream)
    for piece in pieces(data, cuts):
        protocol.data_received(piece)
    assert calls.tags == [tag for _noise, (_line, tag) in stream]


@FUZZ
@given(line=st.text() | st.binary().map(lambda b: b.decode("ascii", "replace")))
def test_a_tag_from_any_line_is_its_own_hex_digits_of_a_tag_length(line: str) -> None:
    tag = LineTags.parse(line)
    if tag is not None:
        assert len(tag) in (8, 10, 14, 20)
        assert set(tag) <= set("0123456789ABCDEF")
        digits = "".join(c for c in line.upper() if c in string.hexdigits.upper())
        assert all(c in digits for c in tag)


OTHER_LENGTH = st.integers(min_value=0, max_value=10**25).map(str)
ABOUT_ELSE = ["Reader ID", "Tag count", "Firmware version", "Serial speed", "Chip ID", "UID Length"]
CHATTER_LINES = st.one_of(
    # a number of no tag's length, after any label (one naming the UID too), or bare
    st.tuples(
        st.sampled_from(["Serial speed", "Serial", "Baud", "Tag", "UID", "Card UID", "ID", ""]),
        OTHER_LENGTH.filter(lambda d: len(d) not in (8, 10, 14, 20)),
    ).map(lambda t: f"{t[0]}: {t[1]}" if t[0] else t[1]),
    # a label about something else than the tag, whatever follows
    st.tuples(st.sampled_from(ABOUT_ELSE), UID).map(lambda t: f"{t[0]}: {t[1].hex().upper()}"),
    # a reader's clock
    st.tuples(
        st.integers(0, 23), st.integers(0, 59), st.integers(0, 59), st.none() | st.integers(0, 99)
    ).map(lambda t: ":".join(f"{n:02d}" for n in t if n is not None)),
)


@FUZZ
@given(line=CHATTER_LINES)
def test_a_readers_chatter_is_never_a_tag(line: str) -> None:
    assert LineTags.parse(line) is None


# ----------------------------------------------------------------------------- keyboard

KEY_CHARS = {
    **{getattr(ecodes, f"KEY_{c}"): c for c in string.digits + string.ascii_uppercase},
    **{getattr(ecodes, f"KEY_KP{c}"): c for c in string.digits},
}
ENTER = {ecodes.KEY_ENTER, ecodes.KEY_KPENTER}
SHIFT = {ecodes.KEY_LEFTSHIFT, ecodes.KEY_RIGHTSHIFT}
EVENTS = st.builds(
    lambda kind, code, value: InputEvent(1700000000, 0, kind, code, value),
    st.sampled_from([ecodes.EV_KEY, ecodes.EV_KEY, ecodes.EV_MSC, ecodes.EV_SYN, ecodes.EV_LED]),
    st.integers(min_value=0, max_value=0x2FF) | st.sampled_from(sorted(KEY_CHARS)),
    st.sampled_from([0, 1, 2]),
)
A_TAG = re.compile(r"[0-9A-F]{8}|[0-9A-F]{10}|[0-9A-F]{14}|[0-9A-F]{20}")


def typed_tags(events: Sequence[InputEvent]) -> list[str]:
    """What the keys pressed type, line by line, and which lines are a tag by the forms
    of docs/hardware.md (a key that types no tag character spoils its line)."""
    tags: list[str] = []
    line, spoilt = "", False
    for event in events:
        if event.type != ecodes.EV_KEY or event.value != 1:
            continue
        if event.code in ENTER:
            if not spoilt and len(line) <= 20 and A_TAG.fullmatch(line):
                tags.append(line)
            line, spoilt = "", False
        elif event.code in KEY_CHARS:
            line += KEY_CHARS[event.code]
        elif event.code not in SHIFT:
            spoilt = True
    return tags


KEY_NOISE = st.lists(
    st.lists(EVENTS, max_size=40)
    | st.text(alphabet="0123456789ABCDEF", max_size=50).map(lambda t: typed(t, enter=False))
    | st.sampled_from(["9600", "115200", "0" * 33 + "3A4B5C6D"]).map(typed),
    max_size=4,
).map(lambda lots: [e for lot in lots for e in lot])


@FUZZ
@given(
    stream=st.lists(st.tuples(KEY_NOISE, UID.map(lambda u: u.hex().upper())), max_size=5),
    reader_noise=st.lists(EVENTS.filter(lambda e: e.type != ecodes.EV_KEY or e.value != 1)),
)
def test_a_keyboard_reader_reads_the_tags_in_any_key_presses(
    stream: list[tuple[list[InputEvent], str]], reader_noise: list[InputEvent]
) -> None:
    """Noise: any events, each lot ended by an Enter; and events that type nothing (key
    releases, repeats, scan codes, lights) among the reader's own."""
    enter = typed("", enter=True)
    noise_tags = [typed_tags([*noise, *enter]) for noise, _tag in stream]
    assume(not any(noise_tags))
    tags: list[str] = []
    bad: list[str] = []
    typing = KeyTyping(tags.append, lambda reason, text: bad.append(text))
    extra = cycle(reader_noise or [InputEvent(0, 0, ecodes.EV_SYN, 0, 0)])
    for noise, tag in stream:
        typing.feed([*noise, *enter])
        typing.feed([e for real in typed(tag) for e in (real, next(extra))])
    assert tags == [tag for _noise, tag in stream]


# -------------------------------------------------------------------------------- PN532


class Wire:
    """The host's side of the serial line: what the host writes, kept for the module."""

    def __init__(self) -> None:
        self.sent = b""

    def write(self, data: bytes) -> None:
        self.sent += data

    def take(self) -> bytes:
        sent, self.sent = self.sent, b""
        return sent


def run_pn532(
    planted: list[str], noises: list[bytes], cuts: list[int], noise_first: bool
) -> tuple[list[str], list[tuple[bool, str]], PN532Chip]:
    """A PN532 reader and its module, by steps of 20 ms of a made-up clock; a person
    holds each card on it until the reader reads it, then takes it away, and some time
    later holds the next. Before or after each answer the module gives, the next bit of
    noise. What the reader read, and the changes of the module's answering it said."""
    now = [0.0]
    calls = Calls()
    protocol = PN532Protocol(*calls.args(), clock=lambda: now[0])
    wire = Wire()
    chip = PN532Chip()
    protocol.connection_made(wire)
    noise = list(noises)
    changes: list[tuple[bool, str]] = []
    left = list(planted)
    put_at = 0.3
    for _step in range(1000 + 200 * len(planted)):
        answer = chip.receive(wire.take())
        if answer:
            bit = noise.pop(0) if noise else b""
            bits = [bit, answer] if noise_first else [answer, bit]
            for piece in pieces(b"".join(bits), cuts):
                protocol.data_received(piece)
        if (change := protocol.tick()) is not None:
            changes.append(change)
        now[0] += 0.02
        if chip.tag is not None and calls.tags and calls.tags[-1] == chip.tag:
            chip.tag, put_at = None, now[0] + 0.3  # read: taken away
            left.pop(0)
        elif chip.tag is None and left and now[0] >= put_at:
            chip.tag = left[0]
        if not left and not noise and changes and now[0] > put_at + 2:
            # all read, all noise sent, the module answered (noise that swallowed its
            # first answers costs time-outs), and a while for anything late to show
            break
    return calls.tags, changes, chip


def spoilt(data: bytes) -> bytes:
    whole = module_frame(data)
    return whole[:-2] + bytes([whole[-2] ^ 0xA5]) + whole[-1:]


# Bytes that look like the PN532's frames: start codes, headers whose frame never comes
# (any LEN), ACKs, NACKs, error frames, spoilt frames, answers to nothing (no tag).
FRAME_LIKE = [b"\x00", b"\x00\xff", b"\x00\x00\xff", PN532Chip.ACK, PN532Chip.NACK]
FRAME_LIKE += [b"\x00\x00\xff\xff\xff", b"\x00\x00\xff\x01\xff\x7f\x81\x00"]
FRAME_LIKE += [module_frame(b"\x4b\x00"), module_frame(b"\x15")]
PN532_NOISE = st.lists(
    NOISE
    | st.sampled_from(FRAME_LIKE)
    | st.integers(0, 255).map(lambda n: b"\x00\x00\xff" + bytes([n, -n & 0xFF]))
    | st.binary(max_size=20).map(spoilt),
    max_size=5,
).map(b"".join)


@settings(FUZZ, max_examples=max(10, settings.default.max_examples // 2))
@given(
    planted=st.lists(UID.map(lambda u: u.hex().upper()), max_size=3),
    noises=st.lists(PN532_NOISE, max_size=12),
    cuts=CUTS,
    noise_first=st.booleans(),
)
def test_a_pn532_reads_the_cards_in_any_noise_and_stays_connected(
    planted: list[str], noises: list[bytes], cuts: list[int], noise_first: bool
) -> None:
    planted = collapsed(planted)
    tags, changes, _chip = run_pn532(planted, noises, cuts, noise_first)
    assert collapsed(tags) == planted
    assert changes == [(True, "1.6")]  # connected once, never said silent


# ----------------------------------------------------------- a mebibyte through each reader


def noise_bytes(seed: int, size: int = MiB) -> bytes:
    return random.Random(seed).randbytes(size)


@pytest.mark.parametrize("kind", ["rdm6300", "lines"])
def test_a_mebibyte_of_noise_on_a_serial_reader_reads_no_false_card(
    readers: list[RfidReader], kind: str
) -> None:
    noise = noise_bytes(24)
    real = frame("0A1B2C3D4E") if kind == "rdm6300" else b"\n04 A3 2B 1C\n"
    tag = "0A1B2C3D4E" if kind == "rdm6300" else "04A32B1C"
    pty = Pty()
    try:
        rec = started(readers, pty.path, kind)
        rec.wait_count(CONNECTED, 1)
        for at in range(0, MiB, 4096):
            pty.write(noise[at : at + 4096])
        pty.write(real)
        rec.wait_count("tag", 1)
        readers[0].stop()
        assert rec.tags == [tag]
        assert rec.states == [CONNECTED, STOPPED]
        assert sum(readers[0].dropped.values()) > 0
    finally:
        pty.unplug()


def test_a_mebibyte_of_noise_around_a_pn532s_answers_reads_no_false_card(
    readers: list[RfidReader],
) -> None:
    class Noisy(PN532Module):
        """A module on a line that picks up noise: a bit of it before each answer."""

        def __init__(self, pty: Pty) -> None:
            self.noise = noise_bytes(5)
            self.at = 0
            super().__init__(pty)

        def receive(self, data: bytes) -> bytes:
            answer = super().receive(data)
            if answer and self.at < len(self.noise):
                bit, self.at = self.noise[self.at : self.at + 65536], self.at + 65536
                return bit + answer
            return answer

    pty = Pty()
    module = Noisy(pty)
    try:
        rec = started(readers, pty.path, "pn532")
        until(lambda: module.at >= MiB, "the noise sent")
        module.tag = "046B8A882C5E80"
        rec.wait_count("tag", 1)
        readers[0].stop()
        assert rec.tags == ["046B8A882C5E80"]
        assert rec.states == [CONNECTED, STOPPED]
    finally:
        module.stop()
        pty.unplug()


def test_a_mebibyte_of_key_noise_on_a_keyboard_reader_reads_no_false_card(
    readers: list[RfidReader],
) -> None:
    raw = noise_bytes(7)
    events = [
        InputEvent(1700000000, 0, raw[i] % 5, raw[i + 1] | (raw[i + 2] & 1) << 8, raw[i + 3] % 3)
        for i in range(0, MiB, 4)
    ]
    assert typed_tags(events) == []  # this noise types no tag (the rule of the docs)
    usb, rec = plugged_in(readers)
    usb.device.play(events + typed("", enter=True) + typed("0004346362"))
    rec.wait_count("tag", 1)
    readers[0].stop()
    assert rec.tags == ["0004346362"]
    assert rec.states == [CONNECTED, STOPPED]
