"""The setup's pickers: every card still to come of a level, found by its bonus colour.

The cards are grouped by bonus colour, a row per colour (a column in portrait; each card
shows its bonus gem and letter), so the card lying on the table is found by its colour,
then its cost and points, and picked with a single tap, where the screen has room to draw
them legibly; where it has not (level 1 on the 7-inch screen), the colour is a tap of its
own and its cards are drawn large. Nobles: all of them, one tap.

A picker covers the whole window and is laid out again when the window changes.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from functools import cached_property
from typing import Generic, TypeVar

from kivy.uix.boxlayout import BoxLayout
from kivy.uix.gridlayout import GridLayout
from kivy.uix.widget import Widget

from companion.engine.cards import Card, Noble
from companion.engine.tokens import Colour

from ... import theme
from ...cardface import NobleFace
from ...colourpick import ColourFirst, all_at_once, arrangement, by_bonus
from ...i18n import tr
from ...layout import best_grid, button, fit_label, gap, refit, row_height
from ...scale import SCALE
from ...widgets.modal import ModalPanel

NOBLE_RATIO = 0.8  # a noble tile's height over its width

T = TypeVar("T")  # what a picker offers: a card, a noble


class PlacePicker(ModalPanel, Generic[T]):
    """The whole screen: a title, the choices, a line for a refusal, Cancel. A choice
    tapped closes it and goes to ``on_pick``; Cancel closes it and calls ``on_cancel``."""

    def __init__(
        self,
        title: str,
        choices: Sequence[T],
        on_pick: Callable[[T], None],
        on_cancel: Callable[[], None],
    ) -> None:
        super().__init__((1, 1), shade=0.8, radius=8)
        self.choices = list(choices)
        # The title and Cancel share the top row: the rest of the screen is the choices.
        self.head = BoxLayout(size_hint_y=None)
        self.title = fit_label(title, font=19, bold=True, color=theme.ACCENT)
        self.head.add_widget(self.title)
        self.cancel = button(tr("Cancel"), self._cancel, size_hint_x=0.24)
        self.head.add_widget(self.cancel)
        self.body = BoxLayout(orientation="vertical")
        # A refusal (a card scanned twice) shows between the title and the choices.
        self.message = fit_label("", font=17, size_hint_y=None, height=0, color=theme.ERROR)
        self.message.bind(text=lambda *_: self._sizes())
        self.on_pick = on_pick
        self.on_cancel = on_cancel
        for part in (self.head, self.message, self.body):
            self.box.add_widget(part)
        self._sizes()
        self.fill()

    def _sizes(self) -> None:
        self.box.padding = gap(6)
        self.box.spacing = gap(4)
        self.body.spacing = gap(4)
        self.head.spacing = gap(8)
        self.head.height = row_height(48 if not SCALE.portrait else 56)
        self.message.height = row_height(30) if self.message.text else 0

    def lay_out(self) -> None:
        self._sizes()
        refit(self.head)
        self.body.clear_widgets()
        self.fill()

    def fill(self) -> None:
        """The choices, in the body: laid out anew for the window's size."""

    def body_size(self) -> tuple[float, float]:
        """The choices' room before it is laid out: the window but the top row."""
        width = SCALE.width - 2 * gap(6)
        height = SCALE.height - 2 * gap(6) - self.head.height - gap(4) - self.message.height
        return width, height

    def _cancel(self) -> None:
        self.dismiss(animation=False)
        self.on_cancel()

    def _pick(self, choice: T) -> None:
        self.dismiss(animation=False)
        self.on_pick(choice)


class LevelPicker(PlacePicker[Card]):
    """The cards of a level not yet on the table.

    All at once, a row per bonus colour (a column in portrait) (one tap), where the cost
    on every card can be drawn at :data:`ui.colourpick.LEGIBLE` size; else (the 40 cards
    of level 1 on the 800x480 screen) the bonus colour first, then that colour's cards as
    large as the table draws them.
    """

    chooser: ColourFirst | None = None  # the colours first: made once, kept (see _chooser)
    at_once = False  # every card shows at once

    @cached_property
    def by_colour(self) -> dict[Colour, list[Card]]:
        return by_bonus(self.choices)

    def _arrangement(self) -> tuple[int, int, bool] | None:
        """All the cards at once (:func:`ui.colourpick.arrangement`), if legible."""
        width, height = self.body_size()
        return arrangement(self.by_colour, width, height)

    def fill(self) -> None:
        layout = self._arrangement()
        self.at_once = layout is not None
        if layout is not None:
            self.body.add_widget(all_at_once(self.by_colour, layout, self._pick))
            return
        self.body.add_widget(self._chooser())

    def _chooser(self) -> ColourFirst:
        """Kept from one layout to the next: the colour shown stays."""
        if self.chooser is None:
            hint = tr("Tap the card's bonus colour, then the card.")
            self.chooser = ColourFirst(self.choices, self._pick, hint)
        return self.chooser

    @property
    def colours(self) -> GridLayout | None:
        """The colours to tap first, where the cards are too many to show at once."""
        return self.chooser.colours if self.chooser is not None and not self.at_once else None

    def show_colour(self, colour: Colour) -> None:
        """The cards of ``colour``, drawn as on the table, a tap picks."""
        self._chooser().show_colour(colour)


class NobleGrid(PlacePicker[Noble]):
    """The nobles not yet on the table: one tap picks."""

    def fill(self) -> None:
        width, height = self.body_size()
        cols, rows = best_grid(len(self.choices), width, height, NOBLE_RATIO, gap(12))
        grid = GridLayout(cols=cols, rows=rows, spacing=gap(12), padding=[gap(12), gap(4)])
        for noble in self.choices:
            view = NobleFace(noble=noble)
            view.bind(on_release=lambda v, n=noble: self._pick(n))
            grid.add_widget(view)
        for _ in range(cols * rows - len(self.choices)):
            grid.add_widget(Widget())
        self.body.add_widget(grid)
