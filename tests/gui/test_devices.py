"""The app with its devices: a real serial port (a pseudo-terminal) and gpiozero's mock pins."""

from __future__ import annotations

import os
import re
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from devices import PN532Module, Pty
from gpiozero.pins.mock import MockFactory
from kivy.base import EventLoop

from companion.engine.cards import CARDS, NOBLES
from companion.engine.naming import card_words
from companion.engine.simulate import simulate
from companion.engine.tokens import Colour
from companion.journal.declaring import NewGame
from hardware.tagmap import TagMap, default_path
from ui.devices import Devices
from ui.settings import DEFAULTS

from .driver import Driver
from .playing import play_through_taps


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


def rdm6300_on(d: Driver, port: str) -> None:
    """The app's reader set to an RDM6300 on ``port`` (the settings), and connected."""
    configure(d, rfid_port=port, rfid_reader="rdm6300")
    wait_for(d, lambda: d.app.hardware is not None and d.app.hardware.reader.state == "connected")


def lit(pins: MockFactory, number: int) -> bool:
    """Whether the pin went high (a flash may be over by the time the test looks)."""
    return any(state.state for state in pins.pin(number).states)


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
    assert lit(pins, 27)  # the green light flashes on the accepted take

    undo = pins.pin(17)
    undo.drive_low()
    wait_for(d, lambda: not session.game.moves)
    undo.drive_high()
    assert "Undone" in table.status.text

    d.tap(table.bank[Colour.RED])
    d.tap(table.bank[Colour.BLUE])
    d.tap(table.bank[Colour.BLUE])  # refused: not a take
    assert lit(pins, 22), "the red light is on after a refused move"
    assert lit(pins, 23), "the buzzer sounds"


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
    rdm6300_on(d, port)

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
    rdm6300_on(d, port)
    d.app.show_start()
    d.frames(2)
    d.press("RFID cards")
    d.press("Level 3")
    screen = d.app.enroll_screen
    first, second = screen.queue[0], screen.queue[1]
    # The card asked for is drawn and said in words; its record id means nothing to people.
    assert card_words(CARDS[first]) in d.texts()
    # How many are left, after a colon: "... (4 points): 20 cards to go", never two
    # brackets in a row.
    left = len(screen.queue)
    assert f"{card_words(CARDS[first])}: {left} cards to go" in d.texts(), d.texts()
    assert ") (" not in d.texts()
    assert not (set(CARDS) | set(NOBLES)) & set(re.findall(r"\w+", d.texts()))
    os.write(master, frame("0A0B0C0D01"))
    wait_for(d, lambda: screen.current == second)
    assert "saved" in d.texts()
    time.sleep(1.2)  # off the reader long enough not to count as the same read (debounce)
    os.write(master, frame("0A0B0C0D01"))  # the same tag for the next card: refused
    wait_for(d, lambda: card_words(CARDS[first]) in screen.message and screen.error)
    assert "already on" in screen.message and first not in screen.message
    assert screen.current == second
    d.press("Skip")
    assert screen.current != second
    tags = TagMap.load(default_path(d.app.data_folder()))
    assert tags.card("0A0B0C0D01") == first
    back, skip = d.button("Back", exact=True), d.button("Skip this card", exact=True)
    assert back.to_window(*back.pos)[0] < skip.to_window(*skip.pos)[0]
    d.press("Back")  # in one place on every screen: the bottom row's first, at the left
    assert d.app.manager.current == "start"
    assert TagMap.load(default_path(d.app.data_folder())).card("0A0B0C0D01") == first


def test_an_unplugged_reader_is_reported_and_the_game_goes_on(driver: Driver) -> None:
    d = driver
    master, slave = os.openpty()
    port = os.ttyname(slave)
    rdm6300_on(d, port)
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
    rdm6300_on(d, port)
    d.app.start_game(game.setup)
    d.frames(2)

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


# ------------------------------------------------------------ the kiosk's settings


def test_the_kiosk_reader_reaches_the_app_after_any_number_of_starts(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    first_master, first_slave = os.openpty()
    second_master, second_slave = os.openpty()
    d = Driver(tmp_path / "data")  # the first start, before the reader: settings.ini is written
    try:
        assert d.app.hardware.reader is None
        assert (tmp_path / "data" / "settings.ini").exists()
        for port, baud in ((os.ttyname(first_slave), "19200"), (os.ttyname(second_slave), "")):
            # deploy.sh --rfid-port ... --rfid-reader pn532 [--rfid-baud ...], then a restart
            monkeypatch.setenv("SPLENDOR_RFID_PORT", port)
            monkeypatch.setenv("SPLENDOR_RFID_READER", "pn532")
            monkeypatch.setenv("SPLENDOR_RFID_BAUD", baud)
            for _ in range(2):
                d.restart()
                reader = d.app.hardware.reader
                assert reader is not None
                assert (reader.port, reader.reader) == (port, "pn532")
                assert reader.baudrate == (int(baud) if baud else 115200)
    finally:
        d.close()
        for fd in (first_master, first_slave, second_master, second_slave):
            os.close(fd)


def test_a_console_on_the_reader_port_is_said_with_the_fix(
    driver: Driver, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import hardware.ports

    d = driver
    master, slave = os.openpty()
    port = tmp_path / "serial0"
    port.symlink_to(os.ttyname(slave))
    cmdline = tmp_path / "cmdline"
    cmdline.write_text("console=serial0,115200 console=tty1 rootwait\n")
    monkeypatch.setattr(hardware.ports, "CMDLINE", cmdline)
    try:
        configure(d, rfid_port=str(port), rfid_reader="rdm6300")
        wait_for(d, lambda: "a console holds this port" in d.texts())
        assert "raspi-config" in d.texts()
        assert d.app.hardware.reader.state == "blocked"
    finally:
        os.close(master)
        os.close(slave)


def test_a_button_on_the_readers_uart_pins_is_refused_clearly(
    driver: Driver, pins: MockFactory
) -> None:
    d = driver
    configure(d, rfid_port="/dev/serial0", rfid_reader="rdm6300", pin_undo="14")
    d.app.start_screen.refresh()
    assert not d.app.hardware.panel.available
    assert "pin 14 (undo button) is the serial port's TX" in d.texts()
    configure(d, rfid_port="/dev/ttyUSB0", pin_undo="14")  # a USB reader: the pin is free
    assert d.app.hardware.panel.available


def test_the_screen_dims_when_idle_and_the_waking_touch_presses_nothing(
    driver: Driver, tmp_path: Path
) -> None:
    from ui.backlight import Backlight

    d = driver
    light = tmp_path / "backlight" / "10-0045"
    light.mkdir(parents=True)
    (light / "max_brightness").write_text("255\n")
    (light / "brightness").write_text("200\n")
    now = [1000.0]
    dimmer = d.app.dimmer
    dimmer.backlight = Backlight(light)
    dimmer.clock = lambda: now[0]
    dimmer.last_touch = now[0]
    d.app.config.set("companion", "dim_after", "2")  # minutes
    now[0] += 100
    dimmer.check()
    assert (light / "brightness").read_text() == "200\n"  # not idle long enough
    now[0] += 30
    dimmer.check()
    assert int((light / "brightness").read_text()) < 200 / 4
    d.tap(d.button("Settings"))  # in the dark: wakes the screen, opens nothing
    d.frames(3)
    assert (light / "brightness").read_text() == "200\n"
    assert d.app.manager.current == "start"
    d.press("Settings")  # now it is seen: the tap does what it says
    d.frames(3)
    assert d.app.manager.current == "settings"
    d.app.close_settings()
    d.app.config.set("companion", "dim_after", "0")
    now[0] += 10_000
    dimmer.check()
    assert (light / "brightness").read_text() == "200\n"  # 0: never dimmed


# ------------------------------------------------------------------ the USB stick


def test_on_the_kiosk_export_asks_the_helper_and_says_what_it_did(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from companion.journal.store import GameState
    from companion.records.record import Record

    monkeypatch.setenv("SPLENDOR_USB_EXPORT", "yes")  # deploy.sh installed the helper
    data = tmp_path / "data"
    d = Driver(data)
    try:
        for seed in (1, 2):
            game = simulate(players=2, seed=seed)
            d.app.store.import_record(Record.of(game), GameState.of(game))
        d.app.show_history()
        d.frames(2)
        d.press("Export all")
        assert (data / "usb-export.request").exists()  # what the path unit waits for
        assert "Looking for the USB stick" in d.texts()
        # the helper, as root: found the stick, mounted it, exported, unmounted
        (data / "usb-export.status").write_text("state=exported\ndevice=/dev/sda1\ngames=2\n")
        wait_for(d, lambda: "2 games exported: you can pull the stick out" in d.texts())

        d.app.start_game(simulate(players=2, seed=3, max_moves=0).setup)
        d.frames(2)
        # a stick plugged in during a game: exported by udev's helper, said at the table
        (data / "usb-export.status").write_text("state=no-stick\n")
        wait_for(d, lambda: "No USB stick found" in d.app.table_screen.status.text)
        (data / "usb-export.status").write_text("state=exported\ngames=1\ntime=2\n")
        wait_for(d, lambda: "1 game exported: you can pull" in d.app.table_screen.status.text)
    finally:
        d.close()


def test_a_pn532_and_a_keyboard_reader_enroll_cards_in_the_app(
    driver: Driver, monkeypatch: pytest.MonkeyPatch, pn532: tuple[Pty, PN532Module]
) -> None:
    from wedge import BY_ID, Recorded, UsbPort, typed

    import hardware.keyboard

    d = driver
    pty, module = pn532
    usb = UsbPort()
    usb.device = Recorded()
    monkeypatch.setattr(hardware.keyboard, "EvdevSource", usb)  # the recorded device
    configure(d, rfid_port=pty.path, rfid_reader="pn532")
    wait_for(d, lambda: d.app.hardware.reader.state == "connected")
    assert d.app.hardware.reader.baudrate == 115200
    d.app.show_start()
    d.frames(2)
    d.press("RFID cards")
    d.press("Level 3")
    screen = d.app.enroll_screen
    first, second, third = screen.queue[:3]
    module.tag = "046B8A882C5E80"
    wait_for(d, lambda: screen.current == second)

    configure(d, rfid_port=BY_ID, rfid_reader="keyboard")
    wait_for(d, lambda: d.app.hardware.reader.state == "connected")
    assert usb.opened == [f"/dev/input/by-id/{BY_ID}"]
    usb.device.play(typed("0004346362"))
    wait_for(d, lambda: screen.current == third)
    tags = TagMap.load(default_path(d.app.data_folder()))
    assert tags.card("046B8A882C5E80") == first
    assert tags.card("0004346362") == second


def test_a_card_scanned_when_none_is_asked_for_is_named_in_words(
    driver: Driver, serial_port: tuple[int, str]
) -> None:
    d = driver
    card = simulate(players=2, seed=5, max_moves=0).setup.market[0][0]
    tags = TagMap(default_path(d.app.data_folder()))
    tags.assign(tag_of(card), card)
    master, port = serial_port
    rdm6300_on(d, port)
    d.app.show_start()  # no card is being declared here
    d.frames(2)
    os.write(master, frame(tag_of(card)))
    # The card as the table says it ("a blue level-1 card"), never its record id.
    wait_for(d, lambda: card_words(CARDS[card]) in d.texts())
    assert "no card is being declared now" in d.texts()
    assert card not in re.findall(r"\w+", d.texts())


def test_a_readers_last_word_after_the_app_stopped_is_dropped(
    driver: Driver, serial_port: tuple[int, str]
) -> None:
    """A reader's status on its way to the screen as the app stops (its journal closed)
    is dropped, not shown on a screen that would read the closed journal."""
    d = driver
    _master, port = serial_port
    rdm6300_on(d, port)
    d.app.show_start()
    d.frames(2)
    devices = d.app.hardware
    assert devices is not None
    devices.door(lambda: devices.reader_status("disconnected", "unplugged"))  # in flight
    d.app.dispatch("on_stop")  # closes the devices and the journal
    d.frames(3)  # the word arrives now: dropped, no "closed database" error
    assert not devices.door.open


class Host:
    """All the devices may ask of the app (:class:`ui.devices.DevicesHost`), and no more:
    no screens, no screen manager, no journal. Records where each event went."""

    def __init__(self, folder: Path, **settings: str) -> None:
        self.notices: list[str] = []
        self.folder = folder
        self.settings = settings
        self.events: list[tuple[str, ...]] = []

    def setting(self, key: str) -> str:
        return self.settings.get(key, DEFAULTS[key])

    def data_folder(self) -> Path:
        return self.folder

    def notice(self, message: str) -> None:
        self.notices.append(message)

    def say(self, message: str, error: bool = False) -> None:
        self.events.append(("say", message))

    def tag_read(self, tag: str) -> bool:
        self.events.append(("tag", tag))
        return True  # a screen that takes raw tags, as enrolling does

    def on_card_scanned(self, card_id: str) -> None:
        self.events.append(("card", card_id))

    def undo_pressed(self) -> None:
        self.events.append(("undo",))

    def confirm_pressed(self) -> None:
        self.events.append(("confirm",))


def test_the_devices_need_only_what_they_ask_of_the_app(
    tmp_path: Path, pins: MockFactory, serial_port: tuple[int, str]
) -> None:
    """Wired from a host that is not the app: the reader's tag goes to the host's screen
    that takes raw tags, the buttons to its undo and confirm; nothing failed to say."""
    master, port = serial_port
    host = Host(
        tmp_path,
        rfid_port=port,
        rfid_reader="rdm6300",
        pin_undo="17",
        pin_confirm="18",
        undo_hold="0.1",
    )
    devices = Devices(host, pin_factory=pins)

    def wait(event: tuple[str, ...]) -> None:
        deadline = time.monotonic() + 5
        while event not in host.events:
            assert time.monotonic() < deadline, (event, host.events)
            EventLoop.idle()
            time.sleep(0.01)

    try:
        assert devices.reader is not None
        # A tag read before the port is open is lost (opening flushes the line), as on a Pi.
        deadline = time.monotonic() + 5
        while devices.reader.state != "connected":
            assert time.monotonic() < deadline, devices.reader.state
            time.sleep(0.01)
        os.write(master, frame("0A0B0C0D0E"))
        wait(("tag", "0A0B0C0D0E"))
        for number, event in ((17, "undo"), (18, "confirm")):
            pins.pin(number).drive_low()
            wait((event,))
            pins.pin(number).drive_high()
    finally:
        devices.close()
    assert not host.notices
    assert not [e for e in host.events if e[0] == "card"]  # the host took the tag raw


def test_a_hostile_tag_file_is_set_aside_and_the_reader_starts(driver: Driver) -> None:
    d = driver
    path = default_path(d.app.data_folder())
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(b"[" * 200_000)  # nested too deep for json: a RecursionError before
    master, slave = os.openpty()
    try:
        rdm6300_on(d, os.ttyname(slave))
        said = [n for n in d.app.notices if ".damaged-" in n]
        assert len(said) == 1 and "\n" not in said[0], d.app.notices
        assert d.app.hardware is not None and d.app.hardware.tags is not None
        assert len(d.app.hardware.tags) == 0
        kept = [p for p in path.parent.iterdir() if p.name.startswith(path.name + ".damaged-")]
        assert len(kept) == 1 and kept[0].read_bytes() == b"[" * 200_000
    finally:
        os.close(master)
        os.close(slave)
