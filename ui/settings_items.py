"""What the settings screen says of each setting: its name, one line on what it does, the
choices a finger taps, and a value in words. Kept apart from the screen so that the
words can be read and tested without a window.

Names and explanations are English message ids (``N_``), translated when shown: the
language can change while the screen is open.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from companion.errors import TextError
from companion.i18n import LANGUAGES, N_, ngettext, number
from hardware.ports import BY_ID, gpio_uart, keyboard_devices
from hardware.readers import NAMES, READERS

from .display import parse_choice
from .i18n import LANGUAGE_NAMES, tr
from .settings import KIOSK, KIOSK_SOURCE, SCREEN_SOURCE, source

if TYPE_CHECKING:
    from .context import AppContext

DEV = Path("/dev")
MAX_PORTS = 6  # found ports offered; any other is typed
PINS = [str(pin) for pin in range(2, 28)]  # the Pi's GPIO: 0 and 1 belong to its HAT EEPROM


@dataclass(frozen=True)
class Item:
    """One setting of ``settings.ini`` as the screen shows it."""

    key: str
    name: str
    explain: str
    choices: Callable[[], list[str]]
    words: Callable[[str], str]
    # A choice's text on its button, when shorter than its words (a pin: "17").
    label: Callable[[str], str] | None = None
    # A choice's second line (a reader: the tags it reads).
    detail: Callable[[str], str] | None = None
    typed: bool = False  # a value may also be typed (a port)

    def button(self, value: str) -> str:
        return (self.label or self.words)(value)


def _number(value: str) -> float | None:
    try:
        return float(value)
    except ValueError:
        return None


def on_off(value: str) -> str:
    return tr("On") if value == "1" else tr("Off")


def minutes(value: str) -> str:
    n = _number(value)
    if n is None:
        return value
    if n <= 0:
        return tr("Never")
    shown = number(n, 0 if n == int(n) else 1)
    return ngettext("after {n} minute", "after {n} minutes", 1 if n == 1 else 2).format(n=shown)


def seconds(value: str) -> str:
    n = _number(value)
    if n is None:
        return value
    shown = number(n, 0 if n == int(n) else 1)
    return ngettext("{n} second", "{n} seconds", 1 if n == 1 else 2).format(n=shown)


def pin(value: str) -> str:
    """A pin by its BCM number (``GPIO 17``), or by the name it was given (``BOARD11``)."""
    if not value:
        return tr("None")
    return tr("GPIO {pin}").format(pin=value) if value.isdigit() else value


def pin_label(value: str) -> str:
    return value or tr("None")


def baud(value: str) -> str:
    return tr("{baud} baud").format(baud=value) if value else tr("The reader's own")


def port(value: str) -> str:
    """A port as a person reads it: a ``by-id`` name is the device's own words, its
    underscores spaces (and never a word too long for the screen)."""
    if not value:
        return tr("No reader")
    path = Path(value)
    return path.name.replace("_", " ") if path.parent.name == "by-id" else value


def rotation(value: str) -> str:
    if value == "landscape":
        return tr("Landscape")
    if value == "portrait":
        return tr("Portrait")
    return f"{value}°"


def language(value: str) -> str:
    return LANGUAGE_NAMES.get(value, value)


def reader_tags(value: str) -> str:
    kind = READERS.get(value)
    return tr(kind.tags) if kind is not None else ""


def found_ports(dev: Path | None = None, by_id: Path | None = None) -> list[str]:
    """The ports a reader may be on, as they are now: the Pi's UART, USB serial adapters
    (by their stable ``/dev/serial/by-id`` names first), and USB keyboard readers."""
    dev = DEV if dev is None else dev
    found: list[str] = []
    uart = dev / Path(gpio_uart()).name
    if uart.exists():
        found.append(str(uart))
    for pattern in ("serial/by-id/*", "ttyUSB*", "ttyACM*"):
        found += sorted(str(p) for p in dev.glob(pattern))
    found += keyboard_devices(BY_ID if by_id is None else by_id)
    return found[:MAX_PORTS]


def _pin(key: str, name: str, explain: str) -> Item:
    return Item(key, name, explain, lambda: ["", *PINS], pin, label=pin_label)


SECTIONS: list[tuple[str, list[Item]]] = [
    (
        N_("General"),
        [
            Item(
                "language",
                N_("Language"),
                N_("The language of every screen and message"),
                lambda: list(LANGUAGES),
                language,
            ),
            Item(
                "hints",
                N_("Hints"),
                N_("Highlight the cards the player to act can afford"),
                lambda: ["1", "0"],
                on_off,
            ),
            Item(
                "rotation",
                N_("Screen rotation"),
                N_("Turn the picture to match how the screen is mounted"),
                # Degrees, or a shape (turned a quarter only where the panel is the other).
                lambda: ["0", "90", "180", "270", "landscape", "portrait"],
                rotation,
            ),
            Item(
                "dim_after",
                N_("Dim the screen"),
                N_("When nobody has touched it for a while; a touch wakes it"),
                lambda: ["0", "1", "2", "5", "10", "15", "30", "60"],
                minutes,
            ),
            Item(
                "web",
                N_("The table on phones"),
                N_("A page of the game for phones nearby"),
                lambda: ["1", "0"],
                on_off,
            ),
            Item(
                "web_max_clients",
                N_("Phones following live"),
                N_("How many follow the table at once"),
                lambda: ["8", "16", "32", "64"],
                lambda value: value,
            ),
        ],
    ),
    (
        N_("RFID card reader"),
        [
            Item(
                "rfid_port",
                N_("Reader's port"),
                N_("Where the RFID card reader is plugged in"),
                lambda: ["", *found_ports()],
                port,
                typed=True,
            ),
            Item(
                "rfid_reader",
                N_("Reader type"),
                N_("The kind of reader, by the tags it reads"),
                lambda: list(NAMES),
                lambda value: value,
                detail=reader_tags,
            ),
            Item(
                "rfid_baud",
                N_("Reader speed"),
                N_("The serial port's speed: the reader's own, unless its maker says otherwise"),
                lambda: ["", "9600", "19200", "38400", "57600", "115200"],
                baud,
            ),
        ],
    ),
    (
        N_("Buttons and lights"),
        [
            _pin(
                "pin_undo",
                N_("Undo button"),
                N_("The GPIO pin of the button that undoes a move"),
            ),
            Item(
                "undo_hold",
                N_("Hold to undo"),
                N_("How long the undo button is held before it undoes"),
                lambda: ["0.5", "1", "1.5", "2", "3", "5"],
                seconds,
            ),
            _pin(
                "pin_confirm",
                N_("Confirm button"),
                N_("The GPIO pin of the button that takes the chosen tokens"),
            ),
            _pin(
                "pin_led_green",
                N_("Green light"),
                N_("The GPIO pin of the light that shows a move accepted"),
            ),
            _pin(
                "pin_led_red",
                N_("Red light"),
                N_("The GPIO pin of the light that shows a move refused"),
            ),
            _pin(
                "pin_buzzer",
                N_("Buzzer"),
                N_("The GPIO pin of the buzzer that sounds a move refused"),
            ),
        ],
    ),
]
ITEMS = {item.key: item for _, items in SECTIONS for item in items}


def choices(item: Item, value: str) -> list[str]:
    """The values offered for ``item``, its current one among them (a value set by hand
    in ``settings.ini``, or a port unplugged since, is still shown as chosen)."""
    offered = item.choices()
    return offered if value in offered else [*offered, value]


KIOSK_ROTATION = ("SPLENDOR_ROTATION", "--rotation")


def kiosk_rotation() -> str | None:
    """``deploy.sh``'s rotation when it turns something: it then wins over this screen's
    (``ui.display.decide``); its ``0`` leaves the choice here."""
    try:
        choice = parse_choice(os.environ.get(KIOSK_ROTATION[0]))
    except TextError:
        return None
    return None if choice in (None, 0) else str(choice)


def shown(app: AppContext, key: str) -> str:
    """The value the app uses for ``key``: the kiosk's where it wins."""
    if key == "rotation":
        return kiosk_rotation() or app.setting(key)
    return app.setting(key)


def origin(app: AppContext, key: str) -> str:
    """Where the value of ``key`` comes from, in words."""
    if kiosk_set(app, key):
        variable, option = KIOSK.get(key, KIOSK_ROTATION)
        return tr(
            "Set by the kiosk's installer ({variable} in /etc/default/splendor-companion): "
            "change it with ./deploy.sh {option}"
        ).format(variable=variable, option=option)
    if source(key, app.setting(key)) == SCREEN_SOURCE:
        return tr("Set on this screen")
    return tr("The default")


def kiosk_set(app: AppContext, key: str) -> bool:
    """Set by the kiosk's installer: shown, not changed here (the next start would undo it)."""
    if key == "rotation":
        return kiosk_rotation() is not None
    return source(key, app.setting(key)) == KIOSK_SOURCE
