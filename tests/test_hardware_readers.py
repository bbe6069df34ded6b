"""The readers people buy: a PN532 (a simulated module speaking its real frames on a
pseudo-terminal), a USB keyboard-wedge reader (recorded input events), the line readers'
whole-UID rule, and a serial console holding the port."""

from __future__ import annotations

import threading
import time
from pathlib import Path

import pytest
from devices import (
    EXIT_WAIT,
    PN532Module,
    Pty,
    Recorder,
    ctrl_c,
    rfid_command,
    rfid_running,
    started,
    until,
)
from wedge import BY_ID, Recorded, UsbPort, plugged_in, typed

from hardware.readers import NAMES, READERS
from hardware.rfid import BLOCKED, CONNECTED, DISCONNECTED, STOPPED, LineTags, RfidReader
from hardware.tagmap import FILE_NAME, TagMap

NTAG = "046B8A882C5E80"
MIFARE = "DEADBEEF"

# ------------------------------------------------------------------ a simulated PN532


def connected(readers: list[RfidReader], pn532: tuple[Pty, PN532Module]) -> Recorder:
    """A reader started on the simulated module's port, and said connected; what it hears."""
    rec = started(readers, pn532[0].path, "pn532")
    rec.wait_count(CONNECTED, 1)
    return rec


def test_pn532_is_woken_configured_and_polled_and_reports_each_tag(
    readers: list[RfidReader], pn532: tuple[Pty, PN532Module]
) -> None:
    _pty, module = pn532
    rec = connected(readers, pn532)
    assert "115200 baud" in rec.of(CONNECTED)[0]
    assert "PN532 firmware 1.6" in rec.of(CONNECTED)[0]
    assert module.commands[:3] == [0x02, 0x14, 0x32]
    module.tag = NTAG
    rec.wait_count("tag", 1)
    polled = module.commands.count(0x4A)
    until(lambda: module.commands.count(0x4A) >= polled + 5, "more polls of the same tag")
    module.tag = None
    polled = module.commands.count(0x4A)
    until(lambda: module.commands.count(0x4A) >= polled + 3, "polls after the tag left")
    module.tag = MIFARE
    rec.wait_count("tag", 2)
    assert rec.tags == [NTAG, MIFARE]  # the NTAG, polled many times, once
    assert module.bad == []
    assert readers[0].dropped == {}


def test_a_pn532_answer_with_a_bad_checksum_is_asked_again_and_the_card_read(
    readers: list[RfidReader], pn532: tuple[Pty, PN532Module]
) -> None:
    """A disturbed line spoils one answer: it is dropped and counted, the module is asked
    for it again (NACK), the reader stays connected and reads the card then presented."""
    _pty, module = pn532
    rec = connected(readers, pn532)
    polled = module.commands.count(0x4A)
    until(lambda: module.commands.count(0x4A) > polled, "a poll")
    module.corrupt = 1  # the next answer: an empty field, its checksum spoilt
    until(lambda: module.corrupt == 0, "the spoilt answer")
    module.tag = NTAG
    rec.wait_count("tag", 1)
    module.corrupt = 1  # and one answer carrying the tag
    module.tag = MIFARE
    rec.wait_count("tag", 2)
    assert rec.tags == [NTAG, MIFARE]
    assert rec.states == [CONNECTED]  # never said disconnected
    assert readers[0].dropped == {"checksum": 2}
    assert module.nacks == 2
    assert all("bad checksum" in d.message for d in rec.of("dropped"))


def test_a_pn532_answer_lost_on_the_way_is_asked_again_and_the_reader_stays(
    readers: list[RfidReader], pn532: tuple[Pty, PN532Module]
) -> None:
    _pty, module = pn532
    rec = connected(readers, pn532)
    module.lose = 1  # the answer (its ACK came) never arrives: asked again
    until(lambda: module.lose == 0, "the lost answer")
    module.tag = NTAG
    rec.wait_count("tag", 1)
    assert rec.states == [CONNECTED]


def test_a_pn532_answer_claiming_a_200_byte_uid_is_a_reading_error(
    readers: list[RfidReader], pn532: tuple[Pty, PN532Module]
) -> None:
    """A module (or a line) claiming a tag of 200 bytes: no ISO 14443 tag has such an id
    (4, 7 or 10 bytes), so it is a reading error said in one line, never a 400-digit tag;
    the next real tag is read."""
    _pty, module = pn532
    rec = connected(readers, pn532)
    module.tag = "AB" * 200
    rec.wait_count("dropped", 1)
    wrong = rec.of("dropped")[0]
    assert wrong.reason == "uid-size" and "200 bytes" in wrong.message
    assert "\n" not in wrong.message and len(wrong.message) < 200
    module.tag = NTAG
    rec.wait_count("tag", 1)
    assert rec.tags == [NTAG]
    assert rec.states == [CONNECTED]


def test_pn532_unplugged_and_plugged_back_is_woken_again(
    tmp_path: Path, readers: list[RfidReader]
) -> None:
    device = tmp_path / "ttyUSB0"
    first = Pty()
    module = PN532Module(first)
    device.symlink_to(first.path)
    second: Pty | None = None
    again: PN532Module | None = None
    try:
        rec = started(readers, str(device), "pn532")
        module.tag = NTAG
        rec.wait_count("tag", 1)
        device.unlink()
        module.stop()
        first.unplug()
        rec.wait_count(DISCONNECTED, 1)
        second = Pty()
        again = PN532Module(second)
        device.symlink_to(second.path)
        rec.wait_count(CONNECTED, 2)
        assert again.commands[:3] == [0x02, 0x14, 0x32]  # woken and configured anew
        again.tag = MIFARE
        rec.wait_count("tag", 2)
        assert rec.tags == [NTAG, MIFARE]
        readers[0].stop()
        assert rec.states == [CONNECTED, DISCONNECTED, CONNECTED, STOPPED]
    finally:
        for m in (module, again):
            if m is not None:
                m.stop()
        first.unplug()
        if second is not None:
            second.unplug()


def test_a_pn532_that_does_not_answer_is_not_called_connected(
    readers: list[RfidReader],
) -> None:
    pty = Pty()  # nothing on the other side: wiring swapped, or the switches on I2C
    try:
        rec = started(readers, pty.path, "pn532")
        rec.wait_count(DISCONNECTED, 1)
        assert CONNECTED not in rec.states
        assert "does not answer" in rec.of(DISCONNECTED)[0]
        assert "HSU" in rec.of(DISCONNECTED)[0]
        module = PN532Module(pty)  # wired right: it answers the next wake-up
        try:
            rec.wait_count(CONNECTED, 1)
        finally:
            module.stop()
    finally:
        pty.unplug()


def test_rfid_monitor_reads_a_pn532_at_its_own_speed(
    tmp_path: Path, pn532: tuple[Pty, PN532Module]
) -> None:
    pty, module = pn532
    TagMap(tmp_path / FILE_NAME, {NTAG: "1W1"}).save()
    with rfid_running(tmp_path, "monitor", "--port", pty.path, "--reader", "pn532") as (proc, out):
        out.until("(pn532, 115200 baud)")
        out.until("PN532 firmware 1.6")
        module.tag = NTAG
        out.until(f"tag {NTAG}: card 1W1")
        ctrl_c(proc)


# ---------------------------------------------------------- a keyboard-wedge reader


def test_a_keyboard_reader_types_tags_that_are_read_and_never_typed(
    readers: list[RfidReader],
) -> None:
    usb, rec = plugged_in(readers)
    assert usb.opened == [f"/dev/input/by-id/{BY_ID}"]
    assert "baud" not in rec.of(CONNECTED)[0]
    usb.device.play(typed("0004346362") + typed("0004346362") + typed("HELLO") + typed("3A4B5C6D"))
    rec.wait_count("tag", 2)
    assert rec.tags == ["0004346362", "3A4B5C6D"]  # the repeat debounced
    assert [d.reason for d in rec.of("dropped")] == ["typed"]
    assert "HELLO" in rec.of("dropped")[0].message


def test_a_keyboard_reader_unplugged_and_plugged_back_is_read_again(
    readers: list[RfidReader],
) -> None:
    usb = UsbPort()
    rec = started(readers, BY_ID, "keyboard", events=usb)
    rec.wait_count(DISCONNECTED, 1)
    assert "does not exist: is the reader plugged in?" in rec.of(DISCONNECTED)[0]
    first = usb.device = Recorded()
    rec.wait_count(CONNECTED, 1)
    first.play(typed("12345678"))
    rec.wait_count("tag", 1)
    first.play(typed("8765", enter=False))  # pulled out halfway through a tag
    usb.device = None
    first.gone = True
    rec.wait_count(DISCONNECTED, 2)
    assert "was disconnected" in rec.of(DISCONNECTED)[1]
    assert first.closed
    second = usb.device = Recorded()
    rec.wait_count(CONNECTED, 2)
    second.play(typed("CAFE0001"))
    rec.wait_count("tag", 2)
    assert rec.tags == ["12345678", "CAFE0001"]  # nothing of the half-typed tag


# ------------------------------------------------------------------- line readers

# An Arduino's MFRC522 DumpInfo of one NTAG213 sticker.
NTAG_DUMP = """\
Card UID: 04 6B 8A 88 2C 5E 80
Card SAK: 00
PICC type: MIFARE Ultralight or Ultralight C
Page  0  1  2  3
  0   04 6B 8A 6D
  1   88 2C 5E 80
  2   72 48 00 00
  3   E1 10 12 00
  4   01 03 A0 0C
  5   34 03 00 FE
  6   00 00 00 00
  7   00 00 00 00
  8   00 00 00 00
  9   00 00 00 00
 10   00 00 00 00
 11   00 00 00 00
 12   00 00 00 00
 13   00 00 00 00
 14   00 00 00 00
 15   00 00 00 00
"""

# Adafruit's PN532 "readMifare" example.
ADAFRUIT = """\
Found chip PN532
Firmware ver. 1.6
Waiting for an ISO14443A Card ...
Found an ISO14443A card
  UID Length: 4 bytes
  UID Value: 0xDE 0xAD 0xBE 0xEF
"""


def test_a_memory_dump_is_one_tag(readers: list[RfidReader]) -> None:
    pty = Pty()
    try:
        rec = started(readers, pty.path, "lines")
        rec.wait_count(CONNECTED, 1)
        pty.write(NTAG_DUMP.replace("\n", "\r\n").encode() + b"12345678\r\n")
        rec.wait(lambda: "12345678" in rec.tags, "the line after the dump")
        assert rec.tags == [NTAG, "12345678"]
    finally:
        pty.unplug()


def test_the_adafruit_format_and_unpadded_bytes_are_read() -> None:
    tags = [t for line in ADAFRUIT.splitlines() if (t := LineTags.parse(line))]
    assert tags == [MIFARE]
    assert LineTags.parse("UID: 4 A3 2B 1C") == "04A32B1C"
    assert LineTags.parse("UID: 4A 32 B1 C") == "4A32B10C"  # no longer the same tag


# What a reader prints besides tags: its speed, its own id, counts, its clock.
CHATTER = [
    "Serial speed: 9600",
    "Serial: 115200",
    "Tag count: 1000",
    "Reader ID: 0106",
    "13:45:10:22",
    "Reader ID: 01060000",
    "Tag count: 12345678",
    "9600",
    "115200",
    "ABCD",
    "0A1B2C3D4E5F",
    "0123456789ABCDEF0123456789",
    "Card UID: 04 A3 2B",
    "UID: 0x04 0xA3 0x2B 0x1C 0x00 0x11",
    "04 A3 2B 1C 55",
    "Firmware ver. 1.6",
    "  UID Length: 4 bytes",
]
# Every form docs/hardware.md promises, and the tag each one is.
LINE_UIDS = {
    "04A32B1C": "04A32B1C",
    "04 a3 2b 1c": "04A32B1C",
    "04:A3:2B:1C": "04A32B1C",
    "04-A3-2B-1C": "04A32B1C",
    "046B8A882C5E80": NTAG,
    "04 6B 8A 88 2C 5E 80": NTAG,
    "046B8A882C5E80A1B2C3": "046B8A882C5E80A1B2C3",
    "0A1B2C3D4E": "0A1B2C3D4E",  # a 125 kHz EM4100 id
    "0004346362": "0004346362",  # 10-digit decimal of a 4-byte UID
    "06617914": "06617914",  # Wiegand-26 decimal
    "Card UID: 04 6B 8A 88 2C 5E 80": NTAG,
    "UID Value: 0xDE 0xAD 0xBE 0xEF": MIFARE,
    "UID: 4 A3 2B 1C": "04A32B1C",
    "Tag ID: 0A1B2C3D4E": "0A1B2C3D4E",
    "Serial: DEADBEEF": MIFARE,
}


@pytest.mark.parametrize("line", CHATTER)
def test_a_readers_chatter_is_no_tag(line: str) -> None:
    assert LineTags.parse(line) is None


@pytest.mark.parametrize(("line", "tag"), LINE_UIDS.items())
def test_every_promised_uid_form_is_a_tag(line: str, tag: str) -> None:
    assert LineTags.parse(line) == tag


def test_rfid_enroll_saves_no_chatter_as_a_card(tmp_path: Path, pty: Pty) -> None:
    """A reader printing its settings while no card is near it: nothing is enrolled
    until a card is scanned."""
    with rfid_running(tmp_path, "enroll", "--port", pty.path, "--reader", "lines") as (proc, out):
        out.both("Scan card 1W1", "connected: reading")
        pty.write("".join(f"{line}\r\n" for line in CHATTER).encode())
        pty.write(b"04 A3 2B 1C\r\n")
        out.until("tag 04A32B1C is now card")
        ctrl_c(proc)
    text = out.text
    assert "tag 04A32B1C is now card 1W1: saved" in text
    assert "dropped: not a hex tag id: Serial speed: 9600" in text
    assert TagMap.load(tmp_path / FILE_NAME).items() == [("04A32B1C", "1W1")]


def test_a_keyboard_reader_reads_each_promised_form_and_nothing_else() -> None:
    from hardware.keyboard import KeyTyping

    tags: list[str] = []
    bad: list[str] = []
    typing = KeyTyping(tags.append, lambda reason, text: bad.append(text))
    good = ["0004346362", "06617914", "3A4B5C6D", "046B8A882C5E80", "0A1B2C3D4E", "1" * 20]
    for text in ["9600", "115200", "ABCD", "0A1B2C3D4E5F", "123456789", *good]:
        typing.feed(typed(text))
    assert tags == good
    assert bad == ["9600", "115200", "ABCD", "0A1B2C3D4E5F", "123456789"]


def test_an_over_long_typed_line_is_dropped_whole_not_its_tail(
    readers: list[RfidReader],
) -> None:
    usb, rec = plugged_in(readers)
    # a keyboard, not the reader, behind the port: a long run of digits, then Enter
    usb.device.play(typed("0" * 33 + "3A4B5C6D") + typed("0" * 13 + "3A4B5C6D"))
    usb.device.play(typed("CAFE0001"))
    rec.wait_count("tag", 1)
    assert rec.tags == ["CAFE0001"]
    assert [d.reason for d in rec.of("dropped")] == ["typed", "typed"]


# ------------------------------------------------------------------ a serial console


def test_a_serial_console_on_the_port_is_said_and_how_to_turn_it_off(
    tmp_path: Path, readers: list[RfidReader]
) -> None:
    pty = Pty()
    port = tmp_path / "serial0"
    port.symlink_to(pty.path)
    cmdline = tmp_path / "cmdline"
    cmdline.write_text("console=serial0,115200 console=tty1 root=PARTUUID=1234-02 rootwait\n")
    try:
        rec = started(readers, str(port), "rdm6300", cmdline=cmdline)
        rec.wait_count(BLOCKED, 1)
        assert "a console holds this port" in rec.of(BLOCKED)[0]
        assert "raspi-config" in rec.of(BLOCKED)[0]
        assert CONNECTED not in rec.states
    finally:
        pty.unplug()


def test_every_reader_kind_is_in_the_command_line_and_the_docs() -> None:
    from splendor_companion.program import build_parser

    root = Path(__file__).resolve().parent.parent
    parser = build_parser()
    args = parser.parse_args(["rfid", "monitor", "--reader", "pn532", "--port", "/dev/x"])
    assert args.reader == "pn532"
    for name in NAMES:
        assert parser.parse_args(["rfid", "monitor", "--reader", name]).reader == name
        for doc in ("docs/hardware.md", "docs/install-pi.md"):
            assert f"`{name}`" in (root / doc).read_text(), f"{name} missing from {doc}"
    assert READERS["pn532"].baud == 115200


def test_rfid_enroll_with_a_pn532_records_its_tags(
    tmp_path: Path, pn532: tuple[Pty, PN532Module]
) -> None:
    pty, module = pn532
    with rfid_running(tmp_path, "enroll", "--port", pty.path, "--reader", "pn532") as (proc, out):
        out.both("Scan card 1W1", "PN532 firmware 1.6")  # either first (it was, under load)
        module.tag = NTAG
        out.until(f"tag {NTAG} is now card 1W1: saved")
        out.until("Scan card 1W2")
        module.tag = MIFARE
        out.until(f"tag {MIFARE} is now card 1W2: saved")
        ctrl_c(proc)
    tags = TagMap.load(tmp_path / FILE_NAME)
    assert (tags.card(NTAG), tags.card(MIFARE)) == ("1W1", "1W2")


def test_the_keyboard_reader_is_found_by_its_by_id_name(tmp_path: Path) -> None:
    from hardware.ports import keyboard_devices

    by_id = tmp_path / "by-id"
    by_id.mkdir()
    assert keyboard_devices(by_id) == []
    (by_id / BY_ID).symlink_to("../event7")
    (by_id / "usb-Logitech_USB_Receiver-if01-event-mouse").symlink_to("../event3")
    assert keyboard_devices(by_id) == [str(by_id / BY_ID)]
    if not Path("/dev/input/by-id").exists():  # this machine: no keyboard at all
        proc, out = rfid_command(tmp_path, "monitor", "--reader", "keyboard")
        assert proc.wait(timeout=EXIT_WAIT) == 2
        assert "no USB keyboard reader is plugged in" in out.rest()


def connected_pn532(readers: list[RfidReader]) -> tuple[Pty, PN532Module, Recorder]:
    """A PN532 module on a new port, its reader started and said connected."""
    pty = Pty()
    module = PN532Module(pty)
    rec = started(readers, pty.path, "pn532")
    try:
        rec.wait_count(CONNECTED, 1)
    except BaseException:
        module.stop()
        pty.unplug()
        raise
    return pty, module, rec


def test_a_pn532_unplugged_while_polled_is_disconnected_and_looked_for_again(
    readers: list[RfidReader], caplog: pytest.LogCaptureFixture
) -> None:
    """The port goes away between two polls (the cable pulled): the reader says it is
    disconnected and keeps looking for it; it never stops for good on its own."""
    for _round in range(3):
        pty, module, rec = connected_pn532(readers)
        pty.unplug()
        try:
            rec.wait_count(DISCONNECTED, 1)
        finally:
            module.stop()
        time.sleep(0.3)  # polls, and retries to open the port, go on meanwhile
        assert STOPPED not in rec.states
        assert "supervisor failed" not in caplog.text
        readers.pop().stop()
        assert rec.states[-1] == STOPPED


def test_a_pn532_stopped_as_its_port_goes_away_leaves_no_thread(
    readers: list[RfidReader], caplog: pytest.LogCaptureFixture
) -> None:
    """The app stops the reader just as the port goes away (a poll then writes to a dead
    port): the reader stops cleanly, with no thread left reading."""
    for _round in range(20):
        pty, module, rec = connected_pn532(readers)
        pty.unplug()
        try:
            readers.pop().stop()
        finally:
            module.stop()
        assert rec.states[-1] == STOPPED
        assert "supervisor failed" not in caplog.text
        left = [t.name for t in threading.enumerate() if t.name.startswith("rfid-")]
        assert not left, f"threads left running: {left}"
