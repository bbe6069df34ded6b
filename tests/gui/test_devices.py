"""The app with its devices: a real serial port (a pseudo-terminal) and gpiozero's mock pins."""

from __future__ import annotations

import os
import time
from collections.abc import Callable, Iterator

import pytest
from gpiozero import Device
from gpiozero.pins.mock import MockFactory, MockPWMPin

from companion.simulate import simulate
from companion.table import NewGame
from companion.tokens import Colour
from hardware.tagmap import TagMap, default_path

from .driver import Driver


def frame(tag: str) -> bytes:
    """An RDM6300 frame: STX, 10 hex characters, their XOR checksum, ETX."""
    data = bytes.fromhex(tag)
    checksum = 0
    for byte in data:
        checksum ^= byte
    return b"\x02" + tag.encode() + f"{checksum:02X}".encode() + b"\x03"


def tag_of(card: str) -> str:
    return f"{abs(hash(card)) % 16**10:010X}"


def wait_for(d: Driver, condition: Callable[[], bool], seconds: float = 5.0) -> None:
    deadline = time.monotonic() + seconds
    while not condition():
        assert time.monotonic() < deadline, "the app did not react in time"
        d.frames(1)
        time.sleep(0.01)


@pytest.fixture
def pins() -> Iterator[MockFactory]:
    factory = MockFactory(pin_class=MockPWMPin)
    Device.pin_factory = factory
    yield factory
    factory.reset()
    Device.pin_factory = None


def lit(pin: MockPWMPin) -> bool:
    """The pin was on at some moment: on a loaded machine a flash may be over before the
    test looks at it."""
    return any(change.state for change in pin.states)


def configure(d: Driver, **settings: str) -> None:
    for key, value in settings.items():
        d.app.config.set("companion", key, value)
    d.app.start_hardware()


def test_undo_button_undoes_and_a_refused_move_lights_red_and_buzzes(
    driver: Driver, pins: MockFactory
) -> None:
    d = driver
    configure(d, pin_undo="17", pin_led_green="27", pin_led_red="22", pin_buzzer="23")
    game = simulate(players=2, seed=3, max_moves=3)
    d.app.start_game(game.setup)
    d.frames(2)
    table = d.app.table_screen
    for colour in (Colour.WHITE, Colour.BLUE, Colour.GREEN):
        d.tap(table.bank[colour])
    session = table.session
    assert session is not None
    assert len(session.game.moves) == 1
    assert lit(pins.pin(27))  # the green light flashes on the accepted take

    undo = pins.pin(17)
    undo.drive_low()
    wait_for(d, lambda: not session.game.moves)
    undo.drive_high()
    assert "Undone" in table.status.text

    d.tap(table.bank[Colour.RED])
    d.tap(table.bank[Colour.BLUE])
    d.tap(table.bank[Colour.BLUE])  # refused: not a take
    assert lit(pins.pin(22)), "the red light is on after a refused move"
    assert lit(pins.pin(23)), "the buzzer sounds"


@pytest.fixture
def serial_port() -> Iterator[tuple[int, str]]:
    master, slave = os.openpty()
    yield master, os.ttyname(slave)
    os.close(master)
    os.close(slave)


def test_scanned_cards_lay_out_the_table_and_refill_the_market(
    driver: Driver, serial_port: tuple[int, str]
) -> None:
    d = driver
    game = simulate(players=2, seed=5, max_moves=12)
    setup = game.setup
    cards = [c for row in setup.market for c in row]
    reveals = [m.reveal for m in game.moves if m.reveal]
    tags = TagMap(default_path(d.app.data_folder()))
    for card in [*cards, *reveals]:
        tags.assign(tag_of(card), card)
    master, port = serial_port
    configure(d, rfid_port=port, rfid_reader="rdm6300")
    wait_for(d, lambda: d.app.hardware is not None and d.app.hardware.reader.state == "connected")

    draft = NewGame(list(setup.players))
    for noble in setup.nobles:
        draft.declare(noble)
    d.app.show_setup(draft)
    d.frames(2)
    for card in cards:
        os.write(master, frame(tag_of(card)))
    wait_for(d, lambda: draft.complete)
    assert [draft.market[lv] for lv in (1, 2, 3)] == [list(r) for r in setup.market]
    d.press("Start the game")

    # An unknown tag is refused with a clear message and changes nothing.
    os.write(master, frame("00000000AA"))
    table = d.app.table_screen
    wait_for(d, lambda: "not enrolled" in table.status.text)

    # Play the moves by taps up to the first one that refills the market; scan the reveal.
    from .test_game import play_through_taps

    session = table.session
    assert session is not None
    for move in game.moves:
        if move.reveal is None:
            play_through_taps(d, move)
            continue
        without_reveal = move.__class__(**{**_fields(move), "reveal": None})
        play_through_taps(d, without_reveal)
        assert d.top().__class__.__name__ == "CardPicker"  # the app asks which card
        before = len(session.game.moves)
        os.write(master, frame(tag_of(move.reveal)))
        wait_for(d, lambda b=before: len(session.game.moves) == b + 1)
        assert session.game.moves[-1] == move
        break
    else:
        pytest.fail("no reveal in the game")


def _fields(move: object) -> dict[str, object]:
    return {name: getattr(move, name) for name in move.__dataclass_fields__}  # type: ignore[attr-defined]


def test_enrollment_in_the_app_records_tags_and_refuses_a_tag_twice(
    driver: Driver, serial_port: tuple[int, str]
) -> None:
    d = driver
    master, port = serial_port
    configure(d, rfid_port=port, rfid_reader="rdm6300")
    wait_for(d, lambda: d.app.hardware is not None and d.app.hardware.reader.state == "connected")
    d.app.show_start()
    d.frames(2)
    d.press("RFID cards")
    d.press("Level 3")
    screen = d.app.enroll_screen
    first, second = screen.queue[0], screen.queue[1]
    assert f"Scan card {first}" in d.texts()
    os.write(master, frame("0A0B0C0D01"))
    wait_for(d, lambda: screen.current == second)
    assert "saved" in d.texts()
    time.sleep(1.2)  # off the reader long enough not to count as the same read (debounce)
    os.write(master, frame("0A0B0C0D01"))  # the same tag for the next card: refused
    wait_for(d, lambda: first in screen.message and screen.error)
    assert screen.current == second
    d.press("Skip")
    assert screen.current != second
    tags = TagMap.load(default_path(d.app.data_folder()))
    assert tags.card("0A0B0C0D01") == first
    d.press("Done")
    assert d.app.manager.current == "start"


def test_an_unplugged_reader_is_reported_and_the_game_goes_on(driver: Driver) -> None:
    d = driver
    master, slave = os.openpty()
    port = os.ttyname(slave)
    configure(d, rfid_port=port, rfid_reader="rdm6300")
    wait_for(d, lambda: d.app.hardware is not None and d.app.hardware.reader.state == "connected")
    d.app.start_game(simulate(players=2, seed=1, max_moves=0).setup)
    d.frames(2)
    table = d.app.table_screen
    os.close(master)  # the reader's end goes away, as when the USB plug is pulled
    os.close(slave)
    wait_for(d, lambda: "disconnected" in table.status.text)
    assert d.app.hardware.reader.state == "disconnected"
    assert table.status.text.startswith("RFID reader:")
    for colour in (Colour.WHITE, Colour.BLUE, Colour.GREEN):
        d.tap(table.bank[colour])
    assert table.session is not None and len(table.session.game.moves) == 1


def test_a_wrong_card_scanned_for_a_reveal_is_refused_in_the_open_picker(
    driver: Driver, serial_port: tuple[int, str]
) -> None:
    d = driver
    game = simulate(players=2, seed=5, max_moves=12)
    first = next(i for i, m in enumerate(game.moves) if m.reveal)
    move = game.moves[first]
    wrong = next(c for row in game.setup.market for c in row if c[0] != move.reveal[0])
    tags = TagMap(default_path(d.app.data_folder()))
    tags.assign(tag_of(wrong), wrong)
    master, port = serial_port
    configure(d, rfid_port=port, rfid_reader="rdm6300")
    wait_for(d, lambda: d.app.hardware is not None and d.app.hardware.reader.state == "connected")
    d.app.start_game(game.setup)
    d.frames(2)
    from .test_game import play_through_taps

    for m in game.moves[:first]:
        play_through_taps(d, m)
    play_through_taps(d, move.__class__(**{**_fields(move), "reveal": None}))
    picker = d.top()
    assert picker.__class__.__name__ == "CardPicker"
    os.write(master, frame(tag_of(wrong)))  # a card of another level, or one already seen
    wait_for(d, lambda: bool(picker.message.text))
    assert d.top() is picker  # still asking for the right card
    session = d.app.table_screen.session
    assert session is not None and len(session.game.moves) == first
