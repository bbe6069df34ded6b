"""The setup's pickers: every card still to come of a level at once, one tap picks.

The cards are grouped by bonus colour, a row per colour (each card shows its bonus gem
and letter), so the card lying on the table is found by its colour, then its cost and points,
and picked with a single tap. Nobles: all of them, one tap.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from kivy.core.window import Window
from kivy.graphics import Color, RoundedRectangle
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.gridlayout import GridLayout
from kivy.uix.modalview import ModalView
from kivy.uix.widget import Widget

from companion.cards import Card, Noble
from companion.tokens import GEMS

from . import theme
from .cardface import CardFace, NobleFace
from .i18n import tr
from .widgets import big_button, text_label


class PlacePicker(ModalView):
    """The whole screen: a title, the choices, a line for a refusal, Cancel."""

    def __init__(self, title: str, on_cancel: Callable[[], None]) -> None:
        super().__init__(
            size_hint=(1, 1),
            auto_dismiss=False,
            overlay_color=(0, 0, 0, 0.8),
            background_color=(0, 0, 0, 0),
        )
        self._anim_duration = 0
        unit = max(44.0, Window.height * 0.1)  # a row of text or buttons, 48 px at 480
        self.box = BoxLayout(orientation="vertical", padding=6, spacing=4)
        with self.box.canvas.before:
            Color(*theme.PANEL)
            self._panel = RoundedRectangle(radius=[8])
        self.box.bind(pos=self._place, size=self._place)
        # The title and Cancel share the top row: the rest of the screen is the choices.
        head = BoxLayout(size_hint_y=None, height=unit, spacing=8)
        self.title = text_label(
            title, scale=0.38, bold=True, halign="left", valign="middle", color=theme.ACCENT
        )
        head.add_widget(self.title)
        self.cancel = big_button(tr("Cancel"), self._cancel, size_hint_x=0.22)
        head.add_widget(self.cancel)
        self.body = BoxLayout(orientation="vertical", spacing=4)
        # A refusal (a card scanned twice) shows between the title and the choices.
        self.message = text_label(
            "", size_hint_y=None, height=0, halign="left", valign="middle", color=theme.ERROR
        )
        self.message.bind(text=lambda w, t: setattr(w, "height", unit * 0.6 if t else 0))
        self.on_cancel = on_cancel
        for part in (head, self.message, self.body):
            self.box.add_widget(part)
        self.add_widget(self.box)

    def _place(self, *_: Any) -> None:
        self._panel.pos = self.box.pos
        self._panel.size = self.box.size

    def _cancel(self) -> None:
        self.dismiss(animation=False)
        self.on_cancel()


class LevelPicker(PlacePicker):
    """The cards of a level not yet on the table, a row per bonus colour."""

    def __init__(
        self,
        title: str,
        cards: Sequence[Card],
        on_pick: Callable[[Card], None],
        on_cancel: Callable[[], None],
    ) -> None:
        super().__init__(title, on_cancel)
        self.cards = list(cards)
        by_colour = {c: [card for card in self.cards if card.bonus == c] for c in GEMS}
        cols = max(4, *(len(v) for v in by_colour.values()))
        for row_cards in by_colour.values():
            # Each card shows its bonus gem and letter: no heading needed for the row.
            grid = GridLayout(rows=1, cols=cols, spacing=4)
            for card in row_cards:
                face = CardFace(card=card)
                face.bind(on_release=lambda v, c=card: self._pick(c, on_pick))
                grid.add_widget(face)
            for _ in range(cols - len(row_cards)):
                grid.add_widget(Widget())
            self.body.add_widget(grid)

    def _pick(self, card: Card, on_pick: Callable[[Card], None]) -> None:
        self.dismiss(animation=False)
        on_pick(card)


class NobleGrid(PlacePicker):
    """The nobles not yet on the table: one tap picks."""

    def __init__(
        self,
        title: str,
        nobles: Sequence[Noble],
        on_pick: Callable[[Noble], None],
        on_cancel: Callable[[], None],
    ) -> None:
        super().__init__(title, on_cancel)
        grid = GridLayout(cols=5, spacing=12, padding=[24, 8])
        for noble in nobles:
            view = NobleFace(noble=noble)
            view.bind(on_release=lambda v, n=noble: self._pick(n, on_pick))
            grid.add_widget(view)
        for _ in range((-len(nobles)) % 5):
            grid.add_widget(Widget())
        self.body.add_widget(grid)

    def _pick(self, noble: Noble, on_pick: Callable[[Noble], None]) -> None:
        self.dismiss(animation=False)
        on_pick(noble)
