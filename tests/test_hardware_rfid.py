"""The RFID path against a real serial port: a pseudo-terminal, pyserial on one side and the
test writing the reader's bytes on the other; then the scans played into a real game."""

from __future__ import annotations

import errno
import os
import queue
import subprocess
import sys
import threading
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from devices import EXIT_WAIT, WAIT, Pty, Recorder, ctrl_c, frame, rfid_running, started

from companion.engine.cards import CARDS
from companion.engine.setup import Setup
from companion.errors import ErrorCode
from companion.journal.declaring import REVEAL, NewGame, Turn
from companion.journal.session import Session
from companion.journal.store import Store
from hardware.exc import DeviceCode, TagConflict, TagMapError, serial_error
from hardware.rfid import CONNECTED, DISCONNECTED, LINES, RDM6300, STOPPED, RfidReader
from hardware.scanner import DECLARED, ILLEGAL, NOT_ENROLLED, REFUSED, CardScanner, ScanResult
from hardware.tagmap import FILE_NAME, TagMap

MARKET = ("1W1 1U1 1G1 1R1", "2W1 2U1 2G1 2R1", "3W1 3U1 3G1 3R1")
A, B, C = "0A1B2C3D4E", "1122334455", "00C0FFEE00"


@pytest.fixture
def start(readers: list[RfidReader]) -> Callable[..., tuple[RfidReader, Recorder]]:
    def start(port: str, kind: str = RDM6300, **kw: Any) -> tuple[RfidReader, Recorder]:
        rec = started(readers, port, kind, **kw)
        if os.path.exists(port):
            rec.wait_count(CONNECTED, 1)
        return readers[-1], rec

    return start


# ----------------------------------------------------------------------- RDM6300 frames


def test_valid_frames_are_reported_in_hex_as_sent(pty: Pty, start: Callable[..., Any]) -> None:
    reader, rec = start(pty.path)
    pty.write(frame(A) + frame(B.lower()))
    rec.wait_count("tag", 2)
    assert rec.tags == [A, B]
    assert reader.dropped == {}
    assert reader.state == CONNECTED


def test_a_tag_left_on_the_reader_is_reported_once(pty: Pty, start: Callable[..., Any]) -> None:
    reader, rec = start(pty.path)
    pty.write(frame(A) * 5)
    pty.write(frame(A) * 3 + frame(B))  # B is the sign that every A was read
    rec.wait_count("tag", 2)
    assert rec.tags == [A, B]
    assert reader.frames == 9


def test_a_tag_put_back_after_the_away_time_is_reported_again(
    pty: Pty, start: Callable[..., Any]
) -> None:
    now = [0.0]
    _reader, rec = start(pty.path, away=1.0, clock=lambda: now[0])
    pty.write(frame(A))
    rec.wait_count("tag", 1)
    now[0] = 0.9  # still on the reader: a repeat, renewing it
    pty.write(frame(A) + frame(B))
    rec.wait_count("tag", 2)
    now[0] = 1.8  # 0.9 s since its last frame: not away long enough
    pty.write(frame(A) + frame(C))
    rec.wait_count("tag", 3)
    now[0] = 3.0  # 1.2 s without a frame of A: lifted and put back
    pty.write(frame(A))
    rec.wait_count("tag", 4)
    assert rec.tags == [A, B, C, A]


def test_a_corrupt_checksum_is_dropped_and_counted(pty: Pty, start: Callable[..., Any]) -> None:
    reader, rec = start(pty.path)
    pty.write(frame(A, checksum="00") + frame(B))
    rec.wait_count("tag", 1)
    assert rec.tags == [B]
    assert reader.dropped == {"checksum": 1}
    (dropped,) = rec.of("dropped")
    assert dropped.reason == "checksum"
    assert dropped.message == (
        "bad checksum: frame 0A1B2C3D4E00 carries 00, its data gives 4E"
    )  # 0A ^ 1B ^ 2C ^ 3D ^ 4E


def test_noise_between_frames_is_dropped_and_the_frames_kept(
    pty: Pty, start: Callable[..., Any]
) -> None:
    reader, rec = start(pty.path)
    pty.write(b"\xff\x00junk" + frame(A) + b"\r\n" + frame(B) + b"\x03" + frame(C))
    rec.wait_count("tag", 3)
    assert rec.tags == [A, B, C]
    assert reader.dropped == {"noise": 3}
    assert [d.data for d in rec.of("dropped")] == [b"\xff\x00junk", b"\r\n", b"\x03"]
    assert rec.of("dropped")[0].message == "6 stray bytes between frames: \\xff\\x00junk"


def test_frames_of_the_wrong_shape_are_dropped_with_their_reason(
    pty: Pty, start: Callable[..., Any]
) -> None:
    reader, rec = start(pty.path)
    pty.write(b"\x020A1B\x03")  # too short
    pty.write(b"\x020A1B2C3D4XZZ\x03")  # not hex
    pty.write(b"\x020A1B2" + frame(A))  # cut short by the next frame, which is good
    pty.write(b"\x02" + b"0" * 30 + b"\x03")  # never ends: dropped, the rest is noise
    pty.write(frame(B))
    rec.wait_count("tag", 2)
    assert rec.tags == [A, B]
    assert reader.dropped == {"length": 1, "not-hex": 1, "truncated": 1, "too-long": 1, "noise": 1}
    reasons = [d.reason for d in rec.of("dropped")]
    assert reasons == ["length", "not-hex", "truncated", "too-long", "noise"]


def test_a_callback_that_fails_does_not_stop_the_reader(
    pty: Pty, readers: list[RfidReader], caplog: pytest.LogCaptureFixture
) -> None:
    seen: queue.SimpleQueue[str] = queue.SimpleQueue()
    connected = threading.Event()

    def on_tag(tag: str) -> None:
        seen.put(tag)
        if tag == A:
            raise RuntimeError("a bug in the app")

    reader = RfidReader(
        pty.path, on_tag=on_tag, on_status=lambda s, d: connected.set() if s == CONNECTED else None
    )
    readers.append(reader)
    reader.start()
    assert connected.wait(WAIT)
    pty.write(frame(A) + frame(B))
    assert seen.get(timeout=WAIT) == A
    assert seen.get(timeout=WAIT) == B
    assert reader.state == CONNECTED
    assert "a callback failed" in caplog.text


# ----------------------------------------------------------------------- line readers


def test_a_line_reader_gives_one_tag_per_line(pty: Pty, start: Callable[..., Any]) -> None:
    reader, rec = start(pty.path, LINES, baudrate=115200)
    pty.write(b"0a1b2c3d\r\n04:A3:2B:1C\nCard UID: DE AD BE EF\rhello world\n\n")
    pty.write(b"x" * 200 + b"\n" + b"ABCD1234\n")
    rec.wait_count("tag", 4)
    assert rec.tags == ["0A1B2C3D", "04A32B1C", "DEADBEEF", "ABCD1234"]
    assert reader.dropped == {"not-hex": 1, "too-long": 1}
    assert rec.of("dropped")[0].message == "not a hex tag id: hello world"


# ------------------------------------------------------------- unplugged and plugged in


def test_an_unplugged_reader_is_reported_and_reconnected_when_it_comes_back(
    tmp_path: Path, start: Callable[..., Any]
) -> None:
    device = tmp_path / "ttyUSB0"  # what udev removes and creates again
    first = Pty()
    device.symlink_to(first.path)
    second: Pty | None = None
    try:
        reader, rec = start(str(device))
        first.write(frame(A))
        rec.wait_count("tag", 1)

        device.unlink()  # unplugged: the device node goes, reads fail
        first.unplug()
        rec.wait_count(DISCONNECTED, 1)
        assert reader.state == DISCONNECTED
        assert "was disconnected" in rec.of(DISCONNECTED)[0]

        second = Pty()  # plugged in again
        device.symlink_to(second.path)
        rec.wait_count(CONNECTED, 2)
        second.write(frame(B))
        rec.wait_count("tag", 2)
        assert rec.tags == [A, B]

        reader.stop()
        assert rec.states == [CONNECTED, DISCONNECTED, CONNECTED, STOPPED]
    finally:
        first.unplug()
        if second is not None:
            second.unplug()


def test_a_reader_missing_at_start_is_waited_for(tmp_path: Path, start: Callable[..., Any]) -> None:
    device = tmp_path / "ttyUSB0"
    reader, rec = start(str(device))
    rec.wait_count(DISCONNECTED, 1)
    assert "does not exist: is the reader plugged in?" in rec.of(DISCONNECTED)[0]
    late = Pty()
    try:
        device.symlink_to(late.path)
        rec.wait_count(CONNECTED, 1)
        late.write(frame(C))
        rec.wait_count("tag", 1)
        assert rec.tags == [C]
    finally:
        reader.stop()
        late.unplug()


def test_stop_ends_the_threads_and_reports_stopped(pty: Pty, start: Callable[..., Any]) -> None:
    reader, rec = start(pty.path)
    reader.stop()
    assert rec.states == [CONNECTED, STOPPED]
    assert not [t for t in threading.enumerate() if t.name.startswith("rfid-")]


def test_a_port_another_reader_holds_is_reported_busy(
    pty: Pty, start: Callable[..., Any], readers: list[RfidReader]
) -> None:
    _first, _rec = start(pty.path)
    second = Recorder()
    reader = RfidReader(pty.path, on_tag=second.on_tag, on_status=second.on_status, retry=0.05)
    readers.append(reader)
    reader.start()
    second.wait_count(DISCONNECTED, 1)
    assert "is in use by another program" in second.of(DISCONNECTED)[0]


def test_open_errors_say_what_to_do() -> None:
    denied = serial_error("/dev/ttyAMA0", PermissionError(errno.EACCES, "Permission denied"))
    assert denied.code is DeviceCode.PERMISSION
    assert "add the user to the dialout group" in denied.message
    busy = serial_error("/dev/ttyUSB0", OSError(errno.EBUSY, "Device or resource busy"))
    assert busy.code is DeviceCode.BUSY


@pytest.mark.skipif(os.geteuid() == 0, reason="root may open anything")
def test_a_port_without_permission_asks_for_the_dialout_group(
    tmp_path: Path, start: Callable[..., Any]
) -> None:
    device = tmp_path / "ttyS0"
    device.write_bytes(b"")
    device.chmod(0)
    _reader, rec = start(str(device))
    rec.wait_count(DISCONNECTED, 1)
    assert "dialout" in rec.of(DISCONNECTED)[0]


# ------------------------------------------------------------------------ tag map


def test_the_tag_map_refuses_a_tag_of_another_card_and_lists_the_missing(
    tmp_path: Path,
) -> None:
    path = tmp_path / FILE_NAME
    tags = TagMap.load(path)
    assert tags.assign(A.lower(), "1W1")
    assert not tags.assign(A, "1W1")
    with pytest.raises(TagConflict) as refused:
        tags.assign(A, "2R3")
    assert refused.value.card == "1W1"
    assert refused.value.message == f"tag {A} is already on card 1W1: scan another tag for 2R3"
    tags.assign(B, "1W1")  # a new tag for the card replaces its old one
    assert TagMap.load(path).items() == [(B, "1W1")]
    assert "1W1" not in tags.missing(level=1)
    assert len(tags.missing()) == 89
    assert [p.name for p in tmp_path.iterdir()] == [FILE_NAME]  # no temporary file left


def test_a_tag_map_that_is_not_one_is_refused_clearly(tmp_path: Path) -> None:
    path = tmp_path / FILE_NAME
    path.write_text("{not json", encoding="utf-8")
    with pytest.raises(TagMapError, match="is not a valid tag map"):
        TagMap.load(path)
    path.write_text(
        '{"format": "splendor-companion/rfid-tags", "version": 1, "tags": {"AA": "9Z9"}}'
    )
    with pytest.raises(TagMapError, match="9Z9, which is not a card"):
        TagMap.load(path)


HOSTILE_TAG_FILES = {
    "not-utf8": b'{"format": "splendor-companion/rfid-tags", "tags": {"\xff\xfe": "1W1"}}',
    "deep": b"[" * 200_000 + b"]" * 200_000,
    "wrong-types": b'{"format": "splendor-companion/rfid-tags", "version": 1, "tags": {"AA": [1]}}',
    "tags-a-list": b'{"format": "splendor-companion/rfid-tags", "version": 1, "tags": [1, 2]}',
    "huge-tag": (
        b'{"format": "splendor-companion/rfid-tags", "version": 1, "tags": {"'
        + b"A" * 5000
        + b'": "1W1"}}'
    ),
    "too-big": b" " * (2 << 20),
}


@pytest.mark.parametrize("kind", sorted(HOSTILE_TAG_FILES))
def test_a_hostile_tag_file_is_set_aside_and_a_new_map_started(tmp_path: Path, kind: str) -> None:
    path = tmp_path / FILE_NAME
    path.write_bytes(HOSTILE_TAG_FILES[kind])
    with pytest.raises(TagMapError, match="is not a valid tag map") as refused:
        TagMap.load(path)
    assert "\n" not in refused.value.message
    tags, said = TagMap.load_or_set_aside(path)
    assert said is not None and "\n" not in said and ".damaged-" in said
    assert len(tags) == 0 and not path.exists()
    kept = [p for p in tmp_path.iterdir() if p.name.startswith(FILE_NAME + ".damaged-")]
    assert [p.read_bytes() for p in kept] == [HOSTILE_TAG_FILES[kind]]  # nothing lost
    assert tags.assign(A, "1W1")  # the new map is saved where the old one was
    assert TagMap.load(path).items() == [(A, "1W1")]


def test_rfid_enroll_refuses_a_hostile_tag_file_in_one_line(tmp_path: Path) -> None:
    (tmp_path / FILE_NAME).write_bytes(HOSTILE_TAG_FILES["deep"])
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "splendor_companion",
            "rfid",
            "enroll",
            "--data-dir",
            str(tmp_path),
            "--port",
            "/dev/null",
        ],
        capture_output=True,
        text=True,
        timeout=60,
        env={**os.environ, "SPLENDOR_LANG": "en"},
    )
    assert done.returncode != 0
    assert "Traceback" not in done.stderr
    assert done.stderr.strip().count("\n") == 0 and "not a valid tag map" in done.stderr
    assert (tmp_path / FILE_NAME).read_bytes() == HOSTILE_TAG_FILES["deep"]  # left as it was


def not_a_file(path: Path, kind: str) -> None:
    """``path`` made a pipe, a folder or a link (to a file that is no tag map)."""
    if kind == "pipe":
        os.mkfifo(path)
    elif kind == "folder":
        path.mkdir()
    else:
        (path.parent / "elsewhere.txt").write_text("a person's notes\n")
        path.symlink_to(path.parent / "elsewhere.txt")


@pytest.mark.parametrize("kind", ["pipe", "folder", "link"])
def test_a_tag_file_that_is_no_file_is_refused_in_one_line_and_left(
    tmp_path: Path, kind: str
) -> None:
    """A pipe would hold whoever opens it for ever (the app before its start screen): it
    is not opened to wait; a folder or a link is not read either. Each is said in one line
    and left as it is (it is not the map's to move), and the app starts with no map."""
    path = tmp_path / FILE_NAME
    not_a_file(path, kind)
    with pytest.raises(TagMapError, match="not a file") as refused:
        TagMap.load_or_set_aside(path)
    assert "\n" not in refused.value.message
    assert os.path.lexists(path) and not list(tmp_path.glob("*.damaged-*"))
    done = subprocess.run(
        [
            *(sys.executable, "-m", "splendor_companion", "rfid", "enroll"),
            *("--data-dir", str(tmp_path), "--port", "/dev/null"),
        ],
        capture_output=True,
        text=True,
        timeout=60,
        env={**os.environ, "SPLENDOR_LANG": "en"},
    )
    assert done.returncode != 0 and "Traceback" not in done.stderr
    assert done.stderr.strip().count("\n") == 0 and "not a file" in done.stderr


# -------------------------------------------------------------- scans into a real game


@pytest.fixture
def session(tmp_path: Path) -> Iterator[Session]:
    store = Store(tmp_path / "games.sqlite3")
    yield Session.start(store, Setup.of(["Ada", "Ben"], ["N1", "N2", "N3"], MARKET))
    store.close()


def _pump(app_thread: queue.SimpleQueue[Callable[[], None]]) -> None:
    """Run the next function handed to the app's thread (what Kivy's clock would do)."""
    app_thread.get(timeout=WAIT)()


def test_a_scanned_card_becomes_the_declared_card_of_the_turn(
    session: Session, pty: Pty, start: Callable[..., Any], tmp_path: Path
) -> None:
    """Ada reserves 1W1 by scanning it (she cannot buy it), scans the card turned face up to
    refill its slot, and later buys it from her hand by scanning it again."""
    turn = Turn(session)
    tags = TagMap(tmp_path / FILE_NAME, {A: "1W1", B: "1K1", C: "1U1"})
    results: list[ScanResult] = []
    app_thread: queue.SimpleQueue[Callable[[], None]] = queue.SimpleQueue()
    scanner = CardScanner(tags, turn, on_result=results.append, dispatch=app_thread.put)
    now = [0.0]
    reader, _rec = start(pty.path, clock=lambda: now[0])
    reader.on_tag = scanner.feed

    pty.write(frame(A))
    _pump(app_thread)
    assert results[-1].outcome == DECLARED and results[-1].result == "reserve"
    assert turn.step == REVEAL
    assert session.store.moves(session.game_id) == []  # nothing journaled before the commit

    pty.write(frame(B))
    _pump(app_thread)
    assert results[-1].result == "reveal"
    assert results[-1].message == "1K1 refills the market"
    assert str(turn.commit()) == "reserve 1W1 reveal 1K1"
    assert [str(m) for m in session.store.moves(session.game_id)] == ["reserve 1W1 reveal 1K1"]

    for move in ("take WUG", "take RR", "take WUG", "take KK", "take WUG"):
        session.play(move)
    assert session.game.to_act == 0
    now[0] = 60.0  # a minute later: 1W1 was lifted off the reader long ago
    pty.write(frame(A))
    _pump(app_thread)
    assert results[-1].result == "buy"
    assert str(turn.commit()).startswith("buy 1W1")
    assert str(session.store.moves(session.game_id)[-1]).startswith("buy 1W1")


def test_a_scan_that_fits_no_legal_move_gives_the_reason_and_changes_nothing(
    session: Session, pty: Pty, start: Callable[..., Any], tmp_path: Path
) -> None:
    turn = Turn(session)
    tags = TagMap(tmp_path / FILE_NAME, {A: "1K2"})  # 1K2 is in the deck, not on the table
    results: list[ScanResult] = []
    app_thread: queue.SimpleQueue[Callable[[], None]] = queue.SimpleQueue()
    scanner = CardScanner(tags, turn, on_result=results.append, dispatch=app_thread.put)
    reader, _rec = start(pty.path)
    reader.on_tag = scanner.feed
    before = session.game.position()

    pty.write(frame(A))
    _pump(app_thread)
    (result,) = results
    assert result.outcome == ILLEGAL and not result.ok
    assert result.error is not None and result.error.code is ErrorCode.CARD_UNAVAILABLE
    assert result.message == result.error.message
    assert session.game.position() == before
    assert turn.action is None
    assert session.store.moves(session.game_id) == []


def test_an_unknown_tag_is_reported_and_changes_nothing(session: Session) -> None:
    turn = Turn(session)
    before = session.game.position()
    result = CardScanner(TagMap(), turn).scan(A.lower())
    assert result.outcome == NOT_ENROLLED
    assert result.message == (
        "tag 0A1B2C3D4E is not enrolled: enroll it in Settings or with "
        "splendor-companion rfid enroll"
    )
    assert session.game.position() == before and turn.action is None


def test_scans_lay_out_a_new_game() -> None:
    draft = NewGame(["Ada", "Ben"])
    layout = ["N1", "N2", "N3", *" ".join(MARKET).split()]
    tags = TagMap(tags={f"{i:010X}": item for i, item in enumerate(layout)})
    scanner = CardScanner(tags, draft)
    for i in range(len(layout)):
        assert scanner.scan(f"{i:010X}").ok
    assert draft.complete
    again = scanner.scan(f"{3:010X}")
    assert again.outcome == REFUSED
    assert again.message == "1W1 is already on the table"


# --------------------------------------------------------------------- the command


def test_rfid_monitor_prints_tags_cards_and_dropped_frames(tmp_path: Path, pty: Pty) -> None:
    TagMap(tmp_path / FILE_NAME, {A: "1W1"}).save()
    monitor = ("monitor", "--port", pty.path, "--reader", "rdm6300")
    with rfid_running(tmp_path, *monitor) as (proc, out):
        out.until("connected: reading")
        pty.write(frame(A) * 3 + frame(C, checksum="FF") + frame(B))
        out.until(f"tag {B}: not enrolled")
        ctrl_c(proc)
    text = out.text
    assert f"tag {A}: card 1W1" in text
    assert text.count(f"tag {A}") == 1
    assert f"dropped: bad checksum: frame {C}FF carries FF" in text
    assert "Stopped: 2 tags read (4 valid frames), dropped: checksum 1." in text


def test_rfid_enroll_asks_for_each_card_and_refuses_a_tag_of_another_card(
    tmp_path: Path, pty: Pty
) -> None:
    TagMap(tmp_path / FILE_NAME, {A: "1W1"}).save()
    with rfid_running(tmp_path, "enroll", "--port", pty.path, "--level", "3") as (proc, out):
        assert proc.stdin is not None
        out.both(
            "Scan card 3W1 (level 3, white, cost 3 blue, 3 green, 5 red, 3 black) [1/20]",
            "connected: reading",
        )
        pty.write(frame(A))  # 1W1's tag
        out.until(f"tag {A} is already on card 1W1: scan another tag for 3W1")
        pty.write(frame(B))
        out.until(f"tag {B} is now card 3W1: saved")
        out.until("Scan card 3W2")
        proc.stdin.write(b"\n")  # Enter: skip this one
        proc.stdin.flush()
        out.until("skipped 3W2")
        out.until("Scan card 3W3")
        pty.write(frame(C))
        out.until(f"tag {C} is now card 3W3: saved")
        out.until("Scan card 3W4")
        proc.stdin.close()  # end of input: stop, keeping what is saved
        assert proc.wait(timeout=EXIT_WAIT) == 0
    text = out.text
    assert "Enrolled: 2, skipped: 1, cards still without a tag: 18." in text
    saved = TagMap.load(tmp_path / FILE_NAME)
    assert saved.items() == [(A, "1W1"), (B, "3W1"), (C, "3W3")]


def test_rfid_enroll_stops_on_ctrl_c_keeping_what_is_saved(tmp_path: Path, pty: Pty) -> None:
    with rfid_running(tmp_path, "enroll", "--port", pty.path, "--reader", "lines") as (proc, out):
        out.both("Scan card 1W1", "connected: reading")
        pty.write(b"04 A3 2B 1C\r\n")
        out.until("tag 04A32B1C is now card 1W1: saved")
        out.until("Scan card 1W2")
        ctrl_c(proc)
    text = out.text
    assert "Enrolled: 1, skipped: 0, cards still without a tag: 89." in text
    assert TagMap.load(tmp_path / FILE_NAME).card("04A32B1C") == "1W1"
    assert len(CARDS) == 90
