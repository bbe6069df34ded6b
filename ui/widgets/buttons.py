"""Buttons for a finger."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from kivy.uix.button import Button

from .. import theme
from ..scale import SCALE
from .text import widest_word


def big_button(text: str, on_press: Callable[[], object], **kw: Any) -> Button:
    """A button for a finger: its words wrap between words rather than spill, as large
    as its height allows and small enough that its widest word fits, down to the text
    floor (14 px; 12 on the 3.5-inch screen).

    A disabled button is drawn flat and grey, its words dimmed: it must not look like a
    button that failed to react.
    """
    kw.setdefault("background_color", theme.BUTTON)
    button = Button(
        text=text,
        bold=True,
        halign="center",
        valign="middle",
        background_normal="",
        background_disabled_normal="",
        disabled_color=theme.TEXT_DISABLED,
        **kw,
    )
    colour = tuple(button.background_color)
    button.bind(size=lambda b, s: setattr(b, "text_size", (s[0] * 0.94, None)))

    def fit(b: Button, *_: object) -> None:
        # As large as the height allows, but small enough (down to the text floor) that
        # the widest word fits the width: widths grow with the font size, so one measure
        # at 18 px scales to any size. The 26 px cap scales up with a large window (a
        # 1920x1080 screen's names are 47 px: its buttons' words grow with them), never down.
        widest = widest_word(b.text, 18) or 1.0
        least = float(SCALE.min_text)
        most = max(26.0, SCALE.font(26))
        b.font_size = max(least, min(b.height * 0.38, most, b.width * 0.94 * 18 / widest))

    button.bind(size=fit, text=fit)
    button.bind(on_release=lambda *_: on_press())

    def look(b: Button, disabled: bool) -> None:
        b.background_color = theme.BUTTON_DISABLED if disabled else colour

    button.bind(disabled=look)
    look(button, button.disabled)
    return button


def then(*actions: Callable[[], object]) -> Callable[[], None]:
    """One button, several things in order (close the dialog, then act)."""

    def run() -> None:
        for action in actions:
            action()

    return run
