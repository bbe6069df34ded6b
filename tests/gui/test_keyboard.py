"""The on-screen keyboards in the reader's language, typed on by taps.

At the kiosk (``keyboard_mode = dock``) a text field brings up Kivy's VKeyboard: here the
settings' port field, the app's only text field. It shows the language's keyboard
(AZERTY in French) and types every accented letter of the five languages. The new-game
screen's own keys follow the language too.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from kivy.config import Config
from kivy.core.window import Window
from kivy.tests.common import UnitTestTouch
from kivy.uix.textinput import TextInput

from companion import i18n
from ui.keyboard import LanguageKeyboard
from ui.scale import SCALE
from ui.settings_screen import Tile

from . import legible
from .driver import Driver

FIRST_ROW = {
    "en": "qwertyuiop",
    "fr": "azertyuiop",
    "it": "qwertyuiop",
    "pt": "qwertyuiop",
    "sv": "qwertyuiopå",
}
NAMES = ("Åsa", "Zoé", "João", "Niccolò", "Françoise")
MODES = ("normal", "shift", "special", "special_shift")


@pytest.fixture
def dock() -> Iterator[None]:
    """The kiosk's keyboard mode: Kivy's keyboard on the screen, docked at the bottom."""
    before = Config.get("kivy", "keyboard_mode")
    Config.set("kivy", "keyboard_mode", "dock")
    Window.configure_keyboards()
    yield
    Window.release_all_keyboards()
    Config.set("kivy", "keyboard_mode", before)
    Window.configure_keyboards()


def keyboard() -> LanguageKeyboard:
    shown = [w for w in Window.children if isinstance(w, LanguageKeyboard)]
    assert shown, "the keyboard came up"
    return shown[0]


def find_key(vk: LanguageKeyboard, mode: str, wanted: Any, field: int = 1) -> tuple[int, int]:
    """Where the key typing ``wanted`` is in ``mode`` (``field`` 2: a special key)."""
    layout = vk.available_layouts[vk.layout]
    for line in range(1, layout["rows"] + 1):
        for index, key in enumerate(layout[f"{mode}_{line}"]):
            if key[field] == wanted:
                return line, index
    raise LookupError(f"no key {wanted!r} in {mode}")


def press(d: Driver, vk: LanguageKeyboard, where: tuple[int, int]) -> None:
    """A finger on a key, where the keyboard draws it."""
    line, index = where
    (x, y), (w, h) = vk.layout_geometry[f"LINE_{line}"][index]
    touch = UnitTestTouch(*vk.to_parent(x + w / 2, y + h / 2))
    touch.touch_down()
    d.frames(1)
    touch.touch_up()
    d.frames(2)


def type_on(d: Driver, vk: LanguageKeyboard, text: str) -> None:
    """Type ``text`` as a person does: shift and the accent key first where needed."""
    for char in text:
        mode = next(m for m in MODES if _has(vk, m, char))
        if vk.have_shift != ("shift" in mode):
            press(d, vk, find_key(vk, vk.layout_mode, "shift", field=2))
        if vk.have_special != ("special" in mode):
            press(d, vk, find_key(vk, vk.layout_mode, "special", field=2))
        assert vk.layout_mode == mode
        press(d, vk, find_key(vk, mode, char))


def _has(vk: LanguageKeyboard, mode: str, char: str) -> bool:
    try:
        find_key(vk, mode, char)
    except LookupError:
        return False
    return True


def port_field(d: Driver) -> TextInput:
    d.app.show_start()
    d.frames(2)
    d.press(i18n.translate("Settings"))
    d.press(i18n.translate("RFID card reader"))
    d.tap(d.find(Tile, lambda t: t.key == "rfid_port"))
    field: TextInput = d.find(TextInput, lambda f: True)
    return field


# The default run types on the keyboards with letters of their own (French's AZERTY,
# Portuguese ç, Swedish åäö); English's and Italian's QWERTY in the long run (English's is
# also typed by every test that names a player).
PLAIN_QWERTY = ("en", "it")


@pytest.mark.parametrize(
    "language",
    [
        pytest.param(lang, marks=pytest.mark.long) if lang in PLAIN_QWERTY else lang
        for lang in FIRST_ROW
    ],
)
def test_the_kiosks_keyboard_speaks_the_language_and_types_every_name(
    language: str, tmp_path: Path, dock: None
) -> None:
    d = Driver(tmp_path / "data", language=language)
    try:
        field = port_field(d)
        d.tap(field)  # a finger on the field: the keyboard comes up
        vk = keyboard()
        assert field.focus and vk.layout == language and vk.docked
        layout = vk.available_layouts[vk.layout]
        first = "".join(k[1] for k in layout["normal_2"] if k[1] and k[1].isalpha())
        assert first == FIRST_ROW[language]
        # Keys a finger hits, across the whole width, below the field it types in.
        keys = [size for line in range(1, 6) for _, size in vk.layout_geometry[f"LINE_{line}"]]
        assert min(min(size) for size in keys) >= SCALE.min_target
        assert vk.width == Window.width and vk.top <= field.y
        for name in NAMES:
            field.text = ""
            type_on(d, vk, name)
            assert field.text == name
            assert vk.layout_mode == "normal"  # shift and accents last one letter
        for _ in NAMES[-1]:
            press(d, vk, find_key(vk, "normal", "backspace", field=2))
        assert field.text == ""
        type_on(d, vk, "/dev/ttyUSB0")
        press(d, vk, find_key(vk, "normal", "enter", field=2))
        assert d.app.config.get("companion", "rfid_port") == "/dev/ttyUSB0"  # kept, applied
        assert d.app.hardware.reader is not None
        assert not [w for w in Window.children if isinstance(w, LanguageKeyboard)]
    finally:
        d.close()


def test_the_keyboard_follows_a_language_chosen_meanwhile(tmp_path: Path, dock: None) -> None:
    d = Driver(tmp_path / "data")
    try:
        d.tap(port_field(d))
        assert keyboard().layout == "en"
        press(d, keyboard(), find_key(keyboard(), "normal", "enter", field=2))
        d.app.switch_language("fr")
        d.frames(2)
        d.tap(port_field(d))
        vk = keyboard()
        assert vk.layout == "fr"
        type_on(d, vk, "Zoé")
        assert d.find(TextInput, lambda f: True).text == "Zoé"
    finally:
        d.close()


@pytest.mark.parametrize("size", [(800, 480), (480, 320), (720, 1280)], ids=str)
def test_the_keyboard_keys_are_a_finger_wide_at_each_size(
    size: tuple[int, int], tmp_path: Path, dock: None, resized: Any
) -> None:
    d = Driver(tmp_path / "data", language="sv")
    try:
        resized(size)
        field = port_field(d)
        d.tap(field)
        vk = keyboard()
        assert vk.width == Window.width and vk.top <= field.y  # the field stays in sight
        for mode in MODES:
            while vk.layout_mode != mode:
                if vk.have_shift != ("shift" in mode):
                    press(d, vk, find_key(vk, vk.layout_mode, "shift", field=2))
                if vk.have_special != ("special" in mode):
                    press(d, vk, find_key(vk, vk.layout_mode, "special", field=2))
            geometry = vk.layout_geometry
            sizes = [s for line in range(1, 6) for _, s in geometry[f"LINE_{line}"]]
            assert min(min(s) for s in sizes) >= SCALE.min_target - 0.5, (size, mode)
            labels = [w for w in vk.children if getattr(w, "text", "")]
            assert min(w.font_size for w in labels) >= SCALE.min_text
    finally:
        d.close()


# ------------------------------------------------------------ the new-game screen


def slot(d: Driver) -> str:
    return d.app.new_game_screen.names[d.app.new_game_screen.editing]


@pytest.mark.parametrize("language", ["fr", "sv", "pt"])
def test_the_new_game_keys_follow_the_language_and_type_every_name(
    language: str, tmp_path: Path
) -> None:
    d = Driver(tmp_path / "data", language=language)
    try:
        d.press(i18n.translate("New game"))
        screen = d.app.new_game_screen
        keys = [b.text for b in d.walk() if len(getattr(b, "text", "")) == 1]
        first = "".join(k for k in keys if k not in "^X")[:10]  # after the seats' ^ and X
        assert first == ("AZERTYUIOP" if language == "fr" else "QWERTYUIOP")
        for name in ("Åsa", "Zoé", "João"):
            for char in name.upper():
                if not [b for b in d.walk() if getattr(b, "text", None) == char]:
                    d.press("ÀÉ…", exact=True)  # every accent, for one letter
                d.press(char, exact=True)
            assert slot(d) == name
            assert not screen.accents
            screen.names[screen.editing] = ""
            screen.refresh()
            d.frames(2)
        d.press("ÀÉ…", exact=True)
        found = legible.faults("new game, accents", d.top())
        assert not found, "\n".join(found)
    finally:
        d.close()
