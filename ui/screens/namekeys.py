"""The kiosk's keyboard for names, as the new-game screen and the tournament's players
screen type them: the language's letters (AZERTY in French), its own accents in the last
row and a key to every accent of the five languages, space and rub-out."""

from __future__ import annotations

from collections.abc import Callable
from functools import partial

from kivy.uix.boxlayout import BoxLayout

from companion import i18n

from .. import theme
from ..i18n import tr
from ..keyboard_layouts import name_rows
from ..layout import button

MAX_NAME = 14


def name_keyboard(
    accents: bool,
    typed: Callable[[str], object],
    toggle_accents: Callable[[], object],
    backspace: Callable[[], object],
) -> BoxLayout:
    """The keys: a letter calls ``typed``, the accent key ``toggle_accents`` (``accents``:
    the accent layer is showing), rub-out ``backspace``."""
    keyboard = BoxLayout(orientation="vertical")
    rows = name_rows(i18n.language(), accents)
    for n, row_keys in enumerate(rows):
        row = BoxLayout()
        for key in row_keys:
            row.add_widget(button(key, partial(typed, key), font=24))
        if n == len(rows) - 1:  # every accent, for one letter
            more = button("ABC" if accents else "ÀÉ…", toggle_accents, size_hint_x=2)
            more.background_color = theme.PANEL_ACTIVE
            row.add_widget(more)
        keyboard.add_widget(row)
    last = BoxLayout()
    last.add_widget(button(tr("Space"), lambda: typed(" "), size_hint_x=0.6))
    last.add_widget(button("<-", backspace, size_hint_x=0.4))
    keyboard.add_widget(last)
    return keyboard


def with_key(name: str, key: str) -> str:
    """``name`` with ``key`` typed: a capital first letter, then small ones (the way names
    are written); no longer than :data:`MAX_NAME`."""
    if len(name) >= MAX_NAME:
        return name
    return name + (key if not name or name[-1] in " -" else key.lower())
