"""Buttons, LEDs and buzzer through gpiozero's mock pins, acting on a real game."""

from __future__ import annotations

import queue
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from gpiozero import Device
from gpiozero.pins.mock import MockFactory, MockPin
from gpiozero.threads import GPIOThread

from companion.engine.setup import Setup
from companion.journal.declaring import Turn
from companion.journal.session import Session
from companion.journal.store import Store
from hardware.exc import DeviceCode, PinError
from hardware.gpio import GpioPins, Panel, Signals, open_panel
from hardware.scanner import ILLEGAL, CardScanner, ScanResult
from hardware.tagmap import TagMap

MARKET = ("1W1 1U1 1G1 1R1", "2W1 2U1 2G1 2R1", "3W1 3U1 3G1 3R1")
PINS = GpioPins(undo=17, confirm=27, green=22, red=23, buzzer=24)
WAIT = 5.0


@pytest.fixture
def factory() -> Iterator[MockFactory]:
    previous = Device.pin_factory
    mock = MockFactory()
    Device.pin_factory = mock
    yield mock
    mock.reset()
    Device.pin_factory = previous


@pytest.fixture
def panels(factory: MockFactory) -> Iterator[list[Signals]]:
    """Panels opened by a test, closed after it: no pin stays reserved, no blink thread runs."""
    opened: list[Signals] = []
    yield opened
    for panel in opened:
        panel.close()
    assert not [t for t in threading.enumerate() if isinstance(t, GPIOThread) and t.is_alive()]


@pytest.fixture
def session(tmp_path: Path) -> Iterator[Session]:
    store = Store(tmp_path / "games.sqlite3")
    yield Session.start(store, Setup.of(["Ada", "Ben"], ["N1", "N2", "N3"], MARKET))
    store.close()


def pin(factory: MockFactory, number: int) -> MockPin:
    found = factory.pin(number)
    assert isinstance(found, MockPin)
    return found


def went_high(p: MockPin) -> bool:
    return any(state.state for state in p.states)


def wait_until(condition: Callable[[], bool], what: str) -> None:
    """Poll a device's state until ``condition`` (gpiozero's blink thread has no event)."""
    deadline = time.monotonic() + WAIT
    while not condition():
        if time.monotonic() > deadline:
            pytest.fail(f"timed out waiting for {what}")
        time.sleep(0.005)


def undo_panel(
    panels: list[Signals], session: Session, hold: float
) -> queue.SimpleQueue[Callable[[], None]]:
    """A move played, and the undo button wired to the session (held ``hold`` seconds)
    through the app's thread: the queue of what that thread is given to run."""
    session.play("take WUG")
    app_thread: queue.SimpleQueue[Callable[[], None]] = queue.SimpleQueue()
    panels.append(Panel(PINS, on_undo=session.undo, dispatch=app_thread.put, hold=hold))
    return app_thread


def test_the_undo_button_undoes_a_move_of_a_real_session(
    factory: MockFactory, panels: list[Signals], session: Session
) -> None:
    app_thread = undo_panel(panels, session, hold=0.1)

    pin(factory, 17).drive_low()  # held: the button pulls the pin to ground
    assert session.can_undo  # nothing happens on gpiozero's thread
    app_thread.get(timeout=WAIT)()  # the app's thread runs the undo
    pin(factory, 17).drive_high()

    assert not session.can_undo and session.can_redo
    assert session.store.moves(session.game_id) == []
    assert [str(m) for m in session.store.undone(session.game_id)] == ["take WUG"]


def test_a_bump_on_the_undo_button_undoes_nothing(
    factory: MockFactory, panels: list[Signals], session: Session
) -> None:
    app_thread = undo_panel(panels, session, hold=0.3)
    button = pin(factory, 17)
    button.drive_low()  # a bump: pressed and let go at once
    button.drive_high()
    button.drive_low()  # then held
    app_thread.get(timeout=WAIT)()
    button.drive_high()
    assert app_thread.empty()  # one undo: the held press's, none for the bump
    assert not session.can_undo


def test_the_uart_pins_are_refused_while_the_reader_uses_them(
    factory: MockFactory, panels: list[Signals]
) -> None:
    uart = {14: "TX", 15: "RX"}
    for pins in (GpioPins(undo=14), GpioPins(red="GPIO15"), GpioPins(buzzer="BOARD8")):
        panel = open_panel(pins, reserved=uart)
        assert not panel.available
        assert "the serial port's" in panel.reason and "RFID reader" in panel.reason
    assert (
        "pin 14 (undo button) is the serial port's TX"
        in open_panel(GpioPins(undo=14), reserved=uart).reason
    )
    free = open_panel(GpioPins(undo=14))  # a USB reader: the UART pins are free
    panels.append(free)
    assert free.available


def test_the_confirm_button_commits_the_declared_turn(
    factory: MockFactory, panels: list[Signals], session: Session
) -> None:
    turn = Turn(session)
    turn.start(session.game.parse("take WUG"))
    panel = Panel(PINS, on_confirm=turn.commit)  # no dispatch: called on gpiozero's thread
    panels.append(panel)
    pin(factory, 27).drive_low()
    pin(factory, 27).drive_high()  # released (a button held down keeps gpiozero waiting)
    assert [str(m) for m in session.store.moves(session.game_id)] == ["take WUG"]


def test_a_refused_move_lights_the_red_led_and_buzzes(
    factory: MockFactory, panels: list[Signals], session: Session
) -> None:
    panel = Panel(PINS, alarm=30.0, beep=0.05)
    panels.append(panel)
    assert isinstance(panel, Panel) and panel.red is not None and panel.green is not None
    results: list[ScanResult] = []

    def show(result: ScanResult) -> None:
        results.append(result)
        if result.ok:
            panel.accepted()
        else:
            panel.refused()

    scanner = CardScanner(TagMap(tags={"0A1B2C3D4E": "1K2"}), Turn(session), on_result=show)
    before = session.game.position()
    scanner.scan("0A1B2C3D4E")  # 1K2 is in the deck: no legal move takes it

    assert results[0].outcome == ILLEGAL
    assert session.game.position() == before
    assert panel.red.is_lit and not panel.green.is_lit
    assert pin(factory, 23).state
    assert went_high(pin(factory, 24))  # the buzzer sounded...
    assert panel.buzzer is not None
    wait_until(lambda: not pin(factory, 24).state, "the end of the buzz")  # ...briefly


def test_an_accepted_move_flashes_the_green_led(
    factory: MockFactory, panels: list[Signals], session: Session
) -> None:
    panel = Panel(PINS, flash=0.05)
    panels.append(panel)
    assert panel.green is not None and panel.red is not None
    panel.refused()
    panel.accepted()
    assert panel.green.is_lit and not panel.red.is_lit
    wait_until(lambda: not panel.green.is_lit, "the green LED to go out")
    assert went_high(pin(factory, 22))


def test_a_pin_given_twice_is_refused_and_releases_the_pins(
    factory: MockFactory, panels: list[Signals]
) -> None:
    with pytest.raises(PinError) as refused:
        Panel(GpioPins(undo=17, red=17))
    assert refused.value.code is DeviceCode.PIN_IN_USE
    assert "pin 17 (red LED) is already in use" in refused.value.message
    panels.append(Panel(GpioPins(undo=17)))  # the undo button's pin was released


def test_open_panel_never_raises(factory: MockFactory, panels: list[Signals]) -> None:
    nothing = open_panel(GpioPins())
    assert not nothing.available and nothing.reason == "no GPIO pin is set"
    clash = open_panel(GpioPins(green=5, buzzer=5))
    assert not clash.available and "already in use" in clash.reason
    clash.refused()  # does nothing, and does not fail
    working = open_panel(GpioPins(green=5))
    panels.append(working)
    assert working.available


def test_off_a_pi_the_panel_is_absent(monkeypatch: pytest.MonkeyPatch) -> None:
    previous = Device.pin_factory
    monkeypatch.setenv("GPIOZERO_PIN_FACTORY", "no-such-pin-library")
    Device.pin_factory = None
    try:
        panel = open_panel(PINS)
    finally:
        Device.pin_factory = previous
    assert not panel.available
    assert "buttons and lights are off" in panel.reason
    panel.accepted()
    panel.refused()
    panel.close()


def test_pins_come_from_the_settings() -> None:
    pins = GpioPins.from_settings({"undo": "17", "confirm": 27, "red": " GPIO23 ", "green": ""})
    assert pins == GpioPins(undo=17, confirm=27, red="GPIO23")
    assert not GpioPins.from_settings({}).fitted
    with pytest.raises(PinError):
        GpioPins.from_settings({"undo": 1.5})
