"""The on-screen keyboard a text field brings up at the kiosk (``keyboard_mode = dock``):
Kivy's VKeyboard in the app's language (AZERTY in French, Å Ä Ö on the Swedish rows, an
accent layer with every accented letter of the five languages), keys a finger can hit.

Its shift and accent keys are taps, not holds: a finger on a touchscreen cannot hold one
key while it taps another. Each lasts one letter, as on a phone. The layouts are
:mod:`ui.keyboard_layouts`'s files.
"""

from __future__ import annotations

from typing import Any

from kivy.core.window import Window
from kivy.graphics import Color, Line
from kivy.properties import OptionProperty
from kivy.uix.vkeyboard import VKeyboard

from companion import i18n

from . import theme
from .keyboard_layouts import FOLDER, path
from .scale import SCALE


def _layout_name() -> str:
    """The app's language's layout (English's, for a language added without one)."""
    language = i18n.language()
    return language if path(language).exists() else "en"


class LanguageKeyboard(VKeyboard):
    """Kivy's VKeyboard in the app's language, keys a finger can hit, the app's colours.

    Shift and the accent key are taps that last one letter (``special`` is the accent
    layer, ``special_shift`` its capitals)."""

    layout_mode = OptionProperty("normal", options=("normal", "shift", "special", "special_shift"))
    # Kivy's properties, as this class uses them.
    layout: str
    have_shift: bool
    have_special: bool
    have_capslock: bool

    def __init__(self, **kw: Any) -> None:
        kw.setdefault("layout_path", str(FOLDER))
        kw.setdefault("layout", _layout_name())
        kw.setdefault("margin_hint", [0.02, 0.01, 0.02, 0.01])
        kw.setdefault("background_color", theme.PANEL)
        kw.setdefault("key_background_color", theme.BUTTON)
        super().__init__(**kw)

    def setup_mode(self, *largs: Any) -> None:
        """Each time it comes up: letters, no shift, in the app's language (it may have
        changed since the last time)."""
        self.have_shift = self.have_special = self.have_capslock = False
        self.active_keys.clear()
        self.layout = _layout_name()
        super().setup_mode(*largs)

    def setup_mode_dock(self, *largs: Any) -> None:
        self.fit()
        super().setup_mode_dock(*largs)

    def _update_dock_mode(self, win: Any, *largs: Any) -> None:
        self.fit()
        super()._update_dock_mode(win, *largs)

    def fit(self) -> None:
        """As wide as the window, each row a tap target high, the app's text size."""
        window = self.get_parent_window() or Window
        top, _, bottom, _ = self.margin_hint
        rows = 5
        row = SCALE.target(52) + self.key_margin[0] + self.key_margin[2]
        self.scale = 1
        self.size = (window.width, rows * row / (1 - top - bottom))
        self.font_size = SCALE.font(22)
        if self.layout in self.available_layouts:
            self.refresh(True)

    def _update_layout_mode(self, *_: Any) -> None:
        mode = "special" if self.have_special else "normal"
        if self.have_capslock != self.have_shift:
            mode = "shift" if mode == "normal" else "special_shift"
        if mode != self.layout_mode:
            self.layout_mode = mode
            self.refresh(True)

    def process_key_on(self, touch: Any) -> None:
        if not touch:
            return
        key = self.get_key_at_pos(*self.to_local(*touch.pos))
        if not key:
            return
        special = key[0][2]
        if special in ("shift", "special"):
            # A tap turns it on for the next letter (or off again).
            if special == "shift":
                self.have_shift = not self.have_shift
            else:
                self.have_special = not self.have_special
            self._show_latched(key[1], special)
            return
        super().process_key_on(touch)
        if key[0][1]:  # a letter typed: shift and accents are spent
            self.have_shift = self.have_special = False
            self._show_latched(None, "shift")
            self._show_latched(None, "special")

    def _show_latched(self, where: tuple[int, int] | None, special: str) -> None:
        """Draw a key that is on (shift, accents) as pressed until it is spent."""
        on = self.have_shift if special == "shift" else self.have_special
        if on and where is not None:
            self.active_keys[special] = where
        else:
            self.active_keys.pop(special, None)
        self.refresh_active_keys_layer()

    def refresh_active_keys_layer(self) -> None:
        super().refresh_active_keys_layer()
        # Shift and the accent key, while on: ringed in the app's accent colour.
        with self.active_keys_layer:
            Color(*theme.ACCENT)
            for special in ("shift", "special"):
                where = self.active_keys.get(special)
                if where is not None:
                    (x, y), (w, h) = self.layout_geometry[f"LINE_{where[0]}"][where[1]]
                    Line(rounded_rectangle=(x + 1, y + 1, w - 2, h - 2, 4), width=2)


def install() -> None:
    """The app's keyboard for every text field (``keyboard_mode = dock``)."""
    Window.set_vkeyboard_class(LanguageKeyboard)
