"""The app's settings, kept with Kivy's own configuration (``settings.ini``), and the
kiosk's: what ``deploy.sh`` puts in the service's environment wins over ``settings.ini``
at every start, and the settings screen says where each value comes from."""

from __future__ import annotations

import configparser
import io
import os
from collections.abc import Mapping
from pathlib import Path

from companion.files import write_atomic
from hardware.readers import DEFAULT, NAMES

SETTINGS_SECTION = "companion"
DEFAULTS = {
    "language": "en",
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
}

KIOSK = {
    "rfid_port": ("SPLENDOR_RFID_PORT", "--rfid-port"),
    "rfid_reader": ("SPLENDOR_RFID_READER", "--rfid-reader"),
    "rfid_baud": ("SPLENDOR_RFID_BAUD", "--rfid-baud"),
}
"""Settings the kiosk's installer sets: the environment variable and deploy.sh's option."""

KIOSK_SOURCE, SCREEN_SOURCE, DEFAULT_SOURCE = "kiosk", "screen", "default"


def from_kiosk(key: str, environ: Mapping[str, str] | None = None) -> str | None:
    """The kiosk's value of ``key`` (``None``: the kiosk does not set it)."""
    environ = os.environ if environ is None else environ
    if key not in KIOSK:
        return None
    value = environ.get(KIOSK[key][0], "").strip()
    if not value:
        return None
    if key == "rfid_reader" and value not in NAMES:
        return None
    if key == "rfid_baud" and not value.isdigit():
        return None
    return value


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
