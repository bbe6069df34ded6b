"""The setup's pickers: every card still to come of a level, found by its bonus colour.

The cards are grouped by bonus colour, a row per colour (each card shows its bonus gem
and letter), so the card lying on the table is found by its colour, then its cost and points,
and picked with a single tap, where the screen has room to draw them legibly; where it has
not (level 1 on the 7-inch screen), the colour is a tap of its own and its cards are drawn
large. Nobles: all of them, one tap.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from kivy.core.window import Window
from kivy.graphics import Color, RoundedRectangle
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.gridlayout import GridLayout
from kivy.uix.label import Label
from kivy.uix.modalview import ModalView
from kivy.uix.widget import Widget

from companion.cards import Card, Noble
from companion.tokens import GEMS, Colour

from . import theme
from .cardface import CardFace, NobleFace, cost_digit
from .i18n import tr
from .widgets import CardView, TokenButton, big_button, text_label


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


LEGIBLE = 18.0  # px: a card's cost read at arm's length on the 7-inch screen


class LevelPicker(PlacePicker):
    """The cards of a level not yet on the table.

    All at once, a row per bonus colour (one tap), where the cost on every card can be
    drawn at :data:`LEGIBLE` size; else (the 40 cards of level 1 on the 800x480 screen)
    the bonus colour first, then that colour's cards as large as the table draws them.
    """

    def __init__(
        self,
        title: str,
        cards: Sequence[Card],
        on_pick: Callable[[Card], None],
        on_cancel: Callable[[], None],
    ) -> None:
        super().__init__(title, on_cancel)
        self.cards = list(cards)
        self.on_pick = on_pick
        self.by_colour = {c: [card for card in self.cards if card.bonus == c] for c in GEMS}
        cols = max(4, *(len(v) for v in self.by_colour.values()))
        self.colours: BoxLayout | None = None
        if self._legible(cols):
            self._all_at_once(cols)
        else:
            self._colour_first()

    def _legible(self, cols: int) -> bool:
        """Whether every card's cost is legible with ``cols`` cards a row, a row a colour
        (the body's size is known before it is laid out: the whole window but the top row)."""
        unit = max(44.0, Window.height * 0.1)
        width = (Window.width - 12 - 4 * (cols - 1)) / cols
        height = (Window.height - 12 - unit - 8 - 4 * (len(GEMS) - 1)) / len(GEMS)
        return all(cost_digit(card, width, height) >= LEGIBLE for card in self.cards)

    def _all_at_once(self, cols: int) -> None:
        for row_cards in self.by_colour.values():
            # Each card shows its bonus gem and letter: no heading needed for the row.
            grid = GridLayout(rows=1, cols=cols, spacing=4)
            for card in row_cards:
                face = CardFace(card=card)
                face.bind(on_release=lambda v, c=card: self._pick(c))
                grid.add_widget(face)
            for _ in range(cols - len(row_cards)):
                grid.add_widget(Widget())
            self.body.add_widget(grid)

    def _colour_first(self) -> None:
        unit = max(44.0, Window.height * 0.1)
        self.colours = BoxLayout(size_hint_y=None, height=unit * 1.3, spacing=8)
        for colour, chosen in self.by_colour.items():
            # The bank's piles: each colour's shape, and how many of its cards are left.
            token = TokenButton(colour=colour, count=len(chosen), disabled=not chosen)
            token.bind(on_release=lambda t, col=colour: self.show_colour(col))
            self.colours.add_widget(token)
        self.grid = GridLayout(cols=4, spacing=8)
        self.hint = Label(
            text=tr("Tap the card's bonus colour, then the card."),
            font_size=max(18.0, Window.height * 0.045),
            halign="center",
            valign="middle",
            color=theme.TEXT_DIM,
        )
        self.hint.bind(size=lambda w, s: setattr(w, "text_size", s))
        self.body.add_widget(self.colours)
        self.body.add_widget(self.hint)

    def show_colour(self, colour: Colour) -> None:
        """The cards of ``colour``, drawn as on the table, a tap picks."""
        assert self.colours is not None
        for token in self.colours.children:
            token.selected = token.colour == colour
        if self.hint.parent is not None:
            self.body.remove_widget(self.hint)
            self.body.add_widget(self.grid)
        self.grid.clear_widgets()
        chosen = self.by_colour[colour]
        for card in chosen:
            view = CardView(card=card)
            view.bind(on_release=lambda v, c=card: self._pick(c))
            self.grid.add_widget(view)
        # Two rows at the least: a colour with few cards left keeps a card's shape.
        for _ in range((-len(chosen)) % 4 + (4 if len(chosen) <= 4 else 0)):
            self.grid.add_widget(Widget())

    def _pick(self, card: Card) -> None:
        self.dismiss(animation=False)
        self.on_pick(card)


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
