"""The settings screen (Kivy's settings panel): every item says where its value comes
from, and a value the kiosk's installer set is shown, not editable (``deploy.sh`` changes
it; the screen would be overruled at the next start)."""

from __future__ import annotations

import json
from typing import TYPE_CHECKING, Any

from kivy.uix.settings import SettingString

from companion.i18n import LANGUAGES
from hardware.readers import NAMES, READERS

from .i18n import LANGUAGE_NAMES, tr
from .settings import KIOSK, KIOSK_SOURCE, SCREEN_SOURCE, SETTINGS_SECTION, source

if TYPE_CHECKING:
    from .application import CompanionApp


class KioskValue(SettingString):
    """A value set by the kiosk's installer: shown as the app uses it, not editable."""

    def __init__(self, **kw: Any) -> None:
        shown = kw.pop("shown", "")
        super().__init__(**kw)
        self.value = shown
        self.disabled = True  # taps do nothing
        self.opacity = 0.7  # and it looks it


def origin(app: CompanionApp, key: str) -> str:
    """Where the value of ``key`` comes from, in words."""
    where = source(key, app.config.get(SETTINGS_SECTION, key))
    if where == KIOSK_SOURCE:
        variable, option = KIOSK[key]
        return tr(
            "Set by the kiosk's installer ({variable} in /etc/default/splendor-companion): "
            "change it with ./deploy.sh {option}"
        ).format(variable=variable, option=option)
    if where == SCREEN_SOURCE:
        return tr("Set on this screen")
    return tr("The default")


def items(app: CompanionApp) -> list[dict[str, Any]]:
    """The panel's items, in the JSON form of Kivy's settings."""
    baud = ", ".join(f"{r.name} {r.baud}" for r in READERS.values() if r.baud)
    panel: list[dict[str, Any]] = [
        {
            "type": "options",
            "title": tr("Language"),
            "key": "language",
            "options": list(LANGUAGES),
            "desc": ", ".join(f"{k}: {v}" for k, v in LANGUAGE_NAMES.items()),
        },
        {
            "type": "bool",
            "title": tr("Hints: highlight the cards a player can afford"),
            "key": "hints",
        },
        {
            "type": "options",
            "title": tr("Screen rotation"),
            "key": "rotation",
            "options": ["0", "90", "180", "270"],
        },
        {
            "type": "numeric",
            "title": tr("Dim the screen after this many idle minutes (0: never)"),
            "key": "dim_after",
        },
        {"type": "title", "title": tr("RFID card reader")},
        {
            "type": "string",
            "title": tr("Reader's port (empty: no reader)"),
            "key": "rfid_port",
            "desc": tr("a serial port (/dev/ttyAMA0, /dev/ttyUSB0) or a /dev/input/by-id name"),
        },
        {"type": "options", "title": tr("Reader type"), "key": "rfid_reader", "options": NAMES},
        {
            "type": "numeric",
            "title": tr("Reader speed in baud (empty: the reader's own)"),
            "key": "rfid_baud",
            "desc": baud,
        },
        {"type": "title", "title": tr("Buttons and lights (GPIO pin numbers, empty: none)")},
        {"type": "numeric", "title": tr("Undo button"), "key": "pin_undo"},
        {
            "type": "numeric",
            "title": tr("Seconds to hold the undo button"),
            "key": "undo_hold",
        },
        {"type": "numeric", "title": tr("Confirm button"), "key": "pin_confirm"},
        {"type": "numeric", "title": tr("Green light"), "key": "pin_led_green"},
        {"type": "numeric", "title": tr("Red light"), "key": "pin_led_red"},
        {"type": "numeric", "title": tr("Buzzer"), "key": "pin_buzzer"},
    ]
    for item in panel:
        key = item.get("key")
        if key is None:
            continue
        item["section"] = SETTINGS_SECTION
        said = origin(app, key)
        item["desc"] = f"{item['desc']}. {said}" if item.get("desc") else said
        if source(key, app.config.get(SETTINGS_SECTION, key)) == KIOSK_SOURCE:
            item["type"] = "kiosk"
            item["shown"] = app.setting(key)
            item.pop("options", None)
    return panel


def add_panel(app: CompanionApp, settings: Any) -> None:
    settings.register_type("kiosk", KioskValue)
    settings.add_json_panel(tr("Splendor Companion"), app.config, data=json.dumps(items(app)))
