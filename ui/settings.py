"""The app's settings, kept with Kivy's own configuration (``settings.ini``), and the
kiosk's: what ``deploy.sh`` puts in the service's environment wins over ``settings.ini``
at every start, and the settings screen says where each value comes from.

A value that cannot be used (``rotation = 45``, a baud rate of 5,000 digits) never stops
the app: its default is used, and :func:`complaint` says so on the screen and in the log.
"""

from __future__ import annotations

import configparser
import io
import os
import re
from collections.abc import Mapping
from pathlib import Path

from companion.errors import TextError
from companion.files import write_atomic
from companion.i18n import LANGUAGES, N_, environment_language, translate
from companion.text import printable
from hardware.readers import DEFAULT, NAMES

from .display import parse_choice

SETTINGS_SECTION = "companion"
DEFAULTS = {
    "language": environment_language(),  # until the settings screen sets one
    "hints": "0",
    "data_dir": "",
    "rfid_port": "",
    "rfid_reader": DEFAULT,
    "rfid_baud": "",
    "pin_undo": "",
    "pin_confirm": "",
    "pin_led_green": "",
    "pin_led_red": "",
    "pin_buzzer": "",
    "undo_hold": "1",
    "dim_after": "5",
    "rotation": "0",
    # The table's web page (docs/web.md): served (1) or not (0), and how many phones may
    # follow it live at once. The web server reads them from this file.
    "web": "1",
    "web_max_clients": "32",
}

KIOSK = {
    "rfid_port": ("SPLENDOR_RFID_PORT", "--rfid-port"),
    "rfid_reader": ("SPLENDOR_RFID_READER", "--rfid-reader"),
    "rfid_baud": ("SPLENDOR_RFID_BAUD", "--rfid-baud"),
}
"""Settings the kiosk's installer sets: the environment variable and deploy.sh's option."""

KIOSK_SOURCE, SCREEN_SOURCE, DEFAULT_SOURCE = "kiosk", "screen", "default"

ROTATIONS = ("0", "90", "180", "270", "landscape", "portrait")
# gpiozero's pin names besides a BCM number: GPIO17, BCM17, BOARD11, J8:11.
PIN_NAME = re.compile(r"[A-Za-z][A-Za-z0-9_:]{0,15}")

# What each setting takes, said when a value is refused.
EXPECTED = {
    "language": N_("one of {values}"),
    "hints": N_("0 or 1"),
    "web": N_("0 or 1"),
    "web_max_clients": N_("a number from 1 to 1000"),
    "rotation": N_("one of {values}"),
    "dim_after": N_("a number of minutes from 0 to 1440"),
    "rfid_reader": N_("one of {values}"),
    "rfid_baud": N_("empty, or a speed from 50 to 4000000"),
    "undo_hold": N_("a number of seconds above 0, up to 10"),
    "pin": N_("empty, or a GPIO number from 0 to 53 (or a name like GPIO17)"),
    "text": N_("a line of text"),
}


def _number(text: str, low: float, high: float) -> float | None:
    """``text`` as a number within ``low``..``high``, else ``None`` (5,000 digits too)."""
    if len(text) > 16:
        return None
    try:
        value = float(text)
    except ValueError:
        return None
    return value if low <= value <= high else None  # NaN is neither


def usable(key: str, value: str) -> bool:
    """Whether ``value`` can be the setting ``key`` (what the app and devices can take)."""
    text = value.strip()
    if key == "language":
        return text in LANGUAGES
    if key in ("hints", "web"):
        return text in ("0", "1")
    if key == "web_max_clients":
        return text.isdigit() and _number(text, 1, 1000) is not None
    if key == "rotation":
        try:  # what the display's decision takes (ui.display): 90, portrait, nothing...
            parse_choice(text)
        except TextError:
            return False
        return True
    if key == "dim_after":
        return _number(text, 0, 24 * 60) is not None
    if key == "undo_hold":
        return _number(text, 0, 10) not in (None, 0)
    if key == "rfid_reader":
        return text in NAMES
    if key == "rfid_baud":
        return not text or (text.isdigit() and _number(text, 50, 4_000_000) is not None)
    if key.startswith("pin_"):
        if text.isdigit():
            return _number(text, 0, 53) is not None
        return not text or PIN_NAME.fullmatch(text) is not None
    return "\0" not in value and len(value) <= 4096  # a path or a port


def expected(key: str) -> str:
    """What ``key`` takes, in words (for a refused value)."""
    values = {"language": LANGUAGES, "rotation": ROTATIONS, "rfid_reader": NAMES}
    kind = "pin" if key.startswith("pin_") else key if key in EXPECTED else "text"
    return translate(EXPECTED[kind]).format(values=", ".join(values.get(key, ())))


def shown(value: str) -> str:
    """A refused value as a notice shows it: one short line."""
    line = printable(value)
    return line if len(line) <= 24 else line[:20] + "…"


def complaint(key: str, value: str, file: str) -> str:
    """The notice for a value of ``settings.ini`` (``file``) that cannot be used."""
    return translate(
        "The setting {key} = {value} in {file} cannot be used ({expected}): the app uses "
        "{default}. Change it in Settings."
    ).format(
        key=key,
        value=shown(value),
        file=file,
        expected=expected(key),
        default=DEFAULTS.get(key) or '""',
    )


def kiosk_complaint(key: str, value: str) -> str:
    """The notice for a value of the kiosk's environment that cannot be used."""
    variable, option = KIOSK[key]
    return translate(
        "{variable}={value}, set by the kiosk's installer, cannot be used ({expected}): "
        "the value of the settings screen is used. Change it with ./deploy.sh {option}."
    ).format(variable=variable, value=shown(value), expected=expected(key), option=option)


def from_kiosk(key: str, environ: Mapping[str, str] | None = None) -> str | None:
    """The kiosk's value of ``key`` (``None``: the kiosk does not set it, or sets a value
    that cannot be used, which :func:`kiosk_refused` reports)."""
    value = _kiosk_value(key, environ)
    return value if value is not None and usable(key, value) else None


def _kiosk_value(key: str, environ: Mapping[str, str] | None) -> str | None:
    environ = os.environ if environ is None else environ
    if key not in KIOSK:
        return None
    return environ.get(KIOSK[key][0], "").strip() or None


def kiosk_refused(environ: Mapping[str, str] | None = None) -> list[str]:
    """A notice for each value of the kiosk's environment that cannot be used."""
    found = ((key, _kiosk_value(key, environ)) for key in KIOSK)
    return [kiosk_complaint(k, value) for k, value in found if value and not usable(k, value)]


def source(key: str, value: str, environ: Mapping[str, str] | None = None) -> str:
    """Where the value of ``key`` comes from: the kiosk, this screen, or the default."""
    if from_kiosk(key, environ) is not None:
        return KIOSK_SOURCE
    return DEFAULT_SOURCE if value == DEFAULTS.get(key) else SCREEN_SOURCE


def write_settings(config: configparser.RawConfigParser) -> None:
    """``settings.ini`` as Kivy's ``ConfigParser.write`` writes it, but atomically and
    never through a link (``companion.files.NotAFile``); ``OSError`` when it cannot be."""
    filename = getattr(config, "filename", None)
    if not filename:
        return
    text = io.StringIO()
    configparser.RawConfigParser.write(config, text)
    write_atomic(Path(filename), text.getvalue())
