"""A card chosen among many in two taps: its bonus colour, then the card.

Shared by the setup's level picker and the table's card picker. Before a colour is
tapped, the five colours fill the panel as five cards, each with the number of its cards
on a badge; once one is tapped they shrink to a strip on top and that colour's cards fill
the rest, drawn as the table draws them, as large as the room allows. Both arrange
themselves again whenever their room changes (another window size, a rotation).
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Sequence
from typing import Any

from kivy.uix.boxlayout import BoxLayout
from kivy.uix.gridlayout import GridLayout
from kivy.uix.widget import Widget

from companion.engine.cards import Card
from companion.engine.tokens import GEMS, Colour

from . import theme
from .cardface import CARD_RATIO, ColourCard
from .layout import TileGrid, gap, grow_label, row_height
from .widgets.pieces import CardView


def by_bonus(cards: Sequence[Card]) -> dict[Colour, list[Card]]:
    """``cards`` by bonus colour, a list a gem colour in the table's order (empty where
    none has it)."""
    return {colour: [card for card in cards if card.bonus == colour] for colour in GEMS}


class ColourFirst(BoxLayout):
    """The colours of ``cards``, then the cards of the colour tapped; ``on_pick`` gets the
    card. ``dimmed``: cards shown but not possible now (too dear), drawn faded."""

    def __init__(
        self,
        cards: Sequence[Card],
        on_pick: Callable[[Card], None],
        hint: str,
        dimmed: Collection[str] = (),
        **kw: Any,
    ) -> None:
        super().__init__(orientation="vertical", **kw)
        self.cards = list(cards)
        self.on_pick = on_pick
        self.dimmed = set(dimmed)
        self.by_colour = by_bonus(self.cards)
        self.shown: Colour | None = None
        self.hint = grow_label(hint, font=20, halign="center", color=theme.TEXT_DIM)
        self.tiles: list[Widget] = []
        for colour, chosen in self.by_colour.items():
            tile = ColourCard(colour=colour, count=len(chosen), disabled=not chosen)
            tile.bind(on_release=lambda t, col=colour: self.show_colour(col))
            self.tiles.append(tile)
        self.strip = TileGrid(self.tiles, CARD_RATIO)
        self.cards_view: TileGrid | None = None
        self.lay_out()

    def refit(self) -> None:
        """After a resize (:func:`ui.layout.refit`): sizes from the window's scale."""
        self.spacing = gap(6)
        if self.shown is not None:
            self.strip.height = row_height(72)

    @property
    def colours(self) -> GridLayout:
        """The colours to tap: their children are the tiles (a TokenButton each)."""
        return self.strip.grid

    @property
    def grid(self) -> GridLayout | None:
        """The cards of the colour shown."""
        return self.cards_view.grid if self.cards_view is not None else None

    def show_colour(self, colour: Colour) -> None:
        """The cards of ``colour``, a tap picks one."""
        self.shown = colour
        for tile in self.tiles:
            tile.selected = tile.colour == colour
        self.lay_out()

    def lay_out(self) -> None:
        """Nothing chosen: the colours fill the panel, the hint above them. A colour
        chosen: the colours as a strip on top, that colour's cards below."""
        self.clear_widgets()
        self.spacing = gap(6)
        for tile in self.tiles:
            if tile.parent is not None:
                tile.parent.remove_widget(tile)
        if self.shown is None:
            self.add_widget(self.hint)
            self.strip = TileGrid(self.tiles, CARD_RATIO, spacing=12)
            self.add_widget(self.strip)
            return
        # Each colour a finger's width at the least (its card drawn inside, a card's shape).
        self.strip = TileGrid(self.tiles, 0.9, spacing=14, size_hint_y=None, height=row_height(72))
        self.add_widget(self.strip)
        views: list[Widget] = []
        for card in self.by_colour[self.shown]:
            view = CardView(card=card, dimmed=card.id in self.dimmed)
            view.bind(on_release=lambda v, c=card: self.on_pick(c))
            views.append(view)
        # Four places at the least: a colour with few cards left keeps a card's size.
        self.cards_view = TileGrid(views, CARD_RATIO, spacing=8, least=4)
        self.add_widget(self.cards_view)
