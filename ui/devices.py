"""The optional devices wired into the app: the RFID reader, buttons, lights, buzzer.

Each comes from the settings (the kiosk's environment first: ``SPLENDOR_RFID_PORT``,
``SPLENDOR_RFID_READER``, ``SPLENDOR_RFID_BAUD``; see :mod:`ui.settings`). A device that
is absent, fails or is unplugged never stops a game: the app says so and goes on with
taps. While the reader uses the Pi's UART, buttons and lights on GPIO 14 and 15 are
refused.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any, Protocol

from kivy.clock import Clock

from hardware.exc import HardwareError
from hardware.gpio import GpioPins, Signals, open_panel
from hardware.ports import UART_PINS, on_gpio_uart
from hardware.readers import DEFAULT, NAMES, READERS, SERIAL, baud_of
from hardware.rfid import BLOCKED, RfidReader
from hardware.scanner import NOT_ENROLLED, CardScanner, ScanResult
from hardware.tagmap import TagMap, default_path

from .i18n import tr


class DevicesHost(Protocol):
    """The app as the devices see it, and nothing more: its settings and data folder to
    wire them, its notices to say what failed, and where their events go (the screen on
    show, by what it can do). :class:`ui.application.CompanionApp` implements it."""

    def notice(self, message: str) -> None:
        """A line the start screen keeps, and the log: a device that failed, a tag file
        set aside (a line for the table, :meth:`say`, would replace it at once)."""
        ...

    def setting(self, key: str) -> str:
        """A setting's value in use (the kiosk's, the file's, else its default)."""
        ...

    def data_folder(self) -> Path:
        """Where the RFID tag map is kept, beside the games."""
        ...

    def say(self, message: str, error: bool = False) -> None:
        """A line for the table, on whatever screen is showing."""
        ...

    def tag_read(self, tag: str) -> bool:
        """A raw tag for the screen on show, if it takes them (enrolling a card): whether
        it did; else the tag is read as a card."""
        ...

    def on_card_scanned(self, card_id: str) -> None:
        """A card read, for the screen on show (the table declares it)."""
        ...

    def undo_pressed(self) -> None: ...

    def confirm_pressed(self) -> None: ...


def on_app_thread(function: Callable[[], None]) -> None:
    """Callbacks of readers and buttons come on their own threads: hop to Kivy's."""
    Clock.schedule_once(lambda dt: function())


class _Door:
    """Events of the readers and buttons on their way to Kivy's thread, dropped once the
    devices are closed: a reader's last word, on its way as the app stops, must not reach
    screens whose journal is already closed."""

    def __init__(self) -> None:
        self.open = True

    def __call__(self, function: Callable[[], None]) -> None:
        on_app_thread(lambda: function() if self.open else None)


class Devices:
    """The reader, the buttons and the lights, wired from ``app``'s settings."""

    def __init__(self, app: DevicesHost, pin_factory: Any = None) -> None:
        self.app = app
        self.reader: RfidReader | None = None
        self.scanner: CardScanner | None = None
        self.tags: TagMap | None = None
        self.status = ""
        self.door = _Door()
        port = app.setting("rfid_port")
        kind = app.setting("rfid_reader")
        kind = kind if kind in NAMES else DEFAULT
        baud = _number(app.setting("rfid_baud"))
        if port:
            try:
                tags, said = TagMap.load_or_set_aside(default_path(app.data_folder()))
                if said is not None:
                    app.notice(said)
            except HardwareError as err:
                app.notice(err.message)
                tags = TagMap()
            self.tags = tags
            self.scanner = CardScanner(tags, target=app.on_card_scanned, on_result=self.scanned)
            self.reader = RfidReader(
                port,
                kind,
                baudrate=baud_of(kind, baud),
                on_tag=lambda tag: self.door(lambda: self.tag_read(tag)),
                on_status=lambda state, detail: self.door(
                    lambda: self.reader_status(state, detail)
                ),
            ).start()
        pins = GpioPins.from_settings(
            {
                "undo": app.setting("pin_undo"),
                "confirm": app.setting("pin_confirm"),
                "green": app.setting("pin_led_green"),
                "red": app.setting("pin_led_red"),
                "buzzer": app.setting("pin_buzzer"),
            }
        )
        uart = bool(port) and READERS[kind].port == SERIAL and on_gpio_uart(port)
        self.panel: Signals = open_panel(
            pins,
            on_undo=app.undo_pressed,
            on_confirm=app.confirm_pressed,
            dispatch=self.door,
            pin_factory=pin_factory,
            reserved=dict(zip(UART_PINS, ("TX", "RX"), strict=True)) if uart else None,
            hold=_seconds(app.setting("undo_hold"), 1.0),
        )
        if pins.fitted and not self.panel.available:
            app.notice(self.panel.reason)

    def tag_read(self, tag: str) -> None:
        """On the app's thread: a tag for the screen that takes raw tags (enrolling), else a
        card declared at the table. Routed by what the screen can do, not by its name."""
        if not self.app.tag_read(tag) and self.scanner is not None:
            self.scanner.scan(tag)

    def scanned(self, result: ScanResult) -> None:
        # Declared cards and the engine's refusals are shown by the screen that took them.
        if result.outcome == NOT_ENROLLED or result.card is None:
            self.app.say(result.message, error=True)
            self.feedback(False)

    def reader_status(self, state: str, detail: str) -> None:
        self.status = detail
        if state in ("disconnected", BLOCKED):
            self.app.say(tr("RFID reader: {detail}").format(detail=detail), error=True)
        elif state == "connected":
            self.app.say(tr("RFID reader ready: {detail}").format(detail=detail))

    def feedback(self, accepted: bool) -> None:
        if accepted:
            self.panel.accepted()
        else:
            self.panel.refused()

    def close(self) -> None:
        self.door.open = False
        if self.reader is not None:
            self.reader.stop()
        self.panel.close()


def _number(text: str) -> int | None:
    return int(text) if text.strip().isdigit() else None


def _seconds(text: str, default: float) -> float:
    try:
        value = float(text)
    except ValueError:
        return default
    return value if 0 < value <= 10 else default
